// Package movegen generates legal chess moves with magic bitboards, answers
// attack and check queries, and handles the notations and game-state rules
// that need move generation (UCI move parsing, SAN, checkmate, stalemate).
//
// Generation is fully legal: pins, check evasions, double check, castling
// through attacked squares (Chess960 included) and the en-passant
// discovered-check cases are resolved here, so callers never test legality
// after making a move. Moves go into a caller-provided MoveList and nothing
// is allocated.
package movegen
