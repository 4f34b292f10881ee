package movegen

import (
	"fmt"
	"strings"

	"github.com/twofold-chess/twofold/board"
)

// ParseUCI reads a move in UCI long algebraic notation ("e2e4", "e7e8q") and
// returns it if it is legal in p. Castling is accepted both as king to its
// destination ("e1g1") and as king takes own rook ("e1h1"); when the two
// readings differ (Chess960), the one matching p.Chess960() wins.
func ParseUCI(p *board.Position, s string) (board.Move, error) {
	if !wellFormedUCI(s) {
		return board.NoMove, fmt.Errorf("malformed move %q: want from and to squares and an optional promotion letter, e.g. e2e4 or e7e8q", s)
	}
	var ml MoveList
	Legal(p, &ml)
	alternative := board.NoMove
	for _, m := range ml.Moves() {
		if m.UCI(p.Chess960()) == s {
			return m, nil
		}
		if m.Kind() == board.Castling && m.UCI(!p.Chess960()) == s {
			alternative = m
		}
	}
	if alternative != board.NoMove {
		return alternative, nil
	}
	return board.NoMove, fmt.Errorf("%w %q in position %s", ErrIllegalMove, s, p.FEN())
}

func wellFormedUCI(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	_, ok1 := board.ParseSquare(s[0:2])
	_, ok2 := board.ParseSquare(s[2:4])
	return ok1 && ok2 && (len(s) == 4 || strings.IndexByte("nbrq", s[4]) >= 0)
}

// SAN formats a legal move in Standard Algebraic Notation, with the least
// disambiguation needed and a "+" or "#" suffix.
func SAN(p *board.Position, m board.Move) string {
	var b strings.Builder
	from, to := m.From(), m.To()
	pt := p.PieceAt(from).Type()
	switch {
	case m.Kind() == board.Castling:
		if to > from {
			b.WriteString("O-O")
		} else {
			b.WriteString("O-O-O")
		}
	case pt == board.Pawn:
		if from.File() != to.File() {
			b.WriteByte(byte('a' + from.File()))
			b.WriteByte('x')
		}
		b.WriteString(to.String())
		if m.Kind() == board.Promotion {
			b.WriteByte('=')
			b.WriteByte(m.PromotionType().Letter())
		}
	default:
		b.WriteByte(pt.Letter())
		// Other pieces of the same type that can reach the same square.
		var ml MoveList
		Legal(p, &ml)
		sameFile, sameRank, others := false, false, false
		for _, o := range ml.Moves() {
			if o.To() != to || o.From() == from || o.Kind() == board.Castling || p.PieceAt(o.From()).Type() != pt {
				continue
			}
			others = true
			sameFile = sameFile || o.From().File() == from.File()
			sameRank = sameRank || o.From().Rank() == from.Rank()
		}
		if others {
			switch {
			case !sameFile:
				b.WriteByte(byte('a' + from.File()))
			case !sameRank:
				b.WriteByte(byte('1' + from.Rank()))
			default:
				b.WriteString(from.String())
			}
		}
		if p.PieceAt(to) != board.NoPiece {
			b.WriteByte('x')
		}
		b.WriteString(to.String())
	}

	p.Make(m)
	if InCheck(p) {
		var ml MoveList
		Legal(p, &ml)
		if ml.Len() == 0 {
			b.WriteByte('#')
		} else {
			b.WriteByte('+')
		}
	}
	p.Unmake()
	return b.String()
}

// ParseSAN reads a move in Standard Algebraic Notation and returns it if it is
// legal and unambiguous in p. It is lenient where tools differ: check and
// annotation suffixes are ignored, "0-0" is accepted for "O-O", the "=" of a
// promotion is optional, a missing or extra "x" is forgiven, and a piece may
// be over-disambiguated ("Ng1f3").
func ParseSAN(p *board.Position, s string) (board.Move, error) {
	orig := s
	s = strings.TrimRight(strings.TrimSpace(s), "+#!?")
	var ml MoveList
	Legal(p, &ml)

	switch strings.ReplaceAll(s, "0", "O") {
	case "O-O", "O-O-O":
		kingside := len(s) == 3
		for _, m := range ml.Moves() {
			if m.Kind() == board.Castling && (m.To() > m.From()) == kingside {
				return m, nil
			}
		}
		return board.NoMove, fmt.Errorf("%w %q: castling is not legal in position %s", ErrIllegalMove, orig, p.FEN())
	}

	bad := func() (board.Move, error) {
		return board.NoMove, fmt.Errorf("malformed SAN move %q", orig)
	}
	pt := board.Pawn
	if len(s) > 0 && strings.IndexByte("NBRQK", s[0]) >= 0 {
		pt = board.PieceType(strings.IndexByte("PNBRQK", s[0]))
		s = s[1:]
	}
	promo := board.NoPieceType
	if n := len(s); n >= 1 && strings.IndexByte("NBRQ", s[n-1]) >= 0 {
		promo = board.PieceType(strings.IndexByte("PNBRQK", s[n-1]))
		s = strings.TrimSuffix(s[:n-1], "=")
	}
	if len(s) < 2 {
		return bad()
	}
	to, ok := board.ParseSquare(s[len(s)-2:])
	if !ok {
		return bad()
	}
	hint := strings.ReplaceAll(s[:len(s)-2], "x", "")
	fromFile, fromRank := -1, -1
	for i := 0; i < len(hint); i++ {
		switch c := hint[i]; {
		case c >= 'a' && c <= 'h' && fromFile < 0 && fromRank < 0:
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && fromRank < 0:
			fromRank = int(c - '1')
		default:
			return bad()
		}
	}
	if promo != board.NoPieceType && pt != board.Pawn {
		return bad()
	}

	found, count := board.NoMove, 0
	for _, m := range ml.Moves() {
		from := m.From()
		if m.Kind() == board.Castling || m.To() != to || p.PieceAt(from).Type() != pt ||
			(fromFile >= 0 && from.File() != fromFile) || (fromRank >= 0 && from.Rank() != fromRank) {
			continue
		}
		if m.Kind() == board.Promotion {
			if m.PromotionType() != promo {
				continue
			}
		} else if promo != board.NoPieceType {
			continue
		}
		found = m
		count++
	}
	switch count {
	case 0:
		return board.NoMove, fmt.Errorf("%w %q in position %s", ErrIllegalMove, orig, p.FEN())
	case 1:
		return found, nil
	}
	return board.NoMove, fmt.Errorf("ambiguous SAN move %q in position %s: %d moves match", orig, p.FEN(), count)
}
