package ucifuzz

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testDecls = []OptionDecl{
	{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 65536},
	{Name: "Threads", Type: "spin", Default: "1", Min: 1, Max: 256},
	{Name: "Clear Hash", Type: "button"},
	{Name: "UCI_Chess960", Type: "check", Default: "false"},
	{Name: "Search", Type: "combo", Default: "AlphaBeta", Vars: []string{"AlphaBeta", "MCTS"}},
	{Name: "NetworkFile", Type: "string", Default: "<default>"},
	{Name: "CPuct", Type: "string", Default: "1.25"},
	{Name: "NNCacheSize", Type: "spin", Default: "200000", Min: 0, Max: 50_000_000},
}

func TestGenerateIsDeterministicPerSeed(t *testing.T) {
	cfg := GenConfig{Options: testDecls, Inputs: 200}
	text := func(seed uint64, proc int) string {
		var b bytes.Buffer
		require.NoError(t, WriteScript(&b, Generate(seed, proc, cfg)))
		return b.String()
	}
	assert.Equal(t, text(5, 3), text(5, 3))
	assert.NotEqual(t, text(5, 3), text(5, 4))
	assert.NotEqual(t, text(5, 3), text(6, 3))
}

// The generator keeps every line inside what a run allows, whatever the
// mutations made of it.
func TestGeneratedScriptsStayInBounds(t *testing.T) {
	cfg := GenConfig{Options: testDecls, Inputs: 150}
	sawMCTS, sawAB, sawHuge := false, false, false
	for proc := 0; proc < 60; proc++ {
		s := Generate(11, proc, cfg)
		mcts := s.Searcher == "MCTS"
		sawMCTS = sawMCTS || mcts
		sawAB = sawAB || !mcts
		tr := NewTracker()
		for i, st := range s.Steps {
			if st.Kind != Send {
				continue
			}
			line := st.Line
			assert.NotContains(t, line, "\n")
			assert.False(t, strings.HasPrefix(line, "#"), line)
			sawHuge = sawHuge || len(line) >= 1<<20
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			if f[0] == "quit" {
				assert.Equal(t, len(s.Steps)-1, i, "quit ends the script")
			}
			// A long perft or bench is always followed by isready and a
			// command that ends it (else the end of input would wait for it).
			long := f[0] == "bench"
			if f[0] == "go" && len(f) > 2 && f[1] == "perft" {
				d, err := strconv.Atoi(f[2])
				long = err == nil && d > 3 && d <= 20
			}
			if long {
				var next []string
				for _, st := range s.Steps[i+1:] {
					if st.Kind == Send && len(next) < 2 {
						next = append(next, strings.Fields(st.Line)[0])
					}
				}
				require.Len(t, next, 2, line)
				assert.Equal(t, "isready", next[0], line)
				assert.Contains(t, []string{"stop", "position", "ucinewgame", "go", "quit"}, next[1], line)
			}
			if f[0] == "setoption" {
				name, value, _ := SplitSetOption(f[1:])
				n, err := strconv.Atoi(value)
				if strings.EqualFold(name, "Hash") && err == nil {
					assert.LessOrEqual(t, n, 512, line)
				}
				if strings.EqualFold(name, "Threads") && err == nil && mcts {
					assert.LessOrEqual(t, n, 4, line)
				}
				if strings.EqualFold(name, "Search") && !mcts {
					assert.NotEqual(t, "mcts", strings.ToLower(value), line)
				}
				if strings.EqualFold(name, "NetworkFile") {
					assert.NotContains(t, value, "/dev/zero")
				}
			}
			if f[0] == "go" && mcts && len(f) > 1 && f[1] != "perft" {
				pos, _ := tr.Position()
				g := ParseGo(pos, f[1:], true)
				// Every MCTS search either has a small limit or is stopped.
				if !g.OpenEnded() {
					assert.LessOrEqual(t, g.Bound.Seconds(), 3.0, line)
				}
			}
			tr.Apply(line)
		}
	}
	assert.True(t, sawMCTS && sawAB, "half the processes search with MCTS")
	assert.True(t, sawHuge, "some process gets a line of a megabyte")
}

func TestHugeHashIsOptIn(t *testing.T) {
	count := func(cfg GenConfig) int {
		n := 0
		for proc := 0; proc < 40; proc++ {
			for _, st := range Generate(3, proc, cfg).Steps {
				if st.Line == "setoption name Hash value 32768" {
					n++
				}
			}
		}
		return n
	}
	assert.Zero(t, count(GenConfig{Options: testDecls, Inputs: 200}))
	assert.Positive(t, count(GenConfig{Options: testDecls, Inputs: 200, HugeHash: true}))
}

func TestMutateNeverSplitsALine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		m := Mutate(rng, "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1")
		assert.NotContains(t, m, "\n")
	}
}
