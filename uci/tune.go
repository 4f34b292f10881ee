//go:build tune

package uci

import (
	"strconv"

	"github.com/twofold-chess/twofold/search"
)

// tuneOptionList exposes the search's constants as spin options, in -tags
// tune builds only, for SPSA (scripts/spsa.py).
func tuneOptionList() []*option {
	var list []*option
	for _, t := range search.Tunables() {
		list = append(list, &option{name: t.Name, kind: "spin", def: strconv.Itoa(*t.Value), min: t.Min, max: t.Max,
			apply: func(_ *Engine, v string) error { return search.SetTunable(t.Name, atoi(v)) }})
	}
	return list
}

// TuneBuild reports whether the search's constants are UCI options (-tags tune).
const TuneBuild = true
