package board

import (
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// FENError describes why a FEN string was rejected.
type FENError struct {
	FEN    string
	Field  string // "placement", "side", "castling", "en passant", "halfmove clock", "fullmove number" or "fields"
	Reason string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("invalid FEN %q: %s: %s", e.FEN, e.Field, e.Reason)
}

// StartPosition returns the standard starting position.
func StartPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err) // the constant above is valid; this cannot happen
	}
	return p
}

// MaxFENCounter bounds the halfmove clock and fullmove number a FEN may
// give. No game comes near it, and it keeps the counters far from overflow
// however many moves follow (9223372036854775807 used to wrap negative).
// FEN writes larger counters as this, so what it writes always parses.
const MaxFENCounter = 1_000_000_000

// ParseFEN reads a position from Forsyth-Edwards Notation. The two clock
// fields may be left out together (EPD style); they then default to "0 1".
// Castling accepts KQkq, Shredder-FEN rook files (HAha) and X-FEN (KQkq for
// the outermost rook, a file letter otherwise); positions whose castling is
// not orthodox are marked Chess960.
//
// Every malformed field gives a *FENError. Whether the side not to move is in
// check needs attack tables and is checked by movegen.Validate.
func ParseFEN(fen string) (*Position, error) {
	fail := func(field, format string, args ...any) (*Position, error) {
		return nil, &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	fields := strings.Fields(fen)
	if len(fields) != 6 && len(fields) != 4 {
		return fail("fields", "want 6 space-separated fields (or 4 without clocks), got %d", len(fields))
	}
	if len(fields) == 4 {
		fields = append(fields, "0", "1")
	}

	p := &Position{ep: NoSquare, history: make([]undo, 0, historyCapacity)}
	for i := range p.squares {
		p.squares[i] = NoPiece
	}
	for i := range p.castleRook {
		p.castleRook[i] = NoSquare
	}

	// Placement, rank 8 first.
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("placement", "want 8 ranks separated by '/', got %d", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		prevDigit := false
		for _, ch := range row {
			switch {
			case ch >= '1' && ch <= '8':
				if prevDigit {
					return fail("placement", "rank %d has two digits in a row", rank+1)
				}
				prevDigit = true
				file += int(ch - '0')
			case strings.ContainsRune("pnbrqkPNBRQK", ch):
				prevDigit = false
				if file < 8 {
					p.put(pieceFromLetter(byte(ch)), NewSquare(file, rank))
				}
				file++
			default:
				return fail("placement", "unexpected character %q on rank %d", ch, rank+1)
			}
			if file > 8 {
				return fail("placement", "rank %d has more than 8 squares", rank+1)
			}
		}
		if file != 8 {
			return fail("placement", "rank %d has %d squares, want 8", rank+1, file)
		}
	}
	for c := White; c <= Black; c++ {
		name := [2]string{"white", "black"}[c]
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fail("placement", "%s has %d kings, want exactly 1", name, n)
		}
		if n := p.Pieces(c, Pawn).Count(); n > 8 {
			return fail("placement", "%s has %d pawns, at most 8 are possible", name, n)
		}
		if n := p.byColor[c].Count(); n > 16 {
			return fail("placement", "%s has %d pieces, at most 16 are possible", name, n)
		}
	}
	if p.byType[Pawn]&(Rank1|Rank8) != 0 {
		return fail("placement", "pawn on the first or eighth rank")
	}

	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return fail("side", "want 'w' or 'b', got %q", fields[1])
	}

	if err := p.parseCastling(fields[2]); err != "" {
		return fail("castling", "%s", err)
	}

	if fields[3] != "-" {
		ep, ok := ParseSquare(fields[3])
		if !ok {
			return fail("en passant", "want '-' or a square, got %q", fields[3])
		}
		if ep.RelativeRank(p.side) != 5 {
			return fail("en passant", "%s is not on the sixth rank of the side to move", ep)
		}
		them := p.side.Other()
		pushed, origin := ep-8, ep+8 // where the double-pushed pawn stands and where it came from
		if p.side == Black {
			pushed, origin = ep+8, ep-8
		}
		if p.squares[pushed] != MakePiece(them, Pawn) {
			return fail("en passant", "no %s pawn on %s that could just have moved two squares",
				[2]string{"white", "black"}[them], pushed)
		}
		if p.squares[ep] != NoPiece || p.squares[origin] != NoPiece {
			return fail("en passant", "%s or %s is occupied, so no pawn just passed", ep, origin)
		}
		// Kept only if a capture is possible, as Make does, so keys agree.
		if pawnNeighbours(pushed)&p.Pieces(p.side, Pawn) != 0 {
			p.ep = ep
		}
	}

	half, err := strconv.Atoi(fields[4])
	if err != nil || half < 0 || half > MaxFENCounter || fields[4][0] == '+' {
		return fail("halfmove clock", "want an integer from 0 to %d, got %q", MaxFENCounter, fields[4])
	}
	full, err := strconv.Atoi(fields[5])
	if err != nil || full < 1 || full > MaxFENCounter || fields[5][0] == '+' {
		return fail("fullmove number", "want an integer from 1 to %d, got %q", MaxFENCounter, fields[5])
	}
	p.halfmove, p.fullmove = half, full
	p.chess960 = !p.standardCastling()
	p.key = p.computeKey()
	return p, nil
}

func pieceFromLetter(ch byte) Piece {
	c := White
	if ch >= 'a' {
		c = Black
		ch = ch - 'a' + 'A'
	}
	return MakePiece(c, PieceType(strings.IndexByte("PNBRQK", ch)))
}

// parseCastling reads the castling field and sets rights, rook squares and the
// masks that remove rights; it returns a reason when the field is invalid.
func (p *Position) parseCastling(field string) string {
	if field == "-" {
		return ""
	}
	if len(field) > 4 {
		return fmt.Sprintf("%q has more than 4 rights", field)
	}
	for i := 0; i < len(field); i++ {
		ch := field[i]
		c := White
		upper := ch
		if ch >= 'a' && ch <= 'z' {
			c = Black
			upper = ch - 'a' + 'A'
		}
		backRank := 0
		if c == Black {
			backRank = 7
		}
		king := p.KingSquare(c)
		if king.Rank() != backRank {
			return fmt.Sprintf("%q: the %s king is not on its back rank", ch, [2]string{"white", "black"}[c])
		}
		rooks := p.Pieces(c, Rook) & RankBB(backRank)
		var rook Square = NoSquare
		switch {
		case upper == 'K': // outermost rook on the h-side (X-FEN)
			for f := 7; f > king.File(); f-- {
				if rooks.Has(NewSquare(f, backRank)) {
					rook = NewSquare(f, backRank)
					break
				}
			}
		case upper == 'Q': // outermost rook on the a-side
			for f := 0; f < king.File(); f++ {
				if rooks.Has(NewSquare(f, backRank)) {
					rook = NewSquare(f, backRank)
					break
				}
			}
		case upper >= 'A' && upper <= 'H': // Shredder-FEN / X-FEN rook file
			s := NewSquare(int(upper-'A'), backRank)
			if s == king {
				return fmt.Sprintf("%q names the king's own file", ch)
			}
			if rooks.Has(s) {
				rook = s
			}
		default:
			return fmt.Sprintf("unexpected character %q", ch)
		}
		if rook == NoSquare {
			return fmt.Sprintf("%q: no matching %s rook on the back rank", ch, [2]string{"white", "black"}[c])
		}
		cr := CastlingRight(c, rook > king)
		if p.castling&cr != 0 {
			return fmt.Sprintf("%q: the same right is given twice", ch)
		}
		p.castling |= cr
		p.castleRook[cr.index()] = rook
		m := NewCastling(king, rook)
		kingTo, rookTo := m.CastlingKingTo(), m.CastlingRookTo()
		// The king's destination counts even when it is its own square: the
		// rook that leaves may have shielded it (Chess960).
		p.castleWalk[cr.index()] = rankSpan(king, kingTo)&^SquareBB(king) | SquareBB(kingTo)
		p.castlePath[cr.index()] = (rankSpan(king, kingTo) | rankSpan(rook, rookTo)) &^ (SquareBB(king) | SquareBB(rook))
		p.castleMask[rook] |= cr
		p.castleMask[king] |= CastlingRight(c, true) | CastlingRight(c, false)
	}
	return ""
}

// FEN writes the position in Forsyth-Edwards Notation. Castling is written
// KQkq in standard chess and with rook files (Shredder-FEN) in Chess960.
func (p *Position) FEN() string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.squares[NewSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.FENLetter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.side.String())
	b.WriteByte(' ')
	if p.castling == NoCastling {
		b.WriteByte('-')
	}
	for i, cr := range [4]CastlingRights{WhiteKingside, WhiteQueenside, BlackKingside, BlackQueenside} {
		if p.castling&cr == 0 {
			continue
		}
		var ch byte
		if p.chess960 {
			ch = byte('A' + p.castleRook[i].File())
		} else {
			ch = "KQ"[i%2]
		}
		if i >= 2 {
			ch = ch - 'A' + 'a'
		}
		b.WriteByte(ch)
	}
	fmt.Fprintf(&b, " %s %d %d", p.ep, min(p.halfmove, MaxFENCounter), min(p.fullmove, MaxFENCounter))
	return b.String()
}

// rankSpan returns the squares from a to b inclusive, both on one rank.
func rankSpan(a, b Square) Bitboard {
	lo, hi := min(a, b), max(a, b)
	return (Bitboard(1)<<uint(hi-lo+1) - 1) << uint(lo)
}
