package azero

import (
	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// batch is one network run's worth of playouts, the loop both the searcher
// and self-play drive: gather leaves (kept apart by virtual loss) from one
// tree, or from many (self-play's games in lockstep), encoding those the
// network must see side by side; evaluate them in one run; back each up.
// Leaves the rules or the cache resolve are backed up as they are met. Its
// buffers are allocated once; it is not safe for concurrent use (the
// searcher holds its lock around add and apply, never around evaluate).
type batch struct {
	ev                   Evaluator
	cache                *cache
	leaves               []queued
	n                    int // leaves queued for the network
	input, policy, value []float32
	ml                   movegen.MoveList
	priors               []float32
}

// queued is a leaf waiting for the network, with its tree.
type queued struct {
	t  *tree
	lf leaf
}

// newBatch allocates a batch of up to size leaves evaluated by ev, looking
// results up in c and storing them there (c may be an empty cache). When ev
// exposes its input memory (ONNX Runtime's session does), positions are
// encoded straight into it.
func newBatch(ev Evaluator, c *cache, size int) *batch {
	b := &batch{ev: ev, cache: c, leaves: make([]queued, size)}
	if in, ok := ev.(interface{ InputBuffer() []float32 }); ok && len(in.InputBuffer()) >= size*encoding.InputSize {
		b.input = in.InputBuffer()
	} else {
		b.input = make([]float32, size*encoding.InputSize)
	}
	b.policy = make([]float32, size*encoding.PolicySize)
	b.value = make([]float32, size)
	return b
}

// full reports whether no more leaves can be queued before evaluate.
func (b *batch) full() bool { return b.n == len(b.leaves) }

// add runs one playout's selection in t; pos is t's root position, and is
// again when add returns. A leaf that needs the network is answered from
// the cache if it can be, else encoded and queued (queued is then true); a
// resolved one is backed up at once. The leaf is returned for the caller's
// counts; it stays valid until the next add unless queued.
func (b *batch) add(t *tree, pos *board.Position) (out outcome, lf *leaf, queuedNow bool) {
	q := &b.leaves[b.n]
	q.t = t
	lf = &q.lf
	out = t.descend(pos, lf, &b.ml)
	switch out {
	case needsNetwork:
		if !t.fromCache(b.cache, lf) {
			encoding.Encode(pos, b.input[b.n*encoding.InputSize:(b.n+1)*encoding.InputSize])
			b.n++
			queuedNow = true
		}
	case resolved:
		t.backup(lf, false)
	}
	for range len(lf.path) - 1 {
		pos.Unmake()
	}
	return out, lf, queuedNow
}

// evaluate runs the network on the queued leaves (a no-op when none are).
func (b *batch) evaluate() error {
	if b.n == 0 {
		return nil
	}
	return b.ev.Evaluate(b.input, b.n, b.policy, b.value)
}

// apply backs up the network's result for queued leaf i (after evaluate)
// and caches it.
func (b *batch) apply(i int) *leaf {
	q := &b.leaves[i]
	q.t.applyNetwork(b.cache, &q.lf, b.policy[i*encoding.PolicySize:(i+1)*encoding.PolicySize], b.value[i], &b.priors)
	return &q.lf
}

// reset empties the batch for the next round of add.
func (b *batch) reset() { b.n = 0 }
