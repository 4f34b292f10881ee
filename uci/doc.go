// Package uci speaks the Universal Chess Interface: it reads commands from a
// GUI, keeps the game position and options, runs the searcher beside the
// input loop and writes its reports. Bad input is answered with an
// "info string" and never ends the loop.
package uci
