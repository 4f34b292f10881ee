// Package search is Twofold's classical searcher: iterative deepening with
// aspiration windows over a principal-variation negamax, a shared
// transposition table, quiescence with SEE, the usual pruning and reduction
// heuristics, and Lazy SMP threads. It reports through callbacks and knows
// nothing of UCI.
//
// # A search, from the top
//
// [Searcher.Search] (or [Searcher.Go]) lists the root moves, starts the
// clock and runs one thread per [Options.Threads]; the threads share the
// transposition table, each keeping its own position and histories. Each
// thread deepens iteratively: depth 1, 2, 3, ..., and at each depth every
// MultiPV line inside an aspiration window around its last score, widened
// when the score falls outside. The root search tries the root moves and
// keeps each one's score, PV and node count. Below the root the negamax
// node probes the table, may prune itself on its static evaluation (reverse
// futility, razoring, the null move), may extend the table's move (singular
// extension), and otherwise runs its move loop: the moves in order, the
// hopeless ones pruned at low depth, the first searched with the full
// window and the rest with a null window, reduced the later and the worse
// their history. A move that cuts off is rewarded in the histories, which
// order the next nodes' moves. At the horizon, quiescence searches the
// captures and promotions until the position is quiet. After each iteration
// the main thread reports the lines through the callback and asks the clock
// whether to go on; Search returns the best root move.
//
// # Files
//
//   - search.go: the Searcher, its Options, Search, Go, Stop and PonderHit,
//     and the reports.
//   - thread.go: one search thread: its position, per-ply frames, root
//     moves and histories; what every node does on entry.
//   - iterate.go: iterative deepening, aspiration windows, the root search,
//     and when deepening has nothing left to find.
//   - negamax.go: the principal-variation search below the root: its
//     pruning, extensions, move loop and reductions.
//   - quiesce.go: the quiescence search.
//   - movepick.go: move ordering: generating the moves in stages, scoring
//     them and picking the next.
//   - history.go: killers, countermoves, the butterfly, continuation and
//     capture histories, and their updates.
//   - correction.go: the correction history, which adjusts the static
//     evaluation by what searches of the same pawn structure found.
//   - see.go: static exchange evaluation.
//   - tt.go: the transposition table, and mate scores as stored in it.
//   - nnue.go: the network's accumulators along the search stack.
//   - strength.go: weakened play (difficulties, Skill Level, UCI_Elo).
//   - tunables.go: the search's parameters, tunable by SPSA, and the
//     late-move reduction table.
//   - types.go: scores and limits.
//   - mind.go: the Searcher as a mind.Searcher, and its scores as mind reports.
//   - settings.go: the options the searcher declares (Hash, strength, NNUE).
package search
