package uci

import (
	"fmt"
	"strings"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/syzygy"
)

// The Syzygy tablebases: Stockfish's four options. The tables are opened
// here, once, and both searchers get them with the shared options at the
// next "go" (see mind.Tablebases). Setting an option stops any search
// first, so the tables a search probes are never closed under it.

// syzygyOptionList declares SyzygyPath, SyzygyProbeDepth, Syzygy50MoveRule
// and SyzygyProbeLimit, with Stockfish's defaults and ranges.
func (e *Engine) syzygyOptionList() []*option {
	return []*option{
		{Option: mind.Option{Name: "SyzygyPath", Kind: mind.String, Default: "<empty>", Set: e.setSyzygyPath}},
		{Option: mind.Option{Name: "SyzygyProbeDepth", Kind: mind.Spin, Default: "1", Min: 1, Max: 100, Set: func(v string) error {
			e.shared.Tablebases.ProbeDepth = atoi(v)
			return nil
		}}},
		{Option: mind.Option{Name: "Syzygy50MoveRule", Kind: mind.Check, Default: "true", Set: func(v string) error {
			e.shared.Tablebases.Rule50 = v == "true"
			return nil
		}}},
		{Option: mind.Option{Name: "SyzygyProbeLimit", Kind: mind.Spin, Default: "7", Min: 0, Max: 7, Set: func(v string) error {
			e.shared.Tablebases.ProbeLimit = atoi(v)
			return nil
		}}},
	}
}

// setSyzygyPath opens the tables in the directories of path (separated by
// ':', or ';' on Windows) and says how many it found and which directories
// it could not read; empty or "<empty>" (how Stockfish shows the default,
// which a GUI may send back) turns the tablebases off. The tables set
// before are closed. A file found unusable when a search first needs it is
// reported then, and the search goes on without it.
func (e *Engine) setSyzygyPath(path string) error {
	path = strings.TrimSpace(path)
	if old := e.shared.Tablebases.Tables; old != nil {
		e.shared.Tablebases.Tables = nil
		_ = old.Close()
	}
	if path == "" || strings.EqualFold(path, "<empty>") {
		return nil
	}
	tb, _ := syzygy.OpenWith(path, syzygy.Options{OnTableError: func(err error) {
		e.send("info string %v; searching on without it", err)
	}})
	for _, err := range tb.Problems() {
		e.send("info string SyzygyPath: %v", err)
	}
	if tb.NumWDL() == 0 {
		_ = tb.Close()
		return fmt.Errorf("SyzygyPath: no tablebase files (.rtbw) found in %s; tablebases off", path)
	}
	e.send("info string Found %d WDL and %d DTZ tablebase files (up to %d-man) in %s", tb.NumWDL(), tb.NumDTZ(), tb.MaxPieces(), path)
	e.shared.Tablebases.Tables = tb
	return nil
}
