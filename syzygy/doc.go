// Package syzygy probes Syzygy endgame tablebases: the WDL (.rtbw) files
// that give win, draw or loss under the fifty-move rule and the DTZ (.rtbz)
// files that give the distance to the next capture or pawn move, for
// positions of up to seven pieces. It is written in Go from the published
// file format (Ronald de Man's generator and probing code, as also read by
// Stockfish and Fathom) and needs no cgo.
//
// Open finds the tables in a list of directories; each file is mapped into
// memory (Unix and Windows; read into memory elsewhere) and checked when a
// probe first needs it. A missing, truncated, corrupt or wrongly named file makes
// the probes that need it fail with a *TableError; the others go on.
// ProbeWDL and ProbeDTZ allocate nothing and are safe for many goroutines,
// each with its own board.Position. ProbeRoot ranks the legal moves of a
// root position the way Stockfish does, so that a search keeps a won ending
// won within the fifty-move rule and a drawn one drawn.
//
// Positions with castling rights are not probed (the tables have none).
package syzygy
