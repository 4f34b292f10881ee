// Package perft counts the leaf nodes of the legal move tree to a fixed
// depth, the standard correctness test of a move generator. It offers the
// plain count (with bulk counting at the last ply), divide (the count under
// each root move) and a runner for EPD suites of reference counts.
package perft
