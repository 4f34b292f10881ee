package ucifuzz

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// GenConfig shapes the scripts the generator writes.
type GenConfig struct {
	Options []OptionDecl // as declared by the engine's "uci"
	// Inputs is about how many lines one process is sent.
	Inputs int
	// HugeHash allows Hash values in the gigabytes (and a ucinewgame after
	// them); off by default, as they take real memory.
	HugeHash bool
	// Risky allows option values that make an engine without input limits
	// read or allocate without bound (NetworkFile /dev/zero, an NN cache of
	// tens of millions of entries).
	Risky bool
	// TempDir holds files the fuzzer made to be named in path options.
	TempDir string
}

// Limits that keep searches cheap on a shared machine: MCTS runs the
// network on the CPU, so its searches stay tiny.
const (
	mctsMaxNodes    = 400
	mctsMaxMoveTime = 50
	// A search whose own limit is longer than this is stopped by the
	// fuzzer instead of waited for.
	abWaitMax   = 300 * time.Millisecond
	mctsWaitMax = 100 * time.Millisecond
)

// Absurd numbers for every numeric field: zero, negatives, the int64
// extremes, one past them, a value that overflows when turned into
// nanoseconds, and things that are not whole numbers.
var absurdNumbers = []string{
	"0", "-1", "-1000", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"18446744073710", "18446744073709551615", "2147483648", "4294967296", "1e9", "1.5", "+5",
	"0x10", "abc", "NaN", "inf", "", "٣", "00000000000000000000000000000000000000001",
}

// generator writes one process's script.
type generator struct {
	rng    *rand.Rand
	cfg    GenConfig
	mcts   bool
	tr     *Tracker
	steps  []Step
	inputs int
	quit   bool
	huge   bool // a line of a megabyte or more was written (one per process)
}

// Generate writes the script for process number proc of a run with the
// given seed. The same arguments give the same script.
func Generate(seed uint64, proc int, cfg GenConfig) Script {
	rng := rand.New(rand.NewPCG(seed, uint64(proc)*0x9E3779B97F4A7C15+1))
	g := &generator{rng: rng, cfg: cfg, mcts: proc%2 == 1, tr: NewTracker()}
	if cfg.Inputs <= 0 {
		g.cfg.Inputs = 80
	}
	searcher := "AlphaBeta"
	if g.mcts {
		searcher = "MCTS"
	}
	target := g.cfg.Inputs/2 + rng.IntN(g.cfg.Inputs+1)
	if rng.IntN(10) < 8 {
		g.send("uci")
	}
	if g.mcts {
		g.send("setoption name Search value MCTS")
		g.send("isready")
	}
	for g.inputs < target && !g.quit {
		g.action()
		if rng.IntN(4) == 0 && !g.quit {
			g.send("isready")
		}
	}
	if !g.quit {
		g.steps = append(g.steps, Step{Kind: Wait})
		if rng.IntN(8) != 0 {
			g.send("quit") // else the input just ends
		}
	}
	return Script{Searcher: searcher, Steps: g.steps}
}

// send appends a line after making it safe to send (see sanitize) and
// follows its effect on the position.
func (g *generator) send(line string) { g.sendRaw(g.sanitize(line)) }

// sendRaw appends a line as it is.
func (g *generator) sendRaw(line string) {
	if g.quit {
		return
	}
	g.steps = append(g.steps, Step{Kind: Send, Line: line})
	g.inputs++
	g.tr.Apply(line)
	if len(line) > 60000 {
		g.tr.Forget()
	}
	if f := strings.Fields(line); len(f) > 0 && f[0] == "quit" {
		g.quit = true
	}
}

func (g *generator) sleep(ms int) {
	if g.quit {
		return
	}
	g.steps = append(g.steps, Step{Kind: Sleep, Dur: time.Duration(ms) * time.Millisecond})
}

func (g *generator) wait() {
	if !g.quit {
		g.steps = append(g.steps, Step{Kind: Wait})
	}
}

func (g *generator) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

// action appends one fuzzing action: a command or a short interleaving.
func (g *generator) action() {
	switch n := g.rng.IntN(1000); {
	case n < 220:
		g.send(g.maybeMutate(g.positionLine()))
	case n < 500:
		g.goSequence()
	case n < 640:
		g.send(g.maybeMutate(g.setOptionLine()))
	case n < 700:
		g.send(g.pick("ucinewgame", "stop", "ponderhit", "isready", "d", "eval", "debug on", "debug off", "register later", "uci", "ucinewgame"))
	case n < 730:
		// The interleaving GUIs get wrong: a new game right behind a search.
		g.send(g.goLine())
		g.send(g.pick("ucinewgame", "stop", "isready", "ponderhit", "quit", "position startpos"))
		g.wait()
	case n < 760:
		g.send(g.pick("go perft 1", "go perft 2", "go perft 3", "go perft 0", "go perft -1", "go perft x", "go perft", "go perft 9223372036854775807"))
	case n < 900:
		g.send(g.garbageLine())
	case n < 910:
		// A long perft or bench runs beside the input loop: isready is
		// answered while it runs, and stop (or any command that needs the
		// engine) ends it. Sent as is: sanitize would tame it.
		g.sendRaw(g.pick("go perft 9", "go perft 20", "bench 30", "bench 13"))
		g.sleep(g.rng.IntN(50))
		g.send("isready")
		g.send(g.pick("stop", "stop", "position startpos", "ucinewgame", "go depth 1", "quit"))
	case n < 930:
		g.knownTrouble()
	case n < 990:
		g.send(g.longLine(1<<10 + g.rng.IntN(60<<10)))
	case n < 995:
		if g.cfg.HugeHash {
			// A big table, then a new game: clearing it must not hold up isready.
			g.send("setoption name Hash value " + g.pick("32768", "16384", "65536"))
			g.send("ucinewgame")
			g.send("isready")
			g.send("setoption name Hash value 16")
		}
	default:
		if !g.huge {
			g.huge = true
			g.send(g.longLine(1<<20 + g.rng.IntN(64<<10)))
			// Whatever the engine made of it, continue from a known position.
			g.send("position startpos")
		}
	}
}

// knownTrouble replays, with variations, inputs that broke the engine
// before, so a regression is found in a short run too.
func (g *generator) knownTrouble() {
	switch g.rng.IntN(7) {
	case 0:
		g.send("setoption name " + g.pick("CPuct", "CPuctBase", "FPUReduction") + " value " + g.pick("NaN", "nan", "+Inf", "-Inf"))
		g.send(g.goLine())
		g.wait()
	case 1:
		g.send("position fen 1rbr1q1b/q4n1N/2k1q3/1qqq1q1n/1QQQ2q1/Q1B2QQB/4QQ2/2R2KR1 b - - 5 39")
		g.send("go movetime " + strconv.Itoa(1+g.rng.IntN(20)))
		g.wait()
	case 2:
		g.send("position fen 4k3/8/8/8/8/8/8/4K2R b K - 0 9223372036854775807 moves e8d8")
		g.send(g.pick("d", "go movetime 5", "go depth 2", "eval"))
		g.wait()
	case 3:
		g.send("go movetime " + g.pick("9223372036854775807", "18446744073710", "9223372036854775"))
		g.sleep(g.rng.IntN(20))
		g.send("stop")
		g.wait()
	case 4:
		g.send("go " + g.pick("wtime 0", "btime 0", "wtime 0 btime 0", "wtime -1 btime -1", "wtime 0 winc 0 btime 0 binc 0"))
		g.wait()
	case 5:
		// Broken tablebases: the search probes them, says so, plays on.
		if g.cfg.TempDir != "" {
			g.send("setoption name SyzygyPath value " + filepath.Join(g.cfg.TempDir, "syzygy"))
		}
		g.send("position fen " + g.pick("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "8/8/8/4k3/8/8/1r6/KQ6 w - - 0 1", "8/8/8/4k3/8/4P3/8/K2R4 b - - 0 1"))
		if g.mcts {
			g.send("go " + g.pick("movetime 20", "nodes 200"))
		} else {
			g.send("go " + g.pick("depth 6", "movetime 20", "nodes 2000"))
		}
		g.wait()
	default:
		g.send("setoption name NetworkFile value /dev/stdin")
		g.send("isready")
	}
}

// goSequence sends a go and what a GUI might send during that search.
func (g *generator) goSequence() {
	line := g.maybeMutate(g.goLine())
	g.send(line)
	if g.quit {
		return
	}
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "go" {
		return
	}
	pos, _ := g.tr.Position()
	spec := ParseGo(pos, fields[1:], g.mcts)
	if spec.Perft {
		return
	}
	waitMax := abWaitMax
	if g.mcts {
		waitMax = mctsWaitMax
	}
	if !spec.OpenEnded() && spec.Bound <= waitMax {
		switch n := g.rng.IntN(20); {
		case n < 13:
			g.wait()
		case n < 16:
			g.sleep(g.rng.IntN(30))
			g.send("stop")
			g.wait()
		case n < 18:
			g.send("isready")
			g.wait()
		}
		return // else the next command ends it
	}
	// Open-ended (or too long to wait for): let it run a little, talk to it,
	// then end it.
	g.sleep(g.rng.IntN(40))
	if g.chance(0.5) {
		g.send("isready")
	}
	if spec.Ponder && g.chance(0.5) {
		g.send("ponderhit")
		if !spec.OpenEndedAfterPonderHit() && spec.Bound <= waitMax {
			g.wait()
			return
		}
		g.sleep(g.rng.IntN(20))
	}
	if g.chance(0.8) {
		g.send("stop")
		if g.chance(0.2) {
			g.send("stop") // a second stop must not give a second bestmove
		}
	} else {
		g.send(g.pick("position startpos", "ucinewgame", "setoption name MultiPV value 2", "go movetime 5", "quit"))
	}
	g.wait()
}

// goLine writes a go with a random mix of parameters.
func (g *generator) goLine() string {
	var b strings.Builder
	b.WriteString("go")
	pos, _ := g.tr.Position()
	// MCTS searches always carry a small limit; the random parameters come
	// on top (the engine honours the first limit reached).
	if g.mcts && g.chance(0.9) {
		if g.chance(0.5) {
			fmt.Fprintf(&b, " nodes %d", 1+g.rng.IntN(mctsMaxNodes))
		} else {
			fmt.Fprintf(&b, " movetime %d", 1+g.rng.IntN(mctsMaxMoveTime))
		}
	}
	n := g.rng.IntN(4)
	if !g.mcts && n == 0 && g.chance(0.7) {
		n = 1
	}
	for i := 0; i < n; i++ {
		switch k := g.rng.IntN(13); k {
		case 0:
			b.WriteString(" infinite")
		case 1:
			b.WriteString(" ponder")
		case 2:
			b.WriteString(" searchmoves")
			for j := 0; j < 1+g.rng.IntN(4); j++ {
				b.WriteString(" " + g.moveToken(pos))
			}
		default:
			key := []string{"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime", "wtime"}[k-3]
			fmt.Fprintf(&b, " %s %s", key, g.goNumber(key))
		}
	}
	return b.String()
}

// goNumber is a value for a go parameter: mostly one that keeps the search
// short, sometimes an absurd one.
func (g *generator) goNumber(key string) string {
	if g.chance(0.3) {
		return g.pick(absurdNumbers...)
	}
	switch key {
	case "wtime", "btime":
		return strconv.Itoa(g.pick3(0, 50, 3000))
	case "winc", "binc":
		return strconv.Itoa(g.rng.IntN(100))
	case "movestogo":
		return strconv.Itoa(g.rng.IntN(40))
	case "depth":
		return strconv.Itoa(1 + g.rng.IntN(5))
	case "nodes":
		if g.mcts {
			return strconv.Itoa(1 + g.rng.IntN(mctsMaxNodes))
		}
		return strconv.Itoa(1 + g.rng.IntN(20000))
	case "mate":
		return strconv.Itoa(1 + g.rng.IntN(4))
	default: // movetime
		if g.mcts {
			return strconv.Itoa(1 + g.rng.IntN(mctsMaxMoveTime))
		}
		return strconv.Itoa(1 + g.rng.IntN(60))
	}
}

// pick3 returns 0..a, 0..b or 0..c, favouring the small ranges.
func (g *generator) pick3(a, b, c int) int {
	switch g.rng.IntN(3) {
	case 0:
		return g.rng.IntN(a + 1)
	case 1:
		return g.rng.IntN(b + 1)
	}
	return g.rng.IntN(c + 1)
}

// moveToken is a move for searchmoves or a moves list: usually legal
// (in either castling notation), sometimes illegal or malformed.
func (g *generator) moveToken(p *board.Position) string {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	if ml.Len() > 0 && g.chance(0.8) {
		m := ml.At(g.rng.IntN(ml.Len()))
		return m.UCI(p.Chess960() != (m.Kind() == board.Castling && g.chance(0.3)))
	}
	return g.pick("e2e4", "e7e8q", "e7e8k", "a1a1", "0000", "e2", "e9e10", "E2E4", "e1g1", "e1h1", "e8c8", "h7h8n", "a2a1r", "--", "e2e4e2e4", "b1c3", "g8f6")
}

// positionLine writes a position command: a start position or a FEN
// (valid, extreme or broken), with or without moves.
func (g *generator) positionLine() string {
	var base string
	var p *board.Position
	if g.chance(0.3) {
		base, p = "position startpos", board.StartPosition()
	} else {
		fen := g.fen()
		base = "position fen " + fen
		p, _ = movegen.ParseFEN(fen)
	}
	if p == nil || g.chance(0.3) {
		return base
	}
	p.SetChess960(g.tr.chess960)
	var b strings.Builder
	b.WriteString(base)
	b.WriteString(" moves")
	for i := g.rng.IntN(40); i > 0; i-- {
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		if ml.Len() == 0 {
			break
		}
		if g.chance(0.03) {
			b.WriteString(" " + g.moveToken(p)) // maybe illegal: the whole line is refused
			continue
		}
		m := ml.At(g.rng.IntN(ml.Len()))
		b.WriteString(" " + m.UCI(p.Chess960() != (m.Kind() == board.Castling && g.chance(0.3))))
		p.Make(m)
	}
	return b.String()
}

// setOptionLine sets a declared option to a valid, edge or absurd value,
// or names an option wrongly.
func (g *generator) setOptionLine() string {
	if len(g.cfg.Options) == 0 || g.chance(0.05) {
		return g.pick("setoption", "setoption name", "setoption value 3", "setoption name Nonexistent value 1",
			"setoption name  value", "setoption name value value value", "setoption nam Hash value 1")
	}
	d := g.cfg.Options[g.rng.IntN(len(g.cfg.Options))]
	name := d.Name
	switch {
	case g.chance(0.1):
		name = strings.ToLower(name)
	case g.chance(0.05):
		name = strings.ToUpper(name)
	}
	if d.Type == "button" {
		if g.chance(0.8) {
			return "setoption name " + name
		}
		return "setoption name " + name + " value " + g.pick("true", "1", "")
	}
	if g.chance(0.05) {
		return "setoption name " + name // no value at all
	}
	return "setoption name " + name + " value " + g.optionValue(d)
}

// optionValue picks a value for d by its type.
func (g *generator) optionValue(d OptionDecl) string {
	if g.chance(0.05) {
		return g.pick(absurdNumbers...)
	}
	if g.chance(0.02) {
		return strings.Repeat(g.pick("9", "a", "x y ", "/"), 1000+g.rng.IntN(20000))
	}
	switch d.Type {
	case "check":
		return g.pick("true", "false", "true", "false", "TRUE", "False", "1", "0", "yes", "")
	case "combo":
		if g.chance(0.8) && len(d.Vars) > 0 {
			v := d.Vars[g.rng.IntN(len(d.Vars))]
			if strings.EqualFold(d.Name, "Search") && !g.mcts && strings.EqualFold(v, "MCTS") {
				v = "AlphaBeta" // the other half of the processes search with MCTS
			}
			if g.chance(0.2) {
				v = strings.ToLower(v)
			}
			return v
		}
		return g.pick("", "max", "Maximum", "mcts ", "AlphaBeta MCTS", "none")
	case "spin":
		switch g.rng.IntN(8) {
		case 0:
			return strconv.FormatInt(d.Min, 10)
		case 1:
			return strconv.FormatInt(d.Max, 10)
		case 2:
			return strconv.FormatInt(d.Min-1, 10)
		case 3:
			return strconv.FormatInt(d.Max+1, 10)
		case 4:
			return d.Default
		default:
			if d.Max <= d.Min {
				return d.Default
			}
			return strconv.FormatInt(d.Min+g.rng.Int64N(min(d.Max-d.Min, 64)+1), 10)
		}
	}
	// Strings: paths for file options, numbers for real-valued ones, text
	// for the rest.
	if isPathOption(d.Name) {
		return g.pathValue()
	}
	if _, err := strconv.ParseFloat(d.Default, 64); err == nil {
		return g.pick("NaN", "nan", "-NaN", "Inf", "+Inf", "-Inf", "infinity", "1e308", "-1e308", "1e-320",
			"0", "-0", "-1", "0.01", "0.5", "1", "1.25", "2", "100", "101", "1e9", "1e10", "19652", d.Default, "0x1p-2", "1_0", " 1.5 ", "")
	}
	return g.pick("", "x", "<default>", "a b c", "\t", strings.Repeat("z", 300))
}

func isPathOption(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "file") || strings.Contains(n, "lib") || strings.Contains(n, "path") || strings.Contains(n, "dir")
}

// pathValue names only harmless things: files the fuzzer made, directories,
// paths that do not exist, and (in risky mode) endless devices. Nothing
// the engine could damage by writing, and the engine only reads anyway.
func (g *generator) pathValue() string {
	choices := []string{"", "<default>", "/nonexistent/twofold-fuzz.onnx", "/", "/tmp", ".", "relative/missing.onnx",
		"/dev/null", "/dev/stdin", strings.Repeat("/a", 3000)}
	if g.cfg.TempDir != "" {
		choices = append(choices,
			filepath.Join(g.cfg.TempDir, "empty.onnx"),
			filepath.Join(g.cfg.TempDir, "garbage.onnx"),
			filepath.Join(g.cfg.TempDir, "truncated.onnx"),
			g.cfg.TempDir,
			filepath.Join(g.cfg.TempDir, "syzygy"), // broken tablebases
			filepath.Join(g.cfg.TempDir, "syzygy")+string(filepath.ListSeparator)+"/nonexistent"+string(filepath.ListSeparator)+g.cfg.TempDir)
	}
	if g.cfg.Risky {
		choices = append(choices, "/dev/zero", "/dev/urandom")
	}
	return g.pick(choices...)
}

// garbageLine is input no GUI sends: unknown words, keywords in the wrong
// place, control bytes, invalid UTF-8, empty lines.
func (g *generator) garbageLine() string {
	words := []string{"go", "stop", "position", "fen", "moves", "startpos", "setoption", "name", "value", "isready",
		"ponderhit", "infinite", "searchmoves", "depth", "wtime", "uci", "xyzzy", "\x00", "\x7f", "\t", "\r", "é", "\xff\xfe",
		"-1", "9223372036854775807", "e2e4", "0000", "K", "8/8/8/8/8/8/8/8", "w", "-", "🙂", "\u00a0", "\u2028", "bestmove"}
	var b strings.Builder
	for i := g.rng.IntN(8); i > 0; i-- {
		if b.Len() > 0 {
			b.WriteString(g.pick(" ", " ", "  ", "\t"))
		}
		b.WriteString(g.pick(words...))
	}
	return b.String()
}

// longLine is a line of about n bytes: a long move list, long searchmoves,
// a long option value or one long word.
func (g *generator) longLine(n int) string {
	var b strings.Builder
	switch g.rng.IntN(6) {
	case 0:
		b.WriteString("position startpos moves")
		for b.Len() < n {
			b.WriteString(" g1f3 g8f6 f3g1 f6g8")
		}
	case 1:
		b.WriteString("go movetime 5 searchmoves")
		for b.Len() < n {
			b.WriteString(" e2e4 d2d4")
		}
	case 2:
		b.WriteString("setoption name " + g.pick("NetworkFile", "UCI_Elo", "Difficulty", "CPuct", "Nonexistent") + " value ")
		for b.Len() < n {
			b.WriteString("x")
		}
	case 3:
		for b.Len() < n {
			b.WriteString("A")
		}
	case 4:
		b.WriteString("position fen ")
		for b.Len() < n {
			b.WriteString("8/")
		}
	default:
		for b.Len() < n {
			b.WriteString("isready ")
		}
	}
	return b.String()
}

// maybeMutate changes a well-formed line a little, one time in four.
func (g *generator) maybeMutate(line string) string {
	if !g.chance(0.25) {
		return line
	}
	return Mutate(g.rng, line)
}

// Mutate applies one to three random token or byte edits to line.
func Mutate(rng *rand.Rand, line string) string {
	for k := 1 + rng.IntN(3); k > 0; k-- {
		toks := strings.Split(line, " ")
		switch rng.IntN(9) {
		case 0: // drop a token
			if len(toks) > 1 {
				i := rng.IntN(len(toks))
				toks = append(toks[:i], toks[i+1:]...)
			}
		case 1: // duplicate a token
			i := rng.IntN(len(toks))
			toks = append(toks[:i+1], toks[i:]...)
		case 2: // swap two tokens
			i, j := rng.IntN(len(toks)), rng.IntN(len(toks))
			toks[i], toks[j] = toks[j], toks[i]
		case 3: // replace a number-looking token by an absurd number
			i := rng.IntN(len(toks))
			toks[i] = absurdNumbers[rng.IntN(len(absurdNumbers))]
		case 4: // insert a keyword
			i := rng.IntN(len(toks) + 1)
			kw := []string{"moves", "fen", "value", "name", "infinite", "ponder", "searchmoves", "depth", "movetime", "startpos", "-"}[rng.IntN(11)]
			toks = append(toks[:i], append([]string{kw}, toks[i:]...)...)
		case 5: // cut the line short
			if len(line) > 1 {
				return line[:rng.IntN(len(line))]
			}
		default: // flip, insert or delete a byte
			if len(line) == 0 {
				return "\x00"
			}
			b := []byte(line)
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				const alphabet = "\x00\t\r\x7f\xff0123456789abcdefghkqrnbpKQRBNP/- "
				b[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				const alphabet = "\x00\t\r\xff1/ "
				b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			case 2:
				b = append(b[:i], b[i+1:]...)
			}
			line = string(b)
			continue
		}
		line = strings.Join(toks, " ")
	}
	return line
}

// sanitize keeps a line within what the run allows: one line (no
// newline), no comment marker at its start, no deep perft or bench
// (they hold the input loop for minutes by design), no Hash or cache that
// takes gigabytes, no endless device files unless risky, few threads for
// MCTS. A line sanitize changes is still sent, in its tamer form.
func (g *generator) sanitize(line string) string {
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.HasPrefix(line, "#") {
		line = " " + line
	}
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return line
	}
	switch fields[0] {
	case "bench":
		// bench holds the input loop for seconds by design (isready waits).
		return "eval"
	case "go":
		if len(fields) >= 3 && fields[1] == "perft" {
			if d, err := strconv.Atoi(fields[2]); err == nil && d > 3 && d <= 20 {
				return "go perft 3"
			}
		}
	case "setoption":
		name, value, ok := SplitSetOption(fields[1:])
		if !ok {
			return line
		}
		n, err := strconv.Atoi(value)
		switch {
		case strings.EqualFold(name, "Hash") && err == nil && n > 512 && !g.cfg.HugeHash:
			return "setoption name Hash value 64"
		case strings.EqualFold(name, "NNCacheSize") && err == nil && n > 1_000_000 && !g.cfg.Risky:
			return "setoption name NNCacheSize value 1000000"
		case strings.EqualFold(name, "Threads") && err == nil && n > 4 && (g.mcts || n > 8 && g.rng.IntN(4) != 0):
			return "setoption name Threads value 4"
		case strings.EqualFold(name, "Search") && strings.EqualFold(value, "MCTS") && !g.mcts:
			return "setoption name Search value AlphaBeta"
		case isPathOption(name) && !g.cfg.Risky && riskyPath(value):
			return "setoption name " + name + " value /nonexistent/twofold-fuzz"
		}
	}
	return line
}

// riskyPath reports device and kernel files that can be read forever.
func riskyPath(v string) bool {
	v = filepath.Clean(strings.TrimSpace(v))
	if v == "/dev/stdin" || v == "/dev/null" {
		return false
	}
	for _, p := range []string{"/dev", "/proc", "/sys"} {
		if v == p || strings.HasPrefix(v, p+"/") {
			return true
		}
	}
	return false
}
