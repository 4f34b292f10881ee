package nnue

import "github.com/twofold-chess/twofold/board"

// RefreshCache makes the refreshes of a network with king buckets cheap
// (the "Finny tables" of Koivisto and Stockfish). For each perspective and
// each king slot (bucket and half of the board) it keeps the sums of the
// last position refreshed there and that position's pieces; the next
// refresh in that slot adds and removes only the pieces that differ, a
// handful where a full refresh adds all of them. One belongs to one
// thread; it is always exact, so it never needs clearing.
type RefreshCache struct {
	net     *Network
	entries [2][]cacheEntry // [perspective][kingSlot.index]
}

type cacheEntry struct {
	vals   []int16
	pieces [2][6]board.Bitboard // [colour][piece type] the sums hold
}

// NewRefreshCache returns an empty cache for n: every entry the biases of
// an empty board.
func NewRefreshCache(n *Network) *RefreshCache {
	slots := 2 * max(n.shape.KingBuckets.Count(), 1)
	h := n.hidden
	mem := make([]int16, 2*slots*h)
	c := &RefreshCache{net: n}
	for persp := range c.entries {
		c.entries[persp] = make([]cacheEntry, slots)
		for i := range c.entries[persp] {
			e := &c.entries[persp][i]
			e.vals = mem[:h:h]
			mem = mem[h:]
			copy(e.vals, n.featureBiases)
		}
	}
	return c
}

// Refresh recomputes perspective persp of a for position p, as
// Accumulator.RefreshPerspective does, through the cache. a must belong to
// the cache's network.
func (c *RefreshCache) Refresh(a *Accumulator, p *board.Position, persp board.Color) {
	n, k := c.net, c.net.kern
	king := p.KingSquare(persp)
	e := &c.entries[persp][n.kingSlots[persp][king].index]
	row := func(pc board.Piece, sq board.Square) []int16 { return n.row(n.feature(persp, king, pc, sq)) }
	for col := board.White; col <= board.Black; col++ {
		for pt := board.Pawn; pt <= board.King; pt++ {
			now := p.Pieces(col, pt)
			added, removed := now&^e.pieces[col][pt], e.pieces[col][pt]&^now
			if added|removed == 0 {
				continue
			}
			pc := board.MakePiece(col, pt)
			for added != 0 && removed != 0 { // a piece that moved: one pass
				k.addSub(e.vals, e.vals, row(pc, added.PopLSB()), row(pc, removed.PopLSB()))
			}
			for added != 0 {
				k.copyAdd(e.vals, e.vals, row(pc, added.PopLSB()))
			}
			for removed != 0 {
				k.copySub(e.vals, e.vals, row(pc, removed.PopLSB()))
			}
			e.pieces[col][pt] = now
		}
	}
	copy(a.vals[persp], e.vals)
	a.king[persp] = king
}
