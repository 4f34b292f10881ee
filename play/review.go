package play

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

// A review searches every position of a game's mainline with each mind
// and judges every move (see judge.go). It counts as searches for the
// server's limits: each search holds a search slot and gives it back
// before the next, so that a move asked for meanwhile waits for one
// search at most; the review itself waits for a slot as long as it takes
// (it does not get 503), and stops by itself after MaxAnalysis.

// Budget is what a mind may spend on each position.
type Budget struct {
	MoveTime int64  `json:"movetime,omitempty"` // milliseconds
	Nodes    uint64 `json:"nodes,omitempty"`    // nodes, or playouts for MCTS
}

// MaxReviewNodes bounds a nodes budget (time still bounds it too:
// MaxThink per position).
const MaxReviewNodes = 1_000_000_000

// Why a review stopped early.
var (
	errReviewCancelled = errors.New("cancelled")
	errReviewTooLong   = errors.New("stopped: the review ran longer than the server allows (--max-analysis)")
	errServerClosing   = errors.New("the server is shutting down")
)

// The states of a review.
const (
	reviewRunning   = "running"
	reviewDone      = "done"
	reviewCancelled = "cancelled"
	reviewFailed    = "failed"
)

// review is one review of a game. Its fields are guarded by mu, never by
// the game's lock: the review's goroutine never takes that, so whoever
// holds it may cancel the review and wait for it.
type review struct {
	cancel context.CancelCauseFunc
	done   chan struct{}

	mu      sync.Mutex
	state   string
	err     string
	minds   []string // in name order; the first judges
	budgets map[string]Budget
	skipped map[string]string // minds not taking part, and why
	start   *board.Position
	moves   []board.Move
	pos     []*board.Position // pos[i]: after i moves, with history
	over    []bool            // pos[i] has no legal move
	evals   [][]*evalRec      // [position][mind]; nil until searched
	total   int               // searches to make
	count   int               // searches made
	began   time.Time
	took    time.Duration
}

// evalRec is one mind's search of one position.
type evalRec struct {
	line mind.Info
	res  mind.Result
	took time.Duration
}

func (rv *review) status() string {
	if rv == nil {
		return ""
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return rv.state
}

func (rv *review) running() bool { return rv.status() == reviewRunning }

// stop cancels the review and waits for it (within a second: the running
// search is stopped).
func (rv *review) stop(cause error) {
	if rv == nil {
		return
	}
	rv.cancel(cause)
	<-rv.done
}

// reviewRequest is the body of POST /api/games/{id}/review.
type reviewRequest struct {
	MoveTime *int64                   `json:"movetime"`
	Nodes    *uint64                  `json:"nodes"`
	Minds    map[string]reviewRequest `json:"minds"`
}

// DefaultReviewTime is the time per position and mind when a request
// gives no budget.
const DefaultReviewTime = 100 * time.Millisecond

// budget checks one level of a request: movetime or nodes, not both;
// inherit is used when neither is given.
func (s *Server) budget(what string, movetime *int64, nodes *uint64, inherit Budget) (Budget, error) {
	switch {
	case movetime != nil && nodes != nil:
		return Budget{}, &apiError{status: http.StatusBadRequest, msg: what + `: give "movetime" or "nodes", not both`}
	case movetime != nil:
		if *movetime < 1 || *movetime > s.cfg.MaxThink.Milliseconds() {
			return Budget{}, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("%smovetime %d ms: want 1 to %d", prefix(what), *movetime, s.cfg.MaxThink.Milliseconds())}
		}
		return Budget{MoveTime: *movetime}, nil
	case nodes != nil:
		if *nodes < 1 || *nodes > MaxReviewNodes {
			return Budget{}, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("%snodes %d: want 1 to %d", prefix(what), *nodes, MaxReviewNodes)}
		}
		return Budget{Nodes: *nodes}, nil
	}
	return inherit, nil
}

func prefix(what string) string {
	if what == "" {
		return ""
	}
	return what + ": "
}

// parseReview checks a review request: the minds taking part with their
// budgets, and those left out with the reason.
func (s *Server) parseReview(req reviewRequest) ([]string, map[string]Budget, map[string]string, error) {
	top, err := s.budget("", req.MoveTime, req.Nodes, Budget{MoveTime: DefaultReviewTime.Milliseconds()})
	if err != nil {
		return nil, nil, nil, err
	}
	budgets := map[string]Budget{}
	skipped := map[string]string{}
	if len(req.Minds) == 0 {
		for _, n := range s.mindNames() {
			if err := s.cfg.Minds[n].Available(); err != nil {
				skipped[n] = err.Error()
				continue
			}
			budgets[n] = top
		}
	} else {
		for n, r := range req.Minds {
			name := strings.ToLower(strings.TrimSpace(n))
			pool, ok := s.cfg.Minds[name]
			if !ok {
				return nil, nil, nil, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("unknown mind %q: want one of %s", n, strings.Join(s.mindNames(), ", "))}
			}
			if len(r.Minds) > 0 {
				return nil, nil, nil, &apiError{status: http.StatusBadRequest, msg: name + `: "minds" within "minds"`}
			}
			if err := pool.Available(); err != nil {
				return nil, nil, nil, &apiError{status: http.StatusUnprocessableEntity, msg: fmt.Sprintf("%s is unavailable: %v", name, err)}
			}
			b, err := s.budget(name, r.MoveTime, r.Nodes, top)
			if err != nil {
				return nil, nil, nil, err
			}
			budgets[name] = b
		}
	}
	if len(budgets) == 0 {
		return nil, nil, nil, &apiError{status: http.StatusUnprocessableEntity, msg: "no mind is available to review with"}
	}
	var minds []string
	for n := range budgets {
		minds = append(minds, n)
	}
	sort.Strings(minds)
	return minds, budgets, skipped, nil
}

func (s *Server) handleReview(w http.ResponseWriter, r *http.Request) {
	var req reviewRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	minds, budgets, skipped, err := s.parseReview(req)
	if err != nil {
		writeError(w, err)
		return
	}
	s.withGame(w, r, func(g *game) (any, error) {
		if g.review.running() {
			return nil, &apiError{status: http.StatusConflict, msg: "a review of this game is running; DELETE it first"}
		}
		if len(g.moves) == 0 {
			return nil, &apiError{status: http.StatusConflict, msg: "nothing to review: the game has no moves"}
		}
		rv := &review{
			done: make(chan struct{}), state: reviewRunning, minds: minds, budgets: budgets, skipped: skipped,
			start: g.start.Clone(), moves: append([]board.Move(nil), g.moves...), began: time.Now(),
		}
		p := g.start.Clone()
		for i := 0; ; i++ {
			rv.pos = append(rv.pos, p.Clone())
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			rv.over = append(rv.over, ml.Len() == 0)
			if !rv.over[i] {
				rv.total += len(minds)
			}
			if i == len(rv.moves) {
				break
			}
			p.Make(rv.moves[i])
		}
		rv.evals = make([][]*evalRec, len(rv.pos))
		for i := range rv.evals {
			rv.evals[i] = make([]*evalRec, len(minds))
		}
		// A time budget says how long the review takes: refuse one the
		// server would stop.
		var per time.Duration
		for _, b := range budgets {
			per += time.Duration(b.MoveTime) * time.Millisecond
		}
		searches := rv.total / len(minds)
		if est := per * time.Duration(searches); est > s.cfg.MaxAnalysis {
			return nil, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("this review would take about %s (%d positions); the server allows %s: ask less time per position",
				est.Round(time.Second), searches, s.cfg.MaxAnalysis)}
		}
		ctx, cancel := context.WithCancelCause(s.ctx)
		tctx, tcancel := context.WithTimeoutCause(ctx, s.cfg.MaxAnalysis, errReviewTooLong)
		rv.cancel = cancel
		g.stopReview(errReviewCancelled) // a finished one: nothing to wait for
		g.review = rv
		pools := make([]*Pool, len(minds))
		for k, n := range minds {
			pools[k] = s.cfg.Minds[n]
		}
		go func() {
			defer tcancel()
			s.runReview(tctx, g.events, rv, pools)
		}()
		st := g.state()
		g.events.publish("state", st)
		return rv.report(g.moves), nil
	})
}

// stopReview stops the game's review, if one runs (g.mu held).
func (g *game) stopReview(cause error) {
	if g.review != nil {
		g.review.stop(cause)
	}
}

// runReview makes the review's searches, position by position, each mind
// in turn, and reports each as an event.
func (s *Server) runReview(ctx context.Context, hub *hub, rv *review, pools []*Pool) {
	defer close(rv.done)
	var fail error
search:
	for i, pos := range rv.pos {
		if rv.over[i] {
			continue
		}
		for k, pool := range pools {
			b := rv.budgets[rv.minds[k]]
			req := ThinkRequest{MoveTime: time.Duration(b.MoveTime) * time.Millisecond, Nodes: b.Nodes, MultiPV: 1, Level: Level{Name: "max"}}
			if b.Nodes > 0 {
				req.MoveTime = s.cfg.MaxThink
			}
			release, err := s.acquireQueued(ctx)
			if err != nil {
				break search
			}
			t0 := time.Now()
			// The searcher gets its own copy: the reports write SAN on
			// rv.pos (make and unmake) meanwhile, under rv.mu.
			rv.mu.Lock()
			own := pos.Clone()
			rv.mu.Unlock()
			line, res, err := pool.think(ctx, own, req, func(mind.Info) {})
			took := time.Since(t0)
			release()
			if ctx.Err() != nil {
				break search // a search cut short is not a result
			}
			if err != nil {
				fail = fmt.Errorf("%s: %w", rv.minds[k], err)
				break search
			}
			rv.mu.Lock()
			rv.evals[i][k] = &evalRec{line: line, res: res, took: took}
			rv.count++
			progress := ReviewProgress{Done: rv.count, Total: rv.total, Ply: i, Mind: rv.minds[k], Eval: rv.eval(i, k)}
			rv.mu.Unlock()
			hub.publish("review", progress)
		}
	}
	rv.mu.Lock()
	rv.took = time.Since(rv.began)
	switch {
	case fail != nil:
		rv.state, rv.err = reviewFailed, fail.Error()
	case ctx.Err() != nil:
		rv.state, rv.err = reviewCancelled, context.Cause(ctx).Error()
		if errors.Is(context.Cause(ctx), context.Canceled) {
			rv.err = errServerClosing.Error()
		}
	default:
		rv.state = reviewDone
	}
	end := map[string]any{"status": rv.state, "done": rv.count, "total": rv.total}
	if rv.err != "" {
		end["error"] = rv.err
	}
	rv.mu.Unlock()
	hub.publish("review-end", end)
}

// acquireQueued takes a search slot, waiting as long as ctx allows.
func (s *Server) acquireQueued(ctx context.Context) (func(), error) {
	select {
	case s.sem <- struct{}{}:
		return func() { <-s.sem }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

func (s *Server) handleGetReview(w http.ResponseWriter, r *http.Request) {
	s.withGame(w, r, func(g *game) (any, error) {
		if g.review == nil {
			return nil, &apiError{status: http.StatusNotFound, msg: "this game has not been reviewed; POST to this address starts a review"}
		}
		return g.review.report(g.moves), nil
	})
}

func (s *Server) handleStopReview(w http.ResponseWriter, r *http.Request) {
	s.withGame(w, r, func(g *game) (any, error) {
		if g.review == nil {
			return nil, &apiError{status: http.StatusNotFound, msg: "this game has not been reviewed"}
		}
		g.stopReview(errReviewCancelled)
		g.events.publish("state", g.state())
		return g.review.report(g.moves), nil
	})
}

// The review as the API gives it.

// ReviewProgress is the event sent after each search of a review.
type ReviewProgress struct {
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Ply   int    `json:"ply"` // the position: after this many moves
	Mind  string `json:"mind"`
	Eval  *Eval  `json:"eval"`
}

// Eval is one mind's view of one position, scores from White's point of
// view.
type Eval struct {
	Score    Score    `json:"score"`
	Win      float64  `json:"win"` // White's win percentage, 0 to 100
	Terminal string   `json:"terminal,omitempty"`
	Depth    int      `json:"depth,omitempty"`
	Nodes    uint64   `json:"nodes,omitempty"`
	TimeMs   int64    `json:"timeMs,omitempty"`
	Best     string   `json:"best,omitempty"` // UCI
	BestSAN  string   `json:"bestSan,omitempty"`
	PV       []string `json:"pv,omitempty"`
	SAN      []string `json:"san,omitempty"`
	// Q and Top come from a searcher that reports its root moves (MCTS):
	// its expected result (-1 to 1, White's view) and its most visited
	// moves.
	Q   *float64  `json:"q,omitempty"`
	Top []TopMove `json:"top,omitempty"`
}

// TopMove is a root move with the share of the playouts it got and the
// network's prior for it.
type TopMove struct {
	Move   string  `json:"move"`
	SAN    string  `json:"san"`
	Visits int     `json:"visits"`
	Share  float64 `json:"share"` // 0 to 1
	Prior  float64 `json:"prior"` // 0 to 1
	Q      float64 `json:"q"`     // White's view
	// Proven is "win" or "loss" (for the side to move) when the search
	// proved it.
	Proven string `json:"proven,omitempty"`
}

// ReviewPosition is a position of the mainline and each mind's eval of it.
type ReviewPosition struct {
	Ply      int              `json:"ply"`
	FEN      string           `json:"fen"`
	Terminal string           `json:"terminal,omitempty"` // "checkmate" or "stalemate"
	Evals    map[string]*Eval `json:"evals"`
	// Agree says whether the minds choose the same move (absent until two
	// have searched).
	Agree *bool `json:"agree,omitempty"`
}

// Verdict is one mind's judgement of a move.
type Verdict struct {
	Class     string   `json:"class"`
	WinBefore float64  `json:"winBefore"` // the mover's win percentage
	WinAfter  float64  `json:"winAfter"`
	Drop      float64  `json:"drop"`
	Accuracy  float64  `json:"accuracy"`
	Best      string   `json:"best,omitempty"` // UCI, the mind's choice
	BestSAN   string   `json:"bestSan,omitempty"`
	BestLine  []string `json:"bestLine,omitempty"` // SAN
}

// ReviewMove is a move of the mainline and the minds' judgements of it;
// Verdict is the judge's (the first mind).
type ReviewMove struct {
	Ply   int    `json:"ply"` // 1 for the first move: it leads to Positions[Ply]
	Move  string `json:"move"`
	SAN   string `json:"san"`
	Color string `json:"color"`
	*Verdict
	Minds map[string]*Verdict `json:"minds"`
	// Agree is false when the minds judge the move differently or would
	// play different moves.
	Agree bool `json:"agree"`
}

// SideSummary is one side's figures from one mind.
type SideSummary struct {
	Accuracy float64        `json:"accuracy"` // the mean of the moves' accuracies
	Moves    int            `json:"moves"`
	Counts   map[string]int `json:"counts"` // moves per class
}

// Review is GET /api/games/{id}/review's answer.
type Review struct {
	Status    string            `json:"status"` // running, done, cancelled, failed
	Error     string            `json:"error,omitempty"`
	Minds     []string          `json:"minds"`
	Judge     string            `json:"judge"`
	Skipped   map[string]string `json:"skipped,omitempty"` // minds left out, and why
	Budgets   map[string]Budget `json:"budgets"`
	Done      int               `json:"done"`
	Total     int               `json:"total"`
	ElapsedMs int64             `json:"elapsedMs"`
	StartFEN  string            `json:"startFen"`
	Moves     []string          `json:"moves"` // UCI: the mainline reviewed
	// Stale says the mainline has changed since: the review is of Moves.
	Stale     bool                               `json:"stale"`
	Positions []ReviewPosition                   `json:"positions"`
	Plies     []ReviewMove                       `json:"plies"`
	Summary   map[string]map[string]*SideSummary `json:"summary"` // mind → "white"/"black"
}

// whiteScore turns a side-to-move score into the API's.
func whiteScore(side board.Color, s mind.Score) Score {
	v := whitePOV(side, s.Value)
	if s.Mate {
		return Score{Mate: &v}
	}
	return Score{CP: &v}
}

// eval renders evals[i][k] (rv.mu held); nil when not searched.
func (rv *review) eval(i, k int) *Eval {
	p := rv.pos[i]
	if rv.over[i] {
		e := &Eval{Terminal: "stalemate", Win: 50}
		zero := 0
		if movegen.InCheck(p) {
			e.Terminal = "checkmate"
			e.Score.Mate = &zero
			if p.Side() == board.White {
				e.Win = 0
			} else {
				e.Win = 100
			}
		} else {
			e.Score.CP = &zero
		}
		return e
	}
	r := rv.evals[i][k]
	if r == nil {
		return nil
	}
	side := p.Side()
	e := &Eval{
		Score: whiteScore(side, r.line.Score), Depth: r.line.Depth, Nodes: max(r.line.Nodes, r.res.Nodes),
		TimeMs: r.took.Milliseconds(),
	}
	e.Win = WinPercent(whitePOV(side, scoreCP(r.line.Score)))
	if len(r.line.PV) > 0 {
		e.Best = r.line.PV[0].UCI(p.Chess960())
		e.BestSAN = movegen.SAN(p, r.line.PV[0])
		for _, m := range r.line.PV {
			e.PV = append(e.PV, m.UCI(p.Chess960()))
		}
		e.SAN = sanLine(p, r.line.PV)
	}
	if len(r.res.Root) > 0 {
		q := r.res.Q
		if p := r.res.Root[0].Proven; p != 0 {
			q = float64(p) // a proof can end a search before any playout
		}
		q *= float64(whitePOV(side, 1))
		e.Q = &q
		for _, rm := range r.res.Root[:min(5, len(r.res.Root))] {
			tm := TopMove{
				Move: rm.Move.UCI(p.Chess960()), SAN: movegen.SAN(p, rm.Move), Visits: rm.Visits,
				Share: round3(rm.Share), Prior: round3(rm.Prior), Q: round3(float64(whitePOV(side, 1)) * rm.Q),
			}
			switch rm.Proven {
			case 1:
				tm.Proven, tm.Q = "win", float64(whitePOV(side, 1))
			case -1:
				tm.Proven, tm.Q = "loss", float64(whitePOV(side, -1))
			}
			e.Top = append(e.Top, tm)
		}
	}
	return e
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// verdict judges move i (from position i to i+1) by mind k (rv.mu held);
// nil until both positions are searched.
func (rv *review) verdict(i, k int) *Verdict {
	before, after := rv.eval(i, k), rv.eval(i+1, k)
	if before == nil || after == nil {
		return nil
	}
	mover := rv.pos[i].Side()
	own := func(white float64) float64 {
		if mover == board.White {
			return white
		}
		return 100 - white
	}
	v := &Verdict{WinBefore: round1(own(before.Win)), WinAfter: round1(own(after.Win))}
	drop := max(own(before.Win)-own(after.Win), 0)
	v.Drop = round1(drop)
	v.Accuracy = round1(MoveAccuracy(own(before.Win), own(after.Win)))
	p := rv.pos[i]
	played := rv.moves[i].UCI(p.Chess960())
	v.Best, v.BestSAN = before.Best, before.BestSAN
	v.Class = Classify(drop, played == before.Best)
	if v.Class != ClassBest {
		v.BestLine = before.SAN[:min(len(before.SAN), 10)]
	}
	return v
}

// report renders the review; mainline is the game's, to tell whether the
// review is stale.
func (rv *review) report(mainline []board.Move) Review {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	out := Review{
		Status: rv.state, Error: rv.err, Minds: rv.minds, Judge: rv.minds[0], Skipped: rv.skipped,
		Budgets: rv.budgets, Done: rv.count, Total: rv.total, StartFEN: rv.start.FEN(),
		Moves: make([]string, 0, len(rv.moves)), Positions: make([]ReviewPosition, 0, len(rv.pos)),
		Plies: make([]ReviewMove, 0, len(rv.moves)), Summary: map[string]map[string]*SideSummary{},
	}
	if rv.state == reviewRunning {
		out.ElapsedMs = time.Since(rv.began).Milliseconds()
	} else {
		out.ElapsedMs = rv.took.Milliseconds()
	}
	out.Stale = len(mainline) != len(rv.moves)
	for i, m := range rv.moves {
		out.Moves = append(out.Moves, m.UCI(rv.start.Chess960()))
		if !out.Stale && mainline[i] != m {
			out.Stale = true
		}
	}
	for i, p := range rv.pos {
		rp := ReviewPosition{Ply: i, FEN: p.FEN(), Evals: map[string]*Eval{}}
		var best []string
		for k, n := range rv.minds {
			if e := rv.eval(i, k); e != nil {
				rp.Evals[n] = e
				rp.Terminal = e.Terminal
				if e.Best != "" {
					best = append(best, e.Best)
				}
			}
		}
		if len(best) >= 2 {
			agree := true
			for _, b := range best[1:] {
				agree = agree && b == best[0]
			}
			rp.Agree = &agree
		}
		out.Positions = append(out.Positions, rp)
	}
	for _, n := range rv.minds {
		out.Summary[n] = map[string]*SideSummary{
			"white": {Counts: map[string]int{}}, "black": {Counts: map[string]int{}},
		}
	}
	for i, m := range rv.moves {
		p := rv.pos[i]
		rm := ReviewMove{Ply: i + 1, Move: m.UCI(p.Chess960()), SAN: movegen.SAN(p, m), Color: colorName(p.Side()), Minds: map[string]*Verdict{}, Agree: true}
		var first *Verdict
		for k, n := range rv.minds {
			v := rv.verdict(i, k)
			if v == nil {
				continue
			}
			rm.Minds[n] = v
			if first == nil {
				first = v
			} else if v.Class != first.Class || v.Best != first.Best {
				rm.Agree = false
			}
			side := out.Summary[n][rm.Color]
			side.Moves++
			side.Accuracy += v.Accuracy
			side.Counts[v.Class]++
		}
		rm.Verdict = rv.verdict(i, 0)
		out.Plies = append(out.Plies, rm)
	}
	for _, sides := range out.Summary {
		for _, side := range sides {
			if side.Moves > 0 {
				side.Accuracy = round1(side.Accuracy / float64(side.Moves))
			}
		}
	}
	return out
}

// The annotated PGN: the review written into the game as Lichess and
// ChessBase read it.

// evalText writes an eval as PGN's [%eval] does: pawns from White's point
// of view ("0.25", "-1.30") or a mate ("#3", "#-2").
func evalText(e *Eval) string {
	switch {
	case e.Score.Mate != nil:
		return fmt.Sprintf("#%d", *e.Score.Mate)
	case e.Score.CP != nil:
		return fmt.Sprintf("%.2f", float64(*e.Score.CP)/100)
	}
	return "0.00"
}

// mindLabel is a mind's name as people read it.
func mindLabel(name string) string {
	switch name {
	case "alphabeta":
		return "AlphaBeta"
	case "mcts":
		return "MCTS"
	}
	return name
}

// annotatedPGN writes the game with the review (g.mu held): for each
// reviewed move the judge's eval after it ([%eval]), its class as a NAG,
// a comment, and the better line as a variation; the minds' views where
// they disagree; the accuracy per side in the game's comment.
func (g *game) annotatedPGN() string {
	gm := g.pgnGame()
	rv := g.review
	if rv == nil {
		return gm.String()
	}
	rep := rv.report(g.moves)
	gm.Tags = append(append([]pgn.Tag(nil), gm.Tags...), pgn.Tag{Name: "Annotator", Value: "Twofold"})
	labels := make([]string, len(rep.Minds))
	for k, n := range rep.Minds {
		labels[k] = mindLabel(n) + " " + budgetText(rep.Budgets[n])
	}
	head := fmt.Sprintf("Reviewed by Twofold (%s per position).", strings.Join(labels, ", "))
	if s := rep.Summary[rep.Judge]; s != nil && (s["white"].Moves > 0 || s["black"].Moves > 0) {
		head += fmt.Sprintf(" Accuracy by %s: White %.1f, Black %.1f.", mindLabel(rep.Judge), s["white"].Accuracy, s["black"].Accuracy)
	}
	for n, why := range rep.Skipped {
		head += fmt.Sprintf(" %s took no part: %s.", mindLabel(n), why)
	}
	if rep.Status != reviewDone {
		head += " The review is " + rep.Status + ": not every move is judged."
	}
	gm.Comment = strings.TrimSpace(gm.Comment + " " + head)
	notes := make([]pgn.Note, len(gm.Moves))
	copy(notes, gm.Notes)
	p := g.start.Clone()
	for i, m := range gm.Moves {
		if i >= len(rep.Plies) || rep.Moves[i] != m.UCI(p.Chess960()) {
			break // the mainline left the review here
		}
		ply := rep.Plies[i]
		n := &notes[i]
		n.NAGs = append([]int(nil), n.NAGs...)
		n.Variations = append([]pgn.Line(nil), n.Variations...)
		var text []string
		if after := rep.Positions[i+1].Evals[rep.Judge]; after != nil {
			text = append(text, "[%eval "+evalText(after)+"]")
		}
		if v := ply.Verdict; v != nil {
			if nag := classNAG(v.Class); nag != 0 {
				if !containsInt(n.NAGs, nag) {
					n.NAGs = append(n.NAGs, nag)
				}
				text = append(text, fmt.Sprintf("%s%s. %s was best.", strings.ToUpper(v.Class[:1]), v.Class[1:], v.BestSAN))
				if line := bestLine(p, rep.Positions[i].Evals[rep.Judge]); len(line.Moves) > 0 {
					line.Notes = []pgn.Note{{Comment: mindLabel(rep.Judge)}}
					n.Variations = append(n.Variations, line)
				}
			}
		}
		if !ply.Agree && len(ply.Minds) > 1 {
			var views []string
			for _, name := range rep.Minds {
				v := ply.Minds[name]
				if v == nil {
					continue
				}
				view := fmt.Sprintf("%s: %s, best %s", mindLabel(name), v.Class, v.BestSAN)
				if e := rep.Positions[i].Evals[name]; e != nil && len(e.Top) > 0 {
					view += fmt.Sprintf(" (%.0f%% of playouts, prior %.0f%%)", 100*e.Top[0].Share, 100*e.Top[0].Prior)
				}
				views = append(views, view)
			}
			text = append(text, "The minds disagree: "+strings.Join(views, "; ")+".")
		}
		n.Comment = strings.TrimSpace(n.Comment + " " + strings.Join(text, " "))
		p.Make(m)
	}
	gm.Notes = notes
	return gm.String()
}

// bestLine is an eval's principal variation as a PGN line from p (at most
// ten moves).
func bestLine(p *board.Position, e *Eval) pgn.Line {
	if e == nil {
		return pgn.Line{}
	}
	q := p.Clone()
	var l pgn.Line
	for _, u := range e.PV[:min(len(e.PV), 10)] {
		m, err := movegen.ParseUCI(q, u)
		if err != nil {
			break
		}
		l.Moves = append(l.Moves, m)
		q.Make(m)
	}
	return l
}

func budgetText(b Budget) string {
	if b.Nodes > 0 {
		return fmt.Sprintf("%d nodes", b.Nodes)
	}
	return fmt.Sprintf("%d ms", b.MoveTime)
}

func containsInt(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
