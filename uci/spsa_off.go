//go:build !spsa

package uci

// spsaOptionList is empty in release builds: the search's constants are
// options only in -tags spsa builds (uci/spsa.go).
func spsaOptionList() []*option { return nil }

// SPSABuild reports whether the search's constants are UCI options (-tags spsa).
const SPSABuild = false
