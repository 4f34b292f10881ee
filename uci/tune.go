//go:build tune

package uci

import (
	"strconv"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/search"
)

// tuneOptionList exposes the search's constants as spin options, in -tags
// tune builds only, for SPSA (scripts/spsa.py).
func tuneOptionList() []*option {
	var list []*option
	for _, t := range search.Tunables() {
		list = append(list, &option{Option: mind.Option{Name: t.Name, Kind: mind.Spin, Default: strconv.Itoa(*t.Value), Min: t.Min, Max: t.Max,
			Set: func(v string) error { return search.SetTunable(t.Name, atoi(v)) }}})
	}
	return list
}

// TuneBuild reports whether the search's constants are UCI options (-tags tune).
const TuneBuild = true
