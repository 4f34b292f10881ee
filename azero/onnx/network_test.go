package onnx

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/timeman"
)

// The hand-built network is a valid one when its weights are finite, so
// the tests below refuse the others for their outputs, not their form.
func TestHandBuiltNetworkLoads(t *testing.T) {
	runtimeOrSkip(t)
	net, err := loadNetwork(writeNetwork(t, "ok.onnx", testNetwork(filled(encoding.PolicySize, 0.001), 0.01)))
	require.NoError(t, err)
	s, err := azero.Open(net, opts(1, 4))
	require.NoError(t, err)
	defer s.Close()
	res := s.Search(board.StartPosition(), timeman.Limits{Nodes: 50}, nil)
	require.NoError(t, res.Err)
	assert.NotEqual(t, "", res.Best.UCI(false))
}

// A network with NaN or infinite outputs used to be accepted, and the
// first search crashed. loadNetwork now runs it and refuses it.
func TestNonFiniteNetworksAreRefused(t *testing.T) {
	runtimeOrSkip(t)
	oneNaN := filled(encoding.PolicySize, 0.001)
	oneNaN[1234] = float32(math.NaN())
	for _, c := range []struct {
		name    string
		policyW []float32
		valueW  float32
		want    string
	}{
		{"nan-policy", filled(encoding.PolicySize, float32(math.NaN())), 0.01, "policy logit"},
		{"one-nan-logit", oneNaN, 0.01, "policy logit 1234 is NaN"},
		{"inf-policy", filled(encoding.PolicySize, float32(math.Inf(-1))), 0.01, "policy logit"},
		{"nan-value", filled(encoding.PolicySize, 0.001), float32(math.NaN()), "value NaN for"},
		{"inf-value", filled(encoding.PolicySize, 0.001), float32(math.Inf(1)), "value +Inf for rnbqkbnr/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeNetwork(t, c.name+".onnx", testNetwork(c.policyW, c.valueW))
			_, err := loadNetwork(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path)
			assert.Contains(t, err.Error(), c.want)
			assert.ErrorIs(t, err, ErrNonFiniteNetwork)
		})
	}
}

// "NetworkFile /dev/zero" used to read until memory ran out, and
// "NetworkFile /dev/stdin" swallowed the UCI input. Only regular files up
// to MaxNetworkBytes are read; the rest are refused before reading.
func TestLoadNetworkRefusesWhatIsNotANetworkFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.onnx")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	huge := filepath.Join(dir, "huge.onnx")
	f, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.NoError(t, os.Truncate(huge, MaxNetworkBytes+1)) // sparse: no disk used
	random := make([]byte, 4096)
	rand.NewChaCha8([32]byte{13}).Read(random)
	corrupt := filepath.Join(dir, "corrupt.onnx")
	require.NoError(t, os.WriteFile(corrupt, random, 0o644))
	link := filepath.Join(dir, "link.onnx")
	require.NoError(t, os.Symlink("/dev/zero", link))

	for _, c := range []struct {
		path, want string
		needsORT   bool // refused by ONNX Runtime's parser, not before
	}{
		{path: "/dev/zero", want: "cannot read network file: /dev/zero is a device, not a regular file"},
		{path: "/dev/null", want: "is a device, not a regular file"},
		{path: link, want: "is a device, not a regular file"},
		{path: dir, want: "is a directory, not a regular file"},
		{path: fifo, want: "is a named pipe, not a regular file"},
		{path: huge, want: "larger than the 512 MiB"},
		{path: filepath.Join(dir, "absent.onnx"), want: "no such file"},
		{path: corrupt, want: "not a loadable ONNX model", needsORT: true},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			if c.needsORT {
				runtimeOrSkip(t)
			}
			// A regression could block on the FIFO: fail, do not hang.
			done := make(chan error, 1)
			go func() {
				_, err := loadNetwork(c.path)
				done <- err
			}()
			select {
			case err := <-done:
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.path)
				assert.Contains(t, err.Error(), c.want)
			case <-time.After(10 * time.Second):
				t.Fatalf("loadNetwork(%s) blocked", c.path)
			}
		})
	}
}

// Should a non-finite network get past loadNetwork (finite on its fixture
// positions, not elsewhere), ONNX Runtime's NaNs still cannot break a search.
func TestNaNNetworkPastTheCheckStillSearches(t *testing.T) {
	runtimeOrSkip(t)
	net := &Network{name: "nan", model: testNetwork(filled(encoding.PolicySize, nan3), nan3)}
	require.NoError(t, net.check(), "well formed")
	require.Error(t, net.checkFinite())
	s, err := azero.Open(net, opts(2, 8))
	require.NoError(t, err)
	defer s.Close()
	pos := board.StartPosition()
	var last mind.Info
	res := s.Search(pos, timeman.Limits{Nodes: 300}, func(i mind.Info) { last = i })
	require.NoError(t, res.Err)
	assert.Equal(t, uint64(300), res.Nodes)
	var ml movegen.MoveList
	movegen.Legal(pos, &ml)
	assert.True(t, ml.Contains(res.Best), "%v is legal", res.Best)
	assert.False(t, math.IsNaN(res.Q) || math.IsNaN(last.Q), "Q %v, reported %v", res.Q, last.Q)
}

var nan3 = float32(math.NaN())

// opts are the searcher's defaults with threads and batch size.
func opts(threads, batch int) azero.Options {
	o := azero.DefaultOptions
	o.Threads, o.BatchSize = threads, batch
	return o
}

func mustFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	require.NoError(t, err)
	return p
}
