// Package onnx runs the MCTS side's policy-value network with ONNX Runtime
// (github.com/yalue/onnxruntime_go): Open loads the runtime library and
// reads and checks a network file against the contract of package
// azero/encoding, and the network opens sessions. A *Network is an azero.Backend, the
// one way the searcher, self-play, the ladder players and bench get
// evaluators, and Open is the one way every caller gets a *Network.
//
// The binding needs cgo; in a build without it (CGO_ENABLED=0, an
// AlphaBeta-only engine) every entry point returns ErrNotInBuild and
// Supported is false, so callers compile unchanged.
package onnx
