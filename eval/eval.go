package eval

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/mathx"
	"github.com/twofold-chess/twofold/movegen"
)

// Trace records the features of one evaluation for the tuner: for every
// weight, White's count minus Black's, plus what turns the weighted sum into
// the final score (phase and endgame scale).
type Trace struct {
	Coeffs [NumParams]int16
	Phase  int // maxPhase = all pieces on, 0 = bare kings and pawns
	Scale  int // endgame scale in 64ths (64 = no scaling)
}

// Masks computed once.
var (
	forwardFile  [2][64]board.Bitboard // squares ahead of s on its file, from c's view
	passedSpan   [2][64]board.Bitboard // squares ahead on its file and the two beside it
	adjacentFile [8]board.Bitboard
	distance     [64][64]int // king-move distance
)

func init() {
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentFile[f] |= board.FileBB(f - 1)
		}
		if f < 7 {
			adjacentFile[f] |= board.FileBB(f + 1)
		}
	}
	for s := board.Square(0); s < 64; s++ {
		for r := s.Rank() + 1; r < 8; r++ {
			forwardFile[board.White][s] |= board.SquareBB(board.NewSquare(s.File(), r))
		}
		for r := s.Rank() - 1; r >= 0; r-- {
			forwardFile[board.Black][s] |= board.SquareBB(board.NewSquare(s.File(), r))
		}
		for c := board.White; c <= board.Black; c++ {
			ahead := forwardFile[c][s]
			passedSpan[c][s] = ahead | (ahead&^board.FileA)>>1 | (ahead&^board.FileH)<<1
		}
		for t := board.Square(0); t < 64; t++ {
			distance[s][t] = max(mathx.Abs(s.File()-t.File()), mathx.Abs(s.Rank()-t.Rank()))
		}
	}
}

// Evaluate returns the static evaluation of p in centipawns from the side to
// move's point of view.
func Evaluate(p *board.Position) int {
	v := evaluate(p, &weights, nil)
	if p.Side() == board.Black {
		return -v
	}
	return v
}

// TraceOf evaluates p with the given weights and fills t with its features;
// it returns the score from White's point of view (the tuner's convention).
func TraceOf(p *board.Position, w *Weights, t *Trace) int {
	*t = Trace{}
	return evaluate(p, w, t)
}

// evaluator carries what both colours' terms need.
type evaluator struct {
	p        *board.Position
	w        *Weights
	t        *Trace
	occ      board.Bitboard
	pawnAtt  [2]board.Bitboard // squares attacked by each side's pawns
	kingZone [2]board.Bitboard // each king's square and its neighbours
	score    Score             // White's view
}

// add counts n occurrences of weight i for colour c.
func (e *evaluator) add(c board.Color, i, n int) {
	if c == board.White {
		e.score += e.w[i] * Score(n)
	} else {
		e.score -= e.w[i] * Score(n)
		n = -n
	}
	if e.t != nil {
		e.t.Coeffs[i] += int16(n)
	}
}

// evaluate returns the tapered score from White's point of view.
func evaluate(p *board.Position, w *Weights, t *Trace) int {
	e := evaluator{p: p, w: w, t: t, occ: p.Occupied()}
	for c := board.White; c <= board.Black; c++ {
		e.pawnAtt[c] = pawnAttacks(c, p.Pieces(c, board.Pawn))
		k := p.KingSquare(c)
		e.kingZone[c] = movegen.KingAttacks(k) | board.SquareBB(k)
	}
	phase := 0
	for c := board.White; c <= board.Black; c++ {
		for pt := board.Pawn; pt <= board.Queen; pt++ {
			n := p.Pieces(c, pt).Count()
			phase += phaseWeight[pt] * n
			e.add(c, pMaterial+int(pt), n)
		}
		e.pieces(c)
		e.pawns(c)
		e.king(c)
	}
	e.add(p.Side(), pTempo, 1)

	phase = min(phase, maxPhase)
	scale := e.endgameScale()
	if t != nil {
		t.Phase, t.Scale = phase, scale
	}
	s := e.score
	return (s.MG()*phase + s.EG()*(maxPhase-phase)*scale/64) / maxPhase
}

// pawnAttacks returns the squares attacked by the given pawns of colour c.
func pawnAttacks(c board.Color, pawns board.Bitboard) board.Bitboard {
	if c == board.White {
		return (pawns&^board.FileA)<<7 | (pawns&^board.FileH)<<9
	}
	return (pawns&^board.FileA)>>9 | (pawns&^board.FileH)>>7
}

// pstIndex maps a square to its place in a 32-entry, file-mirrored table from c's view.
func pstIndex(c board.Color, s board.Square) int {
	if c == board.Black {
		s = s.Flip()
	}
	f := s.File()
	if f > 3 {
		f = 7 - f
	}
	return s.Rank()*4 + f
}

// pieces adds placement, mobility, king attacks and piece-specific terms.
func (e *evaluator) pieces(c board.Color) {
	p := e.p
	them := c.Other()
	// Mobility counts squares not held by own pawns or king and not attacked by enemy pawns.
	area := ^(p.Pieces(c, board.Pawn) | p.Pieces(c, board.King) | e.pawnAtt[them])
	ownPawns, allPawns := p.Pieces(c, board.Pawn), p.PiecesOfType(board.Pawn)
	for pt := board.Pawn; pt <= board.King; pt++ {
		for bb := p.Pieces(c, pt); bb != 0; {
			s := bb.PopLSB()
			e.add(c, pPST+int(pt)*32+pstIndex(c, s), 1)
			var att board.Bitboard
			switch pt {
			case board.Knight:
				att = movegen.KnightAttacks(s)
				e.add(c, pMobilityKnight+(att&area).Count(), 1)
			case board.Bishop:
				att = movegen.BishopAttacks(s, e.occ)
				e.add(c, pMobilityBishop+(att&area).Count(), 1)
			case board.Rook:
				att = movegen.RookAttacks(s, e.occ)
				e.add(c, pMobilityRook+(att&area).Count(), 1)
				file := board.FileBB(s.File())
				if file&allPawns == 0 {
					e.add(c, pRookOpen, 1)
				} else if file&ownPawns == 0 {
					e.add(c, pRookSemiOpen, 1)
				}
				if s.RelativeRank(c) == 6 {
					e.add(c, pRookSeventh, 1)
				}
			case board.Queen:
				att = movegen.QueenAttacks(s, e.occ)
				e.add(c, pMobilityQueen+(att&area).Count(), 1)
			default:
				continue
			}
			if n := (att & e.kingZone[them]).Count(); n > 0 {
				e.add(c, pKingAttack+int(pt)-int(board.Knight), n)
			}
		}
	}
	if p.Pieces(c, board.Bishop).More() {
		e.add(c, pBishopPair, 1)
	}
	if n := (e.pawnAtt[them] & p.Occupancy(c) &^ ownPawns).Count(); n > 0 {
		e.add(c, pPawnThreat, n)
	}
}

// pawns adds the pawn-structure terms.
func (e *evaluator) pawns(c board.Color) {
	p := e.p
	them := c.Other()
	own, theirs := p.Pieces(c, board.Pawn), p.Pieces(them, board.Pawn)
	ownKing, theirKing := p.KingSquare(c), p.KingSquare(them)
	forward := board.Square(8)
	if c == board.Black {
		forward = -8
	}
	for bb := own; bb != 0; {
		s := bb.PopLSB()
		rank := s.RelativeRank(c)
		if forwardFile[c][s]&own != 0 {
			e.add(c, pDoubled, 1)
		}
		neighbours := own & adjacentFile[s.File()]
		if neighbours == 0 {
			e.add(c, pIsolated, 1)
		} else if neighbours&^passedSpan[c][s] == 0 && e.pawnAtt[them].Has(s+forward) {
			// Every neighbour is ahead, so none can come to its support.
			e.add(c, pBackward, 1)
		}
		if e.pawnAtt[c].Has(s) || pawnNeighbours(s)&own != 0 {
			e.add(c, pConnected+rank, 1)
		}
		if passedSpan[c][s]&theirs == 0 && forwardFile[c][s]&own == 0 {
			e.add(c, pPassed+rank, 1)
			stop := s + forward
			e.add(c, pPassedOwnKing, distance[ownKing][stop])
			e.add(c, pPassedTheirKing, distance[theirKing][stop])
		}
	}
}

func pawnNeighbours(s board.Square) board.Bitboard {
	bb := board.SquareBB(s)
	return (bb&^board.FileA)>>1 | (bb&^board.FileH)<<1
}

// king adds pawn shelter and open-file terms for c's king.
func (e *evaluator) king(c board.Color) {
	p := e.p
	k := p.KingSquare(c)
	own := p.Pieces(c, board.Pawn)
	files := board.FileBB(k.File()) | adjacentFile[k.File()]
	rank1 := k.Rank() + 1
	rank2 := k.Rank() + 2
	if c == board.Black {
		rank1, rank2 = k.Rank()-1, k.Rank()-2
	}
	if rank1 >= 0 && rank1 < 8 {
		e.add(c, pKingShield, (own & files & board.RankBB(rank1)).Count())
	}
	if rank2 >= 0 && rank2 < 8 {
		e.add(c, pKingShield+1, (own & files & board.RankBB(rank2)).Count())
	}
	if own&board.FileBB(k.File()) == 0 {
		e.add(c, pKingOpenFile, 1)
	}
}

// endgameScale returns how much of the endgame score stands, in 64ths:
// without pawns, a side ahead by less than a rook rarely wins, and
// opposite-coloured bishops alone draw often.
func (e *evaluator) endgameScale() int {
	p := e.p
	strong := board.White
	if e.score.EG() < 0 {
		strong = board.Black
	}
	weak := strong.Other()
	if p.Pieces(strong, board.Pawn) == 0 {
		diff := nonPawnMaterial(p, strong) - nonPawnMaterial(p, weak)
		if diff < 400 {
			return 8
		}
	}
	wb, bb := p.Pieces(board.White, board.Bishop), p.Pieces(board.Black, board.Bishop)
	if nonPawnMaterial(p, board.White) == 330 && nonPawnMaterial(p, board.Black) == 330 &&
		wb != 0 && bb != 0 && ((wb&board.LightSquares == 0) != (bb&board.LightSquares == 0)) {
		return 32
	}
	return 64
}

// nonPawnMaterial is a fixed-value count used only for scaling decisions.
func nonPawnMaterial(p *board.Position, c board.Color) int {
	return 320*p.Pieces(c, board.Knight).Count() + 330*p.Pieces(c, board.Bishop).Count() +
		500*p.Pieces(c, board.Rook).Count() + 950*p.Pieces(c, board.Queen).Count()
}
