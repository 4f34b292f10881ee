// Package ucifuzz is a stress fuzzer for the engine's UCI loop. It drives
// the built engine binary as a subprocess with generated and mutated
// command sequences (FENs valid and broken, legal and illegal moves, every
// declared option with valid and absurd values, go with every parameter,
// interleavings of go, stop, ponderhit, isready, ucinewgame and quit, lines
// of a megabyte) and judges what comes back: the process stays alive,
// isready is answered within two seconds, every go gets exactly one
// bestmove and it is legal in the position that was sent (tracked with the
// repository's own board and movegen), stderr shows no Go panic, output
// lines stay short. Scripts are deterministic per seed, and the first
// script of every failure class is saved as a reproducer.
package ucifuzz
