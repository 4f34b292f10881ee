// Package board holds the chess position: bitboards and a mailbox, FEN,
// moves, make/unmake, Zobrist keys and the draw rules that need no move
// generation (fifty moves, repetition, insufficient material).
//
// Squares are numbered a1=0, b1=1, ..., h8=63. Castling is stored the
// Chess960 way for every game: a castling right remembers its rook's square,
// and a castling move is encoded as "king takes own rook".
package board
