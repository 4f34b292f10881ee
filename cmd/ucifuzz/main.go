package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/ucifuzz"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("ucifuzz", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	engine := fs.String("engine", "bin/engine", "engine binary to fuzz")
	seed := fs.Uint64("seed", 1, "seed; the same seed sends the same input")
	inputs := fs.Int("inputs", 2000, "lines to send in all")
	perProcess := fs.Int("per-process", 80, "about how many lines each engine process gets")
	parallel := fs.Int("parallel", 1, "engine processes at a time")
	reproDir := fs.String("repro-dir", "ucifuzz-repro", "directory for the first reproducer of each failure class")
	hugeHash := fs.Bool("huge-hash", false, "also set Hash in the gigabytes (takes real memory)")
	risky := fs.Bool("risky", false, "also name endless files (/dev/zero) and huge NN caches in options")
	memLimit := fs.Int("mem-limit-mb", 6144, "address-space cap per engine process (0: none)")
	readyTimeout := fs.Duration("ready-timeout", 2*time.Second, "isready -> readyok limit")
	stopTimeout := fs.Duration("stop-timeout", 2*time.Second, "stop -> bestmove limit before it counts as a hang")
	replay := fs.String("replay", "", "run this saved reproducer instead of fuzzing")
	verbose := fs.BoolP("verbose", "v", false, "print each failure as it is found")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: ucifuzz --engine bin/engine [flags]")
			fmt.Fprintln(stdout, fs.FlagUsages())
			return 0
		}
		fmt.Fprintln(stderr, "ucifuzz:", err)
		return 2
	}
	ro := ucifuzz.RunOptions{Engine: *engine, ReadyTimeout: *readyTimeout, StopTimeout: *stopTimeout, MemLimitMB: *memLimit}
	if *replay != "" {
		f, err := os.Open(*replay)
		if err != nil {
			fmt.Fprintln(stderr, "ucifuzz:", err)
			return 2
		}
		s, err := ucifuzz.ReadScript(f)
		f.Close()
		if err != nil {
			fmt.Fprintln(stderr, "ucifuzz:", err)
			return 2
		}
		sum := ucifuzz.Replay(ro, s)
		fmt.Fprint(stdout, sum.Report())
		if sum.Failed() {
			return 1
		}
		return 0
	}
	cfg := ucifuzz.Config{Run: ro, Seed: *seed, Inputs: *inputs, PerProcess: *perProcess, Parallel: *parallel,
		HugeHash: *hugeHash, Risky: *risky, ReproDir: *reproDir}
	if *verbose {
		cfg.Log = stderr
	}
	start := time.Now()
	sum, err := ucifuzz.Fuzz(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "ucifuzz:", err)
		return 2
	}
	fmt.Fprint(stdout, sum.Report())
	fmt.Fprintf(stdout, "seed %d, %s\n", *seed, time.Since(start).Round(time.Second))
	if sum.Failed() {
		return 1
	}
	return 0
}
