// Package onnxtest opens ONNX Runtime for the tests of the packages that
// run a network (uci, play, cmd/engine), with one rule for when the
// library is missing.
package onnxtest
