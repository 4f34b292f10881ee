// Package ladder is the fixed evaluation ladder that measures the AlphaZero
// network: a uniformly random mover, a one-ply greedy player and a classical
// alpha-beta searcher at depths 1 to 4 with a fixed simple evaluation
// (material plus piece-square tables). Games are played in-process from a
// fixed list of openings, each opening twice with colours swapped, and the
// ladder reports score and W/D/L against every rung.
//
// The ladder never changes: its players depend only on board and movegen and
// on explicit seeds, so a learning curve drawn from it compares like with like
// from the first iteration to the last, and a run can be repeated exactly.
package ladder
