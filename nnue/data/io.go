package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
)

// Reader reads records one by one from a stream of them.
type Reader struct {
	r   *bufio.Reader
	buf [RecordSize]byte
	n   int64 // records read
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 1<<16)} }

// Next returns the next record, io.EOF after the last one, or an error
// naming the record's index for a truncated or invalid record.
func (rd *Reader) Next() (Record, error) {
	k, err := io.ReadFull(rd.r, rd.buf[:])
	switch {
	case err == io.EOF:
		return Record{}, io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Record{}, fmt.Errorf("%w: record %d truncated (%d of %d bytes)", ErrInvalid, rd.n, k, RecordSize)
	case err != nil:
		return Record{}, err
	}
	r, err := Decode(rd.buf[:])
	if err != nil {
		return Record{}, fmt.Errorf("record %d: %w", rd.n, err)
	}
	rd.n++
	return r, nil
}

// ReadAll reads every record of r.
func ReadAll(r io.Reader) ([]Record, error) {
	rd := NewReader(r)
	var out []Record
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

// Writer appends games to a file, in either format. Each game is a single
// write system call, so an interrupted generator leaves whole games behind
// (and at most one partial record or frame, which OpenAppendFormat cuts
// off).
type Writer struct {
	f      *os.File
	format Format
	buf    []byte
	game   []byte
	n      int64 // records in the file (games: the records it expands to)
	size   int64 // bytes in the file
}

// OpenAppend opens (or creates) path for appending records: as
// OpenAppendFormat in the records format.
func OpenAppend(path string) (*Writer, error) { return OpenAppendFormat(path, FormatRecords) }

// OpenAppendFormat opens (or creates) path for appending games in format.
// A file that is not empty must be in that format
// already. A trailing partial record or frame (from a generator killed
// mid-write) is cut off; a frame that is whole but corrupt is an error, as
// appending after it would bury it. Records reports how many records the
// file holds.
func OpenAppendFormat(path string, format Format) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	w, err := openAppend(f, path, format)
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

func openAppend(f *os.File, path string, format Format) (*Writer, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	w := &Writer{f: f, format: format}
	var whole int64
	if st.Size() > 0 {
		rd, got, err := NewAnyReader(bufio.NewReaderSize(f, 1<<16))
		if err != nil {
			return nil, err
		}
		if got != format {
			return nil, fmt.Errorf("%s: holds data in the %s format, not %s", path, got, format)
		}
		switch format {
		case FormatRecords:
			whole = st.Size() / RecordSize * RecordSize
			w.n = whole / RecordSize
		case FormatGames:
			gr := rd.(*GamesReader)
			for {
				g, err := gr.NextGame()
				if err == io.EOF || errors.Is(err, ErrPartialFrame) {
					break
				}
				if err != nil {
					return nil, fmt.Errorf("%s: %w", path, err)
				}
				w.n += int64(g.Kept)
			}
			whole = gr.Offset()
		}
	}
	if whole != st.Size() {
		if err := f.Truncate(whole); err != nil {
			return nil, err
		}
	}
	if _, err := f.Seek(whole, io.SeekStart); err != nil {
		return nil, err
	}
	w.size = whole
	return w, nil
}

// Records returns the number of records in the file (in the games format,
// the number the games expand to).
func (w *Writer) Records() int64 { return w.n }

// Size returns the size of the file in bytes.
func (w *Writer) Size() int64 { return w.size }

// WriteGame appends the records in one write.
func (w *Writer) WriteGame(rs []Record) error {
	w.buf = w.buf[:0]
	for i := range rs {
		w.buf = rs[i].Append(w.buf)
	}
	return w.write(int64(len(rs)))
}

// Write appends a game in one write: its records, or in the games format
// its frame. recs must be the records g expands to.
func (w *Writer) Write(g *Game, recs []Record) error {
	if w.format == FormatRecords {
		return w.WriteGame(recs)
	}
	var err error
	if w.game, err = appendGame(w.game[:0], g); err != nil {
		return err
	}
	w.buf = appendFrame(w.buf[:0], w.game)
	return w.write(int64(g.Kept))
}

func (w *Writer) write(records int64) error {
	k, err := w.f.Write(w.buf)
	w.size += int64(k)
	if err != nil {
		return err
	}
	w.n += records
	return nil
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }
