package onnx

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runtimeOrSkip loads ONNX Runtime. `make test` installs it and sets
// TWOFOLD_REQUIRE_ORT, so there a missing library fails instead of skipping;
// a build without the binding (CGO_ENABLED=0) always skips.
func runtimeOrSkip(t testing.TB) {
	t.Helper()
	if !Supported {
		t.Skip(ErrNotInBuild)
	}
	if _, err := loadRuntime(""); err != nil {
		if os.Getenv("TWOFOLD_REQUIRE_ORT") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

// In a build without cgo every way into ONNX Runtime says why it is not
// there, in words a user can act on (CGO_ENABLED=0 go test ./azero).
func TestBuildWithoutRuntimeSaysSo(t *testing.T) {
	if Supported {
		t.Skip("this build has ONNX Runtime")
	}
	_, err := loadRuntime("")
	require.ErrorIs(t, err, ErrNotInBuild)
	assert.Contains(t, err.Error(), "not in this build")
	_, err = loadNetwork("")
	require.ErrorIs(t, err, ErrNotInBuild)
	_, err = Open("", "")
	require.ErrorIs(t, err, ErrNotInBuild)
	_, err = NewSession(nil, 1, 1)
	require.ErrorIs(t, err, ErrNotInBuild)
}

// The library is looked for beside the executable first (after the
// explicit choices), under this OS's file name, so a release archive's
// copy is the one used.
func TestLibraryCandidatesStartBesideTheExecutable(t *testing.T) {
	t.Setenv(LibraryEnv, "")
	exe, err := os.Executable()
	require.NoError(t, err)
	c := LibraryCandidates("")
	require.NotEmpty(t, c)
	assert.Equal(t, filepath.Join(filepath.Dir(exe), LibraryName), c[0])
	for i := range c {
		assert.NotContains(t, c[i+1:], c[i], "listed twice")
	}
	assert.Equal(t, []string{"x"}, LibraryCandidates("x"))
	t.Setenv(LibraryEnv, "/env/lib")
	assert.Equal(t, "/env/lib", LibraryCandidates("")[0])
}
