package play

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

// Tablebase is what the Syzygy tables say of the position on the board:
// the game state's "tablebase" field, present when the server has tables
// (engine serve --syzygy DIR) and the position is in them.
type Tablebase struct {
	// WDL is the result for the side to move with best play, the
	// position's fifty-move counter counted: "win", "cursed-win" (a win
	// the fifty-move rule turns into a draw), "draw", "blessed-loss" (a
	// loss it saves) or "loss".
	WDL string `json:"wdl"`
	// DTZ is the distance to zeroing: the plies to the next capture or
	// pawn move with best play, > 0 when the side to move wins, < 0 when
	// it loses, 0 for a draw. Absent without DTZ files.
	DTZ *int `json:"dtz,omitempty"`
	// Moves are the legal moves, best first for the side to move (the
	// quickest safe win, then draws, then the slowest loss).
	Moves []TablebaseMove `json:"moves"`
}

// TablebaseMove is one legal move as the tables judge it.
type TablebaseMove struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
	// WDL is the mover's result after the move, as Tablebase.WDL.
	WDL string `json:"wdl"`
	// DTZ is the distance to zeroing after the move, counted from the
	// position before it and from the mover's view; absent without DTZ
	// files.
	DTZ *int `json:"dtz,omitempty"`
}

var wdlNames = map[syzygy.WDL]string{
	syzygy.Win: "win", syzygy.CursedWin: "cursed-win", syzygy.Draw: "draw",
	syzygy.BlessedLoss: "blessed-loss", syzygy.Loss: "loss",
}

// probeTablebase looks p up in tb: nil when there are no tables, the game
// is over, or the position is not in them (castling rights, too many
// pieces, a table missing or unusable). p is not changed.
func probeTablebase(tb *syzygy.Tablebase, p *board.Position) *Tablebase {
	if tb == nil || p.Castling() != board.NoCastling || p.Occupied().Count() > tb.MaxPieces() || movegen.GameStatus(p).Over() {
		return nil
	}
	q := p.Clone() // the probes walk the game's history
	out := &Tablebase{Moves: []TablebaseMove{}}
	dtz, err := tb.ProbeDTZ(q)
	if err == nil {
		out.WDL, out.DTZ = wdlNames[syzygy.DTZResult(q.HalfmoveClock(), dtz)], &dtz
	} else {
		wdl, err := tb.ProbeWDL(q)
		if err != nil {
			return nil
		}
		out.WDL = wdlNames[wdl]
	}
	moves, err := tb.ProbeRoot(q)
	withDTZ := err == nil
	if !withDTZ {
		if moves, err = tb.ProbeRootWDL(q); err != nil {
			moves = nil
		}
	}
	for _, m := range moves {
		tm := TablebaseMove{UCI: m.Move.UCI(p.Chess960()), SAN: movegen.SAN(q, m.Move), WDL: wdlNames[m.WDL]}
		if withDTZ {
			d := m.DTZ
			tm.DTZ = &d
		}
		out.Moves = append(out.Moves, tm)
	}
	return out
}
