// Package nnue is Twofold's efficiently updatable neural network
// evaluation: 768 piece-square inputs per perspective feed a hidden layer of
// H neurons (the accumulator), the two perspectives' activations are
// concatenated (side to move first) and a single output neuron gives the
// score; a version 2 network has several output neurons (output buckets) and
// uses the one its position's number of pieces selects, and a version 3
// network also has several sets of feature weights (king buckets), each
// perspective using the one its own king's square selects. Inference is
// quantised integer arithmetic; the accumulators are
// updated incrementally as moves are made, so a search never recomputes
// them from scratch per node.
//
// # Network file format, versions 1 to 3
//
// All numbers are little-endian.
//
//	offset  size      field
//	0       8         magic "TWFNNUE1"
//	8       4         uint32 version: 1; 2 with output buckets; 3 with king buckets
//	12      4         uint32 inputs = 768
//	16      4         uint32 hidden H: a multiple of 16, 16..2048
//	20      4         uint32 QA = 255 (accumulator quantisation)
//	24      4         uint32 QB = 64 (output weight quantisation)
//	28      4         uint32 scale = 400 (centipawns per unit of output)
//	32      4         uint32 activation: 0 = CReLU, 1 = SCReLU
//	(versions 2 and 3)
//	36      4         uint32 output buckets B: 2..16 in version 2, 1..16 in
//	                  version 3 (version 1: B = 1)
//	(version 3 only)
//	40      32        uint8 king buckets: the bucket of each square of a
//	                  perspective's own king, rank*4 + file, files a-d (see
//	                  Features); K buckets, each of 0..K-1 used, K <= 16
//	36|40|72 K*768*H*2 int16 feature weights, one row of H per input feature,
//	                  king bucket after king bucket (K = 1 before version 3)
//	        H*2       int16 feature biases
//	        B*2H*2    int16 output weights, bucket after bucket: of each, the
//	                  first H multiply the side to move's accumulator, the
//	                  next H the other side's
//	        B*4       int32 output biases, one per bucket, quantised by QA*QB
//	        4         uint32 CRC-32 (IEEE) of every byte before it
//
// A position with n pieces (kings included) uses bucket
// min((n-2) / ceil(32/B), B-1): with 8 buckets, 2-5 pieces bucket 0, ...,
// 30-32 pieces bucket 7. A network with one bucket is written as version 1.
//
// A file is refused whole (nothing is half-loaded) when the magic, version,
// inputs, QA, QB, scale, activation, bucket counts or king bucket map differ
// from the above,
// H is out of range or not a multiple of 16, the file is shorter or longer
// than H and B imply, or the checksum does not match.
//
// # Features
//
// The feature of a piece of colour pc and type pt (board.Pawn=0 ..
// board.King=5) on square sq (a1=0 .. h8=63), seen from perspective persp:
//
//	384*(pc != persp) + 64*pt + (sq if persp == White else sq^56)
//
// so each perspective sees its own pieces first and its own back rank as
// rank 1. In version 3, with k the square of persp's own king seen the same
// way (k = ksq for White, ksq^56 for Black): while k is on files e-h every
// square of that perspective is mirrored left to right (sq^7, and k^7 to
// look up the bucket), and the feature is offset by 768 times the bucket
// the map gives k, so
//
//	768*bucket[rank(k)*4 + file(k)] + FeatureIndex(persp, pc, sq ^ flip)
//
// with flip 7 when k's file is e-h and 0 otherwise. A king move that
// changes its side's bucket or flip changes every feature of that
// perspective, which is then recomputed (Network.NeedsRefresh); a version
// 3 file with one king bucket is the mirroring alone. Accumulator values are int16: bias plus the rows of the present
// features, with int16 wrap-around (a trained network stays far from it).
//
// # Output
//
// With c(x) = clamp(x, 0, QA) and w and bias the output weights and bias of
// the position's bucket, the centipawn score
// from the side to move's point of view is
//
//	CReLU:  sum  = Σ c(us[i])*w[i] + Σ c(them[i])*w[H+i]
//	        eval = (sum + bias) * scale / (QA*QB)
//	SCReLU: sum  = Σ int16(c(us[i])*w[i])*c(us[i]) + Σ int16(c(them[i])*w[H+i])*c(them[i])
//	        eval = (sum/QA + bias) * scale / (QA*QB)
//
// sum is accumulated in int32 with wrap-around (the order does not matter
// then); in SCReLU the product c*w is taken in int16 (wrapping), which is
// exact when |w| <= 127, as the trainer clips it. sum/QA is int32 division;
// the last line is computed in int64. Every division rounds toward zero
// (Go's /). The vector kernels and the pure-Go kernels give identical
// results for every network, including ones that wrap.
//
// # Kernels
//
// Built with GOEXPERIMENT=simd on amd64, the package uses simd/archsimd:
// AVX-512 (Int16x32) when the CPU has it, else AVX2 (Int16x16), chosen at
// run time; otherwise, and on CPUs without AVX2, plain Go loops. Kernels
// lists what the build and CPU can run; Network.WithKernel picks one.
package nnue
