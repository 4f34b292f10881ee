package bench_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/bench"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/nnue"
)

func TestPositions(t *testing.T) {
	ps := bench.Positions() // panics on a bad opening line or FEN
	require.GreaterOrEqual(t, len(ps), 40)
	seen := map[string]int{}
	for i, p := range ps {
		fen := p.FEN()
		// A legal, playable position: it reads back through the validating
		// parser and the game is not over.
		q, err := movegen.ParseFEN(fen)
		require.NoError(t, err, "position %d: %s", i+1, fen)
		assert.Equal(t, fen, q.FEN())
		assert.NoError(t, movegen.Validate(p), fen)
		assert.Equal(t, movegen.Ongoing, movegen.GameStatus(p), fen)
		if j, dup := seen[fen]; dup {
			t.Errorf("positions %d and %d are the same: %s", j+1, i+1, fen)
		}
		seen[fen] = i
		// No history: benchmarks start from the bare position.
		assert.Equal(t, 0, p.Repetitions(), fen)
	}
	// Every call builds fresh positions.
	again := bench.Positions()
	require.Len(t, again, len(ps))
	for i := range ps {
		assert.NotSame(t, ps[i], again[i])
		assert.Equal(t, ps[i].FEN(), again[i].FEN())
	}
}

var lastLine = regexp.MustCompile(`^(\d+) nodes (\d+) nps$`)

func TestRunIsDeterministic(t *testing.T) {
	run := func() (bench.Report, []string) {
		var buf bytes.Buffer
		rep, err := bench.Run(context.Background(), &buf, 3, nil)
		require.NoError(t, err)
		return rep, strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	}
	rep1, out1 := run()
	rep2, out2 := run()

	n := len(bench.Positions())
	for _, out := range [][]string{out1, out2} {
		m := lastLine.FindStringSubmatch(out[len(out)-1])
		require.NotNil(t, m, "last line %q", out[len(out)-1])
		perPosition := 0
		var sum uint64
		for _, l := range out {
			if strings.HasPrefix(l, "Position ") {
				perPosition++
				f := strings.Fields(l)
				require.GreaterOrEqual(t, len(f), 4, l)
				// "... bestmove <m> nodes <n>  <t> ms"
				for k := range f {
					if f[k] == "nodes" {
						v, err := strconv.ParseUint(f[k+1], 10, 64)
						require.NoError(t, err, l)
						sum += v
					}
				}
				assert.NotContains(t, l, "bestmove 0000", "every bench position has a move")
			}
		}
		assert.Equal(t, n, perPosition)
		total, _ := strconv.ParseUint(m[1], 10, 64)
		assert.Equal(t, sum, total, "the total is the sum of the positions")
		assert.Contains(t, out, "Nodes searched  : "+m[1])
	}
	assert.Equal(t, rep1.Nodes, rep2.Nodes, "bench node count must be deterministic")
	assert.Positive(t, rep1.Nodes)
	m1, m2 := lastLine.FindStringSubmatch(out1[len(out1)-1]), lastLine.FindStringSubmatch(out2[len(out2)-1])
	assert.Equal(t, m1[1], m2[1])
	assert.Equal(t, strconv.FormatUint(rep1.Nodes, 10), m1[1])
	// The same best moves too (the lines differ only in their times).
	strip := regexp.MustCompile(`\s+\d+ ms$`)
	for i := range out1 {
		if strings.HasPrefix(out1[i], "Position ") {
			assert.Equal(t, strip.ReplaceAllString(out1[i], ""), strip.ReplaceAllString(out2[i], ""))
		}
	}

	// A deeper bench searches more.
	var buf bytes.Buffer
	rep, err := bench.Run(context.Background(), &buf, 4, nil)
	require.NoError(t, err)
	assert.Greater(t, rep.Nodes, rep1.Nodes)
}

// With a network the bench searches with it: a first line names it, the
// node count is still deterministic and differs from the hand-crafted
// evaluation's, and every position still gets a legal move.
func TestRunWithNetwork(t *testing.T) {
	net, err := nnue.Random(32, 1, nnue.SCReLU, 7)
	require.NoError(t, err)
	run := func(net *nnue.Network) (bench.Report, []string) {
		var buf bytes.Buffer
		rep, err := bench.Run(context.Background(), &buf, 2, net)
		require.NoError(t, err)
		return rep, strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	}
	hce, hceOut := run(nil)
	rep1, out1 := run(net)
	rep2, _ := run(net)

	assert.True(t, strings.HasPrefix(hceOut[0], "Position  1/"), "no network line without a network: %q", hceOut[0])
	assert.Equal(t, "Network: "+net.String()+", kernel "+net.Kernel(), out1[0])
	assert.Regexp(t, lastLine, out1[len(out1)-1])
	assert.Equal(t, rep1.Nodes, rep2.Nodes, "deterministic with a network too")
	assert.NotEqual(t, hce.Nodes, rep1.Nodes, "the network changes the search")
	positions := 0
	for _, l := range out1 {
		if strings.HasPrefix(l, "Position ") {
			positions++
			assert.NotContains(t, l, "bestmove 0000")
		}
	}
	assert.Equal(t, len(bench.Positions()), positions)
}

// The speed bench searches the first positions for a time each with the
// threads asked for: a line per position with its depth, the mean depth,
// the totals summing the lines, and the OpenBench line last.
func TestRunSpeed(t *testing.T) {
	net, err := nnue.Random(32, 1, nnue.SCReLU, 7)
	require.NoError(t, err)
	for _, c := range []bench.SpeedConfig{
		{MoveTime: 40 * time.Millisecond, Threads: 2, HashMB: 4, Positions: 3},
		{MoveTime: 20 * time.Millisecond, Threads: 1, HashMB: 1, Positions: 2, Network: net},
	} {
		var buf bytes.Buffer
		rep, err := bench.RunSpeed(context.Background(), &buf, c)
		require.NoError(t, err)
		out := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
		assert.Contains(t, out[0], fmt.Sprintf("; threads %d, hash %d MB, movetime %d ms", c.Threads, c.HashMB, c.MoveTime.Milliseconds()))
		if c.Network != nil {
			assert.True(t, strings.HasPrefix(out[0], "Network: "+net.String()+", kernel "), out[0])
		}
		line := regexp.MustCompile(`^Position +\d+/(\d+): .* bestmove (\S+) +depth +(\d+) +nodes +(\d+) +\d+ ms$`)
		var sum uint64
		positions, depths := 0, 0
		for _, l := range out {
			if m := line.FindStringSubmatch(l); m != nil {
				positions++
				assert.Equal(t, strconv.Itoa(c.Positions), m[1])
				assert.NotEqual(t, "0000", m[2])
				d, _ := strconv.Atoi(m[3])
				assert.Positive(t, d, l)
				depths += d
				n, _ := strconv.ParseUint(m[4], 10, 64)
				sum += n
			}
		}
		assert.Equal(t, c.Positions, positions)
		assert.Equal(t, sum, rep.Nodes)
		assert.Positive(t, rep.Nodes)
		assert.GreaterOrEqual(t, rep.Elapsed, time.Duration(c.Positions)*c.MoveTime*9/10, "each position searched for its time")
		assert.Contains(t, out, fmt.Sprintf("Mean depth      : %.2f", float64(depths)/float64(positions)))
		assert.Equal(t, fmt.Sprintf("%d nodes %d nps", rep.Nodes, rep.NPS()), out[len(out)-1])
	}

	for _, c := range []bench.SpeedConfig{
		{Threads: 1, HashMB: 1},
		{MoveTime: bench.MaxMoveTime + 1, Threads: 1, HashMB: 1},
		{MoveTime: time.Millisecond, HashMB: 1},
		{MoveTime: time.Millisecond, Threads: bench.MaxThreads + 1, HashMB: 1},
		{MoveTime: time.Millisecond, Threads: 1},
		{MoveTime: time.Millisecond, Threads: 1, HashMB: bench.MaxHashMB + 1},
		{MoveTime: time.Millisecond, Threads: 1, HashMB: 1, Positions: -1},
		{MoveTime: time.Millisecond, Threads: 1, HashMB: 1, Positions: len(bench.Positions()) + 1},
	} {
		var buf bytes.Buffer
		_, err := bench.RunSpeed(context.Background(), &buf, c)
		assert.Error(t, err, "%+v", c)
		assert.Empty(t, buf.String(), "nothing printed for %+v", c)
	}

	// Cancelling stops it and prints no totals.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var buf bytes.Buffer
	start := time.Now()
	_, err = bench.RunSpeed(ctx, &buf, bench.SpeedConfig{MoveTime: time.Minute, Threads: 2, HashMB: 1})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.NotContains(t, buf.String(), "Nodes searched")
}

func TestReportNPS(t *testing.T) {
	assert.Equal(t, uint64(0), bench.Report{Nodes: 5}.NPS())
	assert.Equal(t, uint64(1000), bench.Report{Nodes: 500, Elapsed: 500_000_000}.NPS())
}

// The MCTS bench runs on any backend; with the uniform evaluator it needs
// no ONNX Runtime and measures the tree's own cost.
func TestRunMCTSReports(t *testing.T) {
	var out bytes.Buffer
	rep, err := bench.RunMCTS(&out, bench.MCTSConfig{
		Backend: &azero.Uniform{}, Name: "uniform", MoveTime: 50 * time.Millisecond, Positions: 2,
		Threads: 1, BatchSize: 8, Batches: []int{1, 8}, EvalTime: 10 * time.Millisecond,
	})
	require.NoError(t, err)
	assert.Len(t, rep.RawRate, 2)
	assert.Positive(t, rep.Playouts)
	assert.LessOrEqual(t, rep.Evals, rep.Playouts)
	text := out.String()
	assert.Contains(t, text, "network uniform\n")
	assert.Contains(t, text, "evaluator batch   8:")
	assert.Regexp(t, `\n\d+ nodes \d+ nps\n$`, text)
}
