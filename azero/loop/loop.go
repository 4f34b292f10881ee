package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/ladder"
)

// Config is one loop's settings.
type Config struct {
	RunDir string
	// Iterations stops the loop after this many iterations in all (0:
	// never); GamesPerIter is the self-play games of each.
	Iterations, GamesPerIter int
	// Training: steps per iteration, batch, the newest Window chunk files,
	// learning rate and L2, the share of the search's value in the value
	// target (TrainJob.QRatio), the weight average's decay and the
	// policy-surprise share (TrainJob.EMA, SurpriseWeight; 0: off), and the
	// shape of the first network.
	Steps, Batch, Window int
	LR, L2, QRatio       float64
	EMA, SurpriseWeight  float64
	Net                  NetShape
	// InitNetwork, when set, is an ONNX network (vetted by the caller) that
	// a new run's first network starts from instead of a random one: it is
	// kept as DIR/init.onnx and given to Trainer.Init as NetShape.From. A
	// run that has started already ignores it.
	InitNetwork []byte
	// Gating: games (0: always promote), playouts per move, random plies
	// after each opening, and each side's first moves drawn by visits.
	GateGames, GatePlayouts          int
	GateRandomPlies, GateSampleMoves int
	// The ladder: every LadderEvery iterations (0: never), LadderPlayouts
	// per move. Ladder.PGN is set by the loop (DIR/ladder.pgn).
	LadderEvery, LadderPlayouts int
	Ladder                      ladder.ClimbConfig
	SelfPlay                    azero.SelfPlayConfig

	Trainer Trainer
	// Load reads and vets a network file (onnx.Open in the engine):
	// a network it refuses is never gated.
	Load func(path string) (azero.Backend, error)
	Out  io.Writer // progress
}

// State is the loop's progress, saved after every phase (DIR/state.json).
type State struct {
	Iteration int    `json:"iteration"`
	Phase     string `json:"phase"` // selfplay, train, gate, ladder
	Best      string `json:"best"`  // network file, relative to the run dir
	BestIter  int    `json:"best_iteration"`
	// SelfPlay is the current iteration's self-play so far, saved after
	// every chunk, so that a killed loop continues the iteration instead of
	// replaying it (see selfplayIteration).
	SelfPlay *SelfPlayProgress `json:"selfplay,omitempty"`
}

// GatePercent is the score a candidate needs against the best to be promoted.
const GatePercent = 55

func (c *Config) path(parts ...string) string {
	return filepath.Join(append([]string{c.RunDir}, parts...)...)
}

// LoadState reads a run's state; a run not begun starts at iteration 1.
func LoadState(path string) (State, error) {
	var st State
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return State{Iteration: 1, Phase: "selfplay"}, nil
	}
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(data, &st)
}

func saveState(path string, st any) error {
	data, _ := json.MarshalIndent(st, "", "  ")
	return writeFile(path, data)
}

// writeFile writes data to path through a temporary file and a rename, so
// that path is never seen half-written.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Run runs the loop until c.Iterations are done (or an error): it locks the
// run directory, starts a first network if there is none, and goes on from
// the saved state.
func Run(c *Config) error {
	if c.Trainer == nil || c.Load == nil || c.Out == nil {
		return errors.New("loop: Config needs a Trainer, Load and Out")
	}
	if err := os.MkdirAll(c.RunDir, 0o755); err != nil {
		return err
	}
	unlock, err := LockRunDir(c.RunDir)
	if err != nil {
		return err
	}
	defer unlock()
	for _, d := range []string{"chunks", "nets", "trainer"} {
		if err := os.MkdirAll(c.path(d), 0o755); err != nil {
			return err
		}
	}
	statePath := c.path("state.json")
	st, err := LoadState(statePath)
	if err != nil {
		return fmt.Errorf("%s: %v", statePath, err)
	}
	if st.Best == "" {
		st.Best = filepath.Join("nets", "iter-0000.onnx")
		shape := c.Net
		if len(c.InitNetwork) > 0 {
			shape.From = c.path("init.onnx")
			if err := writeFile(shape.From, c.InitNetwork); err != nil {
				return err
			}
		}
		if err := c.Trainer.Init(c.path("trainer"), shape, c.path(st.Best)); err != nil {
			return err
		}
		// The starting weights beside the first network: a refused
		// candidate of iteration 1 rolls the trainer back to them.
		if err := copyFile(c.path("trainer", "checkpoint.pt"), c.path("nets", "iter-0000.pt")); err != nil {
			return err
		}
		if err := saveState(statePath, st); err != nil {
			return err
		}
	}
	// An export killed half-way leaves its temporary file (export.py).
	if olds, err := filepath.Glob(c.path("nets", ".export-*.onnx.tmp")); err == nil {
		for _, o := range olds {
			os.Remove(o)
		}
	}
	start := time.Now()
	for c.Iterations == 0 || st.Iteration <= c.Iterations {
		it := st.Iteration
		candidate := filepath.Join("nets", fmt.Sprintf("iter-%04d.onnx", it))
		fmt.Fprintf(c.Out, "== iteration %d (%s) best %s, %s elapsed\n", it, st.Phase, st.Best, time.Since(start).Round(time.Second))
		switch st.Phase {
		case "selfplay":
			if err := c.selfplayIteration(it, &st, statePath); err != nil {
				return err
			}
			st.Phase, st.SelfPlay = "train", nil
		case "train":
			// The target key makes a restarted phase end at the step an
			// uninterrupted one would have, not Steps after the kill.
			err := c.Trainer.Train(c.path("trainer"), TrainJob{
				Key: fmt.Sprintf("iter-%04d", it), Chunks: c.path("chunks"), Window: c.Window,
				Steps: c.Steps, Batch: c.Batch, LR: c.LR, L2: c.L2, QRatio: c.QRatio,
				EMA: c.EMA, SurpriseWeight: c.SurpriseWeight,
			}, c.path(candidate))
			if err != nil {
				if errors.Is(err, ErrDiverged) {
					return c.refuse(it, candidate, &st, statePath, err.Error())
				}
				return err
			}
			// Keep the weights beside the export: export.py --checkpoint can
			// then rebuild the network and its golden outputs for shipping.
			if err := copyFile(c.path("trainer", "checkpoint.pt"), c.path(strings.TrimSuffix(candidate, ".onnx")+".pt")); err != nil {
				return err
			}
			st.Phase = "gate"
		case "gate":
			// A network with NaN outputs would crash the gate, and the
			// rerun would crash again; it is refused instead.
			if _, err := c.Load(c.path(candidate)); err != nil {
				return c.refuse(it, candidate, &st, statePath, err.Error())
			}
			promoted, score, err := c.gate(it, candidate, st.Best)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.Out, "gate: %s vs %s: %s (%.1f%%) -> %s\n", candidate, st.Best, score, score.Percent(), map[bool]string{true: "promoted", false: "kept the best"}[promoted])
			if err := appendLine(c.path("gating.csv"), "iteration,candidate,best,wins,draws,losses,percent,promoted",
				fmt.Sprintf("%d,%s,%s,%d,%d,%d,%.1f,%v", it, candidate, st.Best, score.W, score.D, score.L, score.Percent(), promoted)); err != nil {
				return err
			}
			if promoted {
				st.Best, st.BestIter = candidate, it
			}
			st.Phase = "ladder"
		case "ladder":
			if c.LadderEvery > 0 && it%c.LadderEvery == 0 {
				if err := c.climb(it, st.Best); err != nil {
					return err
				}
			}
			st.Iteration++
			st.Phase = "selfplay"
		default:
			return fmt.Errorf("%s: unknown phase %q", statePath, st.Phase)
		}
		if err := saveState(statePath, st); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.Out, "done: best network %s (iteration %d)\n", c.path(st.Best), st.BestIter)
	return nil
}

// climb sends the best network up the ladder: results to DIR/ladder.csv
// and its plot DIR/ladder.png, games to DIR/ladder.pgn.
func (c *Config) climb(it int, best string) error {
	net, err := c.Load(c.path(best))
	if err != nil {
		return err
	}
	lc := c.Ladder
	if lc.PGN, err = ladder.OpenPGNLog(c.path("ladder.pgn"), fmt.Sprintf("Twofold ladder, iteration %d", it)); err != nil {
		return err
	}
	subject := fmt.Sprintf("Twofold MCTS %s %dp", filepath.Base(c.path(best)), c.LadderPlayouts)
	results, err := ladder.Climb(func() (ladder.Player, error) {
		return azero.NewPlayer(net, "mcts", c.LadderPlayouts)
	}, subject, lc, func(r string, s ladder.Score) {
		fmt.Fprintf(c.Out, "ladder %-14s %s\n", r, s)
	})
	if perr := lc.PGN.Close(); err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	if err := AppendCSV(c.path("ladder.csv"), it, results); err != nil {
		return err
	}
	if err := c.Trainer.Plot(c.path("ladder.csv"), c.path("ladder.png")); err != nil {
		fmt.Fprintln(c.Out, "plot:", err) // the curve is still in the CSV
	}
	return nil
}

// gate plays the candidate against the best; it is promoted at GatePercent
// or more. Its games go to gating.pgn in the run directory.
func (c *Config) gate(it int, candidate, best string) (bool, ladder.Score, error) {
	if c.GateGames == 0 {
		return true, ladder.Score{}, nil
	}
	cn, err := c.Load(c.path(candidate))
	if err != nil {
		return false, ladder.Score{}, err
	}
	bn, err := c.Load(c.path(best))
	if err != nil {
		return false, ladder.Score{}, err
	}
	cp, err := azero.NewPlayer(cn, "candidate", c.GatePlayouts)
	if err != nil {
		return false, ladder.Score{}, err
	}
	defer cp.Close()
	bp, err := azero.NewPlayer(bn, "best", c.GatePlayouts)
	if err != nil {
		return false, ladder.Score{}, err
	}
	defer bp.Close()
	cp.SampleMoves(c.GateSampleMoves, uint64(2*it))
	bp.SampleMoves(c.GateSampleMoves, uint64(2*it+1))
	log, err := ladder.OpenPGNLog(c.path("gating.pgn"), fmt.Sprintf("Twofold gating, iteration %d", it))
	if err != nil {
		return false, ladder.Score{}, err
	}
	starts := ladder.RandomStarts((c.GateGames+1)/2, c.GateRandomPlies, uint64(it))
	s := ladder.MatchFrom(cp, bp, starts, c.GateGames, 400, func(done int, _ ladder.Score, g ladder.GameResult) {
		log.MatchGame(g, candidate, best, done)
	})
	if err := log.Close(); err != nil {
		return false, ladder.Score{}, err
	}
	return s.Percent() >= GatePercent, s, nil
}

// AppendCSV adds a learning-curve row, writing the header to a new file.
func AppendCSV(path string, iteration int, results []ladder.RungResult) error {
	return appendLine(path, ladder.CSVHeader(), ladder.CSVRow(iteration, results))
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeFile(to, data)
}

func appendLine(path, header, line string) error {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if os.IsNotExist(statErr) {
		fmt.Fprintln(f, header)
	}
	fmt.Fprintln(f, line)
	return f.Close()
}
