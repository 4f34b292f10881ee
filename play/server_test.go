package play

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/onnx/onnxtest"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/timeman"
)

// fakeMind plays the first legal move at once, or, with block set, thinks
// until it is stopped (to hold a search slot).
type fakeMind struct {
	block   bool
	started chan struct{} // receives once per search, when set
	calls   atomic.Int32
	// timed: a search with a movetime takes it (or until stopped);
	// root: the result lists root moves, as MCTS's does.
	timed, root bool
}

// pool is the fake as one of the server's minds.
func (f *fakeMind) pool() *Pool {
	return &Pool{New: func() (mind.Searcher, []mind.Option, error) { return &fakeSearch{f: f}, nil, nil }}
}

// fakeSearch is a searcher of a fakeMind.
type fakeSearch struct {
	f    *fakeMind
	stop chan struct{}
}

func (s *fakeSearch) Go(pos *board.Position, lim timeman.Limits, report func(mind.Info), done func(mind.Result)) {
	s.f.calls.Add(1)
	if s.f.started != nil {
		s.f.started <- struct{}{}
	}
	var ml movegen.MoveList
	movegen.Legal(pos, &ml)
	m := ml.At(0)
	report(mind.Info{MultiPV: 1, Depth: 1, Score: mind.CP(12), PV: []board.Move{m}})
	stop := make(chan struct{})
	s.stop = stop
	res := mind.Result{Best: m, Score: mind.CP(12)}
	if s.f.root {
		for i, rm := range ml.Moves()[:min(3, ml.Len())] {
			res.Root = append(res.Root, mind.RootMove{Move: rm, Visits: 30 - 10*i, Share: float64(3-i) / 6, Prior: 0.5 / float64(i+1), Q: 0.1})
		}
		res.Q = 0.1
	}
	go func() {
		switch {
		case s.f.block || lim.Infinite:
			<-stop
		case s.f.timed && lim.MoveTime > 0:
			select {
			case <-stop:
			case <-time.After(lim.MoveTime):
			}
		}
		done(res)
	}()
}

func (s *fakeSearch) Stop()                 { close(s.stop) }
func (s *fakeSearch) PonderHit()            {}
func (s *fakeSearch) Clear()                {}
func (s *fakeSearch) SetShared(mind.Shared) {}

// broken is a mind that cannot be loaded.
func broken() *Pool {
	return &Pool{Load: func() error { return errors.New("no network here") }}
}

type fixture struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
	now atomic.Int64 // unix nanoseconds of the fake clock
}

func newFixture(t *testing.T, cfg Config) *fixture {
	f := &fixture{t: t}
	f.now.Store(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	if cfg.Minds == nil {
		cfg.Minds = map[string]*Pool{"alphabeta": (&fakeMind{}).pool(), "mcts": broken()}
	}
	cfg.Now = func() time.Time { return time.Unix(0, f.now.Load()) }
	f.srv = New(cfg)
	f.ts = httptest.NewServer(f.srv.Handler())
	t.Cleanup(func() {
		f.ts.Close()
		f.srv.Close()
	})
	return f
}

func (f *fixture) advance(d time.Duration) { f.now.Add(int64(d)) }

// do sends a request and decodes a JSON answer into out (when not nil).
func (f *fixture) do(method, path, body string, out any) (int, http.Header) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.ts.URL+path, strings.NewReader(body))
	require.NoError(f.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(f.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(f.t, err)
	if strings.HasPrefix(path, "/api/") && !strings.HasSuffix(path, "/pgn") {
		require.Equal(f.t, "application/json", resp.Header.Get("Content-Type"), "%s %s: %s", method, path, data)
	}
	if out != nil {
		require.NoError(f.t, json.Unmarshal(data, out), "%s", data)
	}
	return resp.StatusCode, resp.Header
}

// create makes a game and returns its state.
func (f *fixture) create(body string) State {
	f.t.Helper()
	var st State
	code, _ := f.do("POST", "/api/games", body, &st)
	require.Equal(f.t, http.StatusCreated, code)
	return st
}

func (f *fixture) state(id string) State {
	f.t.Helper()
	var st State
	code, _ := f.do("GET", "/api/games/"+id, "", &st)
	require.Equal(f.t, http.StatusOK, code)
	return st
}

// wantError checks an error answer: its status and a word of its message.
func (f *fixture) wantError(method, path, body string, status int, contains string) {
	f.t.Helper()
	var e map[string]string
	code, _ := f.do(method, path, body, &e)
	assert.Equal(f.t, status, code, "%s %s %s: %v", method, path, body, e)
	assert.Contains(f.t, e["error"], contains, "%s %s %s", method, path, body)
}

func TestCreateAndGet(t *testing.T) {
	f := newFixture(t, Config{})
	st := f.create("")
	assert.Equal(t, board.StartPosition().FEN(), st.FEN)
	assert.Equal(t, st.FEN, st.StartFEN)
	assert.Len(t, st.Legal, 20)
	assert.Contains(t, st.Legal, "e2e4")
	assert.Equal(t, "white", st.Turn)
	assert.Equal(t, "ongoing", st.Status)
	assert.Equal(t, "*", st.Result)
	assert.Equal(t, "alphabeta", st.Mind)
	assert.Equal(t, "max", st.Level)
	assert.Empty(t, st.Moves)
	assert.Len(t, st.ID, 24)
	assert.Equal(t, st, f.state(st.ID))

	fen := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	st = f.create(`{"fen":"` + fen + `","mind":"AlphaBeta","level":"Hard"}`)
	assert.Equal(t, fen, st.FEN)
	assert.Equal(t, "hard", st.Level)
	assert.Equal(t, "1500", f.create(`{"level":1500}`).Level)
	assert.Equal(t, "1950", f.create(`{"level":"1950"}`).Level)
	assert.NotEqual(t, st.ID, f.create("{}").ID)
}

func TestCreateErrors(t *testing.T) {
	f := newFixture(t, Config{MaxGames: 3, MaxBody: 256})
	f.wantError("POST", "/api/games", `{"fen":`, 400, "bad JSON")
	f.wantError("POST", "/api/games", `[1,2]`, 400, "bad JSON")
	f.wantError("POST", "/api/games", `{"fen":"x"} {}`, 400, "more than one value")
	f.wantError("POST", "/api/games", `{"colour":"white"}`, 400, "unknown field")
	f.wantError("POST", "/api/games", `{"fen":"rnbqkbnr/pppppppp/8/8 w - - 0 1"}`, 400, "bad FEN")
	f.wantError("POST", "/api/games", `{"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}`, 400, "bad FEN")
	// The side not to move in check: it parses, but cannot arise.
	f.wantError("POST", "/api/games", `{"fen":"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"}`, 400, "bad FEN")
	f.wantError("POST", "/api/games", `{"mind":"oracle"}`, 400, "unknown mind")
	f.wantError("POST", "/api/games", `{"mind":"mcts"}`, 422, "no network here")
	f.wantError("POST", "/api/games", `{"level":"grandmaster"}`, 400, "level")
	f.wantError("POST", "/api/games", `{"level":999}`, 400, "out of range")
	f.wantError("POST", "/api/games", `{"level":true}`, 400, "level")
	f.wantError("POST", "/api/games", `{"fen":"`+strings.Repeat("x", 300)+`"}`, 413, "over 256 bytes")
	f.wantError("GET", "/api/games", "", 405, "method GET not allowed")
	f.wantError("PUT", "/api/games", "", 405, "use POST")
	// None of them made a game; three may be made, not four.
	for range 3 {
		f.create("")
	}
	f.wantError("POST", "/api/games", "", 429, "too many games")
}

func TestMovesAndErrors(t *testing.T) {
	f := newFixture(t, Config{})
	id := f.create("").ID
	var st State
	code, _ := f.do("POST", "/api/games/"+id+"/moves", `{"move":"e2e4"}`, &st)
	require.Equal(t, 200, code)
	assert.Equal(t, []string{"e4"}, st.Moves)
	assert.Equal(t, []string{"e2e4"}, st.UCIMoves)
	assert.Equal(t, "e2e4", st.LastMove)
	assert.Equal(t, "black", st.Turn)
	before := f.state(id)

	path := "/api/games/" + id + "/moves"
	f.wantError("POST", path, `{"move":"e2e5"}`, 422, "illegal move")
	f.wantError("POST", path, `{"move":"e7e9"}`, 400, "malformed")
	f.wantError("POST", path, `{"move":"hello"}`, 400, "malformed")
	f.wantError("POST", path, `{"move":""}`, 400, "malformed")
	f.wantError("POST", path, `{"move":7}`, 400, "bad JSON")
	f.wantError("POST", path, `{}`, 400, `missing "move"`)
	f.wantError("POST", path, ``, 400, `missing "move"`)
	f.wantError("POST", path, `{"move":"e7e5"`, 400, "bad JSON")
	f.wantError("POST", path, `{"move":"e7e5","x":1}`, 400, "unknown field")
	f.wantError("GET", path, "", 405, "use POST")
	f.wantError("POST", "/api/games/nope/moves", `{"move":"e7e5"}`, 404, "no such game")
	f.wantError("POST", path, `{"move":"`+strings.Repeat("e", 20000)+`"}`, 413, "over")
	assert.Equal(t, before, f.state(id), "refused moves changed nothing")

	// Castling both ways of writing it, promotion with its letter.
	st = f.create(`{"fen":"r3k2r/P7/8/8/8/8/8/R3K2R w KQkq - 0 1"}`)
	f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"e1h1"}`, &st)
	assert.Equal(t, []string{"O-O"}, st.Moves)
	f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"e8c8"}`, &st)
	assert.Equal(t, []string{"O-O", "O-O-O"}, st.Moves)
	f.wantError("POST", "/api/games/"+st.ID+"/moves", `{"move":"a7a8"}`, 422, "illegal")
	f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"a7a8n"}`, &st)
	assert.Equal(t, "a8=N", st.Moves[2])
}

func TestGameOverStatuses(t *testing.T) {
	f := newFixture(t, Config{})
	cases := []struct{ fen, status, reason, result string }{
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "checkmate", "Checkmate: Black wins", "0-1"},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate", "Stalemate", "1/2-1/2"},
		{"8/8/4k3/8/8/3K4/8/8 w - - 0 1", "insufficient-material", "Insufficient material", "1/2-1/2"},
		{"8/8/4k3/8/8/3K4/8/7R w - - 100 80", "fifty-move", "Fifty-move rule", "1/2-1/2"},
	}
	for _, c := range cases {
		st := f.create(`{"fen":"` + c.fen + `"}`)
		assert.Equal(t, c.status, st.Status, c.fen)
		assert.Contains(t, st.Reason, c.reason, c.fen)
		assert.Equal(t, c.result, st.Result, c.fen)
		assert.Empty(t, st.Legal, c.fen)
		f.wantError("POST", "/api/games/"+st.ID+"/engine", "", 409, "game is over")
		f.wantError("POST", "/api/games/"+st.ID+"/analysis", "", 409, "game is over")
	}
	// Threefold: the knights go out and back twice.
	st := f.create("")
	for _, m := range strings.Fields("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8") {
		f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"`+m+`"}`, &st)
	}
	assert.Equal(t, "threefold", st.Status)
	assert.Equal(t, "Threefold repetition: draw", st.Reason)
	f.wantError("POST", "/api/games/"+st.ID+"/moves", `{"move":"e2e4"}`, 409, "game is over")
	// Mate in one played through the API.
	st = f.create(`{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}`)
	f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"a1a8"}`, &st)
	assert.Equal(t, "checkmate", st.Status)
	assert.Equal(t, "Checkmate: White wins", st.Reason)
	assert.Equal(t, []string{"Ra8#"}, st.Moves)
	assert.True(t, st.Check)
}

func TestUndo(t *testing.T) {
	f := newFixture(t, Config{})
	id := f.create("").ID
	path := "/api/games/" + id
	f.wantError("POST", path+"/undo", "", 409, "cannot undo 1")
	var st State
	for _, m := range []string{"e2e4", "e7e5", "g1f3"} {
		f.do("POST", path+"/moves", `{"move":"`+m+`"}`, &st)
	}
	code, _ := f.do("POST", path+"/undo", "", &st)
	require.Equal(t, 200, code)
	assert.Equal(t, []string{"e4", "e5"}, st.Moves)
	f.wantError("POST", path+"/undo", `{"plies":3}`, 409, "cannot undo 3")
	f.wantError("POST", path+"/undo", `{"plies":0}`, 409, "cannot undo 0")
	f.wantError("POST", path+"/undo", `{"plies":"two"}`, 400, "bad JSON")
	f.wantError("GET", path+"/undo", "", 405, "use POST")
	f.wantError("POST", "/api/games/nope/undo", "", 404, "no such game")
	f.do("POST", path+"/undo", `{"plies":2}`, &st)
	assert.Empty(t, st.Moves)
	assert.Equal(t, board.StartPosition().FEN(), st.FEN)
}

func TestDeleteAndUnknown(t *testing.T) {
	f := newFixture(t, Config{})
	id := f.create("").ID
	var out map[string]bool
	code, _ := f.do("DELETE", "/api/games/"+id, "", &out)
	assert.Equal(t, 200, code)
	assert.True(t, out["deleted"])
	f.wantError("GET", "/api/games/"+id, "", 404, "no such game")
	f.wantError("DELETE", "/api/games/"+id, "", 404, "no such game")
	f.wantError("POST", "/api/games/"+id, "", 405, "DELETE, GET, PATCH")
	f.wantError("GET", "/api/games/"+id+"/events", "", 404, "no such game")
	f.wantError("GET", "/api/games/"+id+"/pgn", "", 404, "no such game")
	f.wantError("POST", "/api/games/"+id+"/engine", "", 404, "no such game")
	f.wantError("POST", "/api/games/"+id+"/analysis", "", 404, "no such game")
	f.wantError("DELETE", "/api/games/"+id+"/analysis", "", 404, "no such game")
	f.wantError("PATCH", "/api/games/"+id, `{"level":"easy"}`, 404, "no such game")
	f.wantError("GET", "/api/nothing", "", 404, "no such API endpoint")
	f.wantError("GET", "/api/games/", "", 404, "no such API endpoint")
}

func TestPatch(t *testing.T) {
	f := newFixture(t, Config{})
	id := f.create("").ID
	var st State
	code, _ := f.do("PATCH", "/api/games/"+id, `{"level":"easy"}`, &st)
	require.Equal(t, 200, code)
	assert.Equal(t, "easy", st.Level)
	f.do("PATCH", "/api/games/"+id, `{"level":1400}`, &st)
	assert.Equal(t, "1400", st.Level)
	assert.Equal(t, "alphabeta", st.Mind)
	f.wantError("PATCH", "/api/games/"+id, `{"mind":"mcts"}`, 422, "unavailable")
	f.wantError("PATCH", "/api/games/"+id, `{"level":"superhuman"}`, 400, "level")
	f.wantError("PATCH", "/api/games/"+id, `{"mind":`, 400, "bad JSON")
	assert.Equal(t, "1400", f.state(id).Level)
}

func TestInfoAndPage(t *testing.T) {
	f := newFixture(t, Config{})
	var info struct {
		Minds  []MindInfo
		Levels []string
		Limits map[string]float64
	}
	code, _ := f.do("GET", "/api/info", "", &info)
	require.Equal(t, 200, code)
	assert.Equal(t, []MindInfo{{Name: "alphabeta", Available: true}, {Name: "mcts", Reason: "no network here"}}, info.Minds)
	assert.Equal(t, []string{"easy", "medium", "hard", "max"}, info.Levels)
	assert.Equal(t, float64(100), info.Limits["maxGames"])
	f.wantError("POST", "/api/info", "", 405, "use GET")

	resp, err := http.Get(f.ts.URL + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/html")
	assert.Contains(t, string(body), "Twofold")
	for _, asset := range []string{"/app.js", "/style.css"} {
		resp, err := http.Get(f.ts.URL + asset)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode, asset)
	}
	var e map[string]string
	code, _ = f.do("POST", "/", "", &e)
	assert.Equal(t, 405, code)
}

func TestPGN(t *testing.T) {
	f := newFixture(t, Config{})
	st := f.create(`{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}`)
	f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"a1a8"}`, nil)
	resp, err := http.Get(f.ts.URL + "/api/games/" + st.ID + "/pgn")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, resp.Header.Get("Content-Type"), "application/x-chess-pgn")
	assert.Contains(t, resp.Header.Get("Content-Disposition"), "attachment")
	pgn := string(body)
	assert.Contains(t, pgn, `[Result "1-0"]`)
	assert.Contains(t, pgn, `[FEN "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"]`)
	assert.Contains(t, pgn, `[Termination "Checkmate: White wins"]`)
	assert.Contains(t, pgn, "1. Ra8# 1-0")
}

func TestEngineWithAlphaBeta(t *testing.T) {
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(1)}, MaxThink: 2 * time.Second})
	id := f.create(`{"level":"medium"}`).ID
	var reply EngineReply
	code, _ := f.do("POST", "/api/games/"+id+"/engine", `{"movetime":200}`, &reply)
	require.Equal(t, 200, code)
	assert.Contains(t, board.StartPosition().FEN(), "w") // sanity
	assert.Equal(t, []string{reply.SAN}, reply.State.Moves)
	assert.Equal(t, reply.Move, reply.State.LastMove)
	assert.NotEmpty(t, reply.Info.PV)
	assert.Equal(t, reply.Move, reply.Info.PV[0])
	assert.Equal(t, reply.SAN, reply.Info.SAN[0])
	assert.NotNil(t, reply.Info.Score.CP)
	assert.Equal(t, "black", reply.State.Turn)
	assert.False(t, reply.State.Thinking)

	// A mate in one is found and its score is White's: mate in 1.
	st := f.create(`{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}`)
	f.do("POST", "/api/games/"+st.ID+"/engine", `{"movetime":300}`, &reply)
	assert.Equal(t, "a1a8", reply.Move)
	require.NotNil(t, reply.Info.Score.Mate)
	assert.Equal(t, 1, *reply.Info.Score.Mate)
	assert.Equal(t, "checkmate", reply.State.Status)
	// Black mates: the score says Black (negative).
	st = f.create(`{"fen":"r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1"}`)
	f.do("POST", "/api/games/"+st.ID+"/engine", `{"movetime":300}`, &reply)
	assert.Equal(t, "a8a1", reply.Move)
	require.NotNil(t, reply.Info.Score.Mate)
	assert.Equal(t, -1, *reply.Info.Score.Mate)

	path := "/api/games/" + id + "/engine"
	f.wantError("POST", path, `{"movetime":0}`, 400, "want 1 to 2000")
	f.wantError("POST", path, `{"movetime":2001}`, 400, "want 1 to 2000")
	f.wantError("POST", path, `{"movetime":"fast"}`, 400, "bad JSON")
	f.wantError("GET", path, "", 405, "use POST")
	f.wantError("POST", "/api/games/nope/engine", "", 404, "no such game")
	assert.Len(t, f.state(id).Moves, 1, "refused requests played nothing")
}

func TestEngineEveryLevel(t *testing.T) {
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(1)}})
	for _, lv := range []string{"easy", "medium", "hard", "max", "1320", "1950"} {
		id := f.create(`{"level":"` + lv + `"}`).ID
		var reply EngineReply
		code, _ := f.do("POST", "/api/games/"+id+"/engine", `{"movetime":100}`, &reply)
		require.Equal(t, 200, code, lv)
		assert.Len(t, reply.State.Moves, 1, lv)
	}
}

// TestEngineBusyAndSlots: a second /engine for a game that is thinking is
// refused at once; /engine for other games queue on the search slots and
// get 503 after QueueWait; moves and undo wait for the engine's move.
func TestEngineBusyAndSlots(t *testing.T) {
	fake := &fakeMind{block: true, started: make(chan struct{}, 10)}
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": fake.pool()}, Searches: 1, QueueWait: 100 * time.Millisecond, MaxThink: 5 * time.Second})
	a, b := f.create("").ID, f.create("").ID
	done := make(chan int)
	go func() {
		var reply EngineReply
		code, _ := f.do("POST", "/api/games/"+a+"/engine", `{"movetime":400}`, &reply)
		done <- code
	}()
	<-fake.started
	assert.True(t, f.state(a).Thinking)
	f.wantError("POST", "/api/games/"+a+"/engine", "", 409, "already thinking")
	f.wantError("POST", "/api/games/"+a+"/moves", `{"move":"e2e4"}`, 409, "engine is thinking")
	f.wantError("POST", "/api/games/"+a+"/undo", "", 409, "engine is thinking")
	f.wantError("PATCH", "/api/games/"+a, `{"level":"easy"}`, 409, "engine is thinking")
	f.wantError("POST", "/api/games/"+a+"/analysis", "", 503, "busy")
	_, h := f.do("POST", "/api/games/"+b+"/engine", "", nil)
	assert.Equal(t, "2", h.Get("Retry-After"))
	assert.False(t, f.state(b).Thinking, "a refused search leaves the game as it was")
	assert.Empty(t, f.state(b).Moves)
	// The fake thinks until its context ends: the request's, which the
	// client cancels here.
	f.srv.mu.Lock()
	g := f.srv.games[a]
	f.srv.mu.Unlock()
	g.mu.Lock()
	g.cancelThink()
	g.mu.Unlock()
	assert.Equal(t, 503, <-done, "a cancelled search plays no move")
	assert.Empty(t, f.state(a).Moves)
	assert.False(t, f.state(a).Thinking)
}

// TestConcurrentGames runs many games at once under -race: engine moves,
// player moves and reads in parallel, every game ending consistent.
func TestConcurrentGames(t *testing.T) {
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(1)}, Searches: 2, QueueWait: 30 * time.Second})
	const games = 6
	var wg sync.WaitGroup
	errs := make(chan error, games*3)
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := f.create(`{"level":"easy"}`).ID
			for range 3 {
				var st State
				f.do("GET", "/api/games/"+id, "", &st)
				if len(st.Legal) == 0 {
					return
				}
				if code, _ := f.do("POST", "/api/games/"+id+"/moves", `{"move":"`+st.Legal[i%len(st.Legal)]+`"}`, &st); code != 200 {
					errs <- fmt.Errorf("move: %d", code)
				}
				var reply EngineReply
				if code, _ := f.do("POST", "/api/games/"+id+"/engine", `{"movetime":30}`, &reply); code != 200 {
					errs <- fmt.Errorf("engine: %d", code)
				}
			}
			st := f.state(id)
			if len(st.Moves) != 6 {
				errs <- fmt.Errorf("game %s has %d moves", id, len(st.Moves))
			}
		}()
	}
	// Readers hammer the list of games meanwhile.
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
					f.do("GET", "/api/info", "", nil)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestIdleExpiry(t *testing.T) {
	fake := &fakeMind{block: true, started: make(chan struct{}, 1)}
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": fake.pool()}, IdleExpiry: time.Minute, MaxGames: 2})
	old := f.create("").ID
	f.advance(40 * time.Second)
	fresh := f.create("").ID
	f.advance(30 * time.Second)
	assert.Equal(t, 1, f.srv.sweep())
	f.wantError("GET", "/api/games/"+old, "", 404, "no such game")
	f.state(fresh) // a read counts as use
	f.advance(50 * time.Second)
	assert.Equal(t, 0, f.srv.sweep())

	// Full: a new game sweeps first, so idle games never block it.
	f.create("")
	f.advance(2 * time.Minute)
	f.create("")

	// A game under analysis is in use however long ago its last request.
	var st State
	st = f.create("")
	f.srv.mu.Lock()
	for id := range f.srv.games {
		if id != st.ID {
			delete(f.srv.games, id)
		}
	}
	f.srv.mu.Unlock()
	code, _ := f.do("POST", "/api/games/"+st.ID+"/analysis", "", &st)
	require.Equal(t, 200, code)
	<-fake.started
	f.advance(time.Hour)
	assert.Equal(t, 0, f.srv.sweep())
	f.do("DELETE", "/api/games/"+st.ID+"/analysis", "", nil)
	f.advance(time.Hour)
	assert.Equal(t, 1, f.srv.sweep())
}

// TestJanitor: the real janitor deletes an idle game by itself.
func TestJanitor(t *testing.T) {
	f := newFixture(t, Config{IdleExpiry: time.Millisecond})
	f.create("")
	f.advance(time.Second)
	// Polled without requests, which would count as use.
	require.Eventually(t, func() bool {
		f.srv.mu.Lock()
		defer f.srv.mu.Unlock()
		return len(f.srv.games) == 0
	}, 5*time.Second, 50*time.Millisecond)
}

// sse reads a game's event stream.
type sse struct {
	resp *http.Response
	r    *bufio.Reader
}

func (f *fixture) events(id string) *sse {
	f.t.Helper()
	resp, err := http.Get(f.ts.URL + "/api/games/" + id + "/events")
	require.NoError(f.t, err)
	require.Equal(f.t, 200, resp.StatusCode)
	require.Equal(f.t, "text/event-stream", resp.Header.Get("Content-Type"))
	f.t.Cleanup(func() { resp.Body.Close() })
	return &sse{resp: resp, r: bufio.NewReader(resp.Body)}
}

// next returns the next event's name and data.
func (s *sse) next(t *testing.T) (string, string) {
	t.Helper()
	var name, data string
	for {
		line, err := s.r.ReadString('\n')
		require.NoError(t, err)
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "" && name != "":
			return name, data
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		}
	}
}

// until reads events until one named name comes.
func (s *sse) until(t *testing.T, name string) string {
	t.Helper()
	for {
		n, d := s.next(t)
		if n == name {
			return d
		}
	}
}

func TestEventsAndAnalysis(t *testing.T) {
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(1)}, MaxStreams: 2, MaxMultiPV: 4})
	id := f.create("").ID
	ev := f.events(id)
	n, d := ev.next(t)
	assert.Equal(t, "state", n, "a stream starts with the state")
	var st State
	require.NoError(t, json.Unmarshal([]byte(d), &st))
	assert.Equal(t, id, st.ID)

	f.events(id)
	f.wantError("GET", "/api/games/"+id+"/events", "", 429, "too many event streams")

	f.do("POST", "/api/games/"+id+"/moves", `{"move":"d2d4"}`, nil)
	require.NoError(t, json.Unmarshal([]byte(ev.until(t, "state")), &st))
	assert.Equal(t, []string{"d4"}, st.Moves)

	// The engine's thinking comes as info events, then its move.
	go f.do("POST", "/api/games/"+id+"/engine", `{"movetime":150}`, nil)
	var info Info
	require.NoError(t, json.Unmarshal([]byte(ev.until(t, "info")), &info))
	assert.Equal(t, "engine", info.Kind)
	assert.Equal(t, 1, info.Ply)
	assert.NotEmpty(t, info.SAN)
	var reply EngineReply
	require.NoError(t, json.Unmarshal([]byte(ev.until(t, "bestmove")), &reply))
	assert.Len(t, reply.State.Moves, 2)
	ev.until(t, "state")

	// Analysis: MultiPV lines until stopped.
	path := "/api/games/" + id + "/analysis"
	f.wantError("POST", path, `{"multipv":5}`, 400, "want 1 to 4")
	f.wantError("POST", path, `{"multipv":0}`, 400, "want 1 to 4")
	f.wantError("PUT", path, "", 405, "DELETE, POST")
	code, _ := f.do("POST", path, `{"multipv":3}`, &st)
	require.Equal(t, 200, code)
	assert.True(t, st.Analysing)
	seen := map[int]bool{}
	for len(seen) < 3 {
		require.NoError(t, json.Unmarshal([]byte(ev.until(t, "info")), &info))
		assert.Equal(t, "analysis", info.Kind)
		seen[info.MultiPV] = true
	}
	assert.True(t, f.state(id).Analysing)
	code, _ = f.do("DELETE", path, "", &st)
	require.Equal(t, 200, code)
	assert.False(t, st.Analysing)
	ev.until(t, "analysis-end")

	// A move stops an analysis (the page starts the next one).
	f.do("POST", path, "", &st)
	require.True(t, st.Analysing)
	f.do("POST", "/api/games/"+id+"/moves", `{"move":"c2c4"}`, &st)
	assert.False(t, st.Analysing)
	assert.False(t, f.state(id).Analysing)

	// Deleting the game ends its streams.
	f.do("DELETE", "/api/games/"+id, "", nil)
	for {
		_, err := ev.r.ReadString('\n')
		if err != nil {
			break
		}
	}
}

// TestAnalysisHoldsASlot: an analysis occupies a search slot until it
// stops; with one slot, an engine move elsewhere waits and then gets 503,
// and succeeds once the analysis is stopped.
func TestAnalysisHoldsASlot(t *testing.T) {
	f := newFixture(t, Config{Searches: 1, QueueWait: 50 * time.Millisecond})
	a, b := f.create("").ID, f.create("").ID
	f.do("POST", "/api/games/"+a+"/analysis", "", nil)
	f.wantError("POST", "/api/games/"+b+"/engine", "", 503, "busy")
	f.do("DELETE", "/api/games/"+a+"/analysis", "", nil)
	var reply EngineReply
	code, _ := f.do("POST", "/api/games/"+b+"/engine", "", &reply)
	assert.Equal(t, 200, code)
	// Restarting an analysis (another MultiPV) gives the old slot up first.
	f.do("POST", "/api/games/"+a+"/analysis", `{"multipv":1}`, nil)
	code, _ = f.do("POST", "/api/games/"+a+"/analysis", `{"multipv":2}`, nil)
	assert.Equal(t, 200, code)
	// The engine in the analysed game stops the analysis and plays.
	code, _ = f.do("POST", "/api/games/"+a+"/engine", "", &reply)
	assert.Equal(t, 200, code)
	assert.False(t, reply.State.Analysing)
}

func TestCloseStopsSearches(t *testing.T) {
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(1)}})
	id := f.create("").ID
	f.do("POST", "/api/games/"+id+"/analysis", "", nil)
	done := make(chan struct{})
	go func() {
		f.srv.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not stop the analysis")
	}
}

func TestParseLevel(t *testing.T) {
	for in, want := range map[string]Level{"": {Name: "max"}, "Easy": {Name: "easy"}, " HARD ": {Name: "hard"}, "1320": {Elo: 1320}, "1950": {Elo: 1950}, fmt.Sprint(MaxElo): {Elo: MaxElo}} {
		got, err := ParseLevel(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"999", "1319", fmt.Sprint(MaxElo + 1), "-5", "expert", "12.5"} {
		_, err := ParseLevel(in)
		assert.Error(t, err, in)
	}
}

// TestMCTS plays one move with the network where ONNX Runtime is
// installed (lib/ in the repository, see make ort).
func TestMCTS(t *testing.T) {
	onnxtest.Open(t)
	m := MCTS("", "", 64)
	require.NoError(t, m.Available(), "MCTS unavailable")
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(1), "mcts": m}})
	var info struct{ Minds []MindInfo }
	f.do("GET", "/api/info", "", &info)
	assert.Contains(t, info.Minds, MindInfo{Name: "mcts", Available: true})
	st := f.create(`{"mind":"mcts","fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}`)
	var reply EngineReply
	code, _ := f.do("POST", "/api/games/"+st.ID+"/engine", `{"movetime":300}`, &reply)
	require.Equal(t, 200, code)
	assert.Equal(t, "a1a8", reply.Move, "MCTS marks mates in one")
	assert.Equal(t, "checkmate", reply.State.Status)
}
