package onnx

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/encoding"
)

// A hand-built ONNX model for tests, encoded straight to protobuf (the
// repository has no ONNX or protobuf library, and a PyTorch export would
// need torch just to make a test file). It meets the network contract with
// the smallest graph whose outputs depend on the input:
//
//	s      = ReduceSum(planes, axes [1 2 3], keepdims) flattened to [batch, 1]
//	policy = s * policyW  ([4672] broadcast to [batch, 4672])
//	value  = s * valueW   ([1] broadcast to [batch, 1])
//
// Every input position has pieces, so s > 0: a NaN or infinite weight gives
// NaN or infinite outputs, a small finite one small finite outputs.

// pb is a protobuf message being written.
type pb []byte

func (m pb) varint(field int, v uint64) pb {
	m = binary.AppendUvarint(m, uint64(field)<<3)
	return binary.AppendUvarint(m, v)
}

func (m pb) bytes(field int, b []byte) pb {
	m = binary.AppendUvarint(m, uint64(field)<<3|2)
	m = binary.AppendUvarint(m, uint64(len(b)))
	return append(m, b...)
}

func (m pb) str(field int, s string) pb { return m.bytes(field, []byte(s)) }

// onnxTensorType is a float tensor type whose first dimension is "batch".
func onnxValueInfo(name string, dims ...int64) pb {
	shape := pb(nil).bytes(1, pb(nil).str(2, "batch"))
	for _, d := range dims {
		shape = shape.bytes(1, pb(nil).varint(1, uint64(d)))
	}
	tensor := pb(nil).varint(1, 1 /* FLOAT */).bytes(2, shape)
	return pb(nil).str(1, name).bytes(2, pb(nil).bytes(1, tensor))
}

func onnxNode(op string, out string, in ...string) pb {
	n := pb(nil)
	for _, i := range in {
		n = n.str(1, i)
	}
	return n.str(2, out).str(3, out).str(4, op)
}

func onnxFloats(name string, xs []float32) pb {
	raw := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return pb(nil).varint(1, uint64(len(xs))).varint(2, 1 /* FLOAT */).str(8, name).bytes(9, raw)
}

// testNetwork returns the model above with the given weights (policyW has
// encoding.PolicySize entries).
func testNetwork(policyW []float32, valueW float32) []byte {
	var axes []byte
	for _, a := range []int64{1, 2, 3} {
		axes = binary.LittleEndian.AppendUint64(axes, uint64(a))
	}
	axesT := pb(nil).varint(1, 3).varint(2, 7 /* INT64 */).str(8, "axes").bytes(9, axes)
	graph := pb(nil).
		bytes(1, onnxNode("ReduceSum", "s4", "planes", "axes")).
		bytes(1, onnxNode("Flatten", "s", "s4")).
		bytes(1, onnxNode("Mul", "policy", "s", "policy_w")).
		bytes(1, onnxNode("Mul", "value", "s", "value_w")).
		str(2, "test").
		bytes(5, axesT).
		bytes(5, onnxFloats("policy_w", policyW)).
		bytes(5, onnxFloats("value_w", []float32{valueW})).
		bytes(11, onnxValueInfo("planes", encoding.Planes, 8, 8)).
		bytes(12, onnxValueInfo("policy", encoding.PolicySize)).
		bytes(12, onnxValueInfo("value", 1))
	return pb(nil).
		varint(1, 7). // IR version 7 goes with opset 13
		str(2, "twofold-test").
		bytes(7, graph).
		bytes(8, pb(nil).str(1, "").varint(2, 13))
}

// filled is n copies of x.
func filled(n int, x float32) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = x
	}
	return xs
}

// writeNetwork writes model to a file in a test's temporary directory.
func writeNetwork(t testing.TB, name string, model []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, model, 0o644))
	return path
}
