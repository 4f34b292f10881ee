package azero

import (
	"math"
	"slices"
	"unsafe"

	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

// Node states.
const (
	stateNew      uint8 = iota // not expanded yet
	statePending               // children made, waiting for the network
	stateExpanded              // children have priors
	stateTerminal              // the game is over here; terminalValue is exact
	// The tablebases know the node's result, from the view of the side
	// that moved into it: it has no children and terminalValue is exact
	// (-1, 0, +1), but it is no proven mate. In this order.
	stateTBLoss
	stateTBDraw
	stateTBWin
)

// Proven results, from the view of the side that moved into the node.
const (
	provenNone int8 = 0
	provenWin  int8 = 1
	provenLoss int8 = -1
)

// node is one tree node. Statistics are kept from the view of the side
// that played the node's move (the parent's side to move), so a parent
// simply prefers the child with the highest Q.
type node struct {
	w      float64 // sum of backed-up values
	n      int32   // completed visits
	vl     int32   // visits in flight (virtual losses)
	first  int32   // index of the first child; children are contiguous
	prior  float32 // policy prior of move
	move   board.Move
	count  uint16 // number of children
	plies  uint16 // proven: plies to the end of the game with best play
	state  uint8
	proven int8
}

// terminalValue is a terminal node's exact value for the side that moved
// into it: 1 when that move mated, 0 for every draw (a move cannot lose on
// the spot). It is the node's proven result, so no field of its own is
// needed: 32 bytes a node rather than 40, a quarter more tree per MiB. A
// tablebase node's value is its state's.
func (nd *node) terminalValue() float32 {
	if nd.tablebase() {
		return float32(int(nd.state) - int(stateTBDraw))
	}
	return float32(nd.proven)
}

// tablebase reports whether the tablebases gave the node its value.
func (nd *node) tablebase() bool { return nd.state >= stateTBLoss }

// q is the node's mean value, or fallback when unvisited.
func (nd *node) q(fallback float64) float64 {
	if nd.n == 0 {
		return fallback
	}
	return nd.w / float64(nd.n)
}

// Params are the PUCT search constants.
type Params struct {
	CPuct        float64 // c_init of AlphaZero's growing exploration constant
	CPuctBase    float64 // c_base: exploration grows as log((N+c_base+1)/c_base)
	FPUReduction float64 // unvisited children start at parent Q - this*sqrt(visited policy)
	PolicyTemp   float64 // priors are softmax(logit / this); above 1 flattens them (Lc0's PolicyTemperature); 0 = the default
	// RootPolicyTemp is the temperature of the priors of a root expanded
	// as the root (0 = PolicyTemp). Self-play keeps it at 1 when it
	// flattens the tree's priors: Gumbel's training target is built from
	// the root's priors and must stay the network's own policy, improved.
	// A reused subtree's root keeps the priors it was expanded with.
	RootPolicyTemp float64
}

// rootTemp is the temperature of a root's priors.
func (p Params) rootTemp() float64 {
	if p.RootPolicyTemp == 0 {
		return p.PolicyTemp
	}
	return p.RootPolicyTemp
}

// DefaultParams are AlphaZero's c_init and c_base with an Lc0-style FPU and
// policy temperature: flattened priors (1.4) beat the network's own (1) on
// the ladder with each shipped network since r5e (docs/zero.md, "Options").
var DefaultParams = Params{CPuct: 1.25, CPuctBase: 19652, FPUReduction: 0.3, PolicyTemp: 1.4}

// SelfPlayParams are the constants self-play searches with: DefaultParams
// with the network's own priors (temperature 1), as every shipped network's
// games were played, so the recipe's rounds stay what they were. The root's
// temperature is 1 whatever PolicyTemp a run sets (see RootPolicyTemp).
var SelfPlayParams = func() Params {
	p := DefaultParams
	p.PolicyTemp, p.RootPolicyTemp = 1, 1
	return p
}()

// The ranges Params are held to. Outside them the PUCT score stops being a
// number: a CPuctBase of 0 divides by zero, a NaN or infinite constant makes
// every score NaN or ±Inf, and then no child compares better than another.
// The bounds are wider than any sensible setting (the UCI options are
// narrower still), so they only catch garbage.
const (
	minCPuct, maxCPuct               = 0, 1e4
	minCPuctBase, maxCPuctBase       = 1, 1e12
	minFPUReduction, maxFPUReduction = -10, 10
	minPolicyTemp, maxPolicyTemp     = 0.01, 100
)

// sanitized returns p with each non-finite constant replaced by its default
// and each finite one clamped into its range, so a tree never searches with
// constants that make PUCT scores meaningless.
func (p Params) sanitized() Params {
	fix := func(x, lo, hi, def float64) float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return def
		}
		return min(max(x, lo), hi)
	}
	// A temperature of 0 is the zero value (a Params written before the
	// field existed), not a request for argmax priors.
	temp := p.PolicyTemp
	if temp == 0 {
		temp = DefaultParams.PolicyTemp
	}
	// A root temperature of 0 (or below, or NaN) is "as PolicyTemp".
	rootTemp := 0.0
	if p.RootPolicyTemp > 0 {
		rootTemp = fix(p.RootPolicyTemp, minPolicyTemp, maxPolicyTemp, 0)
	}
	return Params{
		CPuct:          fix(p.CPuct, minCPuct, maxCPuct, DefaultParams.CPuct),
		CPuctBase:      fix(p.CPuctBase, minCPuctBase, maxCPuctBase, DefaultParams.CPuctBase),
		FPUReduction:   fix(p.FPUReduction, minFPUReduction, maxFPUReduction, DefaultParams.FPUReduction),
		PolicyTemp:     fix(temp, minPolicyTemp, maxPolicyTemp, DefaultParams.PolicyTemp),
		RootPolicyTemp: rootTemp,
	}
}

// tree is a search tree over a root position. It is not safe for concurrent
// use; the Searcher guards it with a mutex.
type tree struct {
	nodes    nodeStore
	pos      *board.Position // root position, with the game's history
	params   Params
	allowed  []board.Move // root moves to consider (searchmoves); nil = all
	noise    func(priors []float32)
	gumbel   *gumbelRoot // Gumbel AlphaZero's root search instead of PUCT at the root (self-play)
	maxNodes int         // expansion stops before nodes.size() would pass this
	// tb are the tablebases probed at expansion (none in self-play); tbCard
	// the most pieces probed, tbHits the positions found.
	tb     mind.Tablebases
	tbCard int
	tbHits uint64
	// rootTB says the root is in the tables, rootTBCP the score they give
	// it (syzygy.RootMove.Centipawns), reported instead of the network's.
	rootTB   bool
	rootTBCP int
}

const root = 0

// maxTreeNodes is the most nodes any tree holds: nodes are addressed by
// int32 index, and the slack keeps the page after the last from overflowing.
const maxTreeNodes = math.MaxInt32&^pageMask - pageSize

// nodeBytes is the memory of one node, for turning a budget into nodes.
const nodeBytes = int(unsafe.Sizeof(node{}))

// at returns node i.
func (t *tree) at(i int32) *node { return t.nodes.at(i) }

// size is the number of nodes in the tree.
func (t *tree) size() int { return t.nodes.size() }

func newTree(pos *board.Position, params Params) *tree {
	t := &tree{pos: pos.Clone(), params: params.sanitized(), maxNodes: maxTreeNodes}
	*t.at(t.nodes.alloc(1)) = node{first: -1}
	return t
}

// outcome says how a selected leaf is resolved.
type outcome uint8

const (
	needsNetwork outcome = iota // expanded; its value must come from the network
	resolved                    // exact (terminal or proven) or cached value known
	collision                   // another playout is evaluating this leaf
	treeFull                    // the leaf cannot be expanded within maxNodes
)

// leaf is one playout in flight: the path from the root and what to back up.
type leaf struct {
	path  []int32
	key   uint64
	side  board.Color // side to move at the leaf
	value float32     // for the side that moved into the leaf, when resolved
	slot  int         // input slot in the batch (needsNetwork)
}

// descend walks from the root to a leaf with PUCT, making the moves on pos
// (which must be the root position): the caller unmakes len(path)-1 moves
// once it is done with the leaf position. A new leaf is expanded: legal moves become children, terminal positions
// are resolved exactly, and mates in one among the children are marked.
// needsNetwork leaves get a virtual loss along their path.
func (t *tree) descend(pos *board.Position, lf *leaf, ml *movegen.MoveList) outcome {
	lf.path = append(lf.path[:0], root)
	idx := int32(root)
	for {
		nd := t.at(idx)
		switch {
		case nd.state == stateTerminal || nd.tablebase():
			lf.value = nd.terminalValue()
			return resolved
		case nd.proven != provenNone && idx != root:
			lf.value = float32(nd.proven)
			return resolved
		case nd.state == statePending:
			return collision
		case nd.state == stateNew:
			switch t.expand(idx, pos, ml) {
			case expandTerminal:
				lf.value = t.at(idx).terminalValue()
				return resolved
			case expandFull:
				return treeFull
			}
			lf.key, lf.side = pos.Key(), pos.Side()
			for _, i := range lf.path {
				t.at(i).vl++
			}
			return needsNetwork
		case nd.count == 0:
			// Cannot happen (an expanded node has moves, or it would be
			// terminal), but a childless node must not be descended into.
			lf.value = 0
			return resolved
		}
		if idx == root && t.gumbel != nil {
			idx = t.gumbel.pick(t)
		} else {
			idx = t.pick(idx)
		}
		pos.Make(t.at(idx).move)
		lf.path = append(lf.path, idx)
	}
}

// What expand did.
const (
	expandChildren = iota // children made; the node waits for the network
	expandTerminal        // the game is over at the node
	expandFull            // nothing done: the children would pass maxNodes
)

// expand makes the children of a new node at pos, or marks it terminal: a
// game over, or a position the tablebases know (probeTB).
// The root is never terminal by repetition or the fifty-move rule: the game
// goes on from it, so its moves must be searched. Children that would take
// the tree past maxNodes are not made (except the root's, so that every
// search has moves to choose from); terminal nodes need no memory and are
// still resolved.
//
// Repetition is the rule's threefold, not the twofold many searchers use:
// with a twofold draw a repeat is worth exactly 0, and a young network whose
// values lean slightly against the side that just moved (so every other move
// looks a little worse than 0 to both sides) shuffles pieces into a draw in
// most of its games, which then teach the policy to shuffle.
func (t *tree) expand(idx int32, pos *board.Position, ml *movegen.MoveList) int {
	movegen.Legal(pos, ml)
	nd := t.at(idx)
	switch {
	case ml.Len() == 0:
		nd.state = stateTerminal
		if movegen.InCheck(pos) {
			nd.proven = provenWin // the mover delivered mate
		}
		return expandTerminal
	case idx != root && (pos.FiftyMoveRule() || pos.InsufficientMaterial() || pos.ThreefoldRepetition()):
		nd.state = stateTerminal // a draw: terminalValue 0
		return expandTerminal
	case idx != root && t.tbCard > 0 && t.probeTB(nd, pos):
		return expandTerminal
	case idx != root && t.nodes.sizeAfter(ml.Len()) > t.maxNodes:
		return expandFull
	}
	first := t.nodes.alloc(ml.Len())
	var reply movegen.MoveList
	for i, m := range ml.Moves() {
		child := node{move: m, first: -1}
		// Mates in one are found here, whatever the network thinks: only
		// checking moves can mate, and those are few.
		if movegen.GivesCheck(pos, m) {
			pos.Make(m)
			movegen.Legal(pos, &reply)
			if reply.Len() == 0 {
				child.state, child.proven = stateTerminal, provenWin
			}
			pos.Unmake()
		}
		*t.at(first + int32(i)) = child
	}
	nd = t.at(idx)
	nd.first, nd.count, nd.state = first, uint16(ml.Len()), statePending
	t.refreshProven(idx)
	return expandChildren
}

// setPriors turns the network's logits into the children's priors (a
// softmax of logit/PolicyTemp over the legal moves) and marks the node
// expanded. A NaN or infinite logit among the legal moves makes the softmax
// meaningless (an infinity minus itself is NaN), so such a node gets uniform
// priors: the search then still works, on its values and its visits alone.
func (t *tree) setPriors(idx int32, side board.Color, logits []float32) {
	nd := t.at(idx)
	children := t.nodes.span(nd.first, nd.count)
	maxLogit, finite := float32(math.Inf(-1)), true
	for i := range children {
		l := logits[encoding.MoveIndexFor(side, children[i].move)]
		finite = finite && isFinite(float64(l))
		children[i].prior = l
		maxLogit = max(maxLogit, l)
	}
	var sum float32
	if finite {
		temp := t.params.PolicyTemp
		if idx == root {
			temp = t.params.rootTemp()
		}
		invTemp := float32(1 / temp)
		for i := range children {
			children[i].prior = float32(math.Exp(float64((children[i].prior - maxLogit) * invTemp)))
			sum += children[i].prior
		}
	}
	// sum >= 1 when finite (the largest logit contributes exp(0)); the test
	// also catches the NaN of an empty or broken sum.
	if !(sum >= 1) {
		for i := range children {
			children[i].prior, sum = 1, float32(len(children))
		}
	}
	for i := range children {
		children[i].prior /= sum
	}
	nd.state = stateExpanded
	if idx == root && t.noise != nil {
		t.applyNoise()
	}
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// networkValue is the value the tree uses for a network's output v: NaN and
// infinities (a broken network) count as a draw, and finite values are held
// to [-1, 1], the range of the value head's tanh, so that one wild output
// cannot outweigh every other visit of a node.
func networkValue(v float32) float32 {
	if !isFinite(float64(v)) {
		return 0
	}
	return min(max(v, -1), 1)
}

// setPriorsFrom copies cached priors (in move generation order).
func (t *tree) setPriorsFrom(idx int32, priors []float32) {
	nd := t.at(idx)
	for i := range priors {
		t.at(nd.first + int32(i)).prior = priors[i]
	}
	nd.state = stateExpanded
	if idx == root && t.noise != nil {
		t.applyNoise()
	}
}

// ownRootPriors says whether a root's priors differ from what the cache
// holds for its position: a root getting noise, or one whose priors have a
// temperature of their own. Such a root neither comes from nor goes into
// the cache.
func (t *tree) ownRootPriors() bool {
	return t.noise != nil || t.params.rootTemp() != t.params.PolicyTemp
}

// fromCache completes a leaf that needs the network from the cache, if the
// cache holds its position (never a root with priors of its own). It
// reports whether it did.
func (t *tree) fromCache(c *cache, lf *leaf) bool {
	idx := lf.path[len(lf.path)-1]
	if idx == root && t.ownRootPriors() {
		return false
	}
	v, priors, ok := c.get(lf.key, int(t.at(idx).count))
	if !ok {
		return false
	}
	t.setPriorsFrom(idx, priors)
	lf.value = -v
	t.backup(lf, true)
	return true
}

// applyNetwork expands a leaf with the network's output, caches it (not a
// root's priors of its own) and backs the value up; buf is scratch for priors.
// It is the one place network results enter a tree (the cache holds only
// what passed through here), so it is where they are made safe: a network
// can be finite on the positions onnx.Open tries and still not elsewhere.
func (t *tree) applyNetwork(c *cache, lf *leaf, logits []float32, value float32, buf *[]float32) {
	idx := lf.path[len(lf.path)-1]
	t.setPriors(idx, lf.side, logits)
	value = networkValue(value)
	if idx != root || !t.ownRootPriors() {
		*buf = t.priors(idx, *buf)
		c.put(lf.key, value, *buf)
	}
	lf.value = -value
	t.backup(lf, true)
}

// priors returns the children's priors of an expanded node.
func (t *tree) priors(idx int32, dst []float32) []float32 {
	nd := t.at(idx)
	dst = dst[:0]
	for _, c := range t.nodes.span(nd.first, nd.count) {
		dst = append(dst, c.prior)
	}
	return dst
}

func (t *tree) applyNoise() {
	nd := t.at(root)
	if nd.state != stateExpanded || nd.count == 0 {
		return
	}
	buf := make([]float32, nd.count)
	for i := range buf {
		buf[i] = t.at(nd.first + int32(i)).prior
	}
	t.noise(buf)
	for i := range buf {
		t.at(nd.first + int32(i)).prior = buf[i]
	}
}

// pick chooses the child of idx with the highest PUCT score. It always
// returns a child of an expanded node: a NaN score ranks below every number
// (the first child stands in when all are NaN), and when searchmoves
// excludes every root move all of them are searched.
func (t *tree) pick(idx int32) int32 {
	parent := t.at(idx)
	children := t.nodes.span(parent.first, parent.count)
	parentN := float64(parent.n + parent.vl)
	c := t.params.CPuct + math.Log((parentN+t.params.CPuctBase+1)/t.params.CPuctBase)
	cs := c * math.Sqrt(max(parentN, 1))
	visitedPolicy := 0.0
	for i := range children {
		if children[i].n+children[i].vl > 0 {
			visitedPolicy += float64(children[i].prior)
		}
	}
	// The parent's Q from its own side to move's view.
	fpu := -parent.q(0) - t.params.FPUReduction*math.Sqrt(visitedPolicy)

	restrict := idx == root && t.allowed != nil
	for {
		best, bestScore := int32(-1), math.Inf(-1)
		for i := range children {
			ch := &children[i]
			if restrict && !slices.Contains(t.allowed, ch.move) {
				continue
			}
			var score float64
			switch ch.proven {
			case provenWin: // a forced win: take the fastest
				score = 1e9 - float64(ch.plies)
			case provenLoss: // a forced loss: only when all are, and the slowest
				score = -1e9 + float64(ch.plies)
			default:
				nv := float64(ch.n + ch.vl)
				q := fpu
				if nv > 0 {
					q = (ch.w - float64(ch.vl)) / nv
				}
				score = q + cs*float64(ch.prior)/(1+nv)
			}
			if math.IsNaN(score) {
				score = math.Inf(-1)
			}
			if best < 0 || score > bestScore {
				best, bestScore = parent.first+int32(i), score
			}
		}
		if best >= 0 || !restrict {
			return best
		}
		// Every root move excluded by searchmoves: search them all.
		t.allowed, restrict = nil, false
	}
}

// backup adds the playout's value along its path, removing the virtual loss
// when the playout had one, and propagates proven results.
func (t *tree) backup(lf *leaf, virtual bool) {
	v := float64(lf.value)
	for i := len(lf.path) - 1; i >= 0; i-- {
		nd := t.at(lf.path[i])
		nd.n++
		nd.w += v
		if virtual {
			nd.vl--
		}
		v = -v
	}
	for i := len(lf.path) - 2; i >= 0; i-- {
		if !t.refreshProven(lf.path[i]) {
			break
		}
	}
}

// refreshProven marks idx proven from its children: a loss for the side
// that moved into it when some child is a forced win for its side to move,
// a win when every child is a forced loss. It reports a change.
func (t *tree) refreshProven(idx int32) bool {
	nd := t.at(idx)
	if nd.proven != provenNone || nd.count == 0 || nd.state == stateTerminal {
		return false
	}
	win, allLose, longest := -1, true, 0
	for _, ch := range t.nodes.span(nd.first, nd.count) {
		switch ch.proven {
		case provenWin:
			if win < 0 || int(ch.plies) < win {
				win = int(ch.plies)
			}
		case provenLoss:
			longest = max(longest, int(ch.plies))
		default:
			allLose = false
		}
	}
	switch {
	case win >= 0:
		nd.proven, nd.plies = provenLoss, uint16(win+1)
	case allLose:
		nd.proven, nd.plies = provenWin, uint16(longest+1)
	default:
		return false
	}
	return true
}

// children returns the root's children (empty before the first playout).
func (t *tree) children(idx int32) []node {
	nd := t.at(idx)
	if nd.first < 0 {
		return nil
	}
	return t.nodes.span(nd.first, nd.count)
}

// bestChild returns the index of idx's best child for play: a proven win
// first (the fastest), then the most visits among the rest (proven losses
// last, the slowest first), ties broken by Q.
func (t *tree) bestChild(idx int32) int32 {
	nd := t.at(idx)
	best := int32(-1)
	for i := int32(0); i < int32(nd.count); i++ {
		c := nd.first + i
		if idx == root && t.allowed != nil && !slices.Contains(t.allowed, t.at(c).move) {
			continue
		}
		if best < 0 || t.better(c, best) {
			best = c
		}
	}
	return best
}

// better orders children for play and for MultiPV.
func (t *tree) better(a, b int32) bool {
	x, y := t.at(a), t.at(b)
	rank := func(n *node) int { // proven win > unknown > proven loss
		return int(n.proven)
	}
	if rank(x) != rank(y) {
		return rank(x) > rank(y)
	}
	switch x.proven {
	case provenWin:
		return x.plies < y.plies
	case provenLoss:
		return x.plies > y.plies
	}
	if x.n != y.n {
		return x.n > y.n
	}
	if x.n == 0 {
		return x.prior > y.prior
	}
	return x.q(-2) > y.q(-2)
}

// pv returns the most-visited line from child c.
func (t *tree) pv(c int32, dst []board.Move) []board.Move {
	for c >= 0 {
		dst = append(dst, t.at(c).move)
		if t.at(c).count == 0 || t.at(c).n == 0 || len(dst) >= 64 {
			break
		}
		c = t.bestChild(c)
	}
	return dst
}

// reroot makes the node reached by moves from the root the new root, keeping
// its subtree (compacted into fresh memory). It reports false, leaving the
// tree alone, when that node was never expanded.
func (t *tree) reroot(moves []board.Move, pos *board.Position) bool {
	idx := int32(root)
	for _, m := range moves {
		next := int32(-1)
		for i, ch := range t.children(idx) {
			if ch.move == m {
				next = t.at(idx).first + int32(i)
			}
		}
		if next < 0 {
			return false
		}
		idx = next
	}
	old := *t.at(idx)
	if old.state != stateExpanded {
		return false
	}
	var nodes nodeStore
	*nodes.at(nodes.alloc(1)) = old
	// Breadth first: each copied node's children are copied as one block.
	for i := int32(0); int(i) < nodes.size(); i++ {
		from, count := nodes.at(i).first, nodes.at(i).count
		if from < 0 || count == 0 {
			continue
		}
		first := nodes.alloc(int(count)) // may move the first page
		copy(nodes.span(first, count), t.nodes.span(from, count))
		nodes.at(i).first = first
	}
	nodes.at(root).proven, nodes.at(root).plies = provenNone, 0
	t.nodes = nodes
	t.pos = pos.Clone()
	// The root's proven status is recomputed: it came from a parent's view.
	t.refreshProven(root)
	return true
}

// probeTB gives a new node inside the tablebases its value from the WDL
// tables instead of the network, as Lc0 does: right after a capture or
// pawn move (the tables' value assumes a zeroed fifty-move counter), with
// no castling rights and at most tbCard pieces. The node then needs no
// children. Under the fifty-move rule a cursed win and a blessed loss are
// draws. It reports whether the tables had the position.
func (t *tree) probeTB(nd *node, pos *board.Position) bool {
	if pos.HalfmoveClock() != 0 || pos.Castling() != board.NoCastling || pos.Occupied().Count() > t.tbCard {
		return false
	}
	wdl, err := t.tb.Tables.ProbeWDL(pos)
	if err != nil {
		return false
	}
	t.tbHits++
	draw := syzygy.Draw // the best result that still counts as a draw
	if t.tb.Rule50 {
		draw = syzygy.CursedWin
	}
	switch { // the side to move's result; the node's value is the mover's
	case wdl > draw:
		nd.state = stateTBLoss
	case wdl < -draw:
		nd.state = stateTBWin
	default:
		nd.state = stateTBDraw
	}
	return true
}

// tbRoot returns the root moves the search may choose from: when the root
// is in the tablebases, those of allowed (all when nil) that keep its
// result, ranked by the DTZ tables (by WDL when DTZ files are missing), so
// that a won ending is converted within the fifty-move rule and a drawn
// one held; otherwise allowed. It also sets up the probes at expansion.
func (t *tree) tbRoot(tb mind.Tablebases, allowed []board.Move) []board.Move {
	t.tb, t.tbCard, t.tbHits, t.rootTB = tb, tb.Cardinality(), 0, false
	if t.tbCard == 0 || t.pos.Castling() != board.NoCastling || t.pos.Occupied().Count() > t.tbCard {
		return allowed
	}
	q := t.pos.Clone()
	ranked, err := tb.Tables.ProbeRoot(q)
	if err != nil {
		if ranked, err = tb.Tables.ProbeRootWDL(q); err != nil {
			return allowed
		}
	}
	t.tbHits += uint64(len(ranked))
	var keep []board.Move
	best := 0
	for _, rm := range ranked { // best first
		if allowed != nil && !slices.Contains(allowed, rm.Move) {
			continue
		}
		if len(keep) > 0 && rm.Rank < best {
			break // the rest spoil the result
		}
		if len(keep) == 0 {
			t.rootTB, t.rootTBCP = true, rm.Centipawns(tb.Rule50)
		}
		best = rm.Rank
		keep = append(keep, rm.Move)
	}
	if len(keep) == 0 {
		return allowed
	}
	return keep
}
