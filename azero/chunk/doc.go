// Package chunk is the training-data format of the zero mind: the samples
// self-play writes (package azero) and the trainer reads
// (azero/train/chunks.py), format version 2.
//
// A chunk file ("*.twfc.gz") is one gzip stream of little-endian data:
//
//	magic "TWFC", uint32 version (2), uint32 sample count, then per sample:
//	  17 x uint64   bitboards of input planes 0-16 (bit i = square i)
//	  uint8         halfmove clock (plane 17 = value/100)
//	  uint16        fullmove number (plane 18 = min(value/200, 1))
//	  int8          result for the side to move: +1 win, 0 draw, -1 loss
//	  float32       the search's value of the root for the side to move, in
//	                [-1, 1], or NaN when the root was not searched (version 2)
//	  uint16 n, then n x (uint16 policy index, float32 probability):
//	                the policy target (sums to 1)
//
// Version 1 chunks (no search value) are still read, with Q = NaN.
// Files are written to a temporary name and renamed, so a chunk either
// exists whole or not at all.
package chunk
