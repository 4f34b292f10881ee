package texel

import (
	"strings"
	"testing"

	"github.com/twofold-chess/twofold/eval"
)

// Training sets come from files: any text gives a dataset or an error, never
// a panic, and each accepted line is one sample.
func FuzzReadDataset(f *testing.F) {
	for _, seed := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1/2\n",
		"# c\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 | 1-0\n4k3/8/8/8/8/8/8/4K2R b K - 0 1 | 0\n",
		"4k3/8/8/8/8/8/8/4K2R w K - 0 1 | 2\n",
		"4k3/8/8/8/8/8/8/4K2R w K - 0 1\n",
		"| 1\n",
		"\x00|\xff",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		w := eval.Current()
		ds, err := ReadDataset(strings.NewReader(text), &w)
		if err != nil {
			return
		}
		lines := 0
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" && l[0] != '#' {
				lines++
			}
		}
		if ds.Len() != lines {
			t.Fatalf("%d samples from %d lines of %q", ds.Len(), lines, text)
		}
	})
}
