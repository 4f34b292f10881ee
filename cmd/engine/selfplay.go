package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/onnx"
)

const selfplayHelp = `Usage: engine selfplay [flags]

Plays the MCTS searcher against itself to make training data. Each worker
plays --parallel games in lockstep, so one network run evaluates leaves of
all of them. Root moves get Dirichlet noise; moves are sampled by visit
count for the first --sample-plies plies, then the most visited is played.
Every position becomes a sample (encoded board, root visit distribution,
final result for the side to move) in chunk files (package azero/chunk documents
the format); every game goes to the PGN file.

With --fast-playouts N (playout cap randomization, as in KataGo) only a
--full-share of the moves get the full --playouts search with noise and
become samples; the rest are searched with N playouts and not recorded, so
games finish faster and the value head sees more results per hour.

With --gumbel M the full searches use Gumbel AlphaZero's root (Danihelka et
al., 2022) instead of PUCT with Dirichlet noise: M moves sampled by the
Gumbel-top-k trick, the playouts spread over them by sequential halving,
the survivor played, and the improved policy softmax(logit + sigma(completed
Q)) recorded as the policy target. It improves the policy with a few dozen
playouts, where visit counts need hundreds.

Flags:
`

// addSelfplayFlags declares the self-play flags "selfplay" and "train" share.
func addSelfplayFlags(fs *pflag.FlagSet, d azero.SelfPlayConfig) *azero.SelfPlayConfig {
	c := d
	fs.IntVar(&c.Workers, "workers", d.Workers, "self-play workers (one evaluator and one core each)")
	fs.IntVar(&c.Parallel, "parallel", d.Parallel, "games per worker played in lockstep")
	fs.IntVar(&c.LeavesPerGame, "leaves", d.LeavesPerGame, "leaves per game per network run")
	fs.IntVar(&c.Playouts, "playouts", d.Playouts, "root visits per move")
	fs.IntVar(&c.FastPlayouts, "fast-playouts", d.FastPlayouts, "playouts of the unrecorded fast moves (0 = every move is a full, recorded search)")
	fs.Float64Var(&c.FullShare, "full-share", 0.25, "share of moves searched in full and recorded when --fast-playouts is set")
	fs.IntVar(&c.GumbelActions, "gumbel", d.GumbelActions, "Gumbel AlphaZero root for the full searches, considering this many moves (0 = PUCT with Dirichlet noise)")
	fs.IntVar(&c.SamplePlies, "sample-plies", d.SamplePlies, "plies with moves sampled by visits")
	fs.IntVar(&c.MaxPlies, "max-plies", d.MaxPlies, "ply cap (the game is a draw)")
	fs.Float64Var(&c.Params.PolicyTemp, "policy-temp", d.Params.PolicyTemp, "softmax temperature of the priors below the root (the root's stay the network's own)")
	fs.Float64Var(&c.NoiseAlpha, "noise-alpha", d.NoiseAlpha, "Dirichlet noise alpha")
	fs.Float64Var(&c.NoiseWeight, "noise-weight", d.NoiseWeight, "Dirichlet noise weight (0 = none)")
	fs.Float64Var(&c.ResignThreshold, "resign", d.ResignThreshold, "resign when the best Q is below minus this (0 = never)")
	fs.Float64Var(&c.ResignCheck, "resign-check", d.ResignCheck, "share of games played on to check resignation")
	fs.IntVar(&c.ChunkGames, "chunk-games", d.ChunkGames, "games per chunk file")
	fs.Uint64Var(&c.Seed, "seed", 1, "random seed")
	return &c
}

// checkSelfplay rejects self-play settings that cannot work.
func checkSelfplay(c *azero.SelfPlayConfig) error {
	switch {
	case c.Playouts < 1:
		return fmt.Errorf("--playouts must be at least 1, not %d", c.Playouts)
	case c.FastPlayouts < 0 || c.FastPlayouts >= c.Playouts && c.FastPlayouts > 0:
		return fmt.Errorf("--fast-playouts must be 0 (off) or between 1 and --playouts - 1, not %d", c.FastPlayouts)
	case c.FastPlayouts > 0 && (c.FullShare <= 0 || c.FullShare > 1):
		return fmt.Errorf("--full-share must be in (0, 1], not %g", c.FullShare)
	case c.GumbelActions < 0 || c.GumbelActions > 256:
		return fmt.Errorf("--gumbel must be 0 (off) or between 1 and 256 moves, not %d", c.GumbelActions)
	case c.Workers < 1 || c.Parallel < 1 || c.LeavesPerGame < 1 || c.ChunkGames < 1:
		return fmt.Errorf("--workers, --parallel, --leaves and --chunk-games must be at least 1, not %d, %d, %d and %d",
			c.Workers, c.Parallel, c.LeavesPerGame, c.ChunkGames)
	case c.MaxPlies < 1 || c.SamplePlies < 0:
		return fmt.Errorf("--max-plies must be at least 1 and --sample-plies at least 0, not %d and %d", c.MaxPlies, c.SamplePlies)
	case !(c.Params.PolicyTemp >= 0.1 && c.Params.PolicyTemp <= 10):
		return fmt.Errorf("--policy-temp must be between 0.1 and 10, not %g", c.Params.PolicyTemp)
	case !(c.NoiseWeight >= 0 && c.NoiseWeight <= 1) || c.NoiseWeight > 0 && !(c.NoiseAlpha > 0 && c.NoiseAlpha <= 100):
		return fmt.Errorf("--noise-weight must be in [0, 1] and --noise-alpha in (0, 100], not %g and %g", c.NoiseWeight, c.NoiseAlpha)
	case !(c.ResignThreshold >= 0 && c.ResignThreshold <= 1) || !(c.ResignCheck >= 0 && c.ResignCheck <= 1):
		// A Q is in [-1, 1]: a threshold beyond 1 could never resign.
		return fmt.Errorf("--resign and --resign-check must be in [0, 1], not %g and %g", c.ResignThreshold, c.ResignCheck)
	}
	return nil
}

func runSelfplay(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("selfplay", pflag.ContinueOnError)
	cfg := addSelfplayFlags(fs, azero.DefaultSelfPlay)
	games := fs.Int("games", azero.DefaultSelfPlay.Games, "games to play")
	network := fs.String("network", "", "network file (default: the embedded one)")
	chunks := fs.String("chunks", "runs/selfplay/chunks", "directory for sample chunks")
	pgn := fs.String("pgn", "runs/selfplay/games.pgn", "PGN file the games are appended to (\"\" = none)")
	ortLib := fs.String("onnxruntime", "", "path of "+onnx.LibraryName)
	if done, code := parseFlags(fs, args, selfplayHelp, stdout, stderr); done {
		return code
	}
	cfg.Games = *games
	if *games < 1 {
		fmt.Fprintf(stderr, "engine selfplay: --games must be at least 1, not %d\n", *games)
		return 2
	}
	if err := checkSelfplay(cfg); err != nil {
		fmt.Fprintln(stderr, "engine selfplay:", err)
		return 2
	}
	net, code := loadNetwork(*ortLib, *network, stderr)
	if net == nil {
		return code
	}
	if err := os.MkdirAll(*chunks, 0o755); err != nil {
		fmt.Fprintln(stderr, "engine selfplay:", err)
		return 1
	}
	cfg.ChunkDir = *chunks
	if *pgn != "" {
		os.MkdirAll(filepath.Dir(*pgn), 0o755)
		f, err := os.OpenFile(*pgn, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(stderr, "engine selfplay:", err)
			return 1
		}
		defer f.Close()
		cfg.PGN = f
	}
	cfg.Progress = func(s azero.SelfPlayStats) { fmt.Fprintln(stdout, s) }
	st, err := azero.SelfPlay(net, *cfg)
	if err != nil {
		fmt.Fprintln(stderr, "engine selfplay:", err)
		return 1
	}
	fmt.Fprintf(stdout, "done: %s in %s\n", st, st.Elapsed.Round(1e9))
	return 0
}

// loadNetwork loads the runtime and a network, printing why not.
func loadNetwork(ortLib, path string, stderr io.Writer) (*onnx.Network, int) {
	net, err := onnx.Open(ortLib, path)
	if err != nil {
		fmt.Fprintln(stderr, "engine:", err)
		return nil, 1
	}
	return net, 0
}
