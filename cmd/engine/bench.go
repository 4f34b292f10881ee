package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/bench"
)

const benchHelp = `Usage: engine bench [--depth N]

Searches a fixed list of positions to a fixed depth with one thread and a
fresh 16 MB hash table. The total node count is deterministic: it is the
signature of the search, quoted in commits that change the search. The last
line reads "N nodes M nps" (the OpenBench convention).

Flags:
`

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	depth := fs.IntP("depth", "d", bench.DefaultDepth, "search depth in plies")
	if done, code := parseFlags(fs, args, benchHelp, stdout, stderr); done {
		return code
	}
	// OpenBench and fastchess call "engine bench" with a positional depth.
	if fs.NArg() == 1 {
		if _, err := fmt.Sscanf(fs.Arg(0), "%d", depth); err != nil {
			fmt.Fprintf(stderr, "engine bench: unexpected argument %q\n", fs.Arg(0))
			return 2
		}
	} else if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "engine bench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *depth < 1 || *depth > 60 {
		fmt.Fprintf(stderr, "engine bench: --depth must be between 1 and 60, got %d\n", *depth)
		return 2
	}
	bench.Run(stdout, *depth)
	return 0
}
