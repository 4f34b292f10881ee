package tbcheck

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

func TestParsePickSpecs(t *testing.T) {
	specs, err := ParsePickSpecs("KQvKR:win:6:20, KRvKP:draw:8")
	require.NoError(t, err)
	assert.Equal(t, []PickSpec{{Table: "KQvKR", Won: true, Count: 6, MinDTZ: 20}, {Table: "KRvKP", Count: 8}}, specs)
	for _, bad := range []string{"", "KQvKR", "KQvKR:win:6", "KQvKR:draw:8:3", "KQvKR:lose:3", "KQKR:draw:3",
		"KQvKR:draw:0", "KQvKR:draw:x", "KQvKR:win:3:101", "KQvKR:win:3:-1", "KQvKR:draw:3,"} {
		_, err := ParsePickSpecs(bad)
		assert.Error(t, err, bad)
	}
}

// TestPick checks each picked position against the tables move by move:
// a won one is a win with the DTZ asked for, a drawn one a draw with a
// move after which the opponent wins.
func TestPick(t *testing.T) {
	tb, err := syzygy.Open("../../syzygy/testdata/tables")
	require.NoError(t, err)
	defer tb.Close()
	specs, err := ParsePickSpecs("KQvKR:win:5:20,KRvKP:draw:5,KBNvK:win:3:40")
	require.NoError(t, err)
	var all []string
	for _, sp := range specs {
		fens, err := Pick(tb, rand.New(rand.NewPCG(7, 7)), sp)
		require.NoError(t, err)
		require.Len(t, fens, sp.Count)
		for _, fen := range fens {
			p, err := movegen.ParseFEN(fen)
			require.NoError(t, err)
			wdl, err := tb.ProbeWDL(p)
			require.NoError(t, err)
			if sp.Won {
				assert.Equal(t, syzygy.Win, wdl, fen)
				dtz, err := tb.ProbeDTZ(p)
				require.NoError(t, err)
				assert.GreaterOrEqual(t, dtz, sp.MinDTZ, fen)
				continue
			}
			assert.Equal(t, syzygy.Draw, wdl, fen)
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			loses := false
			for _, m := range ml.Moves() {
				p.Make(m)
				w, err := tb.ProbeWDL(p)
				p.Unmake()
				require.NoError(t, err)
				loses = loses || w == syzygy.Win
			}
			assert.True(t, loses, "%s: some move must lose", fen)
		}
		all = append(all, fens...)
	}
	again, err := Pick(tb, rand.New(rand.NewPCG(7, 7)), specs[0])
	require.NoError(t, err)
	assert.Equal(t, all[:5], again, "the same seed picks the same positions")

	_, err = Pick(tb, rand.New(rand.NewPCG(1, 1)), PickSpec{Table: "KRPvKR", Won: true, Count: 1})
	assert.Error(t, err, "a table not in the directory")
}
