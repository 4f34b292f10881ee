package perft

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/movegen"
)

// Expectation is one reference count of a suite line.
type Expectation struct {
	Depth int
	Nodes uint64
}

// Entry is one suite line: a position and its reference counts.
type Entry struct {
	Line         int // 1-based line number in the suite file
	FEN          string
	Expectations []Expectation
}

// ParseEntry reads a suite line of the form "FEN ;D1 20 ;D2 400 ...".
func ParseEntry(line string) (Entry, error) {
	parts := strings.Split(line, ";")
	e := Entry{FEN: strings.TrimSpace(parts[0])}
	if e.FEN == "" {
		return e, fmt.Errorf("no FEN before the first ';'")
	}
	for _, part := range parts[1:] {
		f := strings.Fields(part)
		if len(f) != 2 || len(f[0]) < 2 || f[0][0] != 'D' {
			return e, fmt.Errorf("malformed count %q: want \"D<depth> <nodes>\"", strings.TrimSpace(part))
		}
		d, err1 := strconv.Atoi(f[0][1:])
		n, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil || d < 1 {
			return e, fmt.Errorf("malformed count %q: want \"D<depth> <nodes>\"", strings.TrimSpace(part))
		}
		e.Expectations = append(e.Expectations, Expectation{Depth: d, Nodes: n})
	}
	if len(e.Expectations) == 0 {
		return e, fmt.Errorf("no reference counts (\";D1 n ;D2 n ...\") after the FEN")
	}
	return e, nil
}

// ReadSuite reads every entry of a suite; blank lines and lines starting
// with '#' are skipped. The first malformed line is an error.
func ReadSuite(r io.Reader) ([]Entry, error) {
	var entries []Entry
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		e, err := ParseEntry(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		e.Line = n
		entries = append(entries, e)
	}
	return entries, sc.Err()
}

// SuiteOptions limit which counts of a suite are checked.
type SuiteOptions struct {
	MaxDepth int    // 0: every depth of the line
	MaxNodes uint64 // 0: no limit; otherwise skip reference counts above it
}

// Result is the outcome of checking one reference count.
type Result struct {
	Entry   Entry
	Depth   int
	Want    uint64
	Got     uint64
	Elapsed time.Duration
	Err     error // the FEN did not parse; Depth, Want and Got are then zero
}

// OK reports whether the count matched.
func (r Result) OK() bool { return r.Err == nil && r.Got == r.Want }

// Summary totals a suite run.
type Summary struct {
	Positions, Checked, Skipped, Failed int
	Nodes                               uint64
	Elapsed                             time.Duration
}

// RunSuite checks every selected count of every entry, calling report after
// each one, and returns the totals.
func RunSuite(entries []Entry, opt SuiteOptions, report func(Result)) Summary {
	var sum Summary
	start := time.Now()
	for _, e := range entries {
		sum.Positions++
		p, err := movegen.ParseFEN(e.FEN)
		if err != nil {
			sum.Failed++
			report(Result{Entry: e, Err: err})
			continue
		}
		for _, x := range e.Expectations {
			if (opt.MaxDepth > 0 && x.Depth > opt.MaxDepth) || (opt.MaxNodes > 0 && x.Nodes > opt.MaxNodes) {
				sum.Skipped++
				continue
			}
			t := time.Now()
			got := Count(p, x.Depth)
			r := Result{Entry: e, Depth: x.Depth, Want: x.Nodes, Got: got, Elapsed: time.Since(t)}
			sum.Checked++
			sum.Nodes += got
			if !r.OK() {
				sum.Failed++
			}
			report(r)
		}
	}
	sum.Elapsed = time.Since(start)
	return sum
}
