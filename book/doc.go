// Package book reads opening books: EPD suites of starting positions
// (ReadEPD) and Polyglot books (.bin): sorted 16-byte entries
// of position key, move, weight and learn value, all big-endian. A book is
// read into memory whole and looked up by binary search; its moves are
// checked against the legal moves of the position, so a corrupt or foreign
// book can make the engine search instead of using the book, never play an
// illegal move or crash.
package book
