//go:build unix

package loop

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A second loop on a locked run directory fails at once, touching nothing.
func TestLoopRunDirLocked(t *testing.T) {
	c := testConfig(t, &stubTrainer{}, 1)
	release, err := LockRunDir(c.RunDir)
	require.NoError(t, err)
	err = Run(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is in use by another engine train or climb (pid")
	assert.NoFileExists(t, filepath.Join(c.RunDir, "state.json"))
	release()
	require.NoError(t, Run(c))
}
