package search

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/eval"
	"github.com/twofold-chess/twofold/internal/mathx"
	"github.com/twofold-chess/twofold/nnue"
)

// nnueStack is a thread's network state: one accumulator per ply, updated
// lazily. Making a move only records what it changes (delta[ply+1]) and
// marks the child's accumulator stale; the evaluation walks back to the
// nearest valid ply and applies the recorded deltas forward, storing each
// step, so a node whose eval the table supplies costs no update at all and
// siblings share their parent's work. Nothing is recomputed from scratch
// but the root, once per search, except with king buckets: there each
// perspective keeps its own validity, and a move of a side's king into
// another bucket has that side's perspective recomputed from the position
// at the ply evaluated (the plies between stay stale for it), through the
// thread's refresh cache, which adds and removes only the pieces that
// differ from the last refresh in that bucket.
type nnueStack struct {
	net   *nnue.Network
	acc   []nnue.Accumulator     // [ply]: the position at ply once valid
	delta [MaxPly + 4]nnue.Delta // [ply]: what the move from ply-1 changed
	valid [MaxPly + 4][2]bool    // [ply][perspective]: acc[ply] matches the position now at ply
	cache *nnue.RefreshCache     // with king buckets (a king move may refresh a perspective): those refreshes, made cheap; nil without
	root  [64]board.Piece        // the root's pieces: the root moves' deltas come from them
	move1 board.Move             // the root move delta[1] describes
	fresh *nnue.Accumulator      // for verifyNNUE
	bad   string                 // the first node where verifyNNUE found a difference
}

// verifyNNUE makes every node the search enters compare its incrementally
// updated accumulator with one computed from scratch (tests set it; the
// result of the search is the same either way).
var verifyNNUE = false

// nnuePrepare sets the stack up for a search of t.pos with the searcher's
// network: the root accumulator is computed, every other ply is stale.
func (t *thread) nnuePrepare() {
	nn := &t.nn
	net := t.s.opts.Evaluator()
	if net == nil {
		nn.net, nn.acc, nn.fresh = nil, nil, nil
		return
	}
	if nn.net != net {
		nn.net = net
		nn.cache = nil
		if net.Shape().KingRelative {
			nn.cache = nnue.NewRefreshCache(net)
		}
		nn.acc = nnue.NewAccumulators(net, MaxPly+4)
		nn.fresh = nnue.NewAccumulator(net)
	}
	nn.acc[0].Refresh(t.pos)
	nn.valid = [MaxPly + 4][2]bool{0: {true, true}}
	for sq := range nn.root {
		nn.root[sq] = t.pos.PieceAt(board.Square(sq))
	}
	nn.move1 = board.NoMove
	nn.bad = ""
}

// nnueMove records m, about to be made at ply, as the change to ply+1.
func (t *thread) nnueMove(ply int, m board.Move) {
	if t.nn.net == nil {
		return
	}
	t.nn.delta[ply+1] = nnue.MoveDelta(t.pos, m)
	t.nn.valid[ply+1] = [2]bool{}
}

// nnueNull records a null move at ply: ply+1 has the same pieces.
func (t *thread) nnueNull(ply int) {
	if t.nn.net == nil {
		return
	}
	t.nn.delta[ply+1] = nnue.Delta{}
	t.nn.valid[ply+1] = [2]bool{}
}

// nnueAccumulator brings the accumulator of ply up to date and returns it.
// The root moves are made without nnueMove (by rootSearch and weakSearch,
// which set stack[0].move first); their delta is derived here from the
// root's pieces whenever stack[0].move changes.
func (t *thread) nnueAccumulator(ply int) *nnue.Accumulator {
	nn := &t.nn
	if ply > 0 {
		if m := t.stack[0].move; m != nn.move1 {
			nn.move1 = m
			captured := nn.root[m.To()]
			switch m.Kind() {
			case board.Castling:
				captured = board.NoPiece
			case board.EnPassant:
				captured = nn.root[m.To()^8]
			}
			nn.delta[1] = nnue.NewMoveDelta(m, nn.root[m.From()], captured)
			nn.valid[1] = [2]bool{}
		}
	}
	if nn.cache == nil { // no king buckets: both perspectives move together
		k := ply
		for !nn.valid[k][board.White] {
			k--
		}
		for ; k < ply; k++ {
			nn.acc[k+1].Apply(&nn.acc[k], &nn.delta[k+1], nil) // never a refresh: no position needed
			nn.valid[k+1] = [2]bool{true, true}
		}
		return &nn.acc[ply]
	}
	for persp := board.White; persp <= board.Black; persp++ {
		k := ply
		for !nn.valid[k][persp] {
			k--
		}
		if k == ply {
			continue
		}
		refresh := false
		for i := k + 1; i <= ply && !refresh; i++ {
			refresh = nn.net.NeedsRefresh(&nn.delta[i], persp)
		}
		if refresh {
			nn.cache.Refresh(&nn.acc[ply], t.pos, persp)
			nn.valid[ply][persp] = true
			continue
		}
		for ; k < ply; k++ {
			nn.acc[k+1].ApplyPerspective(&nn.acc[k], &nn.delta[k+1], persp)
			nn.valid[k+1][persp] = true
		}
	}
	return &nn.acc[ply]
}

// evaluate is the static evaluation of the position at ply, from the side
// to move's point of view: the network's when the searcher has one, the
// hand-crafted evaluation otherwise. The network's score is kept clear of
// mate and tablebase scores.
func (t *thread) evaluate(ply int) int {
	if t.nn.net == nil {
		return eval.Evaluate(t.pos)
	}
	v := t.nnueAccumulator(ply).Evaluate(t.pos)
	// Fade towards a draw as the fifty-move count runs up, so the search
	// prefers progress to shuffling in a won position. The hand-crafted
	// path is left as it was: the calibrated weak levels play with it.
	v = v * materialScale(t.pos) / materialScaleDiv * (200 - t.pos.HalfmoveClock()) / 200
	return min(max(v, -TBWinBound+1), TBWinBound-1)
}

// materialScale weighs the network's evaluation by the material on the
// board, over materialScaleDiv: about 1.1 in the opening, 0.85 in a rook
// ending, 0.77 with a minor piece or none (Stockfish's form). An advantage
// with pieces to play with is easier to turn into a win, and the network
// overrates bare endings (a wrong-coloured bishop with a rook pawn), so
// the search keeps material when ahead and trades it when behind.
func materialScale(p *board.Position) int {
	minors := (p.PiecesOfType(board.Knight) | p.PiecesOfType(board.Bishop)).Count()
	return 915 + 12*minors + 20*p.PiecesOfType(board.Rook).Count() +
		40*p.PiecesOfType(board.Queen).Count() + 9*p.PiecesOfType(board.Pawn).Count()
}

// materialScaleDiv is materialScale's unit: a middlegame with a minor
// piece and a few pawns gone weighs about 1.
const materialScaleDiv = 1200

// NetworkUnits converts a search score at p (side to move's view) back to
// the network's own scale, dividing out the weight evaluate gives the
// network at p (materialScale and the fifty-move fade). Training data
// wants the network's unweighted output: a network trained on weighted
// scores would be weighed twice in the search, and the next generation
// three times. The score of a deeper search came from leaves weighed by
// their own material, so this is exact for the evaluation and close for
// a quiet position's search. Mate and tablebase scores are kept as they
// are; the others stay below them.
func NetworkUnits(p *board.Position, score int) int {
	if isDecisive(score) {
		return score
	}
	weight := materialScale(p) * (200 - min(p.HalfmoveClock(), 150))       // the fade capped, never near 0
	v := (2*mathx.Abs(score)*materialScaleDiv*200 + weight) / (2 * weight) // rounded
	if score < 0 {
		v = -v
	}
	return min(max(v, -TBWinBound+1), TBWinBound-1)
}

// nnueVerify compares the accumulator of ply with a fresh one (verifyNNUE).
func (t *thread) nnueVerify(ply int) {
	nn := &t.nn
	if nn.net == nil || nn.bad != "" {
		return
	}
	nn.fresh.Refresh(t.pos)
	if !t.nnueAccumulator(ply).Equal(nn.fresh) {
		nn.bad = t.pos.FEN()
	}
}
