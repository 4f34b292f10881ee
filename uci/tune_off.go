//go:build !tune

package uci

// tuneOptionList is empty in release builds: the search's constants are
// options only in -tags tune builds (uci/tune.go).
func tuneOptionList() []*option { return nil }

// TuneBuild reports whether the search's constants are UCI options (-tags tune).
const TuneBuild = false
