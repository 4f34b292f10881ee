package eval

// Score packs a middlegame and an endgame value into one integer so terms add
// in one instruction: the endgame half lives in the high 16 bits.
type Score int32

// S makes a Score from its middlegame and endgame values.
func S(mg, eg int) Score { return Score(int32(uint32(eg)<<16) + int32(mg)) }

// MG returns the middlegame value.
func (s Score) MG() int { return int(int16(uint16(uint32(s)))) }

// EG returns the endgame value (rounding the low half's borrow back in).
func (s Score) EG() int { return int(int16(uint16(uint32(s+0x8000) >> 16))) }

// maxPhase is the phase of the starting material: knight and bishop 1, rook 2, queen 4.
const maxPhase = 24

var phaseWeight = [6]int{0, 1, 1, 2, 4, 0}
