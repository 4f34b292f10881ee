package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/board"
)

// RecordSize is the size of one record in bytes.
const RecordSize = 32

// Result is a game's result from White's view, as stored.
type Result uint8

// The results.
const (
	BlackWon Result = 0
	Draw     Result = 1
	WhiteWon Result = 2
)

// String returns the PGN form ("1-0", "1/2-1/2", "0-1").
func (r Result) String() string {
	switch r {
	case BlackWon:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	case WhiteWon:
		return "1-0"
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}

// Record is one labelled position.
type Record struct {
	Occupancy board.Bitboard
	Pieces    [16]byte // packed nibbles, see the package comment
	Side      board.Color
	Score     int16 // centipawns, White's view
	Result    Result
	Fullmove  uint16
}

// ErrInvalid is wrapped by the errors of bytes that are not a valid record.
var ErrInvalid = errors.New("invalid NNUE data record")

// FromPosition packs p with a search score (centipawns, from the side to
// move's view, as searches report it) and the game's result. The score is
// turned to White's view and clamped to int16.
func FromPosition(p *board.Position, stmScore int, result Result) Record {
	if p.Side() == board.Black {
		stmScore = -stmScore
	}
	r := Record{
		Occupancy: p.Occupied(),
		Side:      p.Side(),
		Score:     int16(min(max(stmScore, -32768), 32767)),
		Result:    result,
		Fullmove:  uint16(min(max(p.FullmoveNumber(), 0), 65535)),
	}
	i := 0
	for occ := r.Occupancy; occ != 0; i++ {
		pc := p.PieceAt(occ.PopLSB())
		r.Pieces[i/2] |= byte(pc&15) << (4 * (i & 1))
	}
	return r
}

// Piece returns the i-th piece in occupancy order (i < Occupancy.Count()).
func (r *Record) Piece(i int) board.Piece {
	return board.Piece(r.Pieces[i/2]>>(4*(i&1))) & 15
}

// Append appends the record's 32 bytes to b.
func (r *Record) Append(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(r.Occupancy))
	b = append(b, r.Pieces[:]...)
	b = append(b, byte(r.Side))
	b = binary.LittleEndian.AppendUint16(b, uint16(r.Score))
	b = append(b, byte(r.Result))
	b = binary.LittleEndian.AppendUint16(b, r.Fullmove)
	return binary.LittleEndian.AppendUint16(b, 0)
}

// Decode parses and validates one record from the first RecordSize bytes
// of b: each piece valid, one king, at most 16 pieces and 8 pawns per side,
// no pawn on the first or last rank, unused nibbles zero, side, result and
// reserved field in range (what board.ParseFEN accepts of a placement).
func Decode(b []byte) (Record, error) {
	if len(b) < RecordSize {
		return Record{}, fmt.Errorf("%w: %d bytes, want %d", ErrInvalid, len(b), RecordSize)
	}
	var r Record
	r.Occupancy = board.Bitboard(binary.LittleEndian.Uint64(b))
	copy(r.Pieces[:], b[8:24])
	r.Side = board.Color(b[24])
	r.Score = int16(binary.LittleEndian.Uint16(b[25:]))
	r.Result = Result(b[27])
	r.Fullmove = binary.LittleEndian.Uint16(b[28:])
	if reserved := binary.LittleEndian.Uint16(b[30:]); reserved != 0 {
		return Record{}, fmt.Errorf("%w: reserved field %d, want 0", ErrInvalid, reserved)
	}
	if r.Side > board.Black {
		return Record{}, fmt.Errorf("%w: side to move %d", ErrInvalid, r.Side)
	}
	if r.Result > WhiteWon {
		return Record{}, fmt.Errorf("%w: result %d", ErrInvalid, r.Result)
	}
	n := r.Occupancy.Count()
	if n > 32 {
		return Record{}, fmt.Errorf("%w: %d pieces", ErrInvalid, n)
	}
	var kings, pawns, pieces [2]int
	occ := r.Occupancy
	for i := 0; i < n; i++ {
		sq := occ.PopLSB()
		pc := r.Piece(i)
		if pc.Type() > board.King {
			return Record{}, fmt.Errorf("%w: piece code %d on %s", ErrInvalid, uint8(pc), sq)
		}
		pieces[pc.Color()]++
		switch pc.Type() {
		case board.King:
			kings[pc.Color()]++
		case board.Pawn:
			pawns[pc.Color()]++
		}
		if pc.Type() == board.Pawn && (sq.Rank() == 0 || sq.Rank() == 7) {
			return Record{}, fmt.Errorf("%w: pawn on %s", ErrInvalid, sq)
		}
	}
	for i := n; i < 32; i++ {
		if r.Piece(i) != 0 {
			return Record{}, fmt.Errorf("%w: nonzero nibble %d after the %d pieces", ErrInvalid, i, n)
		}
	}
	if kings != [2]int{1, 1} {
		return Record{}, fmt.Errorf("%w: %d white and %d black kings", ErrInvalid, kings[0], kings[1])
	}
	if max(pawns[0], pawns[1]) > 8 || max(pieces[0], pieces[1]) > 16 {
		return Record{}, fmt.Errorf("%w: %d/%d pieces and %d/%d pawns (white/black)", ErrInvalid, pieces[0], pieces[1], pawns[0], pawns[1])
	}
	return r, nil
}

// FEN returns the record's position as a FEN, without castling rights or
// en-passant square (the record does not keep them) and a halfmove clock 0.
func (r *Record) FEN() string {
	return r.placement() + " " + r.Side.String() + " - - 0 " + strconv.Itoa(int(max(r.Fullmove, 1)))
}

// placement returns the FEN's first field.
func (r *Record) placement() string {
	var sb strings.Builder
	var grid [64]board.Piece
	for i := range grid {
		grid[i] = board.NoPiece
	}
	occ := r.Occupancy
	for i := 0; occ != 0; i++ {
		grid[occ.PopLSB()] = r.Piece(i)
	}
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := grid[board.NewSquare(file, rank)]
			if pc == board.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(pc.FENLetter())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	return sb.String()
}
