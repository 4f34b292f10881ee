// Package bench is the fixed search benchmark: a list of varied positions,
// each searched to a fixed depth with one thread and a fresh 16 MB table.
// Its total node count is deterministic, so it is the signature of the
// search: commits that change the search quote it, and a change that should
// not alter the search must leave it equal. RunSpeed times the same
// positions with any number of threads instead, for speed and its scaling;
// RunMCTS measures the MCTS searcher.
package bench
