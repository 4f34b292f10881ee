package board

// Zobrist keys. They come from a fixed-seed generator so keys are the same on
// every run and every machine (hash-table contents and tests depend on it).
var (
	zobristPiece    [14][64]uint64 // indexed by Piece (colour*8 + type)
	zobristCastling [16]uint64     // indexed by CastlingRights
	zobristEP       [8]uint64      // by file of the en-passant square
	zobristSide     uint64         // xored in when Black is to move
)

// splitMix64 is a small, well-mixed generator (Steele et al.), enough for keys.
type splitMix64 uint64

func (s *splitMix64) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func init() {
	rng := splitMix64(0x7F0F01D)
	for c := White; c <= Black; c++ {
		for pt := Pawn; pt <= King; pt++ {
			for s := 0; s < 64; s++ {
				zobristPiece[MakePiece(c, pt)][s] = rng.next()
			}
		}
	}
	var single [4]uint64
	for i := range single {
		single[i] = rng.next()
	}
	// A set of rights hashes as the xor of its members, so removing one right
	// is a single xor pair whatever else remains.
	for cr := range zobristCastling {
		for i := range single {
			if cr&(1<<i) != 0 {
				zobristCastling[cr] ^= single[i]
			}
		}
	}
	for f := range zobristEP {
		zobristEP[f] = rng.next()
	}
	zobristSide = rng.next()
}

// computeKey hashes the position from scratch; make/unmake keep p.key equal
// to it incrementally (tests check that they agree).
func (p *Position) computeKey() uint64 {
	var k uint64
	for s := Square(0); s < 64; s++ {
		if pc := p.squares[s]; pc != NoPiece {
			k ^= zobristPiece[pc][s]
		}
	}
	k ^= zobristCastling[p.castling]
	if p.ep != NoSquare {
		k ^= zobristEP[p.ep.File()]
	}
	if p.side == Black {
		k ^= zobristSide
	}
	return k
}
