package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/uci"
)

// subcommand is one entry of the command line: how usage lists it and the
// entry point, which gets its own arguments and returns the exit code.
type subcommand struct {
	name    string
	args    string // what follows the name in usage
	summary string
	// needsNetwork: the command runs the MCTS network, so a build without
	// ONNX Runtime refuses it up front (its --help still works).
	needsNetwork bool
	run          func(args []string, stdout, stderr io.Writer) int
}

// subcommands is every subcommand, in the order usage lists them; usage is
// generated from it so that a new command cannot be left out of the help.
var subcommands = []subcommand{
	{name: "perft", args: "[flags]", summary: "count move-tree leaves (move generator check and speed)", run: runPerft},
	{name: "bench", args: "[flags]", summary: "search a fixed position list: node signature and speed (--search mcts: network speed)", run: runBench},
	{name: "texel", args: "gen|fit", summary: "Texel tuning of the hand-crafted evaluation: self-play data, then a weight fit", run: runTexel},
	{name: "tunables", args: "", summary: "list the search constants SPSA tunes (UCI options in -tags spsa builds)", run: runTunables},
	{name: "datagen", args: "--out FILE [flags]", summary: "self-play positions with search scores and results for NNUE training", run: runDatagen},
	{name: "selfplay", args: "[flags]", summary: "MCTS self-play games: training chunks and PGN", needsNetwork: true, run: runSelfplay},
	{name: "ladder", args: "[flags]", summary: "measure a network against fixed opponents (random, greedy, alpha-beta 1-4)", needsNetwork: true, run: runLadder},
	{name: "train", args: "--run-dir DIR", summary: "the AlphaZero loop: self-play, training, gating, ladder (resumable)", needsNetwork: true, run: runTrain},
	{name: "climb", args: "--run-dir DIR", summary: "rounds of policy iteration, the shipped network's recipe: self-play, training, ladder, promotion (resumable)", needsNetwork: true, run: runClimb},
	{name: "probe", args: "--syzygy DIR FEN", summary: "probe Syzygy tablebases: WDL, DTZ and the ranked moves (as fathom prints them)", run: runProbe},
	{name: "serve", args: "[--addr 127.0.0.1:8080] [--open]", summary: "play and analyse in the browser: a web board and a JSON API", run: runServe},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if err := uci.New(stdout).Run(stdin); err != nil {
			fmt.Fprintln(stderr, "engine:", err)
			return 1
		}
		return 0
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	case "-v", "--version", "version":
		fmt.Fprintln(stdout, "Twofold", uci.Version)
		return 0
	}
	i := slices.IndexFunc(subcommands, func(c subcommand) bool { return c.name == args[0] })
	if i < 0 {
		fmt.Fprintf(stderr, "engine: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	cmd := subcommands[i]
	if cmd.needsNetwork && !onnx.Supported && !slices.ContainsFunc(args[1:], isHelpFlag) {
		fmt.Fprintf(stderr, "engine %s: %v; this command needs the network (a build with cgo, such as `make build`)\n", cmd.name, onnx.ErrNotInBuild)
		return 1
	}
	return cmd.run(args[1:], stdout, stderr)
}

func isHelpFlag(a string) bool { return a == "-h" || a == "--help" }

func usage(w io.Writer) {
	lines := [][2]string{{"engine", "speak UCI on stdin/stdout (load this binary in a chess GUI)"}}
	for _, c := range subcommands {
		summary := c.summary
		if c.needsNetwork && !onnx.Supported {
			summary += " [not in this build: no cgo/ONNX Runtime]"
		}
		lines = append(lines, [2]string{"engine " + c.name + " " + c.args, summary})
	}
	lines = append(lines, [2]string{"engine version", "print the version"}, [2]string{"engine help", "print this help"})
	width := 0
	for _, l := range lines {
		width = max(width, len(l[0]))
	}
	fmt.Fprintln(w, "Usage:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l[0], l[1])
	}
	fmt.Fprintln(w, "\nRun \"engine <command> --help\" for a command's flags.")
}

// parseFlags parses a subcommand's flags. On --help it prints help and the
// flag list to stdout; on a bad flag it prints the error to stderr. done
// reports that the command should exit with code.
func parseFlags(fs *pflag.FlagSet, args []string, help string, stdout, stderr io.Writer) (done bool, code int) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return false, 0
	case errors.Is(err, pflag.ErrHelp):
		fmt.Fprint(stdout, help)
		fmt.Fprintln(stdout, strings.TrimRight(fs.FlagUsages(), "\n"))
		return true, 0
	}
	fmt.Fprintf(stderr, "engine %s: %v\nRun 'engine %s --help' for usage.\n", fs.Name(), err, fs.Name())
	return true, 2
}
