package azero

import (
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
}

// NewPlayer returns an MCTS player of net: one thread, no noise.
func NewPlayer(net *Network, name string, playouts int) (*Player, error) {
	o := DefaultOptions
	o.Threads = 1
	s, err := NewONNX(net, o)
	if err != nil {
		return nil, err
	}
	return &Player{name: name, playouts: max(playouts, 1), s: s}, nil
}

// Name implements ladder.Player.
func (p *Player) Name() string { return p.name }

// NewGame implements ladder.Player: the tree and cache are dropped.
func (p *Player) NewGame() { p.s.Clear() }

// Move implements ladder.Player.
func (p *Player) Move(pos *board.Position) board.Move {
	return p.s.Search(pos, timeman.Limits{Nodes: uint64(p.playouts)}, nil).Best
}

// Close frees the player's evaluator.
func (p *Player) Close() { p.s.Close() }
