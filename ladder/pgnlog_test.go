package ladder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/ladder"
)

func TestPGNLogMatchColours(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.pgn")
	log, err := ladder.OpenPGNLog(path, "Test match")
	require.NoError(t, err)
	ladder.Match(ladder.NewRandom(1), ladder.NewRandom(2), 4, 20, func(done int, _ ladder.Score, g ladder.GameResult) {
		log.MatchGame(g, "subject", "opponent", done)
	})
	require.NoError(t, log.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(data)
	assert.Equal(t, 4, strings.Count(text, `[Event "Test match"]`))
	games := strings.Split(text, `[Event `)[1:]
	require.Len(t, games, 4)
	for i, g := range games {
		white, black := "subject", "opponent"
		if i%2 == 1 {
			white, black = black, white
		}
		assert.Contains(t, g, `[White "`+white+`"]`, "game %d", i+1)
		assert.Contains(t, g, `[Black "`+black+`"]`, "game %d", i+1)
		assert.Contains(t, g, `[Round "`+string(rune('1'+i))+`"]`)
	}

	var none *ladder.PGNLog
	assert.NotPanics(t, func() { none.MatchGame(ladder.GameResult{}, "a", "b", 1) })
	assert.NoError(t, none.Close())
	none, err = ladder.OpenPGNLog("", "x")
	assert.NoError(t, err)
	assert.Nil(t, none)
	_, err = ladder.OpenPGNLog(filepath.Join(t.TempDir(), "no", "such", "dir.pgn"), "x")
	assert.Error(t, err)
}
