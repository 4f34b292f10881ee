// Package pgn writes finished games in Portable Game Notation, so that
// self-play, gating and ladder games can be replayed in any chess GUI or
// read by tools such as pgn-extract and ordo.
package pgn
