package onnx

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
)

// ErrNotInBuild is what every ONNX Runtime entry point returns in a build
// without cgo, where the binding cannot be compiled (Supported is
// false): such a binary is an AlphaBeta-only engine.
var ErrNotInBuild = errors.New("MCTS is not in this build: built without cgo/ONNX Runtime")

// LibraryEnv names the environment variable that may point at the library.
const LibraryEnv = "ONNXRUNTIME_LIB"

// LibraryCandidates lists where the library is looked for, in order: the
// explicit path (the OnnxRuntimeLib option) alone when given; otherwise
// $ONNXRUNTIME_LIB, then the executable's own directory (where a release
// archive puts it), then the install location `make` uses (lib/ beside or
// above the binary, and lib/ in the working directory or a parent of it,
// which is where `go test` finds the repository's copy). Every candidate is
// a full path: on Windows a bare "onnxruntime.dll" would let LoadLibrary
// pick the older copy Windows itself ships in System32.
func LibraryCandidates(explicit string) []string {
	if explicit != "" {
		return []string{explicit}
	}
	var c []string
	if env := os.Getenv(LibraryEnv); env != "" {
		c = append(c, env)
	}
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		c = append(c, filepath.Join(dir, LibraryName), filepath.Join(dir, "lib", LibraryName), filepath.Join(dir, "..", "lib", LibraryName))
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			c = append(c, filepath.Join(dir, "lib", LibraryName))
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	// Without repeats (lib/ above the binary is often lib/ in the working
	// directory), so that the "not found" message lists each place once.
	seen := map[string]bool{}
	return slices.DeleteFunc(c, func(p string) bool {
		p = filepath.Clean(p)
		defer func() { seen[p] = true }()
		return seen[p]
	})
}

func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb || a == b
}
