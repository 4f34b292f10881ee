package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

const probeHelp = `Usage: engine probe --syzygy DIR [--no-rule50] FEN

Probes Syzygy endgame tablebases (files such as KRPvKR.rtbw and .rtbz) for
one position and prints, the way Debian's fathom does, a PGN header with the
result (WDL: Win, CursedWin, Draw, BlessedLoss or Loss for the side to move,
the fifty-move counter of the FEN counted) and the distance to zeroing (DTZ:
plies to the next capture or pawn move), the winning, drawing and losing
moves, and a line of play that keeps the result. Then it lists the legal
moves ranked as the search ranks them at the root.

DIR may list several directories, separated by ':' (';' on Windows). The FEN
may be given in one argument or several. Positions with castling rights or
more pieces than the tables have cannot be probed.

Flags:
`

func runProbe(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("probe", pflag.ContinueOnError)
	dir := fs.String("syzygy", "", "tablebase directories (like the SyzygyPath option)")
	noRule50 := fs.Bool("no-rule50", false, "rank as if the fifty-move rule did not apply (Syzygy50MoveRule false)")
	if done, code := parseFlags(fs, args, probeHelp, stdout, stderr); done {
		return code
	}
	if *dir == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "engine probe: want --syzygy DIR and a FEN\nRun 'engine probe --help' for usage.")
		return 2
	}
	fen := strings.Join(fs.Args(), " ")
	p, err := movegen.ParseFEN(fen)
	if err != nil {
		fmt.Fprintln(stderr, "engine probe:", err)
		return 2
	}
	tb, err := syzygy.Open(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "engine probe:", err)
	}
	defer tb.Close()
	if tb.NumWDL() == 0 {
		fmt.Fprintf(stderr, "engine probe: no tablebase files in %s\n", *dir)
		return 1
	}
	if err := writeProbe(stdout, tb, p, !*noRule50); err != nil {
		fmt.Fprintln(stderr, "engine probe:", err)
		return 1
	}
	return 0
}

// writeProbe prints the probe of p.
func writeProbe(w io.Writer, tb *syzygy.Tablebase, p *board.Position, rule50 bool) error {
	if p.Castling() != board.NoCastling {
		return errors.New("the position has castling rights; the tables have none")
	}
	if n := p.Occupied().Count(); n > tb.MaxPieces() {
		return fmt.Errorf("the position has %d pieces, the tables at most %d", n, tb.MaxPieces())
	}
	cnt50 := p.HalfmoveClock()
	status := movegen.GameStatus(p)
	var wdl syzygy.WDL
	dtz, haveDTZ := 0, true
	switch status {
	case movegen.Checkmate:
		wdl = syzygy.Loss
	case movegen.Stalemate:
		wdl = syzygy.Draw
	default:
		d, err := tb.ProbeDTZ(p)
		if err != nil {
			haveDTZ = false
			v, werr := tb.ProbeWDL(p)
			if werr != nil {
				return werr
			}
			wdl = v
		} else {
			dtz = d
			wdl = syzygy.DTZResult(cnt50, d)
		}
	}
	moves, err := tb.ProbeRoot(p)
	if err != nil {
		if moves, err = tb.ProbeRootWDL(p); err != nil {
			return err
		}
	}

	result := "1/2-1/2"
	if wdl == syzygy.Win || wdl == syzygy.Loss {
		result = "1-0"
		if (wdl == syzygy.Win) != (p.Side() == board.White) {
			result = "0-1"
		}
	}
	fmt.Fprintf(w, "[Event \"\"]\n[Site \"\"]\n[Date \"??\"]\n[Round \"-\"]\n[White \"Syzygy\"]\n[Black \"Syzygy\"]\n")
	fmt.Fprintf(w, "[Result \"%s\"]\n[FEN \"%s\"]\n[WDL \"%s\"]\n", result, p.FEN(), wdl)
	if haveDTZ {
		fmt.Fprintf(w, "[DTZ \"%d\"]\n", max(dtz, -dtz))
	} else {
		fmt.Fprintf(w, "[DTZ \"?\"]\n")
	}
	groups := [3][]string{}
	for _, m := range moves {
		g := 1
		switch m.WDL {
		case syzygy.Win:
			g = 0
		case syzygy.Loss:
			g = 2
		}
		groups[g] = append(groups[g], movegen.SAN(p, m.Move))
	}
	for i, tag := range []string{"WinningMoves", "DrawingMoves", "LosingMoves"} {
		fmt.Fprintf(w, "[%s \"%s\"]\n", tag, strings.Join(groups[i], ", "))
	}
	fmt.Fprintf(w, "\n%s\n", probeLine(tb, p.Clone(), status))

	fmt.Fprintf(w, "\n%d moves ranked (fifty-move rule %s):\n", len(moves), map[bool]string{true: "on", false: "off"}[rule50])
	for _, m := range moves {
		d := fmt.Sprint(m.DTZ)
		if !haveDTZ {
			d = "?"
		}
		fmt.Fprintf(w, "  %-8s %-11s dtz %4s  rank %7d  %s\n", movegen.SAN(p, m.Move), m.WDL, d, m.Rank, m.Outcome(rule50))
	}
	return nil
}

// probeLine plays out a line that keeps the result: each side plays its
// best-ranked move (the quickest safe win, else a draw, else the slowest
// loss) until mate or a draw.
func probeLine(tb *syzygy.Tablebase, p *board.Position, status movegen.Status) string {
	var b strings.Builder
	if p.Side() == board.Black {
		fmt.Fprintf(&b, "%d...", p.FullmoveNumber())
	}
	for ply := 0; ply < 400; ply++ {
		switch status {
		case movegen.Checkmate:
			b.WriteString(map[board.Color]string{board.White: " 0-1", board.Black: " 1-0"}[p.Side()])
			return strings.TrimSpace(b.String())
		case movegen.Stalemate, movegen.FiftyMoveDraw, movegen.ThreefoldDraw, movegen.InsufficientMaterialDraw:
			b.WriteString(" 1/2-1/2")
			return strings.TrimSpace(b.String())
		}
		moves, err := tb.ProbeRoot(p)
		if err != nil || len(moves) == 0 {
			b.WriteString(" {tablebase probe failed}")
			return strings.TrimSpace(b.String())
		}
		best := moves[0] // best rank: the quickest safe win, else a draw, else the slowest loss
		if p.Side() == board.White {
			fmt.Fprintf(&b, " %d.", p.FullmoveNumber())
		}
		b.WriteString(" " + movegen.SAN(p, best.Move))
		p.Make(best.Move)
		status = movegen.GameStatus(p)
	}
	return strings.TrimSpace(b.String()) + " ..."
}
