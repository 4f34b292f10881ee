package ucifuzz

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// StepKind says what a script step does.
type StepKind int

const (
	// Send writes Line to the engine. An "isready" line is also waited for:
	// its readyok must come within the ready timeout.
	Send StepKind = iota
	// Sleep pauses for Dur (a search runs meanwhile).
	Sleep
	// Wait waits for the bestmove of every search that must have ended by
	// now or soon: searches with their own limits, and stopped ones.
	Wait
)

// Step is one action of a script.
type Step struct {
	Kind StepKind
	Line string
	Dur  time.Duration
}

// Script is everything one engine process is sent, in order. Scripts are
// pure data: the same seed gives the same script, and a saved reproducer is
// a script.
type Script struct {
	// Searcher is "AlphaBeta" or "MCTS", for the summary and the header.
	Searcher string
	Steps    []Step
}

// Inputs counts the lines a script sends.
func (s Script) Inputs() int {
	n := 0
	for _, st := range s.Steps {
		if st.Kind == Send {
			n++
		}
	}
	return n
}

// The text form: one sent line per line, verbatim; "#!sleep <duration>" and
// "#!wait" are the other steps; other lines starting with "#" are comments.
// Piped straight into the engine (bin/engine < file) the directives are
// unknown commands and do no harm, so a reproducer also works without the
// fuzzer, only with other timing.
const (
	directiveSleep = "#!sleep "
	directiveWait  = "#!wait"
)

// WriteScript writes s in the text form, after header comment lines.
func WriteScript(w io.Writer, s Script, header ...string) error {
	bw := bufio.NewWriter(w)
	for _, h := range header {
		for _, l := range strings.Split(h, "\n") {
			fmt.Fprintf(bw, "# %s\n", l)
		}
	}
	fmt.Fprintf(bw, "# searcher %s\n", s.Searcher)
	for _, st := range s.Steps {
		switch st.Kind {
		case Send:
			bw.WriteString(st.Line)
			bw.WriteByte('\n')
		case Sleep:
			fmt.Fprintf(bw, "%s%s\n", directiveSleep, st.Dur)
		case Wait:
			fmt.Fprintf(bw, "%s\n", directiveWait)
		}
	}
	return bw.Flush()
}

// ReadScript parses the text form.
func ReadScript(r io.Reader) (Script, error) {
	s := Script{Searcher: "AlphaBeta"}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err == io.EOF && line == "" {
			return s, nil
		}
		if err != nil && err != io.EOF {
			return s, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, directiveSleep):
			d, perr := time.ParseDuration(strings.TrimSpace(line[len(directiveSleep):]))
			if perr != nil {
				return s, fmt.Errorf("line %d: %v", n, perr)
			}
			s.Steps = append(s.Steps, Step{Kind: Sleep, Dur: d})
		case line == directiveWait:
			s.Steps = append(s.Steps, Step{Kind: Wait})
		case strings.HasPrefix(line, "# searcher "):
			s.Searcher = strings.TrimSpace(strings.TrimPrefix(line, "# searcher "))
		case strings.HasPrefix(line, "#"):
		default:
			s.Steps = append(s.Steps, Step{Kind: Send, Line: line})
		}
		if err == io.EOF {
			return s, nil
		}
	}
}
