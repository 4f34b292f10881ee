// Command tbcheck compares the syzygy prober with Debian's fathom on random
// legal positions spread evenly over every table of a directory:
//
//	tbcheck --tbdir DIR [--positions 100000] [--parallel 2] [--seed 1]
//	        [--tables KRPvKR,...] [--golden FILE] [--fathom PATH]
//
// For each position it runs "fathom --path=DIR FEN" and compares the WDL,
// the DTZ and the winning, drawing and losing moves fathom prints with
// those the prober gives. Tables with only a WDL file (made as subtables
// for the generator) get no positions of their own. It prints every disagreement and a summary, and
// exits with status 1 if there was any. With --golden it also writes
// fathom's answers to FILE, one "FEN;WDL;DTZ;winning;drawing;losing" line
// per position, for tests that run without fathom.
//
// With --pick it checks nothing and prints test positions instead, one FEN
// a line, judged by the prober alone (no fathom):
//
//	tbcheck --tbdir DIR --pick KQvKR:win:6:20,KRPvKR:draw:8 [--seed 1]
//
// TABLE:win:N:MINDTZ picks N positions the side to move wins within the
// fifty-move rule, at least MINDTZ plies from zeroing; TABLE:draw:N picks N
// drawn ones in which some move loses. The positions of
// scripts/tb-endgames.epd were chosen by these rules (docs/tablebases.md).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/internal/tbcheck"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

func main() {
	dir := flag.String("tbdir", "", "directory of the tables (.rtbw and .rtbz)")
	n := flag.Int("positions", 100000, "number of random positions")
	parallel := flag.Int("parallel", 2, "fathom processes at once")
	seed := flag.Uint64("seed", 1, "random seed")
	golden := flag.String("golden", "", "write fathom's answers to this file")
	fathom := flag.String("fathom", "", "fathom binary (default: fathom in PATH or /usr/games/fathom)")
	maxShow := flag.Int("show", 20, "disagreements to print in full")
	only := flag.String("tables", "", "comma-separated tables to check (default: all)")
	pick := flag.String("pick", "", "print test positions instead: TABLE:win:N:MINDTZ or TABLE:draw:N, comma-separated")
	flag.Parse()
	if *dir == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *pick != "" {
		if err := pickPositions(*dir, *pick, *seed); err != nil {
			fmt.Fprintln(os.Stderr, "tbcheck:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*dir, *n, *parallel, *seed, *golden, *fathom, *maxShow, *only); err != nil {
		fmt.Fprintln(os.Stderr, "tbcheck:", err)
		os.Exit(1)
	}
}

// pickPositions prints the positions of the pick specs, each spec with a
// generator of its own seeded from seed, so adding a spec leaves the
// positions of the others as they were.
func pickPositions(dir, pick string, seed uint64) error {
	specs, err := tbcheck.ParsePickSpecs(pick)
	if err != nil {
		return err
	}
	tb, err := syzygy.Open(dir)
	if err != nil {
		return err
	}
	defer tb.Close()
	for i, sp := range specs {
		fens, err := tbcheck.Pick(tb, rand.New(rand.NewPCG(seed, uint64(i))), sp)
		if err != nil {
			return err
		}
		for _, fen := range fens {
			fmt.Println(fen)
		}
	}
	return nil
}

func findFathom(bin string) (string, error) {
	if bin != "" {
		return bin, nil
	}
	if p, err := exec.LookPath("fathom"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/games/fathom"); err == nil {
		return "/usr/games/fathom", nil
	}
	return "", fmt.Errorf("fathom not found (apt-get install fathom, or --fathom PATH)")
}

func run(dir string, n, parallel int, seed uint64, golden, fathom string, maxShow int, only string) error {
	bin, err := findFathom(fathom)
	if err != nil {
		return err
	}
	tb, err := syzygy.Open(dir)
	if err != nil {
		return err
	}
	defer tb.Close()
	if errs := tb.Check(); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(os.Stderr, e)
		}
		return fmt.Errorf("%d unusable table files", len(errs))
	}
	// fathom's root probe needs both files of the position's table.
	var tables []string
	for _, name := range tb.Tables() {
		_, errW := os.Stat(filepath.Join(dir, name+".rtbw"))
		_, errZ := os.Stat(filepath.Join(dir, name+".rtbz"))
		if errW == nil && errZ == nil && (only == "" || slices.Contains(strings.Split(only, ","), name)) {
			tables = append(tables, name)
		}
	}
	if len(tables) == 0 {
		return fmt.Errorf("no table in %s has both its .rtbw and .rtbz file", dir)
	}
	fens, err := tbcheck.Positions(tables, n, seed)
	if err != nil {
		return err
	}
	ep := 0
	for _, fen := range fens {
		if f := strings.Fields(fen); len(f) > 3 && f[3] != "-" {
			ep++
		}
	}
	fmt.Printf("%d positions (%d with an en-passant capture) over %d tables (%s) against %s\n",
		len(fens), ep, len(tables), strings.Join(tables, " "), bin)

	type outcome struct {
		fathom tbcheck.Result
		ours   tbcheck.Result
		err    error
	}
	results := make([]outcome, len(fens))
	var wg sync.WaitGroup
	next := make(chan int)
	ctx := context.Background()
	start := time.Now()
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(parallel, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				o := &results[i]
				o.fathom, o.err = tbcheck.RunFathom(ctx, bin, dir, fens[i])
				if o.err == nil {
					p, err := movegen.ParseFEN(fens[i])
					if err != nil {
						o.err = err
					} else {
						o.ours, o.err = tbcheck.Expected(tb, p)
					}
				}
				mu.Lock()
				done++
				if done%10000 == 0 {
					fmt.Printf("%d positions (%.0f s)\n", done, time.Since(start).Seconds())
				}
				mu.Unlock()
			}
		}()
	}
	for i := range fens {
		next <- i
	}
	close(next)
	wg.Wait()

	var bad, wdlBad, dtzBad, movesBad, failed int
	for i, o := range results {
		switch {
		case o.err != nil:
			failed++
			if failed <= maxShow {
				fmt.Printf("error: %s: %v\n", fens[i], o.err)
			}
		case !o.fathom.Equal(o.ours):
			bad++
			if o.fathom.WDL != o.ours.WDL {
				wdlBad++
			}
			if o.fathom.DTZ != o.ours.DTZ {
				dtzBad++
			}
			if o.fathom.WDL == o.ours.WDL && o.fathom.DTZ == o.ours.DTZ {
				movesBad++
			}
			if bad <= maxShow {
				fmt.Printf("disagreement: %s\n  fathom: %s\n  syzygy: %s\n", fens[i], o.fathom, o.ours)
			}
		}
	}
	if golden != "" {
		f, err := os.Create(golden)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		fmt.Fprintf(w, "# fathom's answers on %d random positions (seed %d) over %s\n", len(fens), seed, strings.Join(tables, " "))
		for i, o := range results {
			if o.err == nil {
				fmt.Fprintln(w, tbcheck.Line(fens[i], o.fathom))
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	fmt.Printf("positions %d, tables %d, disagreements %d (WDL %d, DTZ %d, moves only %d), errors %d, %.0f s\n",
		len(fens), len(tables), bad, wdlBad, dtzBad, movesBad, failed, time.Since(start).Seconds())
	if bad > 0 || failed > 0 {
		return fmt.Errorf("%d disagreements, %d errors", bad, failed)
	}
	return nil
}
