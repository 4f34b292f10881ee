// Package pgn writes and reads games in Portable Game Notation. It writes
// self-play, gating and ladder games so that any chess GUI and tools such
// as pgn-extract and ordo can read them, and the web board's games with
// their comments, NAGs and variations (an annotated review among them); it
// reads PGN from people and tools (tags, comments, NAGs, nested
// variations, FEN/SetUp starts, Chess960, several games in a file), with
// the line and the reason when a text is not a game.
package pgn
