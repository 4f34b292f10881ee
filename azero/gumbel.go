package azero

import (
	"math"
	"math/rand/v2"
)

// gumbelRoot is the root search of Gumbel AlphaZero (Danihelka, Guez,
// Schrittwieser and Silver, "Policy improvement by planning with Gumbel",
// ICLR 2022), used by self-play for its recorded moves. PUCT with Dirichlet
// noise needs hundreds of playouts before its visit counts are a better
// policy than the prior it started from; Gumbel's root improves the policy
// with a few dozen:
//
//   - m root moves are sampled without replacement by the Gumbel-top-k trick
//     (the m largest g(a) + logit(a), g drawn from Gumbel(0, 1));
//   - sequential halving spreads the playouts over them, halving the field
//     after each round by g(a) + logit(a) + σ(q̂(a));
//   - the move played is the survivor, and the policy target is
//     softmax(logit + σ(q̂)) over every legal move, where q̂ is the move's Q
//     when visited and a mix of the network's value and the visited Qs
//     otherwise ("completed Q"), min-max rescaled to [0, 1], and
//     σ(q) = (cVisit + max N) * cScale * q.
//
// Below the root the tree is PUCT as everywhere else. The constants are the
// paper's (and DeepMind's mctx library's) defaults. A gumbelRoot belongs to
// one fresh tree: its schedule counts playouts from an unvisited root.
type gumbelRoot struct {
	considered int // m
	budget     int // playouts through the root's children
	rng        *rand.Rand
	noisy      bool

	ready    bool
	schedule []int     // the visit count a move must have to be picked at each playout
	g        []float64 // Gumbel noise per root child (0 when not noisy)
	value    float64   // the network's value of the root, for the side to move
	score    []float64 // scratch: g + logit + σ(q̂)
	sigma    []float64 // scratch: σ(q̂)
}

const (
	gumbelCVisit = 50
	gumbelCScale = 0.1
)

// newGumbelRoot is the root search for a tree that will get playouts in
// all (the root's own expansion counts as one, as in the PUCT searches),
// considering m moves; rng draws the noise (noisy false: none, so the
// search is deterministic).
func newGumbelRoot(m, playouts int, rng *rand.Rand, noisy bool) *gumbelRoot {
	return &gumbelRoot{considered: max(m, 1), budget: max(playouts-1, 1), rng: rng, noisy: noisy}
}

// considerSchedule is sequential halving as a sequence: the visit count a
// move must have for playout i to go to it. Each round gives every move
// still in the field max(1, budget/(log2(m)*field)) more visits, then the
// field halves (down to 2).
func considerSchedule(m, budget int) []int {
	if m <= 1 {
		s := make([]int, budget)
		for i := range s {
			s[i] = i
		}
		return s
	}
	log2m := int(math.Ceil(math.Log2(float64(m))))
	seq := make([]int, 0, budget+m)
	visits := make([]int, m)
	for field := m; len(seq) < budget; field = max(2, field/2) {
		extra := max(1, budget/(log2m*field))
		for range extra {
			seq = append(seq, visits[:field]...)
			for i := range field {
				visits[i]++
			}
		}
	}
	return seq[:budget]
}

// init draws the noise and fixes the schedule once the root is expanded
// and before any child is visited, when the root's value is the network's.
func (gr *gumbelRoot) init(t *tree) {
	nd := t.at(root)
	gr.ready = true
	gr.value = -nd.q(0)
	count := int(nd.count)
	gr.schedule = considerSchedule(min(gr.considered, count), gr.budget)
	gr.g = make([]float64, count)
	gr.score = make([]float64, count)
	gr.sigma = make([]float64, count)
	if gr.noisy {
		for i := range gr.g {
			gr.g[i] = -math.Log(gr.rng.ExpFloat64()) // Gumbel(0, 1)
		}
	}
}

// pick is the root child for the next playout.
func (gr *gumbelRoot) pick(t *tree) int32 {
	if !gr.ready {
		gr.init(t)
	}
	nd := t.at(root)
	children := t.nodes.span(nd.first, nd.count)
	sim := 0
	for i := range children {
		if children[i].proven == provenWin { // a forced win needs no more search
			return nd.first + int32(i)
		}
		sim += int(children[i].n + children[i].vl)
	}
	want := gr.schedule[min(sim, len(gr.schedule)-1)]
	gr.scores(t, children)
	best, fallback := -1, -1
	for i := range children {
		visits := int(children[i].n + children[i].vl)
		if visits == want && (best < 0 || gr.score[i] > gr.score[best]) {
			best = i
		}
		// Past the budget (playouts in flight overshoot it) or out of
		// step with the schedule: the best move among those searched.
		if visits > 0 && (fallback < 0 || gr.score[i] > gr.score[fallback]) {
			fallback = i
		}
	}
	if best < 0 {
		best = max(fallback, 0)
	}
	return nd.first + int32(best)
}

// choice is the move to play after the search: a forced win if there is
// one, else the best scored among the most visited (sequential halving's
// survivor), never a forced loss while another move is not one.
func (gr *gumbelRoot) choice(t *tree) int32 {
	nd := t.at(root)
	if !gr.ready || nd.proven != provenNone {
		return t.bestChild(root)
	}
	children := t.nodes.span(nd.first, nd.count)
	gr.scores(t, children)
	most := int32(-1)
	for i := range children {
		if children[i].proven != provenLoss {
			most = max(most, children[i].n)
		}
	}
	best := -1
	for i := range children {
		if children[i].proven != provenLoss && children[i].n == most && (best < 0 || gr.score[i] > gr.score[best]) {
			best = i
		}
	}
	if best < 0 {
		return t.bestChild(root)
	}
	return nd.first + int32(best)
}

// policy is the improved policy softmax(logit + σ(q̂)) over the root's
// children, in their order, written into dst.
func (gr *gumbelRoot) policy(t *tree, dst []float64) []float64 {
	nd := t.at(root)
	children := t.nodes.span(nd.first, nd.count)
	dst = dst[:0]
	if !gr.ready {
		for i := range children {
			dst = append(dst, float64(children[i].prior))
		}
		return dst
	}
	sigma := gr.completedSigma(children)
	hi := math.Inf(-1)
	for i := range children {
		x := logit(children[i].prior) + sigma[i]
		dst = append(dst, x)
		hi = max(hi, x)
	}
	sum := 0.0
	for i := range dst {
		dst[i] = math.Exp(dst[i] - hi)
		sum += dst[i]
	}
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}

// scores fills gr.score with g + logit + σ(q̂) for the children.
func (gr *gumbelRoot) scores(t *tree, children []node) {
	sigma := gr.completedSigma(children)
	for i := range children {
		gr.score[i] = gr.g[i] + logit(children[i].prior) + sigma[i]
	}
}

// completedSigma returns σ(q̂) per child, in scratch memory of gr's.
func (gr *gumbelRoot) completedSigma(children []node) []float64 {
	// The mixed value: the network's value of the root, blended with the
	// prior-weighted mean Q of the visited moves by their visits.
	visits, visitedPrior, weightedQ := 0.0, 0.0, 0.0
	var most int32
	for i := range children {
		c := &children[i]
		if c.n > 0 {
			visits += float64(c.n)
			visitedPrior += float64(c.prior)
			weightedQ += float64(c.prior) * c.q(0)
			most = max(most, c.n)
		}
	}
	mixed := gr.value
	if visits > 0 && visitedPrior > 0 {
		mixed = (gr.value + visits*weightedQ/visitedPrior) / (1 + visits)
	}
	q := gr.sigma[:len(children)]
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range children {
		switch c := &children[i]; {
		case c.proven != provenNone: // a forced result is worth its value, visited or not
			q[i] = float64(c.proven)
		case isFinite(c.q(mixed)):
			q[i] = c.q(mixed)
		default:
			q[i] = 0
		}
		lo, hi = min(lo, q[i]), max(hi, q[i])
	}
	scale := (gumbelCVisit + float64(most)) * gumbelCScale / max(hi-lo, 1e-8)
	for i := range q {
		q[i] = (q[i] - lo) * scale
	}
	return q
}

// logit is the log of a prior, floored so that a prior that underflowed to
// zero still ranks (below every other).
func logit(prior float32) float64 { return math.Log(max(float64(prior), 1e-30)) }
