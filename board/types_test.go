package board_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twofold-chess/twofold/board"
)

func TestSquares(t *testing.T) {
	tests := []struct {
		name       string
		sq         board.Square
		file, rank int
	}{
		{"a1", 0, 0, 0},
		{"h1", 7, 7, 0},
		{"e4", 28, 4, 3},
		{"a8", 56, 0, 7},
		{"h8", 63, 7, 7},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.name, tt.sq.String())
		assert.Equal(t, tt.file, tt.sq.File(), tt.name)
		assert.Equal(t, tt.rank, tt.sq.Rank(), tt.name)
		assert.Equal(t, tt.sq, board.NewSquare(tt.file, tt.rank))
		s, ok := board.ParseSquare(tt.name)
		assert.True(t, ok)
		assert.Equal(t, tt.sq, s)
		assert.Equal(t, tt.rank, tt.sq.RelativeRank(board.White))
		assert.Equal(t, 7-tt.rank, tt.sq.RelativeRank(board.Black))
		assert.Equal(t, board.NewSquare(tt.file, 7-tt.rank), tt.sq.Flip())
	}
	assert.Equal(t, "-", board.NoSquare.String())
	for _, bad := range []string{"", "e", "e44", "i1", "a0", "a9", "E4", "4e"} {
		_, ok := board.ParseSquare(bad)
		assert.False(t, ok, bad)
	}
}

func TestBitboards(t *testing.T) {
	assert.Equal(t, board.FileA, board.FileBB(0))
	assert.Equal(t, board.FileH, board.FileBB(7))
	assert.Equal(t, board.Rank1, board.RankBB(0))
	assert.Equal(t, board.Rank8, board.RankBB(7))
	b := board.SquareBB(3) | board.SquareBB(40) | board.SquareBB(63)
	assert.Equal(t, 3, b.Count())
	assert.True(t, b.More())
	assert.True(t, b.Has(40))
	assert.False(t, b.Has(41))
	assert.Equal(t, board.Square(3), b.LSB())
	assert.Equal(t, board.Square(3), b.PopLSB())
	assert.Equal(t, board.Square(40), b.PopLSB())
	assert.False(t, b.More())
	assert.Equal(t, board.Square(63), b.PopLSB())
	assert.Zero(t, b)
	// a1 is dark, h1 light, a8 light, h8 dark.
	assert.False(t, board.LightSquares.Has(board.A1))
	assert.True(t, board.LightSquares.Has(board.H1))
	assert.True(t, board.LightSquares.Has(board.A8))
	assert.False(t, board.LightSquares.Has(board.H8))
	assert.Equal(t, 32, board.LightSquares.Count())
}

func TestPieces(t *testing.T) {
	for c := board.White; c <= board.Black; c++ {
		for pt := board.Pawn; pt <= board.King; pt++ {
			p := board.MakePiece(c, pt)
			assert.NotEqual(t, board.NoPiece, p)
			assert.Equal(t, c, p.Color())
			assert.Equal(t, pt, p.Type())
		}
	}
	assert.Equal(t, byte('N'), board.MakePiece(board.White, board.Knight).FENLetter())
	assert.Equal(t, byte('q'), board.MakePiece(board.Black, board.Queen).FENLetter())
	assert.Equal(t, byte('K'), board.King.Letter())
	assert.Equal(t, board.Black, board.White.Other())
	assert.Equal(t, "b", board.Black.String())
}

func TestMoveEncoding(t *testing.T) {
	e2, e4, e7, e8, d8 := board.Square(12), board.Square(28), board.Square(52), board.E8, board.D8
	tests := []struct {
		name     string
		m        board.Move
		from, to board.Square
		kind     board.MoveKind
		std, frc string
	}{
		{"normal", board.NewMove(e2, e4), e2, e4, board.Normal, "e2e4", "e2e4"},
		{"promotion q", board.NewPromotion(e7, e8, board.Queen), e7, e8, board.Promotion, "e7e8q", "e7e8q"},
		{"promotion r", board.NewPromotion(e7, d8, board.Rook), e7, d8, board.Promotion, "e7d8r", "e7d8r"},
		{"promotion b", board.NewPromotion(e7, e8, board.Bishop), e7, e8, board.Promotion, "e7e8b", "e7e8b"},
		{"promotion n", board.NewPromotion(e7, e8, board.Knight), e7, e8, board.Promotion, "e7e8n", "e7e8n"},
		{"en passant", board.NewEnPassant(board.Square(36), board.Square(43)), 36, 43, board.EnPassant, "e5d6", "e5d6"},
		{"white O-O", board.NewCastling(board.E1, board.H1), board.E1, board.H1, board.Castling, "e1g1", "e1h1"},
		{"white O-O-O", board.NewCastling(board.E1, board.A1), board.E1, board.A1, board.Castling, "e1c1", "e1a1"},
		{"black O-O", board.NewCastling(board.E8, board.H8), board.E8, board.H8, board.Castling, "e8g8", "e8h8"},
		{"black O-O-O", board.NewCastling(board.E8, board.A8), board.E8, board.A8, board.Castling, "e8c8", "e8a8"},
		{"Chess960 b1-a1", board.NewCastling(board.B1, board.A1), board.B1, board.A1, board.Castling, "b1c1", "b1a1"},
		{"Chess960 king on g1", board.NewCastling(board.G1, board.H1), board.G1, board.H1, board.Castling, "g1g1", "g1h1"},
		{"a1 to h8", board.NewMove(0, 63), 0, 63, board.Normal, "a1h8", "a1h8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.from, tt.m.From())
			assert.Equal(t, tt.to, tt.m.To())
			assert.Equal(t, tt.kind, tt.m.Kind())
			assert.Equal(t, tt.std, tt.m.UCI(false))
			assert.Equal(t, tt.frc, tt.m.UCI(true))
			assert.Equal(t, tt.std, tt.m.String())
		})
	}
	assert.Equal(t, board.Queen, board.NewPromotion(e7, e8, board.Queen).PromotionType())
	assert.Equal(t, board.Knight, board.NewPromotion(e7, e8, board.Knight).PromotionType())
	assert.Equal(t, board.G1, board.NewCastling(board.B1, board.C1).CastlingKingTo())
	assert.Equal(t, board.F1, board.NewCastling(board.B1, board.C1).CastlingRookTo())
	assert.Equal(t, board.C8, board.NewCastling(board.F8, board.B8).CastlingKingTo())
	assert.Equal(t, board.D8, board.NewCastling(board.F8, board.B8).CastlingRookTo())
	assert.Equal(t, "0000", board.NoMove.UCI(false))
	assert.Equal(t, "0000", board.NullMove.UCI(true))
}
