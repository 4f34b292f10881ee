package loop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	// Averaging: EMA, when above 0, is train.py's --ema: the decay of a
	// moving average of the weights that the trainer keeps in its
	// checkpoint and exports instead of the live weights.
	EMA float64
	// SurpriseWeight, when above 0, is train.py's --surprise-weight: the
	// share of the sample weight given in proportion to each sample's
	// policy surprise, KL(target || the network's policy).
	SurpriseWeight float64
	// SampleSet, when set, is a sample set (azero/train/sampleset.py)
	// whose training split is trained on instead of Chunks and Window.
	SampleSet string
	// From, when set, is an ONNX network that a trainer without a
	// checkpoint in its directory starts from (instead of Init's).
	From string
}

// extras names the job's opt-in techniques for a log line ("" when none).
func (j TrainJob) extras() string {
	s := ""
	if j.EMA > 0 {
		s += fmt.Sprintf(", weight average %g", j.EMA)
	}
	if j.SurpriseWeight > 0 {
		s += fmt.Sprintf(", surprise weight %g", j.SurpriseWeight)
	}
	return s
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
	// Device and Threads, when set, are train.py's --device (auto, cpu,
	// cuda) and --threads.
	Device  string
	Threads int
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

// Train implements Trainer. An empty export exports nothing.
func (p PyTorch) Train(dir string, j TrainJob, export string) error {
	args := []string{"--exit-with-parent", "--target-key", j.Key}
	if j.SampleSet != "" {
		args = append(args, "--sample-set", j.SampleSet)
	} else {
		args = append(args, "--chunks", j.Chunks, "--window", fmt.Sprint(j.Window))
	}
	args = append(args, "--run-dir", dir, "--steps", fmt.Sprint(j.Steps), "--batch", fmt.Sprint(j.Batch),
		"--lr", fmt.Sprint(j.LR), "--l2", fmt.Sprint(j.L2), "--q-ratio", fmt.Sprint(j.QRatio),
		"--log-every", "50")
	if j.From != "" {
		args = append(args, "--init-onnx", j.From)
	}
	if j.EMA > 0 {
		args = append(args, "--ema", fmt.Sprint(j.EMA))
	}
	if j.SurpriseWeight > 0 {
		args = append(args, "--surprise-weight", fmt.Sprint(j.SurpriseWeight))
	}
	if p.Device != "" {
		args = append(args, "--device", p.Device)
	}
	if p.Threads > 0 {
		args = append(args, "--threads", fmt.Sprint(p.Threads))
	}
	if export != "" {
		args = append(args, "--export", export)
	}
	return p.run("train.py", args...)
}

// Check runs train.py --check: whether p.Python has what the scripts need
// (PyTorch, NumPy, ONNX), so that a run that lacks them stops before its
// self-play rather than hours later at its first training.
func (p PyTorch) Check() error {
	var out bytes.Buffer
	cmd := exec.Command(p.Python, filepath.Join(p.Scripts, "train.py"), "--check")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := runChild(cmd); err != nil {
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		return fmt.Errorf("%s cannot run the trainer (%v: %s); make py-deps installs Debian's PyTorch, NumPy and ONNX",
			p.Python, err, lines[len(lines)-1])
	}
	return nil
}

// Pack implements RoundTrainer with sampleset.py.
func (p PyTorch) Pack(chunks []string, set string, holdout int) error {
	var args []string
	for _, c := range chunks {
		args = append(args, "--chunks", c)
	}
	return p.run("sampleset.py", append(args, "--out", set, "--holdout", fmt.Sprint(holdout))...)
}

// HeldOut implements RoundTrainer with evaluate.py.
func (p PyTorch) HeldOut(set string, networks ...string) ([]HeldOut, error) {
	var out bytes.Buffer
	args := append([]string{filepath.Join(p.Scripts, "evaluate.py"), "--sample-set", set, "--json"}, networks...)
	cmd := exec.Command(p.Python, args...)
	cmd.Stdout, cmd.Stderr = &out, p.Out
	if err := runChild(cmd); err != nil {
		return nil, fmt.Errorf("evaluate.py %s: %v", args[1:], err)
	}
	var res []HeldOut
	dec := json.NewDecoder(&out)
	for {
		var h HeldOut
		if err := dec.Decode(&h); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("evaluate.py's output: %v", err)
		}
		res = append(res, h)
	}
	if len(res) != len(networks) {
		return nil, fmt.Errorf("evaluate.py measured %d of %d networks", len(res), len(networks))
	}
	return res, nil
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
