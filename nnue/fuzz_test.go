package nnue

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

// FuzzParse feeds Parse corrupted network files of every version: it
// either refuses them or returns a network that evaluates and writes back
// the bytes it read.
func FuzzParse(f *testing.F) {
	for _, s := range []Shape{
		{Hidden: 16, Activation: CReLU, OutputBuckets: 1},
		{Hidden: 16, Activation: SCReLU, OutputBuckets: 4},
		{Hidden: 16, Activation: SCReLU, OutputBuckets: 2, KingRelative: true, KingBuckets: testKingBuckets(4)},
		{Hidden: 16, Activation: CReLU, OutputBuckets: 1, KingRelative: true},
	} {
		n, err := RandomShaped(s, 1)
		require.NoError(f, err)
		data := encoded(f, n)
		f.Add(data)
		f.Add(data[:72])
	}
	p := board.StartPosition()
	f.Fuzz(func(t *testing.T, data []byte) {
		// A checksum that matches lets the fuzzer past it into the layout.
		if len(data) >= 4 {
			data = withCRC(append([]byte(nil), data...))
		}
		n, err := Parse(data)
		if err != nil {
			return
		}
		_ = n.Evaluate(p)
		require.Equal(t, data, encoded(t, n))
	})
}
