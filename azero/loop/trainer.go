package loop

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Trainer makes the networks the loop plays. Its checkpoint lives in a
// directory of its own (dir/checkpoint.pt), which the loop copies beside
// each exported network and copies back to roll a diverged run back.
type Trainer interface {
	// Init starts a checkpoint in dir from a fresh network of the shape
	// and exports it to export (ONNX).
	Init(dir string, shape NetShape, export string) error
	// Train goes on training dir's checkpoint for job and exports the
	// result. When training diverged it returns an error wrapping
	// ErrDiverged, having saved and exported nothing.
	Train(dir string, job TrainJob, export string) error
	// Plot draws the ladder's learning curve from csv to png.
	Plot(csv, png string) error
}

// NetShape is a new network's architecture: a residual tower of Blocks
// blocks of Channels channels, and a win/draw/loss value head when WDL
// (else a tanh scalar; the exported network gives a scalar either way).
type NetShape struct {
	Blocks, Channels int
	WDL              bool
	// From, when set, is an ONNX network (one export.py wrote) whose
	// weights the first network starts from; its shape replaces the
	// fields above.
	From string
}

// TrainJob is one iteration's training.
type TrainJob struct {
	// Key names the iteration: a trainer restarted with the same key stops
	// at the step an uninterrupted run would have reached.
	Key    string
	Chunks string // the chunk directory; the newest Window files are used
	Window int
	Steps  int
	Batch  int
	LR, L2 float64
	// QRatio blends the search's root value into the value target:
	// (1-QRatio)*result + QRatio*q (0: the game result alone).
	QRatio float64
}

// ErrDiverged is wrapped by Trainer.Train's error when the loss, weights
// or outputs went non-finite.
var ErrDiverged = errors.New("training diverged (non-finite loss or weights)")

// PyTorch is the Trainer of azero/train: train.py, plot.py, run by Python
// as children that cannot outlive the loop (see runChild).
type PyTorch struct {
	Python  string    // the interpreter, with torch installed
	Scripts string    // the directory of train.py and plot.py
	Out     io.Writer // the scripts' output
}

// exitDiverged is train.py's exit status for a non-finite loss or network:
// it then neither saves the checkpoint nor exports.
const exitDiverged = 3

// Init implements Trainer.
func (p PyTorch) Init(dir string, shape NetShape, export string) error {
	args := []string{"--init-only", "--exit-with-parent", "--run-dir", dir, "--blocks", fmt.Sprint(shape.Blocks),
		"--channels", fmt.Sprint(shape.Channels)}
	if shape.WDL {
		args = append(args, "--wdl")
	}
	if shape.From != "" {
		args = append(args, "--init-onnx", shape.From)
	}
	return p.run("train.py", append(args, "--export", export)...)
}

// Train implements Trainer.
func (p PyTorch) Train(dir string, j TrainJob, export string) error {
	return p.run("train.py", "--exit-with-parent", "--target-key", j.Key,
		"--chunks", j.Chunks, "--window", fmt.Sprint(j.Window),
		"--run-dir", dir, "--steps", fmt.Sprint(j.Steps), "--batch", fmt.Sprint(j.Batch),
		"--lr", fmt.Sprint(j.LR), "--l2", fmt.Sprint(j.L2), "--q-ratio", fmt.Sprint(j.QRatio),
		"--log-every", "50", "--export", export)
}

// Plot implements Trainer.
func (p PyTorch) Plot(csv, png string) error { return p.run("plot.py", csv, png) }

// run runs a script, its output going to p.Out.
func (p PyTorch) run(script string, args ...string) error {
	cmd := exec.Command(p.Python, append([]string{filepath.Join(p.Scripts, script)}, args...)...)
	cmd.Stdout, cmd.Stderr = p.Out, p.Out
	if err := runChild(cmd); err != nil {
		var exit *exec.ExitError
		if script == "train.py" && errors.As(err, &exit) && exit.ExitCode() == exitDiverged {
			return fmt.Errorf("%w: %s exited with status %d", ErrDiverged, script, exitDiverged)
		}
		return fmt.Errorf("%s %s: %v", script, args, err)
	}
	return nil
}

// FindScripts looks for azero/train (holding train.py) above the working
// directory and above the binary; "" when there is none.
func FindScripts() string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, s := range starts {
		for dir := s; ; dir = filepath.Dir(dir) {
			cand := filepath.Join(dir, "azero", "train")
			if _, err := os.Stat(filepath.Join(cand, "train.py")); err == nil {
				return cand
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return ""
}
