package azero

import (
	"math/rand/v2"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/timeman"
)

// Player plays games with a fixed number of playouts per move, for the
// ladder and for gating matches (it satisfies ladder.Player). The tree is
// reused from move to move within a game.
type Player struct {
	name     string
	playouts int
	s        *Searcher

	sampleMoves int        // moves per game picked in proportion to visits
	rng         *rand.Rand // for those picks
	moves       int        // moves made in this game
	visits      []MoveVisits
}

// NewPlayer returns an MCTS player evaluating with b: one thread, no noise.
func NewPlayer(b Backend, name string, playouts int) (*Player, error) {
	o := DefaultOptions
	o.Threads = 1
	s, err := Open(b, o)
	if err != nil {
		return nil, err
	}
	return &Player{name: name, playouts: max(playouts, 1), s: s}, nil
}

// SetParams replaces the player's PUCT constants (the ladder measures
// them; the UCI options CPuct, CPuctBase and FPUReduction set the same).
func (p *Player) SetParams(params Params) {
	o := p.s.Options()
	o.Params = params
	p.s.SetOptions(o)
}

// SetBatchSize sets the leaves gathered per network run (the UCI option
// MCTSBatchSize): fewer make each playout see the ones before it, more make
// the network's runs cheaper.
func (p *Player) SetBatchSize(n int) {
	o := p.s.Options()
	o.BatchSize = n
	p.s.SetOptions(o)
}

// SampleMoves makes the player pick each of its first n moves of a game in
// proportion to the root visits, as self-play does, instead of the most
// visited. Gating uses it so that two versions of a network do not replay
// the same few lines; seed fixes the draws.
func (p *Player) SampleMoves(n int, seed uint64) {
	p.sampleMoves = n
	p.rng = rand.New(rand.NewPCG(seed, 0x5eed))
}

// Name implements ladder.Player.
func (p *Player) Name() string { return p.name }

// NewGame implements ladder.Player: the tree and cache are dropped.
func (p *Player) NewGame() {
	p.s.Clear()
	p.moves = 0
}

// Move implements ladder.Player.
func (p *Player) Move(pos *board.Position) board.Move {
	best := p.s.Search(pos, timeman.Limits{Nodes: uint64(p.playouts)}, nil).Best
	p.moves++
	if p.moves > p.sampleMoves || best == board.NoMove {
		return best
	}
	p.visits = p.s.RootVisits(p.visits[:0])
	total := 0
	for _, v := range p.visits {
		if v.Proven > 0 {
			return best // a forced win is never gambled away
		}
		if v.Proven == 0 {
			total += v.Visits
		}
	}
	if total == 0 {
		return best
	}
	x := p.rng.IntN(total)
	for _, v := range p.visits {
		if v.Proven != 0 {
			continue
		}
		if x < v.Visits {
			return v.Move
		}
		x -= v.Visits
	}
	return best
}

// Close frees the player's evaluator.
func (p *Player) Close() { p.s.Close() }
