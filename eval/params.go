package eval

// Indices of the weights. Each group is a run of consecutive weights; the
// tuner treats them all alike and the names below are only for reading.
const (
	pMaterial        = 0                    // pawn, knight, bishop, rook, queen
	pPST             = pMaterial + 5        // 6 piece types x 32 squares (files e-h mirror d-a)
	pMobilityKnight  = pPST + 6*32          // by number of safe squares, 0..8
	pMobilityBishop  = pMobilityKnight + 9  // 0..13
	pMobilityRook    = pMobilityBishop + 14 // 0..14
	pMobilityQueen   = pMobilityRook + 15   // 0..27
	pDoubled         = pMobilityQueen + 28  // pawn with an own pawn ahead on its file
	pIsolated        = pDoubled + 1         // no own pawn on the neighbouring files
	pBackward        = pIsolated + 1        // cannot be supported, stop square guarded by a pawn
	pPassed          = pBackward + 1        // by relative rank 0..7
	pConnected       = pPassed + 8          // supported by or beside an own pawn, by relative rank
	pPassedOwnKing   = pConnected + 8       // distance of own king to a passer's stop square
	pPassedTheirKing = pPassedOwnKing + 1   // distance of the enemy king to it
	pKingAttack      = pPassedTheirKing + 1 // attacked squares of the enemy king zone, by attacker: N B R Q
	pKingShield      = pKingAttack + 4      // own pawns in front of the king: one rank ahead, two ranks ahead
	pKingOpenFile    = pKingShield + 2      // king on a file without own pawns
	pBishopPair      = pKingOpenFile + 1    //
	pRookOpen        = pBishopPair + 1      // rook on a file without pawns
	pRookSemiOpen    = pRookOpen + 1        // rook on a file without own pawns
	pRookSeventh     = pRookSemiOpen + 1    // rook on the relative seventh rank
	pPawnThreat      = pRookSeventh + 1     // own piece (not pawn) attacked by an enemy pawn
	pTempo           = pPawnThreat + 1      // side to move
	NumParams        = pTempo + 1           // the length of the weight vector
)

// paramGroups names the runs of weights, for the tuner's output file.
var paramGroups = []struct {
	Name  string
	Start int
}{
	{"material", pMaterial}, {"pst", pPST}, {"mobility knight", pMobilityKnight},
	{"mobility bishop", pMobilityBishop}, {"mobility rook", pMobilityRook},
	{"mobility queen", pMobilityQueen}, {"doubled", pDoubled}, {"isolated", pIsolated},
	{"backward", pBackward}, {"passed", pPassed}, {"connected", pConnected},
	{"passed own king distance", pPassedOwnKing}, {"passed their king distance", pPassedTheirKing},
	{"king attack", pKingAttack}, {"king shield", pKingShield}, {"king open file", pKingOpenFile},
	{"bishop pair", pBishopPair}, {"rook open file", pRookOpen}, {"rook semi-open file", pRookSemiOpen},
	{"rook seventh", pRookSeventh}, {"pawn threat", pPawnThreat}, {"tempo", pTempo},
}

// Weights is a full weight vector.
type Weights [NumParams]Score

// weights is the vector the engine plays with (weights.go, written by the tuner).
var weights = defaultWeights

// Current returns a copy of the weight vector in use.
func Current() Weights { return weights }
