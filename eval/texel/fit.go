package texel

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/eval"
)

// sample is one training position reduced to what the fit needs: its
// non-zero features, phase, endgame scale and the game result.
type sample struct {
	index  []int16
	coeff  []int16
	phase  float64 // share of the middlegame, 0..1
	scale  float64 // endgame scale, 0..1
	result float64 // 1 White won, 0.5 draw, 0 Black won
}

// Dataset is a set of traced training positions.
type Dataset struct {
	samples []sample
}

// Len returns the number of positions.
func (d *Dataset) Len() int { return len(d.samples) }

// ReadDataset parses lines "FEN | result" (result 1, 0.5, 1/2, 0, or PGN
// style 1-0, 1/2-1/2, 0-1) and traces each position with w.
func ReadDataset(r io.Reader, w *eval.Weights) (*Dataset, error) {
	d := &Dataset{}
	sc := bufio.NewScanner(r)
	var t eval.Trace
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fen, res, ok := strings.Cut(line, "|")
		if !ok {
			return nil, fmt.Errorf("line %d: want \"FEN | result\"", n)
		}
		result, err := parseResult(strings.TrimSpace(res))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		p, err := board.ParseFEN(strings.TrimSpace(fen))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		eval.TraceOf(p, w, &t)
		s := sample{phase: float64(t.Phase) / 24, scale: float64(t.Scale) / 64, result: result}
		for i, c := range t.Coeffs {
			if c != 0 {
				s.index = append(s.index, int16(i))
				s.coeff = append(s.coeff, c)
			}
		}
		d.samples = append(d.samples, s)
	}
	return d, sc.Err()
}

func parseResult(s string) (float64, error) {
	switch s {
	case "1", "1.0", "1-0":
		return 1, nil
	case "0", "0.0", "0-1":
		return 0, nil
	case "0.5", "1/2", "1/2-1/2":
		return 0.5, nil
	}
	return 0, fmt.Errorf("unknown result %q", s)
}

// params is the weight vector as floats: [i][0] middlegame, [i][1] endgame.
type params [eval.NumParams][2]float64

func toParams(w *eval.Weights) params {
	var p params
	for i, s := range w {
		p[i] = [2]float64{float64(s.MG()), float64(s.EG())}
	}
	return p
}

func (p *params) weights() eval.Weights {
	var w eval.Weights
	for i := range p {
		w[i] = eval.S(int(math.Round(p[i][0])), int(math.Round(p[i][1])))
	}
	return w
}

// evaluate returns the linear evaluation of s (White's view) under p.
func (p *params) evaluate(s *sample) float64 {
	var mg, eg float64
	for j, i := range s.index {
		c := float64(s.coeff[j])
		mg += c * p[i][0]
		eg += c * p[i][1]
	}
	return mg*s.phase + eg*(1-s.phase)*s.scale
}

func sigmoid(x, k float64) float64 { return 1 / (1 + math.Exp(-k*x/400)) }

// loss is the mean squared error of the predicted results.
func (d *Dataset) loss(p *params, k float64) float64 {
	var sum float64
	for i := range d.samples {
		s := &d.samples[i]
		e := s.result - sigmoid(p.evaluate(s), k)
		sum += e * e
	}
	return sum / float64(len(d.samples))
}

// FitK finds the sigmoid scale that best maps the current evaluation to the
// results (golden-section search); the weights are then fitted with K fixed.
func (d *Dataset) FitK(w *eval.Weights) float64 {
	p := toParams(w)
	lo, hi := 0.1, 5.0
	const phi = 0.6180339887
	for i := 0; i < 40; i++ {
		a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
		if d.loss(&p, a) < d.loss(&p, b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// FitOptions configure the weight fit.
type FitOptions struct {
	Epochs       int
	LearningRate float64 // Adam step size in centipawns
	// L2 pulls every weight toward its starting value (loss term
	// L2 x (w - w0)^2). Weights of rare features are otherwise fitted to
	// noise: their curvature is small, so a small L2 dominates there while
	// common features still follow the data.
	L2       float64
	Progress io.Writer // a line every few epochs, or nil
}

// Fit runs full-batch Adam on the squared error and returns the fitted
// weights and the final loss. Weights of features that never occur keep
// their value (their gradient is zero).
func (d *Dataset) Fit(start *eval.Weights, k float64, opt FitOptions) (eval.Weights, float64) {
	p := toParams(start)
	origin := p
	var m, v params
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	began := time.Now()
	for epoch := 1; epoch <= opt.Epochs; epoch++ {
		var grad params
		for i := range d.samples {
			s := &d.samples[i]
			sig := sigmoid(p.evaluate(s), k)
			// d(loss)/d(eval) for this sample, then spread over the features.
			g := -2 * (s.result - sig) * sig * (1 - sig) * k / 400
			gm, ge := g*s.phase, g*(1-s.phase)*s.scale
			for j, idx := range s.index {
				c := float64(s.coeff[j])
				grad[idx][0] += gm * c
				grad[idx][1] += ge * c
			}
		}
		n := float64(len(d.samples))
		b1t, b2t := 1-math.Pow(beta1, float64(epoch)), 1-math.Pow(beta2, float64(epoch))
		for i := range p {
			for h := 0; h < 2; h++ {
				gr := grad[i][h]/n + 2*opt.L2*(p[i][h]-origin[i][h])
				m[i][h] = beta1*m[i][h] + (1-beta1)*gr
				v[i][h] = beta2*v[i][h] + (1-beta2)*gr*gr
				p[i][h] -= opt.LearningRate * (m[i][h] / b1t) / (math.Sqrt(v[i][h]/b2t) + eps)
			}
		}
		if opt.Progress != nil && (epoch%100 == 0 || epoch == opt.Epochs) {
			fmt.Fprintf(opt.Progress, "epoch %d/%d  loss %.6f  %s\n", epoch, opt.Epochs, d.loss(&p, k), time.Since(began).Round(time.Second))
		}
	}
	return p.weights(), d.loss(&p, k)
}

// Loss returns the squared error of w on the dataset with scale k.
func (d *Dataset) Loss(w *eval.Weights, k float64) float64 {
	p := toParams(w)
	return d.loss(&p, k)
}

// FormatK renders K for logs.
func FormatK(k float64) string { return strconv.FormatFloat(k, 'f', 4, 64) }
