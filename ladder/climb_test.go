package ladder_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/ladder"
)

// closing is a random mover that counts its Close calls.
type closing struct {
	ladder.Player
	closed *atomic.Int32
}

func (c closing) Close() { c.closed.Add(1) }

func TestClimb(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ladder.pgn")
	log, err := ladder.OpenPGNLog(path, "Climb test")
	require.NoError(t, err)
	var closed atomic.Int32
	var seeds atomic.Uint64
	var reported []string
	games := map[string][]int{}
	progress := func(rung string, done int, s ladder.Score) {
		assert.Equal(t, done, s.Games(), rung)
		games[rung] = append(games[rung], done)
	}
	results, err := ladder.Climb(func() (ladder.Player, error) {
		return closing{ladder.NewRandom(seeds.Add(1)), &closed}, nil
	}, "subject", ladder.ClimbConfig{Games: 2, MaxPlies: 30, Workers: 2, Seed: 1, Rungs: []string{"greedy", "random"}, PGN: log, Progress: progress},
		func(rung string, s ladder.Score) { reported = append(reported, rung) })
	require.NoError(t, err)
	require.NoError(t, log.Close())
	require.Len(t, results, 2)
	assert.Equal(t, "random", results[0].Name, "in ladder order, not the order asked")
	assert.Equal(t, "greedy", results[1].Name)
	for _, r := range results {
		assert.Equal(t, 2, r.Score.Games(), r.Name)
	}
	assert.ElementsMatch(t, []string{"random", "greedy"}, reported)
	assert.Equal(t, map[string][]int{"random": {1, 2}, "greedy": {1, 2}}, games, "Progress after every game")
	assert.Equal(t, int32(2), closed.Load(), "one subject player per rung, each closed")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, 4, strings.Count(string(data), `[Event "Climb test"]`))
	assert.Equal(t, 2, strings.Count(string(data), `[White "subject"]`))

	_, err = ladder.Climb(func() (ladder.Player, error) { return ladder.NewRandom(1), nil }, "s", ladder.ClimbConfig{Games: 2, Rungs: []string{"nobody"}}, nil)
	assert.ErrorContains(t, err, `no rung named [nobody]`)
	_, err = ladder.Climb(func() (ladder.Player, error) { return nil, errors.New("no network") }, "s", ladder.ClimbConfig{Games: 2, Rungs: []string{"random"}}, nil)
	assert.ErrorContains(t, err, "no network")
}
