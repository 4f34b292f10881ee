//go:build calibrate

package search

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Built with -tags calibrate only (scripts/calibrate-elo.sh): the
// environment variable TWOFOLD_STRENGTH, e.g. "depth=3,margin=40",
// "nodes=20000" or "nodes=20000,net=1" (with the network), replaces what UCI_Elo maps to, so one binary can play any
// rung of the ladder. Release builds have no such knob.
func init() {
	v := os.Getenv("TWOFOLD_STRENGTH")
	if v == "" {
		return
	}
	var st Strength
	for _, kv := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(kv), "=")
		n, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			panic(fmt.Sprintf("TWOFOLD_STRENGTH %q: %v", v, err))
		}
		switch k {
		case "depth":
			st.Depth = int(n)
		case "margin":
			st.Margin = int(n)
		case "nodes":
			st.Nodes = n
		case "net":
			st.Network = n != 0
		default:
			panic(fmt.Sprintf("TWOFOLD_STRENGTH %q: unknown key %q", v, k))
		}
	}
	eloOverride = &st
}
