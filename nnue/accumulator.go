package nnue

import "github.com/twofold-chess/twofold/board"

// Accumulator holds one position's hidden-layer sums, one row of H per
// perspective (indexed by board.Color). It belongs to the network it was
// made for and is updated as moves are made (Apply and the primitives
// below) or recomputed with Refresh; none of its methods allocate. The
// methods that take a source accumulator need one made for the same
// network (or one sharing its weights through WithKernel).
//
// In a version 3 network a perspective's features depend on where its own
// king stands: a move that takes that king into another bucket, or across
// the middle of the board, changes all of them (Network.NeedsRefresh), and
// that perspective is recomputed from the position (Apply does it;
// RefreshPerspective is the part for one perspective). The primitives
// below move a king only within its slot.
type Accumulator struct {
	net  *Network
	vals [2][]int16
	king [2]board.Square // each perspective's own king: where its features lie (version 3)
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
	a.RefreshPerspective(p, board.White)
	a.RefreshPerspective(p, board.Black)
}

// RefreshPerspective recomputes perspective persp's sums from scratch for
// position p, leaving the other's as they are.
func (a *Accumulator) RefreshPerspective(p *board.Position, persp board.Color) {
	n := a.net
	king := p.KingSquare(persp)
	a.king[persp] = king
	v := a.vals[persp]
	copy(v, n.featureBiases)
	for occ := p.Occupied(); occ != 0; {
		sq := occ.PopLSB()
		n.kern.copyAdd(v, v, n.row(n.feature(persp, king, p.PieceAt(sq), sq)))
	}
}

// CopyFrom sets a's sums to src's (a null move changes no feature).
func (a *Accumulator) CopyFrom(src *Accumulator) {
	copy(a.vals[board.White], src.vals[board.White])
	copy(a.vals[board.Black], src.vals[board.Black])
	a.king = src.king
}

// Add adds the features of piece pc on sq in place (a king added is its
// perspective's king from then on).
func (a *Accumulator) Add(pc board.Piece, sq board.Square) {
	if pc.Type() == board.King {
		a.king[pc.Color()] = sq
	}
	n, k := a.net, a.net.kern
	for persp := board.White; persp <= board.Black; persp++ {
		k.copyAdd(a.vals[persp], a.vals[persp], n.row(n.feature(persp, a.king[persp], pc, sq)))
	}
}

// Sub removes the features of piece pc on sq in place.
func (a *Accumulator) Sub(pc board.Piece, sq board.Square) {
	n, k := a.net, a.net.kern
	for persp := board.White; persp <= board.Black; persp++ {
		k.copySub(a.vals[persp], a.vals[persp], n.row(n.feature(persp, a.king[persp], pc, sq)))
	}
}

// AddSub sets a to src with one piece added and one removed, in one pass
// (a quiet move: the piece leaves from and arrives on to). a may be src.
func (a *Accumulator) AddSub(src *Accumulator, add PieceSquare, sub PieceSquare) {
	d := Delta{add: [2]PieceSquare{add}, sub: [2]PieceSquare{sub}, adds: 1, subs: 1}
	a.ApplyPerspective(src, &d, board.White)
	a.ApplyPerspective(src, &d, board.Black)
}

// AddSubSub sets a to src with one piece added and two removed, in one pass
// (a capture). a may be src.
func (a *Accumulator) AddSubSub(src *Accumulator, add, sub1, sub2 PieceSquare) {
	d := Delta{add: [2]PieceSquare{add}, sub: [2]PieceSquare{sub1, sub2}, adds: 1, subs: 2}
	a.ApplyPerspective(src, &d, board.White)
	a.ApplyPerspective(src, &d, board.Black)
}

// AddAddSubSub sets a to src with two pieces added and two removed, in one
// pass (castling). a may be src.
func (a *Accumulator) AddAddSubSub(src *Accumulator, add1, add2, sub1, sub2 PieceSquare) {
	d := Delta{add: [2]PieceSquare{add1, add2}, sub: [2]PieceSquare{sub1, sub2}, adds: 2, subs: 2}
	a.ApplyPerspective(src, &d, board.White)
	a.ApplyPerspective(src, &d, board.Black)
}

// Apply sets a to src changed by d, p being the position after d's move
// (the accumulator of p); a may be src. A perspective whose king d takes
// to another slot (NeedsRefresh) is recomputed from p.
func (a *Accumulator) Apply(src *Accumulator, d *Delta, p *board.Position) {
	if !a.net.shape.KingRelative {
		a.apply(src, d, board.White, kingSlot{})
		a.apply(src, d, board.Black, kingSlot{})
		return
	}
	for persp := board.White; persp <= board.Black; persp++ {
		if a.net.NeedsRefresh(d, persp) {
			a.RefreshPerspective(p, persp)
		} else {
			a.ApplyPerspective(src, d, persp)
		}
	}
}

// ApplyPerspective sets perspective persp of a to src's changed by d, in
// one pass; a may be src. d must not need a refresh of persp
// (NeedsRefresh).
func (a *Accumulator) ApplyPerspective(src *Accumulator, d *Delta, persp board.Color) {
	if !a.net.shape.KingRelative {
		a.apply(src, d, persp, kingSlot{})
		return
	}
	king := src.king[persp]
	a.apply(src, d, persp, a.net.kingSlots[persp][king])
	a.king[persp] = d.kingTo(persp, king)
}

// apply is ApplyPerspective with the perspective's king slot looked up
// (the zero slot without king buckets).
func (a *Accumulator) apply(src *Accumulator, d *Delta, persp board.Color, ks kingSlot) {
	n, k := a.net, a.net.kern
	base, flip := int(ks.base), board.Square(ks.flip)
	f := func(ps PieceSquare) []int16 { return n.row(base + FeatureIndex(persp, ps.Piece, ps.Square^flip)) }
	dst, from := a.vals[persp], src.vals[persp]
	switch {
	case d.adds == 1 && d.subs == 1:
		k.addSub(dst, from, f(d.add[0]), f(d.sub[0]))
	case d.adds == 1 && d.subs == 2:
		k.addSubSub(dst, from, f(d.add[0]), f(d.sub[0]), f(d.sub[1]))
	case d.adds == 2 && d.subs == 2:
		k.addAddSubSub(dst, from, f(d.add[0]), f(d.add[1]), f(d.sub[0]), f(d.sub[1]))
	default: // any other combination (a null move, or none a chess move makes), feature by feature
		copy(dst, from)
		for _, ps := range d.add[:d.adds] {
			k.copyAdd(dst, dst, f(ps))
		}
		for _, ps := range d.sub[:d.subs] {
			k.copySub(dst, dst, f(ps))
		}
	}
}

// NeedsRefresh reports whether d takes perspective persp's king to a
// square of another king bucket or to the other half of the board (files
// a-d against e-h), which changes all of persp's features; never for a
// network without king buckets.
func (n *Network) NeedsRefresh(d *Delta, persp board.Color) bool {
	if !n.shape.KingRelative {
		return false
	}
	king := board.MakePiece(persp, board.King)
	for _, add := range d.add[:d.adds] {
		if add.Piece != king {
			continue
		}
		for _, sub := range d.sub[:d.subs] {
			if sub.Piece == king {
				return n.kingSlots[persp][add.Square] != n.kingSlots[persp][sub.Square]
			}
		}
	}
	return false
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

// Delta is what a move changes in the features: at most two pieces added
// and two removed (a third Add or Sub panics). The zero Delta changes
// nothing (a null move).
type Delta struct {
	add, sub   [2]PieceSquare
	adds, subs uint8
}

// kingTo returns where colour c's king stands after d, it having stood on
// from.
func (d *Delta) kingTo(c board.Color, from board.Square) board.Square {
	king := board.MakePiece(c, board.King)
	for _, add := range d.add[:d.adds] {
		if add.Piece == king {
			return add.Square
		}
	}
	return from
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
