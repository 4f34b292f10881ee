// Package tbcheck compares the syzygy prober with Debian's fathom, the
// command-line front end of the Fathom probing library: random legal
// positions for every table, fathom's answer for each (WDL, DTZ and the
// winning, drawing and losing moves), and the same derived from syzygy.
package tbcheck

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

// Result is fathom's verdict on a position: the WDL and DTZ of its header
// and the moves of its WinningMoves, DrawingMoves and LosingMoves tags,
// each move reduced to piece, destination and promotion ("Kb3", "d6",
// "e8=Q") and sorted, since fathom's disambiguation is its own.
type Result struct {
	WDL                      string
	DTZ                      int
	Winning, Drawing, Losing []string
}

func (r Result) String() string {
	return fmt.Sprintf("%s;%d;%s;%s;%s", r.WDL, r.DTZ,
		strings.Join(r.Winning, " "), strings.Join(r.Drawing, " "), strings.Join(r.Losing, " "))
}

// Equal reports whether two results agree in everything.
func (r Result) Equal(o Result) bool { return r.String() == o.String() }

// Line formats a golden-file line: the FEN and the result.
func Line(fen string, r Result) string { return fen + ";" + r.String() }

// ParseLine reads a golden-file line written by Line.
func ParseLine(line string) (string, Result, error) {
	f := strings.Split(line, ";")
	if len(f) != 6 {
		return "", Result{}, fmt.Errorf("golden line %q: want 6 fields separated by ;", line)
	}
	dtz, err := strconv.Atoi(f[2])
	if err != nil {
		return "", Result{}, fmt.Errorf("golden line %q: DTZ: %w", line, err)
	}
	return f[0], Result{WDL: f[1], DTZ: dtz, Winning: strings.Fields(f[3]), Drawing: strings.Fields(f[4]), Losing: strings.Fields(f[5])}, nil
}

// moveKey reduces a SAN move as fathom writes it ("Rxd8", "exd6",
// "e8=Q") to piece, destination and promotion.
func moveKey(san string) string {
	san = strings.TrimRight(san, "+#")
	piece := ""
	if san != "" && strings.IndexByte("KQRBN", san[0]) >= 0 {
		piece = san[:1]
	}
	promo := ""
	if i := strings.IndexByte(san, '='); i >= 0 {
		promo, san = san[i:], san[:i]
	}
	if len(san) < 2 {
		return piece + san + promo
	}
	return piece + san[len(san)-2:] + promo
}

// ParseFathom reads fathom's PGN-like output.
func ParseFathom(out string) (Result, error) {
	var r Result
	have := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "[") || !strings.HasSuffix(line, "\"]") {
			continue
		}
		tag, val, ok := strings.Cut(strings.TrimSuffix(line[1:], "\"]"), " \"")
		if !ok {
			continue
		}
		moves := func() []string {
			var ms []string
			for _, m := range strings.Split(val, ", ") {
				if m != "" {
					ms = append(ms, moveKey(m))
				}
			}
			slices.Sort(ms)
			return ms
		}
		switch tag {
		case "WDL":
			r.WDL = val
			have++
		case "DTZ":
			n, err := strconv.Atoi(val)
			if err != nil {
				return r, fmt.Errorf("fathom DTZ %q: %w", val, err)
			}
			r.DTZ = n
			have++
		case "WinningMoves":
			r.Winning = moves()
		case "DrawingMoves":
			r.Drawing = moves()
		case "LosingMoves":
			r.Losing = moves()
		}
	}
	if have != 2 {
		return r, errors.New("fathom printed no WDL and DTZ")
	}
	return r, nil
}

// RunFathom runs fathom (its path in bin) on one position.
func RunFathom(ctx context.Context, bin, dir, fen string) (Result, error) {
	out, err := exec.CommandContext(ctx, bin, "--path="+dir, fen).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return Result{}, fmt.Errorf("fathom %s: %w: %s", fen, err, strings.TrimSpace(string(ee.Stderr)))
		}
		return Result{}, fmt.Errorf("fathom %s: %w", fen, err)
	}
	return ParseFathom(string(out))
}

// Expected derives from tb what fathom prints for p: the WDL of the DTZ
// with p's fifty-move counter, |DTZ|, and the moves grouped by their
// result; for a checkmate fathom prints Win and 0, for a stalemate Draw
// and 0, with no moves.
func Expected(tb *syzygy.Tablebase, p *board.Position) (Result, error) {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	if ml.Len() == 0 {
		if movegen.InCheck(p) {
			return Result{WDL: "Win"}, nil
		}
		return Result{WDL: "Draw"}, nil
	}
	dtz, err := tb.ProbeDTZ(p)
	if err != nil {
		return Result{}, err
	}
	wdl := syzygy.DTZResult(p.HalfmoveClock(), dtz)
	r := Result{WDL: wdl.String(), DTZ: max(dtz, -dtz)}
	moves, err := tb.ProbeRoot(p)
	if err != nil {
		return Result{}, err
	}
	for _, m := range moves {
		k := keyOf(p, m.Move)
		switch m.WDL {
		case syzygy.Win:
			r.Winning = append(r.Winning, k)
		case syzygy.Loss:
			r.Losing = append(r.Losing, k)
		default:
			r.Drawing = append(r.Drawing, k)
		}
	}
	slices.Sort(r.Winning)
	slices.Sort(r.Drawing)
	slices.Sort(r.Losing)
	return r, nil
}

// keyOf is moveKey for one of our moves.
func keyOf(p *board.Position, m board.Move) string {
	k := ""
	if pt := p.PieceAt(m.From()).Type(); pt != board.Pawn {
		k = string(pt.Letter())
	}
	k += m.To().String()
	if m.Kind() == board.Promotion {
		k += "=" + string(m.PromotionType().Letter())
	}
	return k
}

// RandomPosition returns a random legal position with the material of the
// table name (such as "KRPvKR"): either colour may hold the first side,
// either may move, pawns stand on ranks 2 to 7 and the side not to move is
// not in check. When both sides have pawns, one position in three has a
// pawn that has just double-stepped beside an enemy pawn, en passant
// possible.
func RandomPosition(rng *rand.Rand, name string) (*board.Position, error) {
	sides := strings.Split(name, "v")
	if len(sides) != 2 {
		return nil, fmt.Errorf("table name %q", name)
	}
	for tries := 0; tries < 100000; tries++ {
		white := rng.IntN(2) == 0
		var pieces []byte // FEN letters
		for s, side := range sides {
			for _, c := range []byte(side) {
				if (s == 0) != white {
					c += 'a' - 'A'
				}
				pieces = append(pieces, c)
			}
		}
		stm := "w"
		if rng.IntN(2) == 0 {
			stm = "b"
		}
		var grid [64]byte
		ep := "-"
		if bytes.IndexByte(pieces, 'P') >= 0 && bytes.IndexByte(pieces, 'p') >= 0 && rng.IntN(3) == 0 {
			// The side to move's pawn on its fifth rank, the enemy pawn
			// beside it just arrived from two squares back.
			own, their, rank, dir := byte('P'), byte('p'), 4, 1
			if stm == "b" {
				own, their, rank, dir = 'p', 'P', 3, -1
			}
			f := rng.IntN(8)
			g := f + 1
			if f == 7 || (f > 0 && rng.IntN(2) == 0) {
				g = f - 1
			}
			grid[rank*8+f], grid[rank*8+g] = own, their
			ep = board.Square((rank+dir)*8 + g).String()
			grid[(rank+dir)*8+g], grid[(rank+2*dir)*8+g] = '.', '.' // must stay empty
			pieces = slices.Delete(pieces, bytes.IndexByte(pieces, own), bytes.IndexByte(pieces, own)+1)
			pieces = slices.Delete(pieces, bytes.IndexByte(pieces, their), bytes.IndexByte(pieces, their)+1)
		}
		ok := true
		for _, c := range pieces {
			sq := rng.IntN(64)
			if c == 'P' || c == 'p' {
				sq = 8 + rng.IntN(48)
			}
			if grid[sq] != 0 {
				ok = false
				break
			}
			grid[sq] = c
		}
		if !ok {
			continue
		}
		for i := range grid {
			if grid[i] == '.' {
				grid[i] = 0
			}
		}
		fen := fenOf(&grid) + " " + stm + " - " + ep + " 0 1"
		p, err := movegen.ParseFEN(fen)
		if err != nil {
			continue // kings adjacent or the side not to move in check
		}
		if ep != "-" && p.EnPassant() == board.NoSquare {
			continue
		}
		return p, nil
	}
	return nil, fmt.Errorf("no legal position found for %s", name)
}

func fenOf(grid *[64]byte) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			c := grid[r*8+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// Positions returns n random positions (as FENs) spread evenly over the
// given tables, reproducible from seed.
func Positions(tables []string, n int, seed uint64) ([]string, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var fens []string
	for i := 0; i < n; i++ {
		p, err := RandomPosition(rng, tables[i%len(tables)])
		if err != nil {
			return nil, err
		}
		fens = append(fens, p.FEN())
	}
	return fens, nil
}
