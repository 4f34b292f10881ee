package perft

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// maxDepth bounds the depth so the per-ply move lists can live in one array.
const maxDepth = 64

// Count returns the number of leaf nodes at the given depth below p.
// p is restored before it returns.
func Count(p *board.Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth > maxDepth {
		depth = maxDepth
	}
	var lists [maxDepth]movegen.MoveList
	return count(p, depth, lists[:depth], nil)
}

// count recurses with one preallocated move list per ply; at depth 1 the
// number of legal moves is the answer (bulk counting), as every legal move
// leads to exactly one leaf, and movegen.CountLegal gives it without
// listing the moves. A set stop (nil: none) ends it early; it is read only
// at depth 3 and up, where it costs nothing measurable.
func count(p *board.Position, depth int, lists []movegen.MoveList, stop *atomic.Bool) uint64 {
	if depth == 1 {
		return uint64(movegen.CountLegal(p))
	}
	ml := &lists[0]
	movegen.Legal(p, ml)
	var nodes uint64
	if depth == 2 { // the bulk of the calls: count the children in place
		for _, m := range ml.Moves() {
			p.Make(m)
			nodes += uint64(movegen.CountLegal(p))
			p.Unmake()
		}
		return nodes
	}
	for _, m := range ml.Moves() {
		if depth >= 3 && stop != nil && stop.Load() {
			break
		}
		p.Make(m)
		nodes += count(p, depth-1, lists[1:], stop)
		p.Unmake()
	}
	return nodes
}

// MoveCount is one line of a divide: a root move and the leaves below it.
type MoveCount struct {
	Move  board.Move
	Nodes uint64
}

// Divide returns the leaf count under each legal root move, in generation order.
func Divide(p *board.Position, depth int) []MoveCount {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	out := make([]MoveCount, 0, ml.Len())
	for _, m := range ml.Moves() {
		p.Make(m)
		out = append(out, MoveCount{Move: m, Nodes: Count(p, depth-1)})
		p.Unmake()
	}
	return out
}

// WriteDivide prints a divide as Stockfish does for "go perft": one
// "move: nodes" line per root move as it is counted, a blank line, then
// "Nodes searched: N". Castling is written as p.Chess960() asks. It returns
// the total. Setting stop (nil: never) ends it early: the move being counted
// and the total line are then left out and complete is false.
func WriteDivide(w io.Writer, p *board.Position, depth int, stop *atomic.Bool) (total uint64, complete bool) {
	depth = min(max(depth, 1), maxDepth)
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	var lists [maxDepth]movegen.MoveList
	for _, m := range ml.Moves() {
		p.Make(m)
		n := uint64(1)
		if depth > 1 {
			n = count(p, depth-1, lists[:depth-1], stop)
		}
		p.Unmake()
		if stop != nil && stop.Load() {
			return total, false
		}
		fmt.Fprintf(w, "%s: %d\n", m.UCI(p.Chess960()), n)
		total += n
	}
	fmt.Fprintf(w, "\nNodes searched: %d\n", total)
	return total, true
}
