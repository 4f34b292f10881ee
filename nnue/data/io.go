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

// Writer appends records to a file. Each WriteGame is a single write
// system call, so an interrupted generator leaves whole games behind (and
// at most one partial record, which OpenAppend cuts off).
type Writer struct {
	f   *os.File
	buf []byte
	n   int64 // records in the file
}

// OpenAppend opens (or creates) path for appending records. A trailing
// partial record (from a generator killed mid-write) is cut off; Records
// reports how many whole records the file holds.
func OpenAppend(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	whole := st.Size() / RecordSize * RecordSize
	if whole != st.Size() {
		if err := f.Truncate(whole); err != nil {
			f.Close()
			return nil, err
		}
	}
	if _, err := f.Seek(whole, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &Writer{f: f, n: whole / RecordSize}, nil
}

// Records returns the number of records in the file.
func (w *Writer) Records() int64 { return w.n }

// WriteGame appends the records in one write.
func (w *Writer) WriteGame(rs []Record) error {
	w.buf = w.buf[:0]
	for i := range rs {
		w.buf = rs[i].Append(w.buf)
	}
	if _, err := w.f.Write(w.buf); err != nil {
		return err
	}
	w.n += int64(len(rs))
	return nil
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }
