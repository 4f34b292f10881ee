package syzygy

import (
	"encoding/binary"
	"math/bits"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// WDL is a tablebase result from the side to move's view.
type WDL int8

// The five results. A cursed win is a win that the fifty-move rule turns
// into a draw; a blessed loss is the loss it saves.
const (
	Loss        WDL = -2
	BlessedLoss WDL = -1
	Draw        WDL = 0
	CursedWin   WDL = 1
	Win         WDL = 2
)

// String returns the name fathom prints: Loss, BlessedLoss, Draw,
// CursedWin or Win.
func (w WDL) String() string {
	switch w {
	case Loss:
		return "Loss"
	case BlessedLoss:
		return "BlessedLoss"
	case Draw:
		return "Draw"
	case CursedWin:
		return "CursedWin"
	case Win:
		return "Win"
	}
	return "?"
}

// wdlToDTZ is the DTZ of a position whose best move zeroes the fifty-move
// counter (capture or pawn move), by WDL+2.
var wdlToDTZ = [5]int{-1, -101, 0, 101, 1}

// probeable reports whether p is worth looking up at all: no castling
// rights, not too many pieces, and a position that can arise in a game (one
// king each, the side not to move not in check, no pawn on the first or
// last rank), which the move generator relies on.
func (tb *Tablebase) probeable(p *board.Position) bool {
	if p.Castling() != board.NoCastling || p.Occupied().Count() > tb.maxPieces ||
		p.PiecesOfType(board.Pawn)&(board.Rank1|board.Rank8) != 0 ||
		p.Pieces(board.White, board.King).Count() != 1 || p.Pieces(board.Black, board.King).Count() != 1 {
		return false
	}
	them := p.Side().Other()
	return !movegen.Attacked(p, p.KingSquare(them), p.Side(), p.Occupied())
}

// ProbeWDL returns the result of p with best play, the fifty-move rule
// counted from a zeroed counter (the position's own counter is ignored). It
// fails with ErrNotFound (or a *TableError wrapping it) when p has castling
// rights or a table it needs is missing or unusable. p is changed during
// the probe and restored; it allocates nothing.
func (tb *Tablebase) ProbeWDL(p *board.Position) (WDL, error) {
	if !tb.probeable(p) {
		return Draw, ErrNotFound
	}
	v, _, err := tb.wdl(p)
	if err != nil {
		return Draw, err
	}
	return WDL(v), nil
}

// ProbeDTZ returns the distance to zeroing of p: the plies until the
// fifty-move counter is reset by a capture or pawn move with best play by
// both sides (towards the result ProbeWDL gives), signed by the result:
//
//	n < -100         loss, but drawn under the fifty-move rule (blessed)
//	-100 <= n <= -1  loss; -1: mated or a zeroing move loses at once
//	0                draw
//	1 <= n <= 100    win in n plies to zeroing
//	100 < n          win, but drawn under the fifty-move rule (cursed)
//
// As in the published format, |n| may be one more than the true distance
// for tables stored in moves rather than plies; callers keeping a win
// within the fifty-move rule should keep dtz + counter <= 99. Errors and
// the use of p are as for ProbeWDL.
func (tb *Tablebase) ProbeDTZ(p *board.Position) (int, error) {
	if !tb.probeable(p) {
		return 0, ErrNotFound
	}
	return tb.dtz(p)
}

// isCapture reports whether m takes a piece (en passant included).
func isCapture(p *board.Position, m board.Move) bool {
	return m.Kind() == board.EnPassant || (m.Kind() != board.Castling && p.PieceAt(m.To()) != board.NoPiece)
}

// ab resolves captures with an alpha-beta search over the WDL tables.
// p has no en-passant right (a capture came before).
func (tb *Tablebase) ab(p *board.Position, alpha, beta int) (int, error) {
	var ml movegen.MoveList
	movegen.Noisy(p, &ml)
	for _, m := range ml.Moves() {
		if !isCapture(p, m) {
			continue
		}
		p.Make(m)
		v, err := tb.ab(p, -beta, -alpha)
		p.Unmake()
		if err != nil {
			return 0, err
		}
		if v = -v; v > alpha {
			if v >= beta {
				return v, nil
			}
			alpha = v
		}
	}
	v, err := tb.tableWDL(p)
	if err != nil {
		return 0, err
	}
	return max(alpha, v), nil
}

// wdl returns the WDL value of p and whether a zeroing move is best in a
// way the DTZ table does not record: a winning capture, or an en-passant
// capture better than what the table says for the position without it.
//
// The tables store "don't care" values where a capture is at least as good,
// and know nothing of en passant, so captures are searched first.
func (tb *Tablebase) wdl(p *board.Position) (v int, zeroing bool, err error) {
	var ml movegen.MoveList
	movegen.Noisy(p, &ml)
	bestCap, bestEp := -3, -3
	for _, m := range ml.Moves() {
		if !isCapture(p, m) {
			continue
		}
		p.Make(m)
		v, err := tb.ab(p, -2, -bestCap)
		p.Unmake()
		if err != nil {
			return 0, false, err
		}
		if v = -v; v > bestCap {
			if v == 2 {
				return 2, true, nil
			}
			if m.Kind() != board.EnPassant {
				bestCap = v
			} else if v > bestEp {
				bestEp = v
			}
		}
	}
	v, err = tb.tableWDL(p)
	if err != nil {
		return 0, false, err
	}
	// max(v, bestCap) is the value without en-passant rights; an en-passant
	// capture better than both is the best move.
	if bestEp > bestCap {
		if bestEp > v {
			return bestEp, true, nil
		}
		bestCap = bestEp
	}
	if bestCap >= v {
		return bestCap, bestCap > 0, nil
	}
	// Without en passant the position may be stalemate (the table says
	// draw); with it the en-passant capture decides.
	if bestEp > -3 && v == 0 && !movegen.InCheck(p) {
		movegen.Legal(p, &ml)
		onlyEp := true
		for _, m := range ml.Moves() {
			if m.Kind() != board.EnPassant {
				onlyEp = false
				break
			}
		}
		if onlyEp {
			return bestEp, true, nil
		}
	}
	return v, false, nil
}

// isMate reports whether the side to move is checkmated.
func isMate(p *board.Position) bool {
	if !movegen.InCheck(p) {
		return false
	}
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	return ml.Len() == 0
}

// dtz is ProbeDTZ without the preliminary checks.
func (tb *Tablebase) dtz(p *board.Position) (int, error) {
	wdl, zeroing, err := tb.wdl(p)
	if err != nil || wdl == 0 {
		return 0, err
	}
	if zeroing {
		return wdlToDTZ[wdl+2], nil
	}
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	if wdl > 0 {
		// A pawn move that keeps the result zeroes at once.
		for _, m := range ml.Moves() {
			if p.PieceAt(m.From()).Type() != board.Pawn || isCapture(p, m) {
				continue
			}
			p.Make(m)
			v, _, err := tb.wdl(p)
			p.Unmake()
			if err != nil {
				return 0, err
			}
			if -v == wdl {
				return wdlToDTZ[wdl+2], nil
			}
		}
	}
	// The best move is not a capture, so the table's value holds.
	d, otherSide, err := tb.tableDTZ(p, wdl)
	if err != nil {
		return 0, err
	}
	if !otherSide {
		if wdl > 0 {
			return wdlToDTZ[wdl+2] + d, nil
		}
		return wdlToDTZ[wdl+2] - d, nil
	}
	// The table holds the other side to move: search one ply. Zeroing
	// moves need no look: a win has none that keeps the result (checked
	// above) and for a loss the worst zeroing move gives wdlToDTZ.
	best := wdlToDTZ[wdl+2]
	if wdl > 0 {
		best = 1 << 30
	}
	for _, m := range ml.Moves() {
		if isCapture(p, m) || p.PieceAt(m.From()).Type() == board.Pawn {
			continue
		}
		p.Make(m)
		v, err := tb.dtz(p)
		v = -v
		mate := err == nil && v == 1 && isMate(p)
		p.Unmake()
		if err != nil {
			return 0, err
		}
		switch {
		case mate:
			best = 1
		case wdl > 0:
			if v > 0 && v+1 < best {
				best = v + 1
			}
		default:
			if v-1 < best {
				best = v - 1
			}
		}
	}
	return best, nil
}

// lookup finds the table of p's material and how p maps onto it.
func (tb *Tablebase) lookup(p *board.Position) (t *table, flip, blackSide bool) {
	key := keyOf(p, board.White)
	t = tb.tables[key]
	if t == nil {
		return nil, false, false
	}
	if t.symmetric {
		return t, p.Side() == board.Black, false
	}
	flip = key != t.key
	return t, flip, (p.Side() == board.White) == flip
}

// fill writes the squares of the pieces listed in pcs[from:n] into sq
// (colours swapped when flip, squares xor-ed with mirror) and returns n.
func fill(p *board.Position, pcs *[maxPieces]uint8, sq *[maxPieces]int, from, n int, flip bool, mirror int) int {
	i := from
	for i < n {
		c := pcs[i]
		color := board.Color(c >> 3)
		if flip {
			color = color.Other()
		}
		bb := p.Pieces(color, board.PieceType(c&7-1))
		if bb == 0 {
			return i // cannot happen: the material matched
		}
		for bb != 0 && i < n {
			sq[i] = int(bb.PopLSB()) ^ mirror
			i++
		}
	}
	return i
}

// tableIndex finds the sub-table and index of p in the file d.
// side is the stored side wanted (WDL: 0 or 1; DTZ: 0). For DTZ it also
// reports whether the file holds the other side to move.
func tableIndex(p *board.Position, t *table, d *tableData, flip, blackSide bool) (sub *pairs, idx uint64, file int, ok bool) {
	var sq [maxPieces]int
	n := t.count
	side := 0
	if blackSide && d.sides == 2 {
		side = 1
	}
	if !t.hasPawns {
		sub = &d.sub[0][side]
		if fill(p, &sub.pieces, &sq, 0, n, flip, 0) != n {
			return nil, 0, 0, false
		}
		return sub, sub.index(sq[:n], 0, t.twoKings), 0, true
	}
	mirror := 0
	if flip {
		mirror = 56
	}
	lead := t.pawns[0]
	if fill(p, &d.sub[0][0].pieces, &sq, 0, lead, flip, mirror) != lead {
		return nil, 0, 0, false
	}
	best := 0
	for i := 1; i < lead; i++ {
		if pawnRank[sq[i]] > pawnRank[sq[best]] {
			best = i
		}
	}
	sq[0], sq[best] = sq[best], sq[0]
	file = sq[0] & 7
	if file > 3 {
		file = 7 - file
	}
	sub = &d.sub[file][side]
	if fill(p, &sub.pieces, &sq, lead, n, flip, mirror) != n {
		return nil, 0, 0, false
	}
	return sub, sub.index(sq[:n], lead, false), file, true
}

// tableWDL reads p's value from its WDL table, captures not considered.
func (tb *Tablebase) tableWDL(p *board.Position) (int, error) {
	if bits.OnesCount64(uint64(p.Occupied())) == 2 {
		return 0, nil // two kings
	}
	t, flip, blackSide := tb.lookup(p)
	if t == nil {
		return 0, ErrNotFound
	}
	d, err := tb.load(t, &t.wdl)
	if err != nil {
		return 0, err
	}
	sub, idx, _, ok := tableIndex(p, t, d, flip, blackSide)
	if !ok {
		return 0, t.wdl.badData()
	}
	v, ok := sub.value(idx)
	if !ok || v > 4 {
		return 0, t.wdl.badData()
	}
	return v - 2, nil
}

// The map of DTZ values by WDL+2 and the flag saying they are in plies.
var (
	wdlToMap  = [5]int{1, 3, 0, 2, 0}
	pliesFlag = [5]uint8{flagLossPlies, 0, 0, 0, flagWinPlies}
)

// tableDTZ reads p's distance from its DTZ table given its WDL value, or
// reports that the file holds the other side to move.
func (tb *Tablebase) tableDTZ(p *board.Position, wdl int) (d int, otherSide bool, err error) {
	t, flip, blackSide := tb.lookup(p)
	if t == nil {
		return 0, false, ErrNotFound
	}
	td, err := tb.load(t, &t.dtz)
	if err != nil {
		return 0, false, err
	}
	sub, idx, file, ok := tableIndex(p, t, td, flip, false)
	if !ok {
		return 0, false, t.dtz.badData()
	}
	flags := td.sub[file][0].flags
	if !t.symmetric && (flags&flagSide != 0) != blackSide {
		return 0, true, nil
	}
	v, ok := sub.value(idx)
	if !ok {
		return 0, false, t.dtz.badData()
	}
	if flags&flagMapped != 0 {
		off := td.sub[file][0].mapOff[wdlToMap[wdl+2]]
		if flags&flagWide != 0 {
			i := off + 2*v
			if i+2 > len(td.dtzMap) {
				return 0, false, t.dtz.badData()
			}
			v = int(binary.LittleEndian.Uint16(td.dtzMap[i:]))
		} else {
			if off+v >= len(td.dtzMap) {
				return 0, false, t.dtz.badData()
			}
			v = int(td.dtzMap[off+v])
		}
	}
	if flags&pliesFlag[wdl+2] == 0 || wdl&1 != 0 {
		v *= 2
	}
	return v, false, nil
}
