package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

// The games format: a file is a sequence of frames, each holding one game.
//
// A frame is a 16-byte header and the stored payload:
//
//	offset size  field
//	0      8     magic FF 54 46 47 41 4D 45 FF ("\xffTFGAME\xff"); as a record's
//	             occupancy it would have 35 pieces, so a file's first
//	             8 bytes tell the two formats apart
//	8      4     uint32 the payload's length (at most MaxFrame)
//	12     4     uint32 CRC-32C (Castagnoli) of bytes 8-11 and the payload
//
// The payload is one game:
//
//	offset size  field
//	0      1     version, 1
//	1      8     the start position's occupancy, as a record's
//	9      16    its pieces, as a record's
//	25     1     side to move (0 White, 1 Black)
//	26     1     castling rights (board.CastlingRights: bit 0 White
//	             kingside, 1 White queenside, 2 Black kingside, 3 Black queenside)
//	27     2     uint16: the file of each right's rook, 3 bits each, right i
//	             at bits 3i..3i+2 (0 for a right not held)
//	29     1     en-passant square (0-63), or 64 for none
//	30     1     halfmove clock (at most 255)
//	31     2     uint16 fullmove number
//	33     1     the game's result (as a record's)
//	34     2     uint16 N, searched plies
//	36     2     uint16 K, positions kept (the records the game expands to)
//	38     4N    per ply: uint16 the move played (board.Move), int16 the
//	             search's score in centipawns from the side to move's view
//
// Frames are not compressed: DEFLATE at its best level saved 4.6% of a
// test run's bytes frame by frame (gzip -9 of the whole file 17%), since
// moves and scores are close to random bytes.
//
// Expanding a game replays its moves from the start (each checked to be
// legal) and keeps the positions Keep accepts, as records with the game's
// result: the records the generator writes in the records format.
//
// Each frame is written with one write system call, so a generator killed
// mid-write leaves at most one partial frame at the end of its file: a
// reader stops before it (ErrPartialFrame), OpenAppendFormat cuts it off.

// Frame layout constants.
const (
	FrameHeaderSize = 16
	MaxFrame        = 1 << 20 // the largest stored payload
	gameHeaderSize  = 38
	gameVersion     = 1
)

// FrameMagic begins every frame of the games format.
var FrameMagic = [8]byte{0xFF, 'T', 'F', 'G', 'A', 'M', 'E', 0xFF}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrPartialFrame is returned at the end of a games file that ends inside a
// frame (a writer killed mid-write, or a file copied while it grew): every
// frame before it was whole.
var ErrPartialFrame = errors.New("partial frame at the end of the games data")

// ErrCorrupt is wrapped by the errors of a frame or game that is not valid.
var ErrCorrupt = errors.New("corrupt NNUE games data")

// Ply is one searched move of a game.
type Ply struct {
	Move  board.Move
	Score int16 // the search's score, centipawns, from the side to move's view
}

// Game is one self-play game: where the searches began, what they played
// and scored, and how the game ended.
type Game struct {
	Start  *board.Position
	Plies  []Ply
	Result Result
	Kept   int // the positions Keep accepts (what the game expands to)
}

// Keep reports whether the position p, where the search chose best with
// score (side to move's view), is kept as a training record: not in check,
// the best move not a capture or promotion, the score not a mate score.
func Keep(p *board.Position, best board.Move, score int) bool {
	quiet := p.CapturedPiece(best) == board.NoPiece && best.Kind() != board.Promotion
	return quiet && !search.IsMate(score) && !movegen.InCheck(p)
}

// ClampScore clamps a search score to int16, as records and plies store it.
func ClampScore(score int) int16 { return int16(min(max(score, -32768), 32767)) }

// appendGame appends g's payload (uncompressed) to b.
func appendGame(b []byte, g *Game) ([]byte, error) {
	p := g.Start
	if len(g.Plies) > 65535 || g.Kept > 65535 || g.Kept > len(g.Plies) {
		return b, fmt.Errorf("game of %d plies and %d kept positions does not fit a frame", len(g.Plies), g.Kept)
	}
	r := FromPosition(p, 0, g.Result)
	b = append(b, gameVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(r.Occupancy))
	b = append(b, r.Pieces[:]...)
	b = append(b, byte(p.Side()))
	var files uint16
	for i, cr := range [4]board.CastlingRights{board.WhiteKingside, board.WhiteQueenside, board.BlackKingside, board.BlackQueenside} {
		if p.Castling()&cr != 0 {
			files |= uint16(p.CastlingRook(cr).File()) << (3 * i)
		}
	}
	b = append(b, byte(p.Castling()))
	b = binary.LittleEndian.AppendUint16(b, files)
	ep := byte(64)
	if sq := p.EnPassant(); sq != board.NoSquare {
		ep = byte(sq)
	}
	b = append(b, ep, byte(min(p.HalfmoveClock(), 255)))
	b = binary.LittleEndian.AppendUint16(b, uint16(min(max(p.FullmoveNumber(), 0), 65535)))
	b = append(b, byte(g.Result))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(g.Plies)))
	b = binary.LittleEndian.AppendUint16(b, uint16(g.Kept))
	for _, pl := range g.Plies {
		b = binary.LittleEndian.AppendUint16(b, uint16(pl.Move))
		b = binary.LittleEndian.AppendUint16(b, uint16(pl.Score))
	}
	return b, nil
}

// parseGame parses a game's payload into g (reusing g.Plies), checking its
// start position; the moves are checked when the game is expanded.
func parseGame(b []byte, g *Game) error {
	if len(b) < gameHeaderSize {
		return fmt.Errorf("%w: game of %d bytes", ErrCorrupt, len(b))
	}
	if b[0] != gameVersion {
		return fmt.Errorf("%w: game version %d, want %d", ErrCorrupt, b[0], gameVersion)
	}
	n, kept := int(binary.LittleEndian.Uint16(b[34:])), int(binary.LittleEndian.Uint16(b[36:]))
	if len(b) != gameHeaderSize+4*n {
		return fmt.Errorf("%w: game of %d plies in %d bytes", ErrCorrupt, n, len(b))
	}
	if kept > n {
		return fmt.Errorf("%w: %d positions kept of %d plies", ErrCorrupt, kept, n)
	}
	// The placement and side through the record's checks.
	var rec [RecordSize]byte
	copy(rec[:24], b[1:25])
	rec[24] = b[25]
	rec[27] = b[33]
	r, err := Decode(rec[:])
	if err != nil {
		return fmt.Errorf("%w: start position: %v", ErrCorrupt, err)
	}
	castling, files, ep := board.CastlingRights(b[26]), binary.LittleEndian.Uint16(b[27:]), b[29]
	if castling > board.AllCastling || ep > 64 {
		return fmt.Errorf("%w: castling %d, en passant %d", ErrCorrupt, castling, ep)
	}
	fen := r.placement() + " " + r.Side.String() + " "
	if castling == board.NoCastling {
		fen += "-"
	}
	for i := range 4 {
		if castling&(1<<i) != 0 {
			ch := byte('A' + files>>(3*i)&7)
			if i >= 2 {
				ch += 'a' - 'A'
			}
			fen += string(ch)
		}
	}
	if ep == 64 {
		fen += " -"
	} else {
		fen += " " + board.Square(ep).String()
	}
	fen += " " + strconv.Itoa(int(b[30])) + " " + strconv.Itoa(max(int(binary.LittleEndian.Uint16(b[31:])), 1))
	p, err := movegen.ParseFEN(fen)
	if err != nil {
		return fmt.Errorf("%w: start position: %v", ErrCorrupt, err)
	}
	g.Start, g.Result, g.Kept = p, r.Result, kept
	g.Plies = g.Plies[:0]
	for i := range n {
		o := gameHeaderSize + 4*i
		g.Plies = append(g.Plies, Ply{Move: board.Move(binary.LittleEndian.Uint16(b[o:])), Score: int16(binary.LittleEndian.Uint16(b[o+2:]))})
	}
	return nil
}

// AppendRecords replays g from its start and appends its kept positions
// to recs as records. It fails on a move that is not legal where it is
// played, or when the kept positions are not g.Kept. g.Start is left at
// the game's last position.
func (g *Game) AppendRecords(recs []Record) ([]Record, error) {
	var ml movegen.MoveList
	p := g.Start
	first := len(recs)
	for i, pl := range g.Plies {
		movegen.Legal(p, &ml)
		legal := false
		for _, m := range ml.Moves() {
			if m == pl.Move {
				legal = true
				break
			}
		}
		if !legal {
			return recs[:first], fmt.Errorf("%w: ply %d: move %v is not legal in %s", ErrCorrupt, i, pl.Move, p.FEN())
		}
		if Keep(p, pl.Move, int(pl.Score)) {
			recs = append(recs, FromPosition(p, int(pl.Score), g.Result))
		}
		p.Make(pl.Move)
	}
	if got := len(recs) - first; got != g.Kept {
		return recs[:first], fmt.Errorf("%w: %d positions kept, the game says %d", ErrCorrupt, got, g.Kept)
	}
	return recs, nil
}

// appendFrame appends a frame of payload to b.
func appendFrame(b, payload []byte) []byte {
	b = append(b, FrameMagic[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	crc := crc32.Update(crc32.Checksum(b[len(b)-4:], castagnoli), castagnoli, payload)
	b = binary.LittleEndian.AppendUint32(b, crc)
	return append(b, payload...)
}

// GamesReader reads the games of a games-format stream.
type GamesReader struct {
	r       io.Reader
	hdr     [FrameHeaderSize]byte
	payload []byte
	offset  int64 // of the next frame
	frames  int64
	game    Game
	recs    []Record
	next    int // next record of recs
}

// NewGamesReader returns a reader of the games-format stream r.
func NewGamesReader(r io.Reader) *GamesReader { return &GamesReader{r: r} }

// Offset returns the offset of the next frame: after the last whole frame
// read.
func (gr *GamesReader) Offset() int64 { return gr.offset }

// nextPayload reads the next frame and returns its payload, valid until
// the next call; io.EOF after the last frame, ErrPartialFrame
// (wrapped) when the stream ends inside one.
func (gr *GamesReader) nextPayload() ([]byte, error) {
	k, err := io.ReadFull(gr.r, gr.hdr[:])
	switch {
	case err == io.EOF:
		return nil, io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%w: frame %d at byte %d: header of %d bytes", ErrPartialFrame, gr.frames, gr.offset, k)
	case err != nil:
		return nil, err
	}
	if !bytes.Equal(gr.hdr[:8], FrameMagic[:]) {
		return nil, fmt.Errorf("%w: frame %d at byte %d: no frame magic", ErrCorrupt, gr.frames, gr.offset)
	}
	n := int(binary.LittleEndian.Uint32(gr.hdr[8:]))
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: frame %d at byte %d: %d bytes", ErrCorrupt, gr.frames, gr.offset, n)
	}
	if cap(gr.payload) < n {
		gr.payload = make([]byte, n)
	}
	gr.payload = gr.payload[:n]
	if k, err := io.ReadFull(gr.r, gr.payload); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
			return nil, fmt.Errorf("%w: frame %d at byte %d: %d of %d payload bytes", ErrPartialFrame, gr.frames, gr.offset, k, n)
		}
		return nil, err
	}
	crc := crc32.Update(crc32.Checksum(gr.hdr[8:12], castagnoli), castagnoli, gr.payload)
	if crc != binary.LittleEndian.Uint32(gr.hdr[12:]) {
		return nil, fmt.Errorf("%w: frame %d at byte %d: checksum mismatch", ErrCorrupt, gr.frames, gr.offset)
	}
	gr.offset += int64(FrameHeaderSize + n)
	gr.frames++
	return gr.payload, nil
}

// NextGame returns the next game (valid until the next call), io.EOF after
// the last one, ErrPartialFrame (wrapped) when the stream ends inside a
// frame, or an error wrapping ErrCorrupt.
func (gr *GamesReader) NextGame() (*Game, error) {
	frame := gr.frames
	payload, err := gr.nextPayload()
	if err != nil {
		return nil, err
	}
	if err := parseGame(payload, &gr.game); err != nil {
		return nil, fmt.Errorf("game %d: %w", frame, err)
	}
	return &gr.game, nil
}

// Next returns the next record of the games expanded, in order; errors as
// NextGame's, and for a game whose moves do not replay.
func (gr *GamesReader) Next() (Record, error) {
	for gr.next == len(gr.recs) {
		frame := gr.frames
		g, err := gr.NextGame()
		if err != nil {
			return Record{}, err
		}
		if gr.recs, err = g.AppendRecords(gr.recs[:0]); err != nil {
			gr.recs = gr.recs[:0]
			return Record{}, fmt.Errorf("game %d: %w", frame, err)
		}
		gr.next = 0
	}
	gr.next++
	return gr.recs[gr.next-1], nil
}

// RecordReader yields records one by one, io.EOF after the last.
type RecordReader interface {
	Next() (Record, error)
}

// NewAnyReader returns a reader of the records of r in either format: the
// games format when r begins with FrameMagic, else 32-byte records.
func NewAnyReader(r io.Reader) (RecordReader, Format, error) {
	var head [8]byte
	k, err := io.ReadFull(r, head[:])
	if err != nil && err != io.EOF && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, FormatRecords, err
	}
	rest := io.MultiReader(bytes.NewReader(head[:k]), r)
	if k == len(head) && head == FrameMagic {
		return NewGamesReader(rest), FormatGames, nil
	}
	return NewReader(rest), FormatRecords, nil
}

// Format is a data file's format.
type Format int

// The formats.
const (
	FormatRecords Format = iota // 32-byte records, concatenated
	FormatGames                 // one frame per game
)

// String returns the format's name as the datagen flag spells it.
func (f Format) String() string {
	if f == FormatGames {
		return "games"
	}
	return "records"
}

// ParseFormat parses a format's name.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "records":
		return FormatRecords, nil
	case "games":
		return FormatGames, nil
	}
	return FormatRecords, fmt.Errorf("unknown data format %q (records or games)", s)
}
