package ucifuzz

import (
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// fenCorpus holds positions that have found engine bugs before, and the
// corners of the rules: castling both ways and in Chess960 notation, en
// passant, promotions, mate and stalemate (bestmove 0000), a board full of
// queens (a qsearch that takes seconds per depth), clocks at their limits.
var fenCorpus = []string{
	board.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"1rbr1q1b/q4n1N/2k1q3/1qqq1q1n/1QQQ2q1/Q1B2QQB/4QQ2/2R2KR1 b - - 5 39",
	"4k3/8/8/8/8/8/8/4K2R b K - 0 9223372036854775807",
	"4k3/8/8/8/8/8/8/4K2R w K - 9223372036854775807 1",
	"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
	"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
	"k7/8/1K6/8/8/8/8/1Q6 w - - 99 80",
	"8/P7/8/8/8/8/8/k6K w - - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
	"1k6/8/8/8/8/8/8/6K1 w - - 0 1",
	"QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQk/QQQQQQQQ/QQQQQQQQ/QQQQQQQK b - - 0 1",
	"qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqkqqqq/8/8/8/QQQQKQQQ w - - 0 1",
	"K7/8/8/8/8/8/8/qqqqqqqk w - - 0 1",
	"8/8/8/8/8/8/8/8 w - - 0 1",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
	"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQkq e9 0 1",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 -5 -1",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ZZ - 0 1",
	"kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1",
	"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra fields here",
}

// Clock fields from harmless to absurd.
var clockFields = []string{
	"0 1", "0 1", "5 39", "99 80", "100 60", "150 1", "0 9223372036854775807", "9223372036854775807 1",
	"9223372036854775807 9223372036854775807", "-1 -1", "0 0", "0 99999999999999999999", "x y", "0 2147483648", "",
}

// fen returns a FEN: from the corpus, a random placement (often many
// queens), a random game from a corpus position, with its clocks or
// fields changed, or with a byte mutated.
func (g *generator) fen() string {
	var fen string
	switch n := g.rng.IntN(10); {
	case n < 4:
		fen = fenCorpus[g.rng.IntN(len(fenCorpus))]
	case n < 7:
		fen = g.randomPlacement()
	default:
		p, err := movegen.ParseFEN(fenCorpus[g.rng.IntN(8)])
		if err != nil {
			p = board.StartPosition()
		}
		for i := g.rng.IntN(60); i > 0; i-- {
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			if ml.Len() == 0 {
				break
			}
			p.Make(ml.At(g.rng.IntN(ml.Len())))
		}
		fen = p.FEN()
	}
	fields := strings.Fields(fen)
	switch n := g.rng.IntN(10); {
	case n == 0 && len(fields) >= 4:
		fen = strings.Join(fields[:4], " ") + " " + g.pick(clockFields...)
	case n == 1 && len(fields) > 1:
		fen = strings.Join(fields[:1+g.rng.IntN(len(fields)-1)], " ")
	case n == 2:
		b := []byte(fen)
		i := g.rng.IntN(len(b))
		const alphabet = "12345678/pnbrqkPNBRQKwb-KQkq x0"
		b[i] = alphabet[g.rng.IntN(len(alphabet))]
		fen = string(b)
	}
	return fen
}

// randomPlacement puts two kings and up to 30 other pieces anywhere
// (pawns off the back ranks), heavy on queens one time in three. About
// half are legal; the rest test the engine's FEN validation.
func (g *generator) randomPlacement() string {
	var sq [64]byte
	put := func(c byte, pawn bool) {
		for tries := 0; tries < 100; tries++ {
			s := g.rng.IntN(64)
			if pawn && (s < 8 || s >= 56) {
				continue
			}
			if sq[s] == 0 {
				sq[s] = c
				return
			}
		}
	}
	put('K', false)
	put('k', false)
	queens := g.chance(0.33)
	for i := g.rng.IntN(31); i > 0; i-- {
		c := "PNBRQpnbrq"[g.rng.IntN(10)]
		if queens && g.chance(0.7) {
			c = "Qq"[g.rng.IntN(2)]
		}
		put(c, c == 'P' || c == 'p')
	}
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			c := sq[rank*8+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" " + g.pick("w", "b") + " - - " + g.pick(clockFields[:6]...))
	return b.String()
}
