package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The ladder's shape: it starts at MinElo, rises strictly, and ends with full
// strength no more than 100 below MaxElo, so every setting above the last
// measured rung plays within the calibration's ±100 of what it asks for.
func TestEloLadderWithinReachOfMaxElo(t *testing.T) {
	assert.Equal(t, MinElo, eloLadder[0].Elo)
	for i := 1; i < len(eloLadder); i++ {
		assert.Greater(t, eloLadder[i].Elo, eloLadder[i-1].Elo, "rung %d", i)
	}
	top := eloLadder[len(eloLadder)-1]
	assert.Equal(t, Strength{}, top.St, "the last rung is full strength")
	assert.LessOrEqual(t, top.Elo, MaxElo)
	assert.GreaterOrEqual(t, top.Elo, MaxElo-100, "MaxElo is more than 100 above measured full strength")
}
