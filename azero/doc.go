// Package azero is Twofold's AlphaZero-style searcher: a policy-value
// network, evaluated through a Backend (ONNX Runtime in package azero/onnx,
// or Uniform in tests), driving a batched Monte Carlo tree search (PUCT). It shares the rules core (board, movegen) and time
// management (timeman) with the classical searcher, reports through
// callbacks and knows nothing of UCI.
//
// The network's input and output layout is package azero/encoding; the
// self-play training chunks are package azero/chunk.
package azero
