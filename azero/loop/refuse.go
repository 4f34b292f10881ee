package loop

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// refuse handles a candidate that must not play: training diverged, or its
// network does not load (Config.Load refuses NaN or infinite outputs: a
// diverged trainer's network passes the file checks but crashes a search). The candidate's files are renamed aside
// (*.refused), so they can neither be gated nor become the best; the
// trainer's checkpoint is rolled back to the newest earlier iteration's, as
// training on from weights that diverged would only diverge again; the
// refusal goes to DIR/refused.csv; and the loop stops at the train phase of
// the same iteration with a message saying what to do. Running the same
// command again retrains from the good checkpoint, so nothing crashes on
// the way, whatever happens again.
func (c *Config) refuse(it int, candidate string, st *State, statePath, reason string) error {
	fmt.Fprintf(c.Out, "iteration %d: candidate %s refused: %s\n", it, candidate, reason)
	base := strings.TrimSuffix(candidate, ".onnx")
	for _, f := range []string{candidate, base + ".pt"} {
		if err := os.Rename(c.path(f), c.path(f)+".refused"); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	rollback := "nothing (no earlier checkpoint in nets/)"
	if prev := c.newestCheckpointBefore(it); prev != "" {
		if err := copyFile(c.path(prev), c.path("trainer", "checkpoint.pt")); err != nil {
			return err
		}
		rollback = prev
	}
	if err := appendLine(c.path("refused.csv"), "iteration,candidate,reason,trainer_rolled_back_to",
		fmt.Sprintf("%d,%s,%q,%s", it, candidate, reason, rollback)); err != nil {
		return err
	}
	st.Phase = "train"
	if err := saveState(statePath, *st); err != nil {
		return err
	}
	return fmt.Errorf("iteration %d: candidate %s refused: %s. It was not gated and the best network stays %s; "+
		"the trainer was rolled back to %s. If training diverged (non-finite), lower --lr (now %g); then run the "+
		"same command again to retrain iteration %d", it, candidate, reason, st.Best, rollback, c.LR, it)
}

// newestCheckpointBefore is the newest nets/iter-NNNN.pt of an iteration
// before it, relative to the run directory, or "".
func (c *Config) newestCheckpointBefore(it int) string {
	paths, _ := filepath.Glob(c.path("nets", "iter-*.pt"))
	best, bestIt := "", -1
	for _, p := range paths {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "iter-"), ".pt"))
		if err == nil && n < it && n > bestIt {
			best, bestIt = filepath.Join("nets", filepath.Base(p)), n
		}
	}
	return best
}
