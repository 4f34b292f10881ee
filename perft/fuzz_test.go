package perft

import (
	"strings"
	"testing"
)

// Suite files come from users: any text gives entries or an error, never a
// panic, and every entry ReadSuite accepts has a FEN and sane expectations.
func FuzzReadSuite(f *testing.F) {
	for _, seed := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400",
		"# comment\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n",
		"4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D0 1",
		"x ;D1 99999999999999999999999",
		";D1 1",
		"fen ;Dx 1 ;D2",
		"fen ;D1 1;;;",
		"\x00;\xff",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := ReadSuite(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.FEN == "" || len(e.Expectations) == 0 || e.Line < 1 {
				t.Fatalf("accepted a malformed entry %+v from %q", e, text)
			}
			for _, x := range e.Expectations {
				if x.Depth < 1 {
					t.Fatalf("accepted depth %d from %q", x.Depth, text)
				}
			}
		}
	})
}
