package eval

// defaultWeights is a hand-set starting point: textbook material values,
// centralisation tables and small structural terms. `engine tune` fits the
// weights to game results and rewrites this file with the result.
var defaultWeights = initialGuess()

func initialGuess() Weights {
	var w Weights
	for i, s := range []Score{S(100, 120), S(320, 300), S(330, 320), S(480, 540), S(960, 1000)} {
		w[pMaterial+i] = s
	}
	for rank := 0; rank < 8; rank++ {
		for file := 0; file < 4; file++ {
			center := min(file, 3) + min(rank, 7-rank) // 0 at the corners .. 6 in the middle
			i := rank*4 + file
			if rank > 0 && rank < 7 {
				w[pPST+0*32+i] = S(4*(rank-1)+3*file-6, 6*(rank-1))
			}
			w[pPST+1*32+i] = S(6*center-18, 5*center-15)
			w[pPST+2*32+i] = S(3*center-9, 3*center-9)
			w[pPST+3*32+i] = S(2*file-2, 0)
			w[pPST+4*32+i] = S(center-3, 3*center-9)
			w[pPST+5*32+i] = S(-12*rank+2*(3-file)*boolInt(rank == 0), 6*center-18)
		}
	}
	for n := 0; n < 9; n++ {
		w[pMobilityKnight+n] = S(4*(n-4), 4*(n-4))
	}
	for n := 0; n < 14; n++ {
		w[pMobilityBishop+n] = S(4*(n-6), 4*(n-6))
	}
	for n := 0; n < 15; n++ {
		w[pMobilityRook+n] = S(2*(n-7), 4*(n-7))
	}
	for n := 0; n < 28; n++ {
		w[pMobilityQueen+n] = S(n-13, 2*(n-13))
	}
	w[pDoubled], w[pIsolated], w[pBackward] = S(-10, -20), S(-10, -15), S(-8, -10)
	passed := [8][2]int{{0, 0}, {5, 10}, {10, 15}, {15, 25}, {30, 50}, {60, 90}, {100, 150}, {0, 0}}
	connected := [8]int{0, 5, 8, 12, 20, 35, 60, 0}
	for r := 0; r < 8; r++ {
		w[pPassed+r] = S(passed[r][0], passed[r][1])
		w[pConnected+r] = S(connected[r], connected[r])
	}
	w[pPassedOwnKing], w[pPassedTheirKing] = S(0, -5), S(0, 8)
	for i, v := range []int{8, 6, 8, 12} {
		w[pKingAttack+i] = S(v, 0)
	}
	w[pKingShield], w[pKingShield+1], w[pKingOpenFile] = S(12, 0), S(6, 0), S(-25, 0)
	w[pBishopPair] = S(30, 50)
	w[pRookOpen], w[pRookSemiOpen], w[pRookSeventh] = S(30, 10), S(15, 5), S(10, 20)
	w[pPawnThreat] = S(-40, -30)
	w[pTempo] = S(15, 5)
	return w
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
