package ucifuzz

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Config is one fuzzing run.
type Config struct {
	Run      RunOptions
	Seed     uint64
	Inputs   int // stop starting processes once this many lines were generated
	Parallel int // engine processes at a time
	// PerProcess is about how many lines one process gets.
	PerProcess int
	HugeHash   bool
	Risky      bool
	// ReproDir receives <class>.txt, the first failing script of each
	// class; empty: none are written.
	ReproDir string
	// Log gets a line per failure as it is found; nil: silent.
	Log io.Writer
}

// Summary is what a run found.
type Summary struct {
	Inputs, Processes, BestMoves int
	Failures                     map[string]int    // by class
	First                        map[string]string // class -> reproducer path (or the detail when not saved)
	Details                      map[string]string // class -> the first failure's description
	StopLatencies                []time.Duration
}

// Failed reports any failure.
func (s Summary) Failed() bool { return len(s.Failures) > 0 }

// Line is the one-line summary.
func (s Summary) Line() string {
	var crashes, hangs, illegal, other int
	for c, n := range s.Failures {
		switch {
		case IsCrash(c):
			crashes += n
		case IsHang(c):
			hangs += n
		case IsIllegal(c):
			illegal += n
		default:
			other += n
		}
	}
	line := fmt.Sprintf("inputs %d processes %d bestmoves %d crashes %d hangs %d illegal %d other %d",
		s.Inputs, s.Processes, s.BestMoves, crashes, hangs, illegal, other)
	if len(s.StopLatencies) > 0 {
		l := slices.Clone(s.StopLatencies)
		slices.Sort(l)
		q := func(f float64) time.Duration { return l[min(len(l)-1, int(f*float64(len(l))))] }
		line += fmt.Sprintf(" stop-latency p50 %s p99 %s max %s (n %d)", fmtDur(q(0.5)), fmtDur(q(0.99)), fmtDur(l[len(l)-1]), len(l))
	}
	return line
}

// Report is the summary line and a line per failure class.
func (s Summary) Report() string {
	var b strings.Builder
	b.WriteString(s.Line())
	b.WriteByte('\n')
	classes := make([]string, 0, len(s.Failures))
	for c := range s.Failures {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		fmt.Fprintf(&b, "  %-20s %5d  first: %s\n    %s\n", c, s.Failures[c], s.First[c], strings.ReplaceAll(clip(s.Details[c], 400), "\n", " | "))
	}
	return b.String()
}

func fmtDur(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	}
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return d.Round(time.Millisecond).String()
}

// Fuzz runs processes until cfg.Inputs lines were generated and returns
// what they found.
func Fuzz(cfg Config) (Summary, error) {
	if cfg.Parallel < 1 {
		cfg.Parallel = 1
	}
	decls, err := QueryOptions(cfg.Run)
	if err != nil {
		return Summary{}, err
	}
	tmp, err := os.MkdirTemp("", "ucifuzz-")
	if err != nil {
		return Summary{}, err
	}
	defer os.RemoveAll(tmp)
	if err := writePathFixtures(tmp); err != nil {
		return Summary{}, err
	}
	if cfg.ReproDir != "" {
		if err := os.MkdirAll(cfg.ReproDir, 0o755); err != nil {
			return Summary{}, err
		}
	}
	gen := GenConfig{Options: decls, Inputs: cfg.PerProcess, HugeHash: cfg.HugeHash, Risky: cfg.Risky, TempDir: tmp}

	sum := Summary{Failures: map[string]int{}, First: map[string]string{}, Details: map[string]string{}}
	var mu sync.Mutex
	// Scripts are generated in order here, so the set of processes depends
	// only on the seed; only their timing depends on the machine.
	scripts := make(chan indexed)
	go func() {
		defer close(scripts)
		total := 0
		for i := 0; total < cfg.Inputs; i++ {
			s := Generate(cfg.Seed, i, gen)
			total += s.Inputs()
			scripts <- indexed{i, s}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < cfg.Parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sc := range scripts {
				res := Run(cfg.Run, sc.s)
				mu.Lock()
				sum.record(cfg, sc, res)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return sum, nil
}

type indexed struct {
	i int
	s Script
}

func (s *Summary) record(cfg Config, sc indexed, res Result) {
	s.Processes++
	s.Inputs += res.Inputs
	s.BestMoves += res.BestMoves
	s.StopLatencies = append(s.StopLatencies, res.StopLatencies...)
	for _, f := range res.Failures {
		s.Failures[f.Class]++
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "process %d (%s): %s: %s\n", sc.i, sc.s.Searcher, f.Class, strings.ReplaceAll(clip(f.Detail, 300), "\n", " | "))
		}
		if _, seen := s.First[f.Class]; seen {
			continue
		}
		s.Details[f.Class] = f.Detail
		s.First[f.Class] = "(not saved)"
		if cfg.ReproDir == "" {
			continue
		}
		path := filepath.Join(cfg.ReproDir, f.Class+".txt")
		if err := SaveReproducer(path, sc.s, f, cfg.Seed, sc.i, res.Stderr); err != nil {
			s.First[f.Class] = "(cannot save: " + err.Error() + ")"
			continue
		}
		s.First[f.Class] = path
	}
}

// SaveReproducer writes the script up to the failing step (then a wait, so
// a replay gives the engine the same chance to answer).
func SaveReproducer(path string, s Script, f Failure, seed uint64, proc int, stderr string) error {
	cut := s
	cut.Steps = slices.Clone(s.Steps[:min(f.Step+1, len(s.Steps))])
	if len(cut.Steps) == 0 || cut.Steps[len(cut.Steps)-1].Kind != Wait {
		cut.Steps = append(cut.Steps, Step{Kind: Wait})
	}
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	header := []string{
		fmt.Sprintf("ucifuzz reproducer: %s (seed %d, process %d)", f.Class, seed, proc),
		"found: " + clip(f.Detail, 2000),
		"replay: ucifuzz -engine bin/engine -replay " + filepath.Base(path),
	}
	if stderr != "" {
		header = append(header, "stderr tail:\n"+tail(stderr, 1500))
	}
	if err := WriteScript(file, cut, header...); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// Replay runs a saved script once and returns its summary.
func Replay(o RunOptions, s Script) Summary {
	res := Run(o, s)
	sum := Summary{Failures: map[string]int{}, First: map[string]string{}, Details: map[string]string{}}
	sum.record(Config{}, indexed{0, s}, res)
	return sum
}

// writePathFixtures makes the files path options are pointed at: an empty
// one, garbage, and the first bytes of an ONNX file.
func writePathFixtures(dir string) error {
	files := map[string]string{
		"empty.onnx":     "",
		"garbage.onnx":   strings.Repeat("\x00\xffnot a network\n", 512),
		"truncated.onnx": "\x08\x07\x12\x07pytorch\x1a\x052.1.0:",
	}
	// A tablebase directory of broken tables (SyzygyPath): garbage, a
	// header cut short, an empty file, a name no material has.
	tables := map[string]string{
		"KQvK.rtbw":  strings.Repeat("\x00\xffnot a table\n", 512),
		"KQvK.rtbz":  "",
		"KRvK.rtbw":  "\x71\xe8\x23\x5d\x00",
		"KPvK.rtbw":  "\xd7\x66\x0c\xa5" + strings.Repeat("\x01", 40),
		"KXvK.rtbw":  "x",
		"notes.rtbz": "",
	}
	if err := os.MkdirAll(filepath.Join(dir, "syzygy"), 0o755); err != nil {
		return err
	}
	for name, body := range tables {
		files[filepath.Join("syzygy", name)] = body
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}
