// Command engine is the Twofold chess engine. With no arguments it speaks
// UCI on standard input and output (for Arena, Cute Chess, cutechess-cli,
// fastchess and other GUIs); subcommands run tools from a terminal.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/uci"
)

// subcommands maps a subcommand name to its entry point; each gets its own
// arguments and returns the process exit code.
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"perft":    runPerft,
	"bench":    runBench,
	"tune":     runTune,
	"selfplay": runSelfplay,
	"ladder":   runLadder,
	"train":    runTrain,
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
	cmd, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "engine: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return cmd(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage:
  engine               speak UCI on stdin/stdout (load this binary in a chess GUI)
  engine perft [flags] count move-tree leaves (move generator check and speed)
  engine bench [flags] search a fixed position list: node signature and speed
  engine tune gen|fit  Texel tuning: self-play data, then a weight fit
  engine version       print the version

Run "engine <command> --help" for a command's flags.
`)
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
