// Package data is the training data of the NNUE evaluation: positions
// from self-play games, each labelled with the search's score and the game's
// result, in a compact fixed-size binary record, and the generator that
// plays the games.
//
// A record is 32 bytes, little-endian:
//
//	offset size  field
//	0      8     uint64 occupancy: bit i set when square i (a1=0 .. h8=63) holds a piece
//	8      16    the pieces, 4 bits each, in occupancy order (lowest square first),
//	             low nibble first; nibble = colour<<3 | type (board.Piece: colour
//	             0 White, 1 Black; type 0..5 = pawn, knight, bishop, rook, queen, king);
//	             nibbles after the last piece are 0
//	24     1     uint8 side to move (0 White, 1 Black)
//	25     2     int16 score of the search in centipawns, from White's view, in
//	             the network's units (search.NetworkUnits) when a network searched
//	27     1     uint8 game result: 0 Black won, 1 draw, 2 White won
//	28     2     uint16 fullmove number
//	30     2     uint16 reserved, 0
//
// Castling rights, the en-passant square and the halfmove clock are not
// stored: the evaluation does not see them. A file is a concatenation of
// records with no header, so files can be joined with cat and read with
// numpy (numpy.memmap with a 32-byte structured dtype).
//
// The generator can write the games format instead (games.go): each game
// once, its start position packed, then the move and score of each searched
// ply, in frames with a length and a CRC-32C, about a fifth of the bytes.
// Reading it replays the games and yields the same records; `engine
// datagen --unpack` turns it into a records file for the trainer.
package data
