package onnx

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/timeman"
)

type golden struct {
	Inputs [][]float32 `json:"inputs"`
	Policy [][]float32 `json:"policy"`
	Value  []float32   `json:"value"`
}

// The embedded default network, run by ONNX Runtime, gives what PyTorch
// gave when export.py wrote it (testdata/golden.json).
func TestDefaultNetworkMatchesGolden(t *testing.T) {
	runtimeOrSkip(t)
	data, err := os.ReadFile("testdata/golden.json")
	require.NoError(t, err)
	var g golden
	require.NoError(t, json.Unmarshal(data, &g))
	require.NotEmpty(t, g.Inputs)

	net, err := loadNetwork("")
	require.NoError(t, err)
	ev, err := NewSession(net, 8, 1)
	require.NoError(t, err)
	defer ev.Close()

	n := len(g.Inputs)
	in := make([]float32, n*encoding.InputSize)
	for i, x := range g.Inputs {
		require.Len(t, x, encoding.InputSize)
		copy(in[i*encoding.InputSize:], x)
	}
	policy, value := make([]float32, n*encoding.PolicySize), make([]float32, n)
	// The whole batch at once, then one position at a time: same answers.
	require.NoError(t, ev.Evaluate(in, n, policy, value))
	for i := range n {
		assert.InDelta(t, g.Value[i], value[i], 1e-4, "value %d", i)
		for j := range encoding.PolicySize {
			if d := policy[i*encoding.PolicySize+j] - g.Policy[i][j]; d > 1e-4 || d < -1e-4 {
				t.Fatalf("input %d policy[%d]: onnx %v, torch %v", i, j, policy[i*encoding.PolicySize+j], g.Policy[i][j])
			}
		}
		p1, v1 := make([]float32, encoding.PolicySize), make([]float32, 1)
		require.NoError(t, ev.Evaluate(in[i*encoding.InputSize:(i+1)*encoding.InputSize], 1, p1, v1))
		assert.InDelta(t, value[i], v1[0], 1e-5)
		assert.InDeltaSlice(t, policy[i*encoding.PolicySize:(i+1)*encoding.PolicySize], p1, 1e-4)
	}
	assert.Error(t, ev.Evaluate(in, 9, make([]float32, 9*encoding.PolicySize), make([]float32, 9)), "batch over the maximum")
}

func TestMissingLibraryIsAClearError(t *testing.T) {
	if !Supported {
		t.Skip(ErrNotInBuild)
	}
	missing := filepath.Join(t.TempDir(), "nope", LibraryName)
	_, err := loadRuntime(missing)
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)
}

func TestBadNetworkFilesAreClearErrors(t *testing.T) {
	runtimeOrSkip(t)
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.onnx")
	require.NoError(t, os.WriteFile(garbage, []byte("this is not a network"), 0o644))
	truncated := filepath.Join(dir, "truncated.onnx")
	require.NoError(t, os.WriteFile(truncated, defaultNetwork[:len(defaultNetwork)/2], 0o644))
	empty := filepath.Join(dir, "empty.onnx")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "absent.onnx"), "cannot read network file"},
		{garbage, "not a loadable ONNX model"},
		{truncated, "not a loadable ONNX model"},
		{empty, "empty file"},
	} {
		_, err := Open("", c.path)
		require.Error(t, err, c.path)
		assert.Contains(t, err.Error(), c.want)
		assert.Contains(t, err.Error(), c.path)
	}
}

// Open loads the runtime and the network, and says which of each.
func TestOpenNamesNetworkAndRuntime(t *testing.T) {
	runtimeOrSkip(t)
	for _, name := range []string{"", DefaultNetworkName} {
		net, err := Open("", name)
		require.NoError(t, err)
		assert.Equal(t, DefaultNetworkName, net.Name())
		assert.Equal(t, defaultNetwork, net.Model())
		path, err := loadRuntime("")
		require.NoError(t, err)
		assert.Equal(t, path, net.Runtime())
	}
}

func TestONNXSearchPlaysAndFindsMate(t *testing.T) {
	runtimeOrSkip(t)
	net, err := loadNetwork("")
	require.NoError(t, err)
	o := azero.DefaultOptions
	o.Threads, o.BatchSize = 2, 8
	s, err := azero.Open(net, o)
	require.NoError(t, err)
	defer s.Close()
	res := s.Search(board.StartPosition(), timeman.Limits{Nodes: 400}, nil)
	require.NoError(t, res.Err)
	assert.Equal(t, uint64(400), res.Nodes)
	p := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	res = s.Search(p, timeman.Limits{Nodes: 100}, nil)
	assert.Equal(t, "a1a8", res.Best.UCI(false))
}

func BenchmarkEvaluate(b *testing.B) {
	runtimeOrSkip(b)
	net, err := loadNetwork("")
	require.NoError(b, err)
	for _, batch := range []int{1, 8, 16, 32} {
		b.Run(fmt.Sprintf("batch%02d", batch), func(b *testing.B) {
			ev, err := NewSession(net, batch, 1)
			require.NoError(b, err)
			defer ev.Close()
			in := make([]float32, batch*encoding.InputSize)
			encoding.Encode(board.StartPosition(), in)
			for i := 1; i < batch; i++ {
				copy(in[i*encoding.InputSize:], in[:encoding.InputSize])
			}
			pol, val := make([]float32, batch*encoding.PolicySize), make([]float32, batch)
			b.ResetTimer()
			for range b.N {
				if err := ev.Evaluate(in, batch, pol, val); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "evals/s")
		})
	}
}

// FuzzLoadNetwork: any file content is a network or an error, never a
// panic (nor a crash inside ONNX Runtime).
func FuzzLoadNetwork(f *testing.F) {
	runtimeOrSkip(f)
	ok := testNetwork(filled(encoding.PolicySize, 0.001), 0.01)
	f.Add(ok)
	f.Add(ok[:len(ok)/2])
	f.Add(ok[:len(ok)-7])
	f.Add(testNetwork(filled(encoding.PolicySize, float32(math.NaN())), 0.01))
	f.Add(testNetwork(filled(encoding.PolicySize, 0.001), float32(math.Inf(-1))))
	f.Add([]byte{})
	f.Add([]byte("garbage"))
	f.Add([]byte{0x08, 0x07, 0x3a, 0x00}) // ir_version 7, an empty graph
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "net.onnx")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		net, err := loadNetwork(path)
		if err != nil {
			return
		}
		// What loads must run: the search's evaluator opens on it.
		ev, err := NewSession(net, 2, 1)
		if err != nil {
			t.Fatalf("loaded but cannot open an evaluator: %v", err)
		}
		ev.Close()
	})
}

// Self-play and a sampling ladder player with the real network: the logic
// is tested in package azero with the uniform evaluator; this is the
// network plugged into it through the Backend.
func TestSelfPlayAndPlayerWithTheNetwork(t *testing.T) {
	runtimeOrSkip(t)
	net, err := loadNetwork("")
	require.NoError(t, err)
	cfg := azero.DefaultSelfPlay
	cfg.Games, cfg.Workers, cfg.Parallel, cfg.Playouts, cfg.MaxPlies, cfg.Seed = 2, 1, 2, 8, 40, 3
	stats, err := azero.SelfPlay(net, cfg)
	require.NoError(t, err)
	assert.Equal(t, 2, stats.Games)
	assert.Equal(t, stats.Plies, stats.Positions)

	pl, err := azero.NewPlayer(net, "p", 16)
	require.NoError(t, err)
	defer pl.Close()
	pl.SampleMoves(4, 1)
	pl.NewGame()
	p := board.StartPosition()
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	assert.True(t, ml.Contains(pl.Move(p)))
}
