package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/book"
	"github.com/twofold-chess/twofold/nnue/data"
)

const datagenHelp = `Usage: engine datagen --out FILE [--games N | --positions N | --duration D] [--nodes N] [--depth N]
       [--book FILE.epd] [--frc X] [--random-plies N] [--workers N] [--seed N] [--hash MB] [--network FILE]

Self-play games of the alpha-beta searcher at fixed nodes per move (with
the embedded NNUE evaluation, --network none for the hand-crafted one, or
another network file), writing
quiet positions (not in check, best move not a capture or promotion, no
mate score) with the search score and the game result as 32-byte records
(format: package nnue/data, docs/classical.md) for the NNUE
trainer (nnue/train).

Starts: a random line of --book (EPD/FEN, first four fields) or the start
position, or for a share --frc of the games a random Chess960 position,
then --random-plies random moves; a start the search scores beyond
--max-start-score either way (a piece left hanging by the last random
move) is drawn again. Games are adjudicated: a win
when both sides' searches agree on 1000cp or more for 8 plies, a draw when
they agree on less than 10cp for 20 plies after move 40, and a draw after
400 searched plies.

--out is appended to, so a rerun continues a file: the games of a run are
numbered from 0 and drawn from a random stream named by --seed and the
number of records the file held when the run started, so a rerun plays new
games (deterministic for the same file and seed). --positions counts the
records of the whole file, --games the games of this run; with neither,
the run goes on until --duration passes or it is interrupted (Ctrl-C or
SIGTERM: games in flight are dropped, finished ones are already written).

Flags:
`

func runDatagen(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("datagen", pflag.ContinueOnError)
	out := fs.String("out", "", "file to append records to (created if missing)")
	games := fs.Int("games", 0, "games to play in this run (0: no limit)")
	positions := fs.Int64("positions", 0, "stop once the file holds this many records (0: no limit)")
	duration := fs.Duration("duration", 0, "stop after this long, e.g. 60m (0: no limit)")
	nodes := fs.Uint64("nodes", 5000, "search nodes per move (0 with --depth: depth only)")
	depth := fs.Int("depth", 0, "search depth per move (0: nodes only; with --nodes too, whichever comes first)")
	frc := fs.Float64("frc", 0, "share of games from a random Chess960 start instead of the book (0..1)")
	bookPath := fs.String("book", "", "EPD or FEN file of openings (one drawn per game)")
	randomPlies := fs.Int("random-plies", 8, "random moves after the opening")
	workers := fs.Int("workers", runtime.NumCPU(), "games played at once (one search thread each)")
	seed := fs.Uint64("seed", 1, "seed of the random choices")
	hash := fs.Int("hash", 16, "transposition table per worker in MB")
	maxPlies := fs.Int("max-plies", 400, "searched plies after which a game is a draw")
	network := fs.String("network", "default", "evaluation of the searches: default (the embedded NNUE), none (hand-crafted) or an NNUE file")
	maxStart := fs.Int("max-start-score", 300, "redraw a start whose search score is beyond this many cp either way (0: keep all)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof)")
	if done, code := parseFlags(fs, args, datagenHelp, stdout, stderr); done {
		return code
	}
	switch {
	case *out == "":
		fmt.Fprintln(stderr, "engine datagen: --out is required")
		return 2
	case *games < 0 || *positions < 0 || *duration < 0 || *randomPlies < 0 || *maxPlies < 1 || *maxStart < 0:
		fmt.Fprintln(stderr, "engine datagen: --games, --positions, --duration, --random-plies and --max-start-score must not be negative, --max-plies must be positive")
		return 2
	case (*nodes < 1 && *depth < 1) || *depth < 0 || *depth > 64 || *workers < 1 || *workers > 1024 || *hash < 1 || *hash > 1<<16:
		fmt.Fprintln(stderr, "engine datagen: --nodes or --depth (0..64) must be positive, --workers 1..1024, --hash 1..65536")
		return 2
	case !(*frc >= 0 && *frc <= 1):
		fmt.Fprintln(stderr, "engine datagen: --frc must be in 0..1")
		return 2
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "engine datagen:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "engine datagen:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	net, nerr := loadNNUE(*network)
	if nerr != nil {
		fmt.Fprintln(stderr, "engine datagen:", nerr)
		return 1
	}
	var openings []string
	if *bookPath != "" {
		var err error
		if openings, err = book.ReadEPD(*bookPath); err != nil {
			fmt.Fprintln(stderr, "engine datagen:", err)
			return 1
		}
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(stderr, "engine datagen:", err)
		return 1
	}
	w, err := data.OpenAppend(*out)
	if err != nil {
		fmt.Fprintln(stderr, "engine datagen:", err)
		return 1
	}
	before := w.Records()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	evaluation := "hand-crafted evaluation"
	if net != nil {
		evaluation = "network " + net.String()
	}
	fmt.Fprintf(stderr, "datagen: %s holds %d records; seed %d stream %d, %d workers, %d nodes/depth %d per move, %d openings, FRC share %g, %s\n",
		*out, before, *seed, before, *workers, *nodes, *depth, len(openings), *frc, evaluation)
	start := time.Now()
	st, err := data.Generate(ctx, w, data.GenOptions{
		Nodes: *nodes, Depth: *depth, FRC: *frc, RandomPlies: *randomPlies, Openings: openings, Workers: *workers, HashMB: *hash,
		MaxPlies: *maxPlies, MaxStartScore: *maxStart, Network: net, Seed: *seed, Stream: uint64(before), Games: *games, Positions: *positions,
		Progress: stderr,
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(stderr, "engine datagen:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %d positions from %d games (W/D/L %d/%d/%d) to %s in %s; it holds %d\n",
		st.Positions, st.Games, st.WhiteWins, st.Draws, st.BlackWins, *out, time.Since(start).Round(time.Second), before+st.Positions)
	return 0
}
