package syzygy

// The index of a position inside a table. A table lists its pieces in an
// order chosen by the generator and splits them into groups: the leading
// group (the two kings, or three unique pieces, or the pawns of the leading
// colour), then the pawns of the other colour when both sides have pawns,
// then runs of identical pieces. Each group is numbered on its own and the
// group numbers are combined with per-table factors (mixed radix).
//
// Symmetry shrinks the leading group's range: without pawns the first piece
// is brought into the triangle a1-d1-d4 (mirror files, ranks and the a1-h8
// diagonal); with pawns only the files are mirrored so the leading pawn is
// on files a-d, and each of these four files has a sub-table of its own.

// maxPieces is the largest piece count a table may have (kings included).
const maxPieces = 7

var (
	// binomial[k][n] is the number of ways to choose k of n things.
	binomial [maxPieces + 1][64]uint64
	// triangle numbers the ten squares of a1-d1-d4: the six below the
	// diagonal first (b1 c1 d1 c2 d2 d3 = 0..5), then a1 b2 c3 d4 (6..9).
	triangle [64]int
	// lower numbers the 28 squares below the a1-h8 diagonal in square order.
	lower [64]int
	// kkIndex numbers the 462 placements of two kings that are not adjacent,
	// the first in the triangle and, when the first is on the diagonal, the
	// second not above it. Unused entries hold -1.
	kkIndex [10][64]int
	// pawnRank orders the pawn squares a2..h7 from 47 down to 0: the edge
	// files before the centre, low ranks before high ones, the a-file square
	// before its h-file mirror. The leading pawn is the one with the highest
	// value; the others are coded by how many squares rank below them.
	pawnRank [64]int
	// leadPawnIndex[n][s] is where the numbers of n leading pawns whose
	// leader stands on s begin, counted per file; leadPawnSize[n][f] is how
	// many such placements exist with the leader on file f (a..d).
	leadPawnIndex [6][64]uint64
	leadPawnSize  [6][4]uint64
)

// offDiagonal is the rank minus the file: negative below the a1-h8
// diagonal, zero on it, positive above.
func offDiagonal(s int) int { return s>>3 - s&7 }

// flipDiagonal reflects a square in the a1-h8 diagonal (a3 <-> c1).
func flipDiagonal(s int) int { return (s>>3 | s<<3) & 63 }

func init() {
	for n := 0; n < 64; n++ {
		binomial[0][n] = 1
		for k := 1; k <= maxPieces && k <= n; k++ {
			binomial[k][n] = binomial[k-1][n-1] + binomial[k][n-1]
		}
	}

	code := 0
	for s := 0; s < 64; s++ {
		if offDiagonal(s) < 0 {
			lower[s] = code
			code++
		}
	}

	for s := range triangle {
		triangle[s] = -1
	}
	code = 0
	for s := 0; s < 64; s++ {
		if s&7 <= 3 && s>>3 <= 3 && offDiagonal(s) < 0 {
			triangle[s] = code
			code++
		}
	}
	for r := 0; r < 4; r++ {
		triangle[r*9] = code
		code++
	}

	code = 0
	type pending struct{ t, s int }
	var bothOnDiagonal []pending
	for t := 0; t < 10; t++ {
		for i := range kkIndex[t] {
			kkIndex[t][i] = -1
		}
	}
	for t := 0; t < 10; t++ {
		k1 := -1
		for s := 0; s < 64; s++ {
			if triangle[s] == t {
				k1 = s
			}
		}
		for k2 := 0; k2 < 64; k2++ {
			dr, df := k2>>3-k1>>3, k2&7-k1&7
			switch {
			case dr >= -1 && dr <= 1 && df >= -1 && df <= 1:
				// the same or an adjacent square
			case offDiagonal(k1) == 0 && offDiagonal(k2) > 0:
				// mirrored onto the other side of the diagonal
			case offDiagonal(k1) == 0 && offDiagonal(k2) == 0:
				bothOnDiagonal = append(bothOnDiagonal, pending{t, k2})
			default:
				kkIndex[t][k2] = code
				code++
			}
		}
	}
	for _, p := range bothOnDiagonal {
		kkIndex[p.t][p.s] = code
		code++
	}

	avail := 47
	for f := 0; f < 4; f++ {
		for r := 1; r <= 6; r++ {
			pawnRank[r*8+f] = avail
			pawnRank[r*8+7-f] = avail - 1
			avail -= 2
		}
	}
	for n := 1; n <= 5; n++ {
		for f := 0; f < 4; f++ {
			var idx uint64
			for r := 1; r <= 6; r++ {
				s := r*8 + f
				leadPawnIndex[n][s] = idx
				idx += binomial[n-1][pawnRank[s]]
			}
			leadPawnSize[n][f] = idx
		}
	}
}

// encoding is how one sub-table numbers its positions.
type encoding struct {
	pieces  [maxPieces]uint8  // piece codes in table order (1..6 white P..K, 9..14 black)
	groups  [maxPieces]uint8  // group lengths in table order, ending with 0
	factors [maxPieces]uint64 // multiplier of each group's number
	size    uint64            // number of positions (indices 0..size-1)
}

// sortSquares sorts a few squares ascending (insertion sort; no allocation).
func sortSquares(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// index numbers the position whose piece squares are given in table order
// (sq[i] holds the square of pieces[i]); sq is modified. leadPawns is the
// number of pawns in the leading group (0 without pawns), twoKings whether
// the leading group is the two kings.
func (e *encoding) index(sq []int, leadPawns int, twoKings bool) uint64 {
	n := len(sq)
	var idx uint64
	k := 0
	if leadPawns > 0 {
		if sq[0]&7 > 3 {
			for i := range sq {
				sq[i] ^= 7
			}
		}
		// The other leading pawns, ascending by pawnRank.
		lp := sq[1:leadPawns]
		for i := 1; i < len(lp); i++ {
			for j := i; j > 0 && pawnRank[lp[j]] < pawnRank[lp[j-1]]; j-- {
				lp[j], lp[j-1] = lp[j-1], lp[j]
			}
		}
		idx = leadPawnIndex[leadPawns][sq[0]]
		for i := 1; i < leadPawns; i++ {
			idx += binomial[i][pawnRank[sq[i]]]
		}
		idx *= e.factors[0]
		k = leadPawns
	} else {
		if sq[0]&7 > 3 {
			for i := range sq {
				sq[i] ^= 7
			}
		}
		if sq[0]>>3 > 3 {
			for i := range sq {
				sq[i] ^= 56
			}
		}
		lead := 3
		if twoKings {
			lead = 2
		}
		for i := 0; i < n; i++ {
			if d := offDiagonal(sq[i]); d != 0 {
				if d > 0 && i < lead {
					for j := range sq {
						sq[j] = flipDiagonal(sq[j])
					}
				}
				break
			}
		}
		if twoKings {
			idx = uint64(kkIndex[triangle[sq[0]]][sq[1]])
			k = 2
		} else {
			s1 := b2i(sq[1] > sq[0])
			s2 := b2i(sq[2] > sq[0]) + b2i(sq[2] > sq[1])
			switch {
			case offDiagonal(sq[0]) != 0:
				idx = uint64((triangle[sq[0]]*63+sq[1]-s1)*62 + sq[2] - s2)
			case offDiagonal(sq[1]) != 0:
				idx = uint64(6*63*62 + (sq[0]>>3)*28*62 + lower[sq[1]]*62 + sq[2] - s2)
			case offDiagonal(sq[2]) != 0:
				idx = uint64(6*63*62 + 4*28*62 + (sq[0]>>3)*7*28 + (sq[1]>>3-s1)*28 + lower[sq[2]])
			default:
				idx = uint64(6*63*62 + 4*28*62 + 4*7*28 + (sq[0]>>3)*7*6 + (sq[1]>>3-s1)*6 + sq[2]>>3 - s2)
			}
			k = 3
		}
		idx *= e.factors[0]
	}

	// The remaining groups: pawns of the other colour (on 48 squares), then
	// runs of identical pieces, each numbered as a combination of the
	// squares the earlier groups leave free.
	pawnGroup := leadPawns > 0 && k < n && e.pieces[k]&7 == 1
	for g := 1; k < n; g++ {
		t := k + int(e.groups[g])
		grp := sq[k:t]
		sortSquares(grp)
		var num uint64
		for i, s := range grp {
			skips := 0
			for _, p := range sq[:k] {
				skips += b2i(s > p)
			}
			if pawnGroup {
				skips += 8
			}
			num += binomial[i+1][s-skips]
		}
		pawnGroup = false
		idx += num * e.factors[g]
		k = t
	}
	return idx
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
