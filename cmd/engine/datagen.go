package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/book"
	"github.com/twofold-chess/twofold/nnue/data"
)

const datagenHelp = `Usage: engine datagen --out FILE [--games N | --positions N | --duration D | --max-bytes N]
       [--nodes N] [--soft-nodes N] [--depth N] [--format records|games]
       [--book FILE.epd] [--frc X] [--random-plies N] [--workers N] [--seed N] [--hash MB] [--network FILE]
       engine datagen --unpack --out FILE.bin IN...

Self-play games of the alpha-beta searcher at fixed nodes per move (with
the embedded NNUE evaluation, --network none for the hand-crafted one, or
another network file), writing
quiet positions (not in check, best move not a capture or promotion, no
mate score) with the search score and the game result as 32-byte records
(format: package nnue/data, docs/classical.md) for the NNUE
trainer (nnue/train). With a network the score is in the network's
units: the weight the search gives its evaluation (material on the board,
the fifty-move count) is divided out.

Nodes: --nodes cuts each search at that many nodes. --soft-nodes N ends
each search after the iteration in which it passes N nodes instead, so no
iteration is cut short; --nodes is then the hard cut (e.g. --soft-nodes
2000 --nodes 100000: about the depth of --nodes 5000 for fewer nodes).

--format games writes each game once, in a frame with a length and a
checksum: the position after the random plies, then per searched move the
move and the score (4 bytes), about a fifth of the records' size.
"engine datagen --unpack --out FILE.bin IN..." expands files of either
format (and a file cut mid-frame, up to its last whole frame) into the
32-byte records the trainer reads, written whole at once.

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
--max-bytes stops once the file is that large (scripts/datagen-parallel.sh
rotates files with it).

Flags:
`

func runDatagen(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("datagen", pflag.ContinueOnError)
	out := fs.String("out", "", "file to append records to (created if missing)")
	games := fs.Int("games", 0, "games to play in this run (0: no limit)")
	positions := fs.Int64("positions", 0, "stop once the file holds this many records (0: no limit)")
	duration := fs.Duration("duration", 0, "stop after this long, e.g. 60m (0: no limit)")
	nodes := fs.Uint64("nodes", 5000, "search nodes per move, a hard cut (0 with --depth or --soft-nodes: none)")
	softNodes := fs.Uint64("soft-nodes", 0, "end each search after the iteration that passes this many nodes (0: none)")
	formatName := fs.String("format", "records", "format of --out: records (32 bytes a position) or games (a frame per game)")
	maxBytes := fs.String("max-bytes", "0", "stop once --out holds this many bytes (suffix K, M or G: KiB, MiB, GiB; 0: no limit)")
	unpack := fs.Bool("unpack", false, "expand the files named after the flags (either format) into 32-byte records in --out")
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
	limitBytes, berr := parseBytes(*maxBytes)
	format, ferr := data.ParseFormat(*formatName)
	switch {
	case *out == "":
		fmt.Fprintln(stderr, "engine datagen: --out is required")
		return 2
	case *unpack:
		if fs.NArg() == 0 {
			fmt.Fprintln(stderr, "engine datagen: --unpack needs the files to expand")
			return 2
		}
		return unpackData(*out, fs.Args(), stdout, stderr)
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "engine datagen: unexpected arguments %q (files to expand need --unpack)\n", fs.Args())
		return 2
	case berr != nil:
		fmt.Fprintln(stderr, "engine datagen: --max-bytes:", berr)
		return 2
	case ferr != nil:
		fmt.Fprintln(stderr, "engine datagen: --format:", ferr)
		return 2
	case *games < 0 || *positions < 0 || *duration < 0 || *randomPlies < 0 || *maxPlies < 1 || *maxStart < 0:
		fmt.Fprintln(stderr, "engine datagen: --games, --positions, --duration, --random-plies and --max-start-score must not be negative, --max-plies must be positive")
		return 2
	case (*nodes < 1 && *softNodes < 1 && *depth < 1) || *depth < 0 || *depth > 64 || *workers < 1 || *workers > 1024 || *hash < 1 || *hash > 1<<16:
		fmt.Fprintln(stderr, "engine datagen: --nodes, --soft-nodes or --depth (0..64) must be positive, --workers 1..1024, --hash 1..65536")
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
	w, err := data.OpenAppendFormat(*out, format)
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
	fmt.Fprintf(stderr, "datagen: %s (%s) holds %d records; seed %d stream %d, %d workers, %d nodes (soft %d)/depth %d per move, %d openings, FRC share %g, %s\n",
		*out, format, before, *seed, before, *workers, *nodes, *softNodes, *depth, len(openings), *frc, evaluation)
	start := time.Now()
	st, err := data.Generate(ctx, w, data.GenOptions{
		Nodes: *nodes, SoftNodes: *softNodes, Depth: *depth, MaxBytes: limitBytes, FRC: *frc, RandomPlies: *randomPlies, Openings: openings, Workers: *workers, HashMB: *hash,
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
	fmt.Fprintf(stdout, "wrote %d positions from %d games (W/D/L %d/%d/%d; %d moves searched, %.0f nodes and depth %.1f a move) to %s in %s; it holds %d in %d bytes\n",
		st.Positions, st.Games, st.WhiteWins, st.Draws, st.BlackWins, st.Plies, float64(st.Nodes)/float64(max(st.Plies, 1)),
		float64(st.Depths)/float64(max(st.Plies, 1)),
		*out, time.Since(start).Round(time.Second), before+st.Positions, w.Size())
	return 0
}

// parseBytes parses a size: digits with an optional K, M or G (KiB, MiB,
// GiB).
func parseBytes(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"), strings.HasSuffix(s, "k"):
		mult = 1 << 10
	case strings.HasSuffix(s, "M"):
		mult = 1 << 20
	case strings.HasSuffix(s, "G"):
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a size in bytes", s)
	}
	return n * mult, nil
}

// unpackData expands the files ins (either format) into 32-byte records,
// written to out through a temporary file renamed at the end, so out is
// whole or absent. A games file that ends inside a frame is read up to its
// last whole frame, with a note.
func unpackData(out string, ins []string, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, "engine datagen:", err)
		return 1
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	bw := bufio.NewWriterSize(tmp, 1<<20)
	var total, inBytes int64
	var buf []byte
	for _, in := range ins {
		n, size, err := func() (int64, int64, error) {
			f, err := os.Open(in)
			if err != nil {
				return 0, 0, err
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				return 0, 0, err
			}
			rd, _, err := data.NewAnyReader(bufio.NewReaderSize(f, 1<<16))
			if err != nil {
				return 0, 0, err
			}
			var n int64
			for {
				r, err := rd.Next()
				if err == io.EOF {
					return n, st.Size(), nil
				}
				if errors.Is(err, data.ErrPartialFrame) {
					fmt.Fprintf(stderr, "datagen: %s: %v; read up to it\n", in, err)
					return n, st.Size(), nil
				}
				if err != nil {
					return n, 0, err
				}
				buf = r.Append(buf[:0])
				if _, err := bw.Write(buf); err != nil {
					return n, 0, err
				}
				n++
			}
		}()
		if err != nil {
			return fail(fmt.Errorf("%s: %w", in, err))
		}
		total += n
		inBytes += size
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "wrote %d records (%d bytes) to %s from %d files of %d bytes (%.2f bytes a position)\n",
		total, total*data.RecordSize, out, len(ins), inBytes, float64(inBytes)/float64(max(total, 1)))
	return 0
}
