package mind

import (
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/syzygy"
	"github.com/twofold-chess/twofold/timeman"
)

// Searcher is a searcher the UCI loop and the web board can drive. Calls
// other than Stop and PonderHit are made between searches.
type Searcher interface {
	// Go starts a search of p within lim beside the caller. The search is
	// set up before Go returns, so a Stop or PonderHit that follows at once
	// is never lost. report (never nil) gets progress; done gets the result,
	// once, after the last report. p must not change until then.
	Go(p *board.Position, lim timeman.Limits, report func(Info), done func(Result))
	// Stop ends the running search (it still calls done with its best move).
	Stop()
	// PonderHit turns a ponder search into a timed one: its clock starts now.
	PonderHit()
	// Clear forgets what earlier searches learned (a new game).
	Clear()
	// SetShared sets the options every searcher shares; from the next Go.
	// The searcher's own options (see Option) stay as they are.
	SetShared(Shared)
}

// Shared are the options every searcher takes (UCI's Threads, MultiPV,
// Move Overhead and the Syzygy options); each searcher declares its own
// (see Option).
type Shared struct {
	Threads      int
	MultiPV      int
	MoveOverhead time.Duration
	// Tablebases are the endgame tables both searchers probe; the zero
	// value probes none.
	Tablebases Tablebases
}

// Tablebases are the Syzygy tables a searcher probes and how, with the
// meanings of Stockfish's options. The driver opens the tables (once, for
// every searcher) and closes them only when no search runs.
type Tablebases struct {
	// Tables are the tables (SyzygyPath); nil probes none.
	Tables *syzygy.Tablebase
	// ProbeDepth (SyzygyProbeDepth) is the least remaining depth at which
	// the alpha-beta search probes a position with as many pieces as
	// ProbeLimit allows; positions with fewer pieces are probed at any
	// depth.
	ProbeDepth int
	// ProbeLimit (SyzygyProbeLimit) is the most pieces, kings included, of
	// a position probed; 0 probes none.
	ProbeLimit int
	// Rule50 (Syzygy50MoveRule) counts a win the fifty-move rule spoils
	// (cursed) and a loss it saves (blessed) as draws; false counts them
	// as wins and losses, for play without the rule.
	Rule50 bool
}

// DefaultTablebases returns tb with Stockfish's defaults: ProbeDepth 1,
// ProbeLimit 7, Rule50 true.
func DefaultTablebases(tb *syzygy.Tablebase) Tablebases {
	return Tablebases{Tables: tb, ProbeDepth: 1, ProbeLimit: 7, Rule50: true}
}

// Cardinality is the most pieces a search probes: ProbeLimit, or fewer
// when the tables have no larger ones; 0 when there are no tables.
func (t Tablebases) Cardinality() int {
	if t.Tables == nil {
		return 0
	}
	return max(min(t.ProbeLimit, t.Tables.MaxPieces()), 0)
}

// Bound says whether a score is exact or only a bound (an aspiration
// window failed).
type Bound uint8

const (
	Exact Bound = iota
	Lower       // the score is at least this ("lowerbound")
	Upper       // the score is at most this ("upperbound")
)

// Score is a line's value for the side to move: centipawns, or the moves
// to a forced mate.
type Score struct {
	Mate bool
	// Value is centipawns, or with Mate the moves to mate: > 0 the side to
	// move mates, otherwise it is mated (0: mated now).
	Value int
	Bound Bound
}

// CP is a centipawn score.
func CP(cp int) Score { return Score{Value: cp} }

// MateIn is a mate score in moves (> 0: the side to move mates).
func MateIn(moves int) Score { return Score{Mate: true, Value: moves} }

// Info is one progress report, the one form both searchers send: a line of
// the search (the fields of Stockfish's and Lc0's "info" lines), or, with
// CurrMove set, the root move being searched (only Depth is then
// meaningful).
type Info struct {
	// Depth and SelDepth: the iteration and the deepest ply reached, or for
	// MCTS the mean and the maximum playout depth.
	Depth, SelDepth int
	MultiPV         int // 1-based line number
	Score           Score
	Nodes           uint64 // nodes, or playouts for MCTS
	Time            time.Duration
	// HashFull is the transposition table's fill in permille, or -1 for a
	// searcher without one.
	HashFull int
	// TBHits counts the positions the search found in the tablebases
	// (UCI's tbhits).
	TBHits uint64
	PV     []board.Move
	// Q and Visits are MCTS's own (zero from alpha-beta): the line's
	// expected result in [-1, 1] for the side to move, of which Score is
	// the centipawn form, and the playouts through its first move.
	Q      float64
	Visits int

	CurrMove       board.Move
	CurrMoveNumber int
}

// NPS is the report's nodes per second.
func (i Info) NPS() uint64 { return timeman.NPS(i.Nodes, i.Time) }

// Result is the outcome of a search, the one form both searchers answer in.
type Result struct {
	Best, Ponder board.Move // NoMove when the side to move has no legal move
	// Score is Best's value for the side to move (exact): for MCTS the
	// centipawn form of Q.
	Score Score
	// Depth is the last iteration alpha-beta completed; 0 from MCTS.
	Depth int
	Nodes uint64 // nodes, or playouts for MCTS
	// Q and Evals are MCTS's own (zero from alpha-beta): Best's expected
	// result in [-1, 1] for the side to move, and the positions the network
	// evaluated (the rest were terminal, proven or cached).
	Q     float64
	Evals uint64
	// Root is MCTS's own (empty from alpha-beta): the root moves after the
	// search in the order MCTS ranks them (Best first), with their
	// playouts and the network's prior.
	Root []RootMove
	// Err is a failure that cut the search short (a network that could not
	// be run); Best is still a legal move.
	Err error
}

// RootMove is a root move as a tree search saw it.
type RootMove struct {
	Move   board.Move
	Visits int     // playouts through the move
	Share  float64 // Visits over the visits of all root moves, 0 to 1
	Prior  float64 // the network's policy prior for the move, 0 to 1
	// Q is the move's expected result in [-1, 1] for the side to move (0
	// when unvisited).
	Q float64
	// Proven is +1 when the move is known to win by force, -1 to lose, 0
	// when not known (a search may end on a proof before any playout).
	Proven int
}
