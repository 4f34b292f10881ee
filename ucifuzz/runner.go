package ucifuzz

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/board"
)

// Failure classes. One reproducer is kept per class.
const (
	ClassCrash          = "crash"           // the process ended without being told to
	ClassPanic          = "panic"           // a Go panic or runtime fatal error on stderr
	ClassRecovered      = "recovered-panic" // "info string internal error": a panic the loop caught
	ClassHangReady      = "hang-isready"    // no readyok within the ready timeout
	ClassHangSearch     = "hang-search"     // a search with its own limits did not end
	ClassHangStop       = "hang-stop"       // no bestmove within the stop timeout after stop
	ClassHangQuit       = "hang-quit"       // the process did not exit after quit or end of input
	ClassHangInput      = "hang-input"      // the engine stopped reading its input
	ClassIllegalMove    = "illegal-bestmove"
	ClassIllegalPonder  = "illegal-ponder"
	ClassSearchMoves    = "searchmoves-ignored"
	ClassMissingBest    = "missing-bestmove" // a go without a bestmove
	ClassExtraBest      = "extra-bestmove"   // a bestmove without a go
	ClassLongLine       = "long-output-line"
	ClassUnexpectedExit = "exit-status" // quit, but a nonzero exit status
)

// IsCrash, IsHang and IsIllegal group the classes for the summary line.
func IsCrash(class string) bool {
	return class == ClassCrash || class == ClassPanic || class == ClassRecovered || class == ClassUnexpectedExit
}

// IsHang reports the hang classes.
func IsHang(class string) bool { return strings.HasPrefix(class, "hang-") }

// IsIllegal reports the wrong-move classes.
func IsIllegal(class string) bool {
	return class == ClassIllegalMove || class == ClassIllegalPonder || class == ClassSearchMoves
}

// RunOptions configures how one engine process is driven and judged.
type RunOptions struct {
	Engine string   // path of the engine binary
	Args   []string // its arguments (none: the UCI loop)
	Env    []string // extra environment variables
	Dir    string   // working directory; empty: the fuzzer's

	ReadyTimeout time.Duration // isready -> readyok (2 s)
	StopTimeout  time.Duration // stop -> bestmove before it counts as a hang (2 s)
	Slack        time.Duration // added to a search's own limit (2 s)
	QuitTimeout  time.Duration // quit or end of input -> exit (5 s)
	MaxLine      int           // longest acceptable output line (64 KiB)
	// MemLimitMB caps the engine's address space (through prlimit) so an
	// option that makes it allocate without bound fails in the engine, not
	// on the machine; 0: no cap.
	MemLimitMB int
}

func (o *RunOptions) defaults() {
	if o.ReadyTimeout == 0 {
		o.ReadyTimeout = 2 * time.Second
	}
	if o.StopTimeout == 0 {
		o.StopTimeout = 2 * time.Second
	}
	if o.Slack == 0 {
		o.Slack = 2 * time.Second
	}
	if o.QuitTimeout == 0 {
		o.QuitTimeout = 5 * time.Second
	}
	if o.MaxLine == 0 {
		o.MaxLine = 64 << 10
	}
}

// Failure is one thing the engine did wrong.
type Failure struct {
	Class  string
	Detail string
	Step   int // index of the script step at (or before) which it was seen
}

// Result is what running one script found.
type Result struct {
	Inputs        int // lines sent
	BestMoves     int
	Failures      []Failure
	StopLatencies []time.Duration // stop -> bestmove of AlphaBeta "go infinite"
	Stderr        string          // the tail of the engine's stderr
}

// event is a line the engine wrote, or its exit (line == "" and exit set).
type event struct {
	line string
	n    int // length of the line before truncation
	at   time.Time
	eof  bool
}

// pendingGo is a search the engine owes a bestmove for.
type pendingGo struct {
	line      string
	step      int
	spec      GoSpec
	pos       *board.Position
	known     bool
	started   time.Time
	stoppedAt time.Time // stop (or a command that stops searches) sent
	ponderHit time.Time
	timeStop  bool // stop latency is measured for this one
}

// panicPattern matches what the Go runtime prints for a panic or fatal error.
var panicPattern = regexp.MustCompile(`(?m)^(panic: |fatal error: |goroutine \d+ \[|\[signal |SIG[A-Z]+: )`)

// stopsSearch lists the commands the engine stops a running search for.
var stopsSearch = map[string]bool{"position": true, "setoption": true, "go": true, "ucinewgame": true, "bench": true, "quit": true, "stop": true}

// Run drives one engine process through s and judges it.
func Run(o RunOptions, s Script) Result {
	o.defaults()
	r := &runner{o: o, s: s, mcts: s.Searcher == "MCTS", tr: NewTracker()}
	r.run()
	return r.res
}

type runner struct {
	o    RunOptions
	s    Script
	mcts bool
	tr   *Tracker
	res  Result

	cmd    *exec.Cmd
	stdin  *os.File
	events chan event
	exited chan struct{}
	exit   error

	stderrMu sync.Mutex
	stderr   []byte

	pending     []*pendingGo
	ready       int // readyok still owed
	step        int
	quitSent    bool
	dead        bool // exited or killed: nothing more is sent
	killErr     bool // the fuzzer killed it
	inputClosed bool
	crashed     bool // it ended on its own, untold
	threads     int  // the Threads option as set (0: the default, 1)
}

func (r *runner) fail(class, format string, args ...any) {
	r.res.Failures = append(r.res.Failures, Failure{Class: class, Detail: fmt.Sprintf(format, args...), Step: r.step})
}

func (r *runner) start() error {
	name, args := r.o.Engine, r.o.Args
	if r.o.MemLimitMB > 0 {
		if pl, err := exec.LookPath("prlimit"); err == nil {
			args = append([]string{fmt.Sprintf("--as=%d", int64(r.o.MemLimitMB)<<20), "--", name}, args...)
			name = pl
		}
	}
	r.cmd = exec.Command(name, args...)
	r.cmd.Dir = r.o.Dir
	r.cmd.Env = append(os.Environ(), r.o.Env...)
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return err
	}
	r.cmd.Stdin, r.cmd.Stdout, r.cmd.Stderr = inR, outW, errW
	err = r.cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return err
	}
	r.stdin = inW
	r.events = make(chan event, 1024)
	r.exited = make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		r.readStdout(outR)
	}()
	go func() {
		defer readers.Done()
		r.readStderr(errR)
	}()
	go func() {
		readers.Wait()
		r.exit = r.cmd.Wait()
		close(r.exited)
	}()
	return nil
}

// readStdout turns the engine's output into events, keeping at most
// MaxLine bytes of a line (and its true length).
func (r *runner) readStdout(f *os.File) {
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		var line []byte
		n := 0
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			n += len(chunk)
			if len(line) < r.o.MaxLine+1 {
				line = append(line, chunk[:min(len(chunk), r.o.MaxLine+1-len(line))]...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if n > 0 {
			s := strings.TrimRight(string(line), "\r\n")
			if strings.HasSuffix(string(line), "\n") {
				n--
			}
			r.events <- event{line: s, n: n, at: time.Now()}
		}
		if err != nil {
			r.events <- event{eof: true, at: time.Now()}
			return
		}
	}
}

// readStderr keeps the last 64 KiB the engine wrote on stderr.
func (r *runner) readStderr(f *os.File) {
	defer f.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := f.Read(buf)
		r.stderrMu.Lock()
		r.stderr = append(r.stderr, buf[:n]...)
		if len(r.stderr) > 64<<10 {
			r.stderr = append([]byte(nil), r.stderr[len(r.stderr)-48<<10:]...)
		}
		r.stderrMu.Unlock()
		if err != nil {
			return
		}
	}
}

func (r *runner) stderrText() string {
	r.stderrMu.Lock()
	defer r.stderrMu.Unlock()
	return string(r.stderr)
}

func (r *runner) run() {
	if err := r.start(); err != nil {
		r.fail(ClassCrash, "cannot start %s: %v", r.o.Engine, err)
		return
	}
	for r.step = 0; r.step < len(r.s.Steps) && !r.dead; r.step++ {
		st := r.s.Steps[r.step]
		switch st.Kind {
		case Send:
			r.send(st.Line)
		case Sleep:
			r.pump(time.Now().Add(st.Dur), func() bool { return false })
		case Wait:
			r.waitSearches()
		}
	}
	if r.step > 0 {
		r.step--
	}
	r.finish()
	r.res.Stderr = tail(r.stderrText(), 4000)
}

// send writes one line and does what it implies: a search owed, a stop, a
// readyok to wait for, an exit to wait for.
func (r *runner) send(line string) {
	fields := strings.Fields(line)
	cmd := ""
	if len(fields) > 0 {
		cmd = fields[0]
	}
	now := time.Now()
	if stopsSearch[cmd] {
		for _, p := range r.pending {
			if p.stoppedAt.IsZero() {
				p.stoppedAt = now
				// The latency figure is alpha-beta on one thread, as
				// engines quote it; more threads than cores only add
				// the kernel's scheduling.
				p.timeStop = cmd == "stop" && !r.mcts && p.spec.Infinite && r.threads <= 1
			}
		}
	}
	if cmd == "setoption" {
		if name, value, ok := SplitSetOption(fields[1:]); ok && strings.EqualFold(name, "Threads") {
			if n, err := strconv.Atoi(value); err == nil && n >= 1 && n <= 256 {
				r.threads = n
			}
		}
	}
	if cmd == "ponderhit" {
		for _, p := range r.pending {
			if p.spec.Ponder && p.ponderHit.IsZero() {
				p.ponderHit = now
			}
		}
	}
	if cmd == "go" {
		pos, known := r.tr.Position()
		spec := ParseGo(pos, fields[1:], r.mcts)
		if !spec.Perft {
			r.pending = append(r.pending, &pendingGo{line: clip(line, 200), step: r.step, spec: spec, pos: pos, known: known, started: now})
		}
	}
	r.tr.Apply(line)
	if len(line) > 60000 {
		// The engine may refuse or cut such a line; its effect on the
		// position is not predictable.
		r.tr.Forget()
	}
	if cmd == "isready" {
		r.ready++
	}
	if cmd == "quit" {
		r.quitSent = true
	}
	r.res.Inputs++
	r.stdin.SetWriteDeadline(time.Now().Add(r.o.QuitTimeout))
	if _, err := r.stdin.Write([]byte(line + "\n")); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			r.fail(ClassHangInput, "the engine read nothing for %v while %q was written", r.o.QuitTimeout, clip(line, 200))
			r.kill()
			return
		}
		// A broken pipe: the process is gone; pump reports how.
		r.pump(time.Now().Add(r.o.QuitTimeout), func() bool { return false })
		return
	}
	r.pump(time.Time{}, func() bool { return true })
	switch {
	case cmd == "isready":
		if !r.pump(time.Now().Add(r.o.ReadyTimeout), func() bool { return r.ready == 0 }) && !r.dead {
			r.fail(ClassHangReady, "no readyok within %v", r.o.ReadyTimeout)
			r.kill()
		}
	case cmd == "quit":
		r.stdin.Close()
		r.awaitExit("quit")
	}
}

// waitSearches waits for the bestmove of every search that must end: each
// gets its own limit plus slack, or the stop timeout once stopped.
func (r *runner) waitSearches() {
	for len(r.pending) > 0 && !r.dead {
		p := r.pending[0]
		var deadline time.Time
		class := ClassHangSearch
		switch {
		case !p.stoppedAt.IsZero():
			deadline, class = p.stoppedAt.Add(r.o.StopTimeout), ClassHangStop
		case !p.ponderHit.IsZero() && !p.spec.OpenEndedAfterPonderHit():
			deadline = p.ponderHit.Add(p.spec.Bound + r.o.Slack)
		case !p.spec.OpenEnded():
			deadline = p.started.Add(p.spec.Bound + r.o.Slack)
		default:
			return // open-ended and not stopped: nothing is owed yet
		}
		if !r.pump(deadline, func() bool { return len(r.pending) == 0 || r.pending[0] != p }) && !r.dead {
			if class == ClassHangStop {
				r.fail(class, "no bestmove %v after stopping %q", r.o.StopTimeout, p.line)
			} else {
				r.fail(class, "no bestmove %v after %q (limit %v)", time.Since(p.started).Round(time.Millisecond), p.line, p.spec.Bound)
			}
			r.kill()
		}
	}
}

// pump handles the engine's output until done() holds (true) or the
// deadline passes (false). A zero deadline only drains what is there.
func (r *runner) pump(deadline time.Time, done func() bool) bool {
	var timer <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timer = t.C
	}
	for {
		if done() {
			return true
		}
		if r.events == nil {
			if timer == nil {
				return false
			}
			<-timer
			return false
		}
		if timer == nil {
			select {
			case ev := <-r.events:
				r.handle(ev)
			default:
				return done()
			}
			continue
		}
		select {
		case ev := <-r.events:
			r.handle(ev)
		case <-timer:
			return done()
		}
	}
}

func (r *runner) handle(ev event) {
	if ev.eof {
		r.events = nil
		<-r.exited
		r.dead = true
		if !r.quitSent && !r.killErr && !r.inputClosed {
			r.crashed = true
			stderr := r.stderrText()
			class := ClassCrash
			if panicPattern.MatchString(stderr) {
				class = ClassPanic
			}
			r.fail(class, "the engine exited (%v) without quit; stderr: %s", r.exit, panicExcerpt(stderr))
		}
		return
	}
	if ev.n > r.o.MaxLine {
		r.fail(ClassLongLine, "an output line of %d bytes: %s...", ev.n, clip(ev.line, 200))
	}
	if strings.Contains(ev.line, "info string internal error") {
		r.fail(ClassRecovered, "%s", clip(ev.line, 500))
	}
	fields := strings.Fields(ev.line)
	if len(fields) == 0 {
		return
	}
	switch fields[0] {
	case "readyok":
		if r.ready > 0 {
			r.ready--
		}
	case "bestmove":
		r.res.BestMoves++
		if len(r.pending) == 0 {
			r.fail(ClassExtraBest, "%q without a search", clip(ev.line, 200))
			return
		}
		p := r.pending[0]
		r.pending = r.pending[1:]
		if p.timeStop {
			r.res.StopLatencies = append(r.res.StopLatencies, ev.at.Sub(p.stoppedAt))
		}
		if p.known {
			if class, detail := CheckBestMove(p.pos, p.spec, ev.line); class != "" {
				r.fail(class, "%s (after %q)", detail, p.line)
			}
		}
	}
}

// kill ends a hung or broken process.
func (r *runner) kill() {
	r.killErr = true
	r.cmd.Process.Kill()
	r.stdin.Close()
	// Drain the output so the readers can reach the end and Wait returns.
	giveUp := time.After(10 * time.Second)
	for done := false; !done; {
		select {
		case <-r.events:
		case <-r.exited:
			done = true
		case <-giveUp:
			done = true
		}
	}
	r.events = nil
	r.dead = true
}

// awaitExit waits for the process to end after quit or the end of input.
func (r *runner) awaitExit(why string) {
	if !r.pump(time.Now().Add(r.o.QuitTimeout), func() bool { return r.dead }) && !r.dead {
		r.fail(ClassHangQuit, "still running %v after %s", r.o.QuitTimeout, why)
		r.kill()
		return
	}
	if r.exit != nil && !r.killErr {
		r.fail(ClassUnexpectedExit, "exit status %v after %s; stderr: %s", r.exit, why, tail(r.stderrText(), 1500))
	}
}

// finish ends the input (if the script did not quit), waits for the exit
// and checks that every search was answered and stderr is clean.
func (r *runner) finish() {
	if !r.dead {
		r.inputClosed = true
		r.stdin.Close()
		r.awaitExit("the end of input")
	}
	if r.dead && !r.killErr && !r.crashed {
		for _, p := range r.pending {
			r.fail(ClassMissingBest, "no bestmove for %q before the engine exited", p.line)
		}
	}
	if stderr := r.stderrText(); panicPattern.MatchString(stderr) && !r.has(ClassPanic) {
		r.fail(ClassPanic, "stderr: %s", panicExcerpt(stderr))
	}
	if r.stdin != nil {
		r.stdin.Close()
	}
}

func (r *runner) has(class string) bool {
	for _, f := range r.res.Failures {
		if f.Class == class {
			return true
		}
	}
	return false
}

// panicExcerpt is the start of a panic report (its message and first
// frames, which name the bug) or else the end of stderr.
func panicExcerpt(stderr string) string {
	if loc := panicPattern.FindStringIndex(stderr); loc != nil {
		return clip(stderr[loc[0]:], 1200)
	}
	return tail(stderr, 1200)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "...(" + strconv.Itoa(len(s)) + " bytes)"
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
