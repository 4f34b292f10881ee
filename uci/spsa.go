//go:build spsa

package uci

import (
	"strconv"

	"github.com/twofold-chess/twofold/search"
)

// spsaOptionList exposes the search's constants as spin options, in -tags
// spsa builds only, for SPSA (scripts/spsa.py).
func spsaOptionList() []*option {
	var list []*option
	for _, t := range search.Tunables() {
		list = append(list, &option{name: t.Name, kind: "spin", def: strconv.Itoa(*t.Value), min: t.Min, max: t.Max,
			apply: func(_ *Engine, v string) error { return search.SetTunable(t.Name, atoi(v)) }})
	}
	return list
}

// SPSABuild reports whether the search's constants are UCI options (-tags spsa).
const SPSABuild = true
