package syzygy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrNotFound is returned (possibly wrapped) when a position cannot be
// probed: it has castling rights or too many pieces, a table it needs is
// not there, or that table's file turned out to be unusable (the error is
// then a *TableError, which wraps ErrNotFound).
var ErrNotFound = errors.New("syzygy: position not in the tablebases")

// TableError reports a table file that cannot be used: unreadable,
// truncated, corrupt or holding other material than its name says. Probes
// that need the table fail with it; every other table goes on working.
type TableError struct {
	Path string
	Err  error
}

func (e *TableError) Error() string { return "syzygy: table " + e.Path + ": " + e.Err.Error() }

// Unwrap gives both the cause and ErrNotFound, so errors.Is(err,
// ErrNotFound) holds for every failed probe.
func (e *TableError) Unwrap() []error { return []error{e.Err, ErrNotFound} }

// Tablebase is a set of Syzygy tables found in one or more directories.
// It is safe for use by many goroutines at once; each table file is opened
// (memory-mapped where the system allows) and checked the first time a
// probe needs it.
type Tablebase struct {
	tables    map[materialKey]*table
	names     []string
	maxPieces int
	numWDL    int
	numDTZ    int
	onError   func(error)

	mu       sync.Mutex
	problems []error
	closed   atomic.Bool
}

// table is one material balance: its WDL and DTZ files.
type table struct {
	*material
	wdl, dtz tableFile
}

// tableFile is one file, loaded once.
type tableFile struct {
	path   string // "" when the directories have no such file
	once   sync.Once
	data   *tableData
	err    error
	unmap  func() error
	loaded atomic.Bool
	bad    error // returned when the data of a loaded file do not decode
}

// badData is the error of a probe that found the file's data inconsistent.
func (f *tableFile) badData() error { return f.bad }

// Options adjust Open.
type Options struct {
	// OnTableError, when set, is called once for each table file found
	// unusable when a probe first needs it (from that probe's goroutine;
	// it must not probe).
	OnTableError func(error)
}

// Open finds the tables (files named like KRPvKR.rtbw and KRPvKR.rtbz) in
// the directories of path, separated by os.PathListSeparator (':' on Unix,
// ';' on Windows). A table found in several directories is taken from the
// first. Files are not opened yet. The returned Tablebase is never nil and
// usable even when err is not nil: err then says which directories could
// not be read or which file names were not understood.
func Open(path string) (*Tablebase, error) { return OpenWith(path, Options{}) }

// OpenWith is Open with options.
func OpenWith(path string, opts Options) (*Tablebase, error) {
	tb := &Tablebase{tables: map[materialKey]*table{}, onError: opts.OnTableError}
	var errs []error
	for _, dir := range filepath.SplitList(path) {
		if strings.TrimSpace(dir) == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("syzygy: directory %s: %w", dir, err))
			continue
		}
		for _, e := range entries {
			name := e.Name()
			ext := filepath.Ext(name)
			if ext != ".rtbw" && ext != ".rtbz" || e.IsDir() {
				continue
			}
			m, err := parseMaterial(strings.TrimSuffix(name, ext))
			if err != nil {
				errs = append(errs, fmt.Errorf("syzygy: %s: %w", filepath.Join(dir, name), err))
				continue
			}
			t := tb.tables[m.key]
			if t == nil {
				t = &table{material: m}
				tb.tables[m.key] = t
				tb.tables[m.key2] = t
				tb.names = append(tb.names, m.name)
			}
			f := &t.wdl
			if ext == ".rtbz" {
				f = &t.dtz
			}
			if f.path != "" {
				continue // the first directory wins
			}
			f.path = filepath.Join(dir, name)
			if ext == ".rtbw" {
				tb.numWDL++
				tb.maxPieces = max(tb.maxPieces, m.count)
			} else {
				tb.numDTZ++
			}
		}
	}
	sort.Strings(tb.names)
	tb.problems = append(tb.problems, errs...)
	return tb, errors.Join(errs...)
}

// MaxPieces returns the most pieces (kings included) of a WDL table found,
// 0 when there is none.
func (tb *Tablebase) MaxPieces() int { return tb.maxPieces }

// NumWDL returns how many WDL files were found.
func (tb *Tablebase) NumWDL() int { return tb.numWDL }

// NumDTZ returns how many DTZ files were found.
func (tb *Tablebase) NumDTZ() int { return tb.numDTZ }

// Tables returns the names of the tables found (either file), sorted.
func (tb *Tablebase) Tables() []string { return append([]string(nil), tb.names...) }

// Problems returns the directories that could not be read, the names not
// understood and the table files found unusable so far.
func (tb *Tablebase) Problems() []error {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]error(nil), tb.problems...)
}

// Check opens every table file now instead of when first needed and
// returns the errors of those that cannot be used.
func (tb *Tablebase) Check() []error {
	var errs []error
	for _, name := range tb.names {
		m, _ := parseMaterial(name)
		t := tb.tables[m.key]
		for _, f := range []*tableFile{&t.wdl, &t.dtz} {
			if f.path == "" {
				continue
			}
			if _, err := tb.load(t, f); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// Close releases the mapped files. No probe may run during or after Close.
func (tb *Tablebase) Close() error {
	if tb.closed.Swap(true) {
		return nil
	}
	var errs []error
	for _, name := range tb.names {
		m, _ := parseMaterial(name)
		t := tb.tables[m.key]
		for _, f := range []*tableFile{&t.wdl, &t.dtz} {
			f.once.Do(func() { f.err = ErrNotFound }) // no loading after Close
			if f.unmap != nil {
				errs = append(errs, f.unmap())
				f.unmap = nil
				f.data = nil
			}
		}
	}
	return errors.Join(errs...)
}

// load returns the parsed file, loading it on first use.
func (tb *Tablebase) load(t *table, f *tableFile) (*tableData, error) {
	if f.path == "" {
		return nil, ErrNotFound
	}
	if f.loaded.Load() {
		return f.data, f.err
	}
	f.once.Do(func() {
		defer f.loaded.Store(true)
		if tb.closed.Load() {
			f.err = ErrNotFound
			return
		}
		f.bad = &TableError{Path: f.path, Err: corrupt("compressed data do not decode")}
		raw, unmap, err := mapFile(f.path)
		if err == nil {
			f.data, err = parseTableSafe(raw, t.material, f == &t.dtz)
			if err != nil {
				_ = unmap()
			} else {
				f.unmap = unmap
			}
		}
		if err != nil {
			f.err = &TableError{Path: f.path, Err: err}
			tb.mu.Lock()
			tb.problems = append(tb.problems, f.err)
			tb.mu.Unlock()
			if tb.onError != nil {
				tb.onError(f.err)
			}
		}
	})
	return f.data, f.err
}

// parseTableSafe is parseTable turning any slip past its checks into an
// error rather than a crash of the engine.
func parseTableSafe(raw []byte, m *material, dtz bool) (t *tableData, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, corrupt("unreadable layout (%v)", r)
		}
	}()
	return parseTable(raw, m, dtz)
}
