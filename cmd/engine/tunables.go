package main

import (
	"fmt"
	"io"

	"github.com/twofold-chess/twofold/search"
	"github.com/twofold-chess/twofold/uci"
)

const tunablesHelp = `Usage: engine tunables

Lists the search constants SPSA tunes, one per line: name, value, minimum,
maximum and the final SPSA step (c_end). scripts/spsa.py reads this list.
Only a -tags spsa build (go build -tags spsa ./cmd/engine) has them as UCI
spin options; another build lists them and exits with status 1.
`

func runTunables(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if isHelpFlag(args[0]) {
			fmt.Fprint(stdout, tunablesHelp)
			return 0
		}
		fmt.Fprint(stderr, "engine tunables: takes no arguments\n\n"+tunablesHelp)
		return 2
	}
	for _, t := range search.Tunables() {
		fmt.Fprintf(stdout, "%s %d %d %d %g\n", t.Name, *t.Value, t.Min, t.Max, t.Step)
	}
	if !uci.SPSABuild {
		fmt.Fprintln(stderr, "engine tunables: this build has no tunable UCI options; build with -tags spsa to tune them")
		return 1
	}
	return 0
}
