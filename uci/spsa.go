//go:build spsa

package uci

import (
	"strconv"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/search"
)

// spsaOptionList exposes the search's constants as spin options, in -tags
// spsa builds only, for SPSA (scripts/spsa.py).
func spsaOptionList() []*option {
	var list []*option
	for _, t := range search.Tunables() {
		list = append(list, &option{Option: mind.Option{Name: t.Name, Kind: mind.Spin, Default: strconv.Itoa(*t.Value), Min: t.Min, Max: t.Max,
			Set: func(v string) error { return search.SetTunable(t.Name, atoi(v)) }}})
	}
	return list
}

// SPSABuild reports whether the search's constants are UCI options (-tags spsa).
const SPSABuild = true
