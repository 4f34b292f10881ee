package encoding

import (
	"math/bits"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/mathx"
	"github.com/twofold-chess/twofold/movegen"
)

// Sizes of the network's tensors (per position).
const (
	// Planes is the number of input planes.
	Planes = 19
	// InputSize is the float32 count of one position's input.
	InputSize = Planes * 64
	// MovePlanes is the number of policy planes.
	MovePlanes = 73
	// PolicySize is the number of policy logits.
	PolicySize = MovePlanes * 64
	// BitPlanes is the number of 0/1 planes (all but the two clock planes).
	BitPlanes = 17
)

// Features are a position's input planes in compact form: the 0/1 planes as
// bitboards plus the two clocks. Self-play stores these; Fill expands them.
type Features struct {
	Bits     [BitPlanes]uint64
	Halfmove int
	Fullmove int
}

// Extract computes the features of p in the side-to-move frame.
func Extract(p *board.Position) Features {
	var f Features
	us := p.Side()
	them := us ^ 1
	orient := func(b board.Bitboard) uint64 {
		if us == board.Black {
			return bits.ReverseBytes64(uint64(b)) // vertical flip: rank r -> 7-r
		}
		return uint64(b)
	}
	for pt := board.Pawn; pt <= board.King; pt++ {
		f.Bits[pt] = orient(p.Pieces(us, pt))
		f.Bits[6+pt] = orient(p.Pieces(them, pt))
	}
	cr := p.Castling()
	for i, right := range [4]board.CastlingRights{
		board.CastlingRight(us, true), board.CastlingRight(us, false),
		board.CastlingRight(them, true), board.CastlingRight(them, false),
	} {
		if cr&right != 0 {
			f.Bits[12+i] = ^uint64(0)
		}
	}
	if ep := p.EnPassant(); ep != board.NoSquare {
		f.Bits[16] = orient(board.SquareBB(ep))
	}
	f.Halfmove = p.HalfmoveClock()
	f.Fullmove = p.FullmoveNumber()
	return f
}

// Fill writes the InputSize floats of f into dst.
func (f *Features) Fill(dst []float32) {
	dst = dst[:InputSize]
	for plane, b := range f.Bits {
		out := dst[plane*64 : plane*64+64]
		for s := range out {
			out[s] = float32(b >> uint(s) & 1)
		}
	}
	fill(dst[17*64:18*64], float32(f.Halfmove)/100)
	fill(dst[18*64:19*64], min(float32(f.Fullmove)/200, 1))
}

func fill(dst []float32, v float32) {
	for i := range dst {
		dst[i] = v
	}
}

// Encode writes the network input for p into dst (InputSize floats).
func Encode(p *board.Position, dst []float32) {
	f := Extract(p)
	f.Fill(dst)
}

// queenDirs are the queen-style directions in plane order, as (file, rank)
// steps in the side-to-move frame.
var queenDirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// knightJumps are the knight planes' (file, rank) steps in plane order.
var knightJumps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}

// MoveIndex returns the policy index of legal move m in position p.
func MoveIndex(p *board.Position, m board.Move) int {
	return MoveIndexFor(p.Side(), m)
}

// MoveIndexFor is MoveIndex for a move of side, without the position.
func MoveIndexFor(side board.Color, m board.Move) int {
	from, to := m.From(), m.To()
	if side == board.Black {
		from, to = from.Flip(), to.Flip()
	}
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	var plane int
	switch {
	case m.Kind() == board.Promotion && m.PromotionType() != board.Queen:
		plane = 64 + (df+1)*3 + int(m.PromotionType()-board.Knight)
	case mathx.Abs(df)*mathx.Abs(dr) == 2:
		for i, j := range knightJumps {
			if j[0] == df && j[1] == dr {
				plane = 56 + i
			}
		}
	default:
		dist := max(mathx.Abs(df), mathx.Abs(dr))
		step := [2]int{df / dist, dr / dist}
		for i, d := range queenDirs {
			if d == step {
				plane = i*7 + dist - 1
			}
		}
	}
	return plane*64 + int(from)
}

// MoveFromIndex returns the legal move of p with policy index idx, if any.
func MoveFromIndex(p *board.Position, idx int) (board.Move, bool) {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	for _, m := range ml.Moves() {
		if MoveIndex(p, m) == idx {
			return m, true
		}
	}
	return board.NoMove, false
}
