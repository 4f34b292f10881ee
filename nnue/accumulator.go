package nnue

import "github.com/twofold-chess/twofold/board"

// Accumulator holds one position's hidden-layer sums, one row of H per
// perspective (indexed by board.Color). It belongs to the network it was
// made for and is updated as moves are made (Apply and the primitives
// below) or recomputed with Refresh; none of its methods allocate. The
// methods that take a source accumulator need one made for the same
// network (or one sharing its weights through WithKernel).
type Accumulator struct {
	net  *Network
	vals [2][]int16
}

// NewAccumulator returns a zeroed accumulator for n; Refresh fills it.
func NewAccumulator(n *Network) *Accumulator { return &NewAccumulators(n, 1)[0] }

// NewAccumulators returns count accumulators for n sharing one allocation
// (a search's per-ply stack).
func NewAccumulators(n *Network, count int) []Accumulator {
	h := n.hidden
	mem := make([]int16, 2*h*count)
	accs := make([]Accumulator, count)
	for i := range accs {
		a := mem[2*h*i:]
		accs[i] = Accumulator{net: n, vals: [2][]int16{a[:h:h], a[h : 2*h : 2*h]}}
	}
	return accs
}

// Network returns the network the accumulator belongs to.
func (a *Accumulator) Network() *Network { return a.net }

// Values returns the sums of perspective persp (H values; do not modify).
func (a *Accumulator) Values(persp board.Color) []int16 { return a.vals[persp] }

// Equal reports whether both accumulators hold the same sums.
func (a *Accumulator) Equal(b *Accumulator) bool {
	for c := range a.vals {
		if len(a.vals[c]) != len(b.vals[c]) {
			return false
		}
		for i, v := range a.vals[c] {
			if b.vals[c][i] != v {
				return false
			}
		}
	}
	return true
}

// Refresh recomputes the sums from scratch for position p.
func (a *Accumulator) Refresh(p *board.Position) {
	n := a.net
	for persp := range a.vals {
		copy(a.vals[persp], n.featureBiases)
	}
	for occ := p.Occupied(); occ != 0; {
		sq := occ.PopLSB()
		a.Add(p.PieceAt(sq), sq)
	}
}

// CopyFrom sets a's sums to src's (a null move changes no feature).
func (a *Accumulator) CopyFrom(src *Accumulator) {
	copy(a.vals[board.White], src.vals[board.White])
	copy(a.vals[board.Black], src.vals[board.Black])
}

// Add adds the features of piece pc on sq in place.
func (a *Accumulator) Add(pc board.Piece, sq board.Square) {
	n, k := a.net, a.net.kern
	for persp := board.White; persp <= board.Black; persp++ {
		k.copyAdd(a.vals[persp], a.vals[persp], n.row(FeatureIndex(persp, pc, sq)))
	}
}

// Sub removes the features of piece pc on sq in place.
func (a *Accumulator) Sub(pc board.Piece, sq board.Square) {
	n, k := a.net, a.net.kern
	for persp := board.White; persp <= board.Black; persp++ {
		k.copySub(a.vals[persp], a.vals[persp], n.row(FeatureIndex(persp, pc, sq)))
	}
}

// AddSub sets a to src with one piece added and one removed, in one pass
// (a quiet move: the piece leaves from and arrives on to). a may be src.
func (a *Accumulator) AddSub(src *Accumulator, add PieceSquare, sub PieceSquare) {
	n, k := a.net, a.net.kern
	for persp := board.White; persp <= board.Black; persp++ {
		k.addSub(a.vals[persp], src.vals[persp], n.row(add.feature(persp)), n.row(sub.feature(persp)))
	}
}

// AddSubSub sets a to src with one piece added and two removed, in one pass
// (a capture). a may be src.
func (a *Accumulator) AddSubSub(src *Accumulator, add, sub1, sub2 PieceSquare) {
	n, k := a.net, a.net.kern
	for persp := board.White; persp <= board.Black; persp++ {
		k.addSubSub(a.vals[persp], src.vals[persp], n.row(add.feature(persp)),
			n.row(sub1.feature(persp)), n.row(sub2.feature(persp)))
	}
}

// AddAddSubSub sets a to src with two pieces added and two removed, in one
// pass (castling). a may be src.
func (a *Accumulator) AddAddSubSub(src *Accumulator, add1, add2, sub1, sub2 PieceSquare) {
	n, k := a.net, a.net.kern
	for persp := board.White; persp <= board.Black; persp++ {
		k.addAddSubSub(a.vals[persp], src.vals[persp], n.row(add1.feature(persp)), n.row(add2.feature(persp)),
			n.row(sub1.feature(persp)), n.row(sub2.feature(persp)))
	}
}

// Apply sets a to src changed by d (the accumulator after d's move); a may
// be src.
func (a *Accumulator) Apply(src *Accumulator, d *Delta) {
	switch {
	case d.adds == 1 && d.subs == 1:
		a.AddSub(src, d.add[0], d.sub[0])
	case d.adds == 1 && d.subs == 2:
		a.AddSubSub(src, d.add[0], d.sub[0], d.sub[1])
	case d.adds == 2 && d.subs == 2:
		a.AddAddSubSub(src, d.add[0], d.add[1], d.sub[0], d.sub[1])
	default: // any other combination (none arises from a chess move), feature by feature
		if a != src {
			a.CopyFrom(src)
		}
		for _, ps := range d.add[:d.adds] {
			a.Add(ps.Piece, ps.Square)
		}
		for _, ps := range d.sub[:d.subs] {
			a.Sub(ps.Piece, ps.Square)
		}
	}
}

// Evaluate returns the network's score of p in centipawns from the side to
// move's point of view, a being p's accumulator (see the package comment;
// p gives the side to move and, by its number of pieces, the output
// bucket).
func (a *Accumulator) Evaluate(p *board.Position) int {
	b := 0
	if a.net.buckets > 1 {
		b = a.net.Bucket(p.Occupied().Count())
	}
	return a.evaluate(p.Side(), b)
}

// evaluate is the output with stm to move and output bucket b.
func (a *Accumulator) evaluate(stm board.Color, b int) int {
	n := a.net
	us, them := a.vals[stm], a.vals[stm.Other()]
	w := n.outputWeights[b*2*n.hidden : (b+1)*2*n.hidden]
	var sum int64
	if n.activation == SCReLU {
		sum = int64(n.kern.dotSCReLU(us, them, w) / QA)
	} else {
		sum = int64(n.kern.dotCReLU(us, them, w))
	}
	return int((sum + int64(n.outputBiases[b])) * Scale / (QA * QB))
}

// Evaluate returns the network's score of p in centipawns from the side to
// move's point of view, computing the accumulator from scratch (slow: for
// tools and tests, not for a search).
func (n *Network) Evaluate(p *board.Position) int {
	a := NewAccumulator(n)
	a.Refresh(p)
	return a.Evaluate(p)
}

// PieceSquare is a piece on a square: one input feature per perspective.
type PieceSquare struct {
	Piece  board.Piece
	Square board.Square
}

func (ps PieceSquare) feature(persp board.Color) int { return FeatureIndex(persp, ps.Piece, ps.Square) }

// Delta is what a move changes in the features: at most two pieces added
// and two removed (a third Add or Sub panics). The zero Delta changes
// nothing (a null move).
type Delta struct {
	add, sub   [2]PieceSquare
	adds, subs uint8
}

// Add records a piece appearing on a square.
func (d *Delta) Add(pc board.Piece, sq board.Square) {
	d.add[d.adds] = PieceSquare{pc, sq}
	d.adds++
}

// Sub records a piece leaving a square.
func (d *Delta) Sub(pc board.Piece, sq board.Square) {
	d.sub[d.subs] = PieceSquare{pc, sq}
	d.subs++
}

// MoveDelta returns what m changes, for m legal in p and not yet made.
func MoveDelta(p *board.Position, m board.Move) Delta {
	return NewMoveDelta(m, p.PieceAt(m.From()), p.CapturedPiece(m))
}

// NewMoveDelta returns what m changes given the piece that makes it and
// the piece it captures (board.NoPiece if none; the pawn for en passant).
func NewMoveDelta(m board.Move, moved, captured board.Piece) Delta {
	var d Delta
	from, to := m.From(), m.To()
	switch m.Kind() {
	case board.Castling:
		rook := board.MakePiece(moved.Color(), board.Rook)
		d.Sub(moved, from)
		d.Sub(rook, to)
		d.Add(moved, m.CastlingKingTo())
		d.Add(rook, m.CastlingRookTo())
		return d
	case board.EnPassant:
		d.Sub(moved, from)
		d.Add(moved, to)
		d.Sub(captured, to^8)
		return d
	case board.Promotion:
		d.Sub(moved, from)
		d.Add(board.MakePiece(moved.Color(), m.PromotionType()), to)
	default:
		d.Sub(moved, from)
		d.Add(moved, to)
	}
	if captured != board.NoPiece {
		d.Sub(captured, to)
	}
	return d
}
