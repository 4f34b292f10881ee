// Package encoding is the contract between the MCTS searcher (package azero)
// and its policy-value network: how a position becomes the network's input
// planes, and how a move maps to an index of the network's policy output.
// The trainer (azero/train/model.py) and the training chunks (azero/chunk)
// use the same layout.
//
// Everything is seen from the side to move: when Black moves, the board is
// flipped vertically (a1 <-> a8) and the colours are swapped, so the network
// always plays "up the board".
//
// Input "planes", float32 [batch, 19, 8, 8], indexed [plane][rank][file]
// (square = rank*8 + file, a1 = 0, h8 = 63, in the side-to-move frame):
//
//	0-5    own pawns, knights, bishops, rooks, queens, king (1 where present)
//	6-11   the opponent's, same order
//	12-15  castling rights: own king side, own queen side, opponent king
//	       side, opponent queen side (the whole plane 1 or 0)
//	16     the en-passant target square (only when a capture is possible)
//	17     halfmove clock / 100 (whole plane)
//	18     fullmove number / 200, capped at 1 (whole plane)
//
// Output "policy", float32 [batch, 4672] logits, index = plane*64 + from
// (from in the side-to-move frame), 73 move planes:
//
//	0-55   queen-style moves: direction*7 + distance-1, directions N, NE,
//	       E, SE, S, SW, W, NW (north = towards the opponent)
//	56-63  knight jumps (+1,+2) (+2,+1) (+2,-1) (+1,-2) (-1,-2) (-2,-1)
//	       (-2,+1) (-1,+2) as (file, rank) steps
//	64-72  under-promotions: 64 + direction*3 + piece, directions capture
//	       towards the a-file, straight, capture towards the h-file; pieces
//	       knight, bishop, rook
//
// Queen promotions are queen-style moves. Castling is encoded as the king
// taking its own rook (a queen-style move east or west), which covers
// Chess960 too. Output "value", float32 [batch, 1], tanh: the expected
// result for the side to move (+1 win, -1 loss).
package encoding
