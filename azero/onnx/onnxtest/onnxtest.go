package onnxtest

import (
	"os"
	"testing"

	"github.com/twofold-chess/twofold/azero/onnx"
)

// RequireEnv names the environment variable that makes a missing ONNX
// Runtime fail the tests instead of skipping them: `make test` installs
// the library and sets it.
const RequireEnv = "TWOFOLD_REQUIRE_ORT"

// Open returns the embedded network (onnx.Open with the defaults), or
// skips the test where ONNX Runtime cannot be loaded: always in a build
// without cgo, elsewhere unless RequireEnv is set, which turns a missing
// library into a failure.
func Open(t testing.TB) *onnx.Network {
	t.Helper()
	if !onnx.Supported {
		t.Skip(onnx.ErrNotInBuild)
	}
	net, err := onnx.Open("", "")
	if err != nil {
		if os.Getenv(RequireEnv) != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return net
}
