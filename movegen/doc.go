// Package movegen generates legal chess moves with magic bitboards, answers
// attack and check queries, and handles the notations and game-state rules
// that need move generation (UCI move parsing, SAN, checkmate, stalemate).
//
// Generation is fully legal: pins, check evasions, double check, castling
// through attacked squares (Chess960 included) and the en-passant
// discovered-check cases are resolved here, so callers never test legality
// after making a move. Moves go into a caller-provided MoveList and nothing
// is allocated; CountLegal counts them without listing them (perft's last
// ply). The order of the list is part of the engine's behaviour: the search
// breaks move-ordering ties by it, and TestGenerationOrderIsStable pins it.
package movegen
