package uci

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/nnue"
)

// networkBytes is a random network of hidden neurons in nnue's file format.
func networkBytes(t *testing.T, hidden int, seed uint64) (*nnue.Network, []byte) {
	t.Helper()
	net, err := nnue.Random(hidden, 1, nnue.SCReLU, seed)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, net.Write(&buf))
	return net, buf.Bytes()
}

// writeNetwork writes a random network into a fresh temporary directory and
// returns the file's path.
func writeNetwork(t *testing.T, hidden int, seed uint64) (string, *nnue.Network) {
	t.Helper()
	net, data := networkBytes(t, hidden, seed)
	path := filepath.Join(t.TempDir(), "net.nnue")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path, net
}

// newEngine is an engine driven by Execute, for tests that look at its
// state; its output is returned as lines by the function.
func newEngine(t *testing.T) (*Engine, func() []string) {
	t.Helper()
	var out bytes.Buffer
	e := New(&out)
	return e, func() []string {
		s := strings.TrimRight(out.String(), "\n")
		out.Reset()
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
}

// alphaBetaNetwork is the network the classical searcher's next "go" uses.
func alphaBetaNetwork(e *Engine) *nnue.Network { return e.classical.Evaluator() }

func sameNetwork(a, b *nnue.Network) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Checksum() == b.Checksum() && a.Hidden() == b.Hidden() && a.Activation() == b.Activation()
}

// EvalFile loads a network, Use NNUE decides whether the searcher gets it,
// and <default>, <empty> or nothing brings back the embedded one; a weakened
// mode evaluates by hand; the order of the options does not matter.
func TestEvalFileAndUseNNUE(t *testing.T) {
	good, net := writeNetwork(t, 64, 1)
	other, net2 := writeNetwork(t, 32, 2)
	def := nnue.Default()
	type want struct {
		loaded, used *nnue.Network
	}
	for _, c := range []struct {
		name     string
		commands []string
		want     want
	}{
		{"defaults: the embedded network", nil, want{def, def}},
		{"off: hand-crafted", []string{"setoption name Use NNUE value false"}, want{def, nil}},
		{"load", []string{"setoption name EvalFile value " + good}, want{net, net}},
		{"load, names in any case", []string{"setoption name evalfile value " + good, "setoption name use nnue value TRUE"}, want{net, net}},
		{"load, then off", []string{"setoption name EvalFile value " + good, "setoption name Use NNUE value false"}, want{net, nil}},
		{"off, then load: loaded, not used", []string{"setoption name Use NNUE value false", "setoption name EvalFile value " + good}, want{net, nil}},
		{"off, load, on", []string{"setoption name Use NNUE value false", "setoption name EvalFile value " + good, "setoption name Use NNUE value true"}, want{net, net}},
		{"another file replaces it", []string{"setoption name EvalFile value " + good, "setoption name EvalFile value " + other}, want{net2, net2}},
		{"<default> is the embedded one", []string{"setoption name EvalFile value " + good, "setoption name EvalFile value <default>"}, want{def, def}},
		{"<empty> too", []string{"setoption name EvalFile value " + good, "setoption name EvalFile value <empty>"}, want{def, def}},
		{"no value too", []string{"setoption name EvalFile value " + good, "setoption name EvalFile value"}, want{def, def}},
		{"Skill Level below 20: hand-crafted", []string{"setoption name EvalFile value " + good, "setoption name Skill Level value 10"}, want{net, nil}},
		{"UCI_LimitStrength: hand-crafted", []string{"setoption name UCI_LimitStrength value true"}, want{def, nil}},
		{"Difficulty Easy: hand-crafted", []string{"setoption name Difficulty value Easy"}, want{def, nil}},
		{"full strength again: the network", []string{"setoption name Skill Level value 3", "setoption name Skill Level value 20"}, want{def, def}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, out := newEngine(t)
			for _, cmd := range c.commands {
				require.True(t, e.Execute(cmd))
			}
			lines := out()
			for _, l := range lines {
				assert.NotContains(t, l, "not loaded", "%q", lines)
			}
			assert.True(t, sameNetwork(c.want.loaded, e.classical.Network()), "loaded %v, want %v", e.classical.Network(), c.want.loaded)
			assert.True(t, sameNetwork(c.want.used, alphaBetaNetwork(e)), "searcher has %v, want %v", alphaBetaNetwork(e), c.want.used)
		})
	}
}

// Loading says what was loaded, in one line; loading the same file again
// keeps the network (and the searcher's hash), a rewritten one is read anew.
func TestEvalFileLoadMessageAndReload(t *testing.T) {
	path, net := writeNetwork(t, 64, 1)
	e, out := newEngine(t)
	e.Execute("setoption name EvalFile value " + path)
	assert.Equal(t, []string{"info string EvalFile loaded: network " + path + ", " + net.String() + ", kernel " + net.Kernel() + ", in use"}, out())
	first := alphaBetaNetwork(e)

	e.Execute("setoption name EvalFile value " + path)
	assert.Len(t, out(), 1)
	assert.Same(t, first, alphaBetaNetwork(e), "the same file again: the same network")

	net2, data := networkBytes(t, 64, 9)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	e.Execute("setoption name EvalFile value " + path)
	assert.Len(t, out(), 1)
	assert.True(t, sameNetwork(net2, alphaBetaNetwork(e)), "the rewritten file is read")

	e.Execute("setoption name Use NNUE value false")
	e.Execute("setoption name EvalFile value " + path)
	assert.Equal(t, []string{"info string EvalFile loaded: network " + path + ", " + net2.String() + ", kernel " + net2.Kernel() +
		", not in use (Use NNUE is false: hand-crafted evaluation)"}, out())
}

// A file that cannot be used is refused whole with one info string naming it
// and why; the network loaded before (or none) stays, in the searcher too.
func TestBadEvalFileKeepsPrevious(t *testing.T) {
	good, net := writeNetwork(t, 64, 1)
	_, data := networkBytes(t, 64, 3)
	dir := t.TempDir()
	variant := func(name string, change func([]byte) []byte) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, change(bytes.Clone(data)), 0o644))
		return path
	}
	for _, c := range []struct {
		name, path, reason string
	}{
		{"absent", filepath.Join(dir, "absent.nnue"), "no such file or directory"},
		{"directory", dir, "is a directory, not a regular file"},
		{"empty", variant("empty.nnue", func([]byte) []byte { return nil }), "truncated: 0 bytes"},
		{"truncated", variant("truncated.nnue", func(b []byte) []byte { return b[:len(b)-100] }), "truncated"},
		{"longer", variant("longer.nnue", func(b []byte) []byte { return append(b, 0) }), "longer than"},
		{"flipped byte", variant("flipped.nnue", func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b }), "checksum mismatch"},
		{"wrong magic", variant("magic.nnue", func(b []byte) []byte { copy(b, "TWFNNUE2"); return b }), "not a Twofold network"},
		{"other version", variant("version.nnue", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 4); return b }), "version 4, this engine reads 1 to 3"},
		{"other hidden size", variant("hidden.nnue", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16:], 32); return b }), "longer than"},
		{"unknown activation", variant("act.nnue", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[32:], 7); return b }), "unknown activation 7"},
		{"an ONNX file", variant("net.onnx", func([]byte) []byte { return []byte("\x08\x07\x12\x07pytorch" + strings.Repeat("\x00", 64)) }), "not a Twofold network"},
	} {
		for _, before := range []struct {
			name     string
			commands []string
			net      *nnue.Network
			kept     string
		}{
			{"the embedded network before", nil, nnue.Default(), nnue.DefaultName + ", " + nnue.Default().String()},
			{"a network before", []string{"setoption name EvalFile value " + good}, net, good + ", " + net.String()},
		} {
			t.Run(c.name+", "+before.name, func(t *testing.T) {
				e, out := newEngine(t)
				for _, cmd := range before.commands {
					e.Execute(cmd)
				}
				out()
				prev := alphaBetaNetwork(e)
				e.Execute("setoption name EvalFile value " + c.path)
				lines := out()
				require.Len(t, lines, 1, "one line: %q", lines)
				l := lines[0]
				assert.True(t, strings.HasPrefix(l, "info string setoption: EvalFile not loaded: "), l)
				assert.Contains(t, l, c.path)
				assert.Contains(t, l, c.reason)
				assert.Contains(t, l, "; network kept: "+before.kept)
				assert.Same(t, prev, alphaBetaNetwork(e), "the searcher keeps its network")
				assert.True(t, sameNetwork(before.net, e.classical.Network()))

				e.Execute("d")
				assert.Contains(t, out(), "Network: "+e.classical.DescribeNetwork())
			})
		}
	}
}

// infoRe's fields that depend on the clock are dropped: the rest of a
// fixed-depth single-threaded search is deterministic.
var clockFields = regexp.MustCompile(` (nps|time|hashfull) \d+`)

// searchLines runs the commands and returns the search's info lines without
// their clock fields, one slice per "go", and the bestmoves.
func searchLines(t *testing.T, commands ...string) [][]string {
	t.Helper()
	var searches [][]string
	var cur []string
	for _, l := range played(t, commands...) {
		switch {
		case strings.HasPrefix(l, "info depth ") && !currmoveRe.MatchString(l):
			cur = append(cur, clockFields.ReplaceAllString(l, ""))
		case strings.HasPrefix(l, "bestmove "):
			searches = append(searches, append(cur, l))
			cur = nil
		}
	}
	return searches
}

// The network reaches the search: with it the scores differ from the
// hand-crafted evaluation's and the embedded network's; with Use NNUE
// false the search is the hand-crafted one exactly; and switching back
// gives the search a fresh engine with the network makes (the switch
// empties the hash, which held the other evaluation's scores).
func TestNetworkChangesTheSearch(t *testing.T) {
	path, _ := writeNetwork(t, 64, 1)
	const fen = "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
	const goDepth = "go depth 5"
	hce := searchLines(t, "setoption name Use NNUE value false", fen, goDepth)
	embedded := searchLines(t, fen, goDepth)
	require.Len(t, hce, 1)
	require.Len(t, embedded, 1)
	assert.NotEqual(t, hce[0], embedded[0], "the embedded network is the default")

	got := searchLines(t,
		"setoption name EvalFile value "+path, fen, goDepth,
		"setoption name Use NNUE value false", goDepth,
		"setoption name Use NNUE value true", goDepth,
		"setoption name EvalFile value <default>", goDepth)
	require.Len(t, got, 4)
	withNet := got[0]
	assert.NotEqual(t, hce[0], withNet, "the network changes the search")
	assert.NotEqual(t, embedded[0], withNet, "the file's network, not the embedded one")
	assert.Equal(t, hce[0], got[1], "Use NNUE false: the hand-crafted search, bit for bit")
	assert.Equal(t, withNet, got[2], "Use NNUE true again: the network's search, as from a fresh engine")
	assert.Equal(t, embedded[0], got[3], "<default>: the embedded network's search")

	// Loaded while Use NNUE is false: not used until it is true.
	got = searchLines(t, "setoption name Use NNUE value false", "setoption name EvalFile value "+path, fen, goDepth,
		"setoption name Use NNUE value true", goDepth)
	require.Len(t, got, 2)
	assert.Equal(t, hce[0], got[0])
	assert.Equal(t, withNet, got[1])

	// A refused file leaves the network in use.
	got = searchLines(t, "setoption name EvalFile value "+path, "setoption name EvalFile value "+filepath.Dir(path), fen, goDepth)
	require.Len(t, got, 1)
	assert.Equal(t, withNet, got[0])
}

// "d" names the network, "eval" adds the network's score to the
// hand-crafted breakdown, both saying whether the network is used.
func TestDisplayAndEvalShowTheNetwork(t *testing.T) {
	path, net := writeNetwork(t, 64, 1)
	desc := path + ", " + net.String() + ", kernel " + net.Kernel()
	def := nnue.Default()
	defDesc := nnue.DefaultName + ", " + def.String() + ", kernel " + def.Kernel()
	const pos = "position startpos moves e2e4"
	p := board.StartPosition()
	p.Make(mustMove(t, p, "e2e4"))
	nnueLine := func(n *nnue.Network) string {
		stm := n.Evaluate(p) // Black to move
		return fmt.Sprintf("NNUE evaluation: %d cp (White's view), %d cp (side to move)", -stm, stm)
	}
	for _, c := range []struct {
		name     string
		commands []string
		network  string
		net      *nnue.Network
	}{
		{"embedded", nil, defDesc + ", in use", def},
		{"in use", []string{"setoption name EvalFile value " + path}, desc + ", in use", net},
		{"not in use", []string{"setoption name EvalFile value " + path, "setoption name Use NNUE value false"},
			desc + ", not in use (Use NNUE is false: hand-crafted evaluation)", net},
		{"weakened", []string{"setoption name UCI_LimitStrength value true"},
			defDesc + ", not in use (a weakened mode evaluates by hand: Skill Level, UCI_Elo or Difficulty)", def},
		{"embedded again", []string{"setoption name EvalFile value " + path, "setoption name EvalFile value <empty>"}, defDesc + ", in use", def},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, out := newEngine(t)
			for _, cmd := range append(c.commands, pos) {
				e.Execute(cmd)
			}
			out()
			e.Execute("d")
			d := out()
			assert.Equal(t, "Network: "+c.network, d[len(d)-1], "%q", d)
			assert.Contains(t, d, "Fen: "+p.FEN())

			e.Execute("eval")
			ev := out()
			assert.Equal(t, "Network: "+c.network, ev[len(ev)-1], "%q", ev)
			final := indexOf(ev, "Final evaluation: ")
			require.GreaterOrEqual(t, final, 2, "the hand-crafted breakdown and total stay: %q", ev)
			assert.True(t, strings.HasPrefix(ev[0], "term (white - black)"), ev[0])
			assert.Equal(t, []string{nnueLine(c.net), "Network: " + c.network}, ev[final+1:])
		})
	}
}

// "bench" searches with the network in use, and names it first.
func TestBenchCommandWithNetwork(t *testing.T) {
	path, net := writeNetwork(t, 64, 1)
	nodes := regexp.MustCompile(`^(\d+) nodes \d+ nps$`)
	count := func(out []string) string {
		m := nodes.FindStringSubmatch(out[len(out)-1])
		require.NotNil(t, m, "%q", out)
		return m[1]
	}
	embedded := session(t, "bench 2")
	hce := session(t, "setoption name Use NNUE value false", "bench 2")
	withNet := session(t, "setoption name EvalFile value "+path, "bench 2")
	off := session(t, "setoption name EvalFile value "+path, "setoption name Use NNUE value false", "bench 2")

	def := nnue.Default()
	assert.Equal(t, "Network: "+def.String()+", kernel "+def.Kernel(), embedded[0], "%q", embedded[:2])
	assert.Equal(t, "Network: "+net.String()+", kernel "+net.Kernel(), withNet[1], "%q", withNet[:2])
	assert.NotEqual(t, count(hce), count(withNet))
	assert.NotEqual(t, count(embedded), count(withNet))
	assert.Equal(t, count(hce), count(off), "Use NNUE false: the hand-crafted bench")
	assert.Empty(t, filterPrefix(hce, "Network: "))
	assert.Empty(t, filterPrefix(off, "Network: "))
}

// A network with king buckets (format version 3) loads through EvalFile and
// plays: the search's king moves across its buckets refresh a perspective.
func TestEvalFileKingBuckets(t *testing.T) {
	var kb nnue.KingBuckets
	for i := range kb {
		kb[i] = uint8(min(i/4, 3)) // by the king's rank: 1, 2, 3, 4-8
	}
	net, err := nnue.RandomShaped(nnue.Shape{Hidden: 32, Activation: nnue.SCReLU, OutputBuckets: 8,
		KingRelative: true, KingBuckets: kb}, 5)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, net.Write(&buf))
	path := filepath.Join(t.TempDir(), "kings.nnue")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))

	e, _ := newEngine(t)
	e.Execute("setoption name EvalFile value " + path)
	assert.True(t, sameNetwork(net, alphaBetaNetwork(e)))
	assert.Contains(t, net.String(), "(768x4hm->32)x2->1x8")
	// White has only its king: every move crosses or stays in a bucket.
	lines := session(t, "setoption name EvalFile value "+path, "position fen 8/5k2/8/2p5/8/8/3K4/8 w - - 0 1",
		"go nodes 20000")
	assert.Regexp(t, `^bestmove d2[a-h][1-8]`, lines[len(lines)-1], lines)
	assert.Contains(t, strings.Join(lines, "\n"), " depth 8 ", "searched, not just answered")
}
