// Command engine is the Twofold chess engine. With no arguments it speaks
// UCI on standard input and output (for Arena, Cute Chess, cutechess-cli,
// fastchess and other GUIs); subcommands run tools from a terminal.
package main
