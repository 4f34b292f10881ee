package play

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/azero/onnx/onnxtest"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

func TestJudgeFormulas(t *testing.T) {
	assert.Equal(t, 50.0, WinPercent(0))
	assert.InDelta(t, 67.6, WinPercent(200), 0.1)
	assert.InDelta(t, 100-WinPercent(200), WinPercent(-200), 1e-9, "symmetric")
	assert.InDelta(t, 97.5, WinPercent(1000), 0.05)
	assert.Equal(t, WinPercent(1000), WinPercent(5000), "capped at 1000 cp")
	assert.Equal(t, WinPercent(1000), WinPercent(scoreCP(mind.MateIn(3))), "a mate counts as 1000 cp")
	assert.Equal(t, WinPercent(-1000), WinPercent(scoreCP(mind.MateIn(0))), "mated")

	assert.Equal(t, 100.0, MoveAccuracy(60, 60))
	assert.Equal(t, 100.0, MoveAccuracy(40, 55), "nothing lost")
	assert.InDelta(t, 103.1668*math.Exp(-0.04354*10)-3.1669, MoveAccuracy(60, 50), 1e-9)
	assert.InDelta(t, 63.6, MoveAccuracy(60, 50), 0.1)
	assert.Equal(t, 0.0, MoveAccuracy(100, 0), "never below 0")

	for _, c := range []struct {
		drop float64
		best bool
		want string
	}{
		{0, true, ClassBest}, {40, true, ClassBest}, {0, false, ClassGood}, {9.99, false, ClassGood},
		{10, false, ClassInaccuracy}, {19.9, false, ClassInaccuracy}, {20, false, ClassMistake},
		{29.9, false, ClassMistake}, {30, false, ClassBlunder}, {80, false, ClassBlunder},
	} {
		assert.Equal(t, c.want, Classify(c.drop, c.best), "%v %v", c.drop, c.best)
	}
	assert.Equal(t, []int{0, 0, 6, 2, 4}, []int{classNAG(ClassBest), classNAG(ClassGood), classNAG(ClassInaccuracy), classNAG(ClassMistake), classNAG(ClassBlunder)})
}

// playMoves plays UCI moves in a game through the API.
func (f *fixture) playMoves(id, moves string) {
	f.t.Helper()
	for _, m := range strings.Fields(moves) {
		code, _ := f.do("POST", "/api/games/"+id+"/moves", `{"move":"`+m+`"}`, nil)
		require.Equal(f.t, 200, code, m)
	}
}

// reviewEnd waits for the review-end event and returns it.
func reviewEnd(t *testing.T, ev *sse) map[string]any {
	t.Helper()
	var end map[string]any
	require.NoError(t, json.Unmarshal([]byte(ev.until(t, "review-end")), &end))
	return end
}

func (f *fixture) review(id string) Review {
	f.t.Helper()
	var rv Review
	code, _ := f.do("GET", "/api/games/"+id+"/review", "", &rv)
	require.Equal(f.t, 200, code)
	return rv
}

// Two minds review: every position is searched by each, progress comes as
// events, and the answer holds each mind's view of every position and
// move, the MCTS-like mind's root moves, and the figures per side.
func TestReviewBothMindsFakes(t *testing.T) {
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": (&fakeMind{}).pool(), "mcts": (&fakeMind{root: true}).pool()}})
	id := f.create("").ID
	f.playMoves(id, "e2e4 e7e5 g1f3")
	ev := f.events(id)
	var started Review
	code, _ := f.do("POST", "/api/games/"+id+"/review", `{"movetime":5}`, &started)
	require.Equal(t, 200, code)
	assert.Equal(t, []string{"alphabeta", "mcts"}, started.Minds)
	assert.Equal(t, "alphabeta", started.Judge)
	assert.Equal(t, 8, started.Total, "4 positions, 2 minds")
	assert.Equal(t, map[string]Budget{"alphabeta": {MoveTime: 5}, "mcts": {MoveTime: 5}}, started.Budgets)

	progress := 0
	for {
		n, d := ev.next(t)
		if n == "review" {
			var p ReviewProgress
			require.NoError(t, json.Unmarshal([]byte(d), &p))
			progress++
			assert.Equal(t, progress, p.Done)
			assert.Equal(t, 8, p.Total)
			require.NotNil(t, p.Eval)
		}
		if n == "review-end" {
			var end map[string]any
			require.NoError(t, json.Unmarshal([]byte(d), &end))
			assert.Equal(t, "done", end["status"])
			break
		}
	}
	assert.Equal(t, 8, progress)
	assert.Equal(t, "done", f.state(id).Review)

	rv := f.review(id)
	assert.Equal(t, "done", rv.Status)
	assert.False(t, rv.Stale)
	assert.Equal(t, []string{"e2e4", "e7e5", "g1f3"}, rv.Moves)
	require.Len(t, rv.Positions, 4)
	require.Len(t, rv.Plies, 3)
	for i, p := range rv.Positions {
		assert.Equal(t, i, p.Ply)
		require.Contains(t, p.Evals, "alphabeta")
		require.Contains(t, p.Evals, "mcts")
		ab, mc := p.Evals["alphabeta"], p.Evals["mcts"]
		// The fakes score +12 for the side to move: White's view alternates.
		want := 12
		if i%2 == 1 {
			want = -12
		}
		require.NotNil(t, ab.Score.CP)
		assert.Equal(t, want, *ab.Score.CP)
		assert.InDelta(t, WinPercent(want), ab.Win, 1e-9)
		assert.Nil(t, ab.Q, "alpha-beta has no Q")
		assert.Empty(t, ab.Top, "nor root moves")
		require.NotNil(t, mc.Q)
		assert.InDelta(t, 0.1*float64(1-2*(i%2)), *mc.Q, 1e-9)
		require.Len(t, mc.Top, 3)
		assert.Equal(t, mc.Best, mc.Top[0].Move)
		assert.InDelta(t, 0.5, mc.Top[0].Share, 1e-3)
		assert.InDelta(t, 0.5, mc.Top[0].Prior, 1e-3)
		assert.NotEmpty(t, mc.Top[0].SAN)
		require.NotNil(t, p.Agree)
		assert.True(t, *p.Agree, "both fakes play the first legal move")
	}
	e4 := rv.Plies[0]
	assert.Equal(t, 1, e4.Ply)
	assert.Equal(t, "e4", e4.SAN)
	assert.Equal(t, "white", e4.Color)
	require.NotNil(t, e4.Verdict)
	require.Contains(t, e4.Minds, "mcts")
	// The fakes' first legal move from the start is not e4: a good move
	// (White's view goes from +12 to +12 for Black: a drop of 4.4).
	assert.Equal(t, ClassGood, e4.Class)
	assert.InDelta(t, WinPercent(12)-WinPercent(-12), e4.Drop, 0.1)
	assert.NotEmpty(t, e4.BestLine)
	assert.True(t, e4.Agree)
	w := rv.Summary["alphabeta"]["white"]
	assert.Equal(t, 2, w.Moves)
	assert.Equal(t, 2, w.Counts[ClassGood]+w.Counts[ClassBest])
	assert.Greater(t, w.Accuracy, 80.0)
	assert.Equal(t, 1, rv.Summary["mcts"]["black"].Moves)

	// The annotated PGN: evals, the review's head comment, and it reads.
	code, text := f.pgnText(id, "?annotated=1")
	require.Equal(t, 200, code)
	flat := strings.Join(strings.Fields(text), " ")
	assert.Contains(t, flat, "1. e4 {[%eval -0.12]} 1... e5 {[%eval 0.12]}", "the eval after each move, White's view")
	assert.Contains(t, text, `[Annotator "Twofold"]`)
	assert.Contains(t, flat, "Reviewed by Twofold (AlphaBeta 5 ms, MCTS 5 ms per position)")
	games, err := pgn.ReadAll(text)
	require.NoError(t, err)
	assert.Len(t, games[0].Moves, 3)
	// The plain PGN is unchanged by the review.
	_, plain := f.pgnText(id, "")
	assert.NotContains(t, plain, "%eval")

	// A mainline that changes leaves the review stale, not wrong.
	f.playMoves(id, "b8c6")
	rv = f.review(id)
	assert.True(t, rv.Stale)
	assert.Len(t, rv.Plies, 3)
}

// The review of a short game by the real alpha-beta mind: the blunder
// that allows mate, the mate itself, a terminal position judged without a
// search, and an annotated PGN that Lichess reads.
func TestReviewScholarsMate(t *testing.T) {
	f := newFixture(t, Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(4), "mcts": broken()}})
	id := f.create("").ID
	f.playMoves(id, "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7")
	ev := f.events(id)
	var rv Review
	code, _ := f.do("POST", "/api/games/"+id+"/review", `{"movetime":150}`, &rv)
	require.Equal(t, 200, code)
	assert.Equal(t, []string{"alphabeta"}, rv.Minds)
	assert.Equal(t, map[string]string{"mcts": "no network here"}, rv.Skipped, "MCTS unavailable: alpha-beta alone, and it says so")
	assert.Equal(t, 7, rv.Total, "the mate is not searched")
	assert.Equal(t, "done", reviewEnd(t, ev)["status"])

	rv = f.review(id)
	mate := rv.Positions[7]
	assert.Equal(t, "checkmate", mate.Terminal)
	require.NotNil(t, mate.Evals["alphabeta"])
	assert.Equal(t, 100.0, mate.Evals["alphabeta"].Win, "White has won")
	nf6 := rv.Plies[5]
	assert.Equal(t, "Nf6", nf6.SAN)
	assert.Equal(t, ClassBlunder, nf6.Class)
	assert.Greater(t, nf6.Drop, 30.0)
	assert.Less(t, nf6.Accuracy, 40.0)
	assert.NotEqual(t, "g8f6", nf6.Best)
	assert.NotEmpty(t, nf6.BestLine)
	qxf7 := rv.Plies[6]
	assert.Equal(t, "Qxf7#", qxf7.SAN)
	assert.Equal(t, ClassBest, qxf7.Class)
	assert.Equal(t, 100.0, qxf7.Accuracy)
	assert.Equal(t, 1, rv.Summary["alphabeta"]["black"].Counts[ClassBlunder])
	assert.Greater(t, rv.Summary["alphabeta"]["white"].Accuracy, rv.Summary["alphabeta"]["black"].Accuracy)

	_, text := f.pgnText(id, "?annotated=1")
	flat := strings.Join(strings.Fields(text), " ")
	assert.Contains(t, flat, "3... Nf6 $4 {[%eval #1] Blunder.")
	assert.Contains(t, flat, "was best.} (3...", "the better line as a variation")
	assert.Contains(t, flat, "MCTS took no part: no network here.")
	assert.Contains(t, flat, "Accuracy by AlphaBeta: White")
	games, err := pgn.ReadAll(text)
	require.NoError(t, err)
	require.Len(t, games[0].Notes, 7)
	assert.Equal(t, []int{pgn.NAGBlunder}, games[0].Notes[5].NAGs)
	require.Len(t, games[0].Notes[5].Variations, 1)
}

func TestReviewErrors(t *testing.T) {
	slow := &fakeMind{timed: true}
	f := newFixture(t, Config{MaxThink: 2 * time.Second, MaxAnalysis: time.Minute,
		Minds: map[string]*Pool{"alphabeta": slow.pool(), "mcts": broken()}})
	id := f.create("").ID
	path := "/api/games/" + id + "/review"
	f.wantError("POST", path, "", 409, "no moves")
	f.wantError("GET", path, "", 404, "not been reviewed")
	f.wantError("DELETE", path, "", 404, "not been reviewed")
	code, _ := f.pgnText(id, "?annotated=1")
	assert.Equal(t, 409, code)
	code, _ = f.pgnText(id, "?annotated=yes")
	assert.Equal(t, 400, code)
	f.playMoves(id, "e2e4 e7e5")
	f.wantError("POST", path, `{"movetime":0}`, 400, "want 1 to 2000")
	f.wantError("POST", path, `{"movetime":2001}`, 400, "want 1 to 2000")
	f.wantError("POST", path, `{"nodes":0}`, 400, "nodes 0")
	f.wantError("POST", path, `{"movetime":10,"nodes":10}`, 400, "not both")
	f.wantError("POST", path, `{"minds":{"oracle":{}}}`, 400, "unknown mind")
	f.wantError("POST", path, `{"minds":{"mcts":{"movetime":10}}}`, 422, "no network here")
	f.wantError("POST", path, `{"minds":{"alphabeta":{"movetime":0}}}`, 400, "alphabeta: movetime 0")
	f.wantError("POST", path, `{"minds":{"alphabeta":{"minds":{"mcts":{}}}}}`, 400, "within")
	f.wantError("POST", path, `{"speed":1}`, 400, "unknown field")
	f.wantError("POST", path, `{"movetime":"fast"}`, 400, "bad JSON")
	f.wantError("PUT", path, "", 405, "DELETE, GET, POST")
	f.wantError("POST", "/api/games/nope/review", "", 404, "no such game")
	// 3 positions at 2 s would take 6 s; a minute is allowed, so 30 s is not.
	long := f.create("").ID
	f.playMoves(long, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6a5 b3c2 c7c5 d2d4 d8c7 b1d2 a5c6 d4c5 d6c5 d2f1 c8e6 f1e3 a8d8")
	f.wantError("POST", "/api/games/"+long+"/review", `{"movetime":2000}`, 400, "would take about 1m2s (31 positions)")
	assert.Equal(t, "", f.state(long).Review, "refused: no review")

	// One review at a time; DELETE cancels it at once.
	ev := f.events(id)
	var rv Review
	code, _ = f.do("POST", path, `{"movetime":1000}`, &rv)
	require.Equal(t, 200, code)
	assert.Equal(t, "running", rv.Status)
	assert.Equal(t, "running", f.state(id).Review)
	f.wantError("POST", path, `{"movetime":10}`, 409, "running")
	t0 := time.Now()
	code, _ = f.do("DELETE", path, "", &rv)
	require.Equal(t, 200, code)
	assert.Less(t, time.Since(t0), time.Second, "cancelled within a second")
	assert.Equal(t, "cancelled", rv.Status)
	assert.Equal(t, "cancelled", rv.Error)
	assert.Equal(t, 0, rv.Done, "a search cut short is no result")
	end := reviewEnd(t, ev)
	assert.Equal(t, "cancelled", end["status"])
	// Cancelled, a review may start again; a finished one is replaced.
	code, _ = f.do("POST", path, `{"movetime":1}`, &rv)
	require.Equal(t, 200, code)
	assert.Equal(t, "done", reviewEnd(t, ev)["status"])
	code, _ = f.do("POST", path, `{"nodes":100}`, &rv)
	require.Equal(t, 200, code)
	assert.Equal(t, map[string]Budget{"alphabeta": {Nodes: 100}}, rv.Budgets)
	reviewEnd(t, ev)
}

// A review counts as searches: with one slot, an engine move in another
// game waits for one review search at most, never for the whole review;
// and the review itself queues rather than failing.
func TestReviewQueues(t *testing.T) {
	slow := &fakeMind{timed: true}
	f := newFixture(t, Config{Searches: 1, QueueWait: 500 * time.Millisecond,
		Minds: map[string]*Pool{"alphabeta": slow.pool()}})
	a, b := f.create("").ID, f.create("").ID
	f.playMoves(a, "e2e4 e7e5 g1f3 b8c6 f1b5")
	ev := f.events(a)
	code, _ := f.do("POST", "/api/games/"+a+"/review", `{"movetime":100}`, nil)
	require.Equal(t, 200, code)
	for range 3 {
		t0 := time.Now()
		var reply EngineReply
		code, _ := f.do("POST", "/api/games/"+b+"/engine", `{"movetime":100}`, &reply)
		require.Equal(t, 200, code, "the engine gets a slot between two review searches")
		assert.Less(t, time.Since(t0), 400*time.Millisecond)
	}
	// The analysis of another game holds the only slot: the review waits.
	f.do("POST", "/api/games/"+b+"/analysis", "", nil)
	time.Sleep(300 * time.Millisecond)
	done := f.review(a).Done
	time.Sleep(300 * time.Millisecond)
	assert.Equal(t, done, f.review(a).Done, "no slot, no progress")
	assert.Equal(t, "running", f.review(a).Status, "queued, not failed")
	f.do("DELETE", "/api/games/"+b+"/analysis", "", nil)
	assert.Equal(t, "done", reviewEnd(t, ev)["status"])
	assert.Equal(t, 6, f.review(a).Done)
}

// A game under review is in use: the janitor keeps it; deleting it stops
// the review.
func TestReviewKeepsTheGame(t *testing.T) {
	slow := &fakeMind{timed: true}
	f := newFixture(t, Config{IdleExpiry: time.Minute, Minds: map[string]*Pool{"alphabeta": slow.pool()}})
	id := f.create("").ID
	f.playMoves(id, "e2e4 e7e5")
	f.do("POST", "/api/games/"+id+"/review", `{"movetime":1000}`, nil)
	f.advance(2 * time.Minute)
	assert.Equal(t, 0, f.srv.sweep(), "a game under review is in use")
	t0 := time.Now()
	f.do("DELETE", "/api/games/"+id, "", nil)
	assert.Less(t, time.Since(t0), time.Second)
	f.wantError("GET", "/api/games/"+id+"/review", "", 404, "no such game")
}

// sixtyMoves plays 120 plies from the start, a move chosen by a fixed
// rule (the captures first, else the seventh legal move on).
func sixtyMoves(t *testing.T) []string {
	p := board.StartPosition()
	var out []string
	for i := 0; len(out) < 120; i++ {
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		require.Positive(t, ml.Len(), "the game ended early")
		m := ml.At((i * 7) % ml.Len())
		out = append(out, m.UCI(false))
		p.Make(m)
	}
	return out
}

// TestReviewSixtyMoves reviews a 60-move game at 100 ms per position and
// mind, with both minds where ONNX Runtime is installed (alpha-beta alone
// elsewhere): it takes about 121 positions × minds × 100 ms, sends a
// progress event per search, and a second review cancels within a second.
func TestReviewSixtyMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("a review of 60 moves takes half a minute")
	}
	minds := map[string]*Pool{"alphabeta": AlphaBeta(16)}
	n := 1
	if m := MCTS("", "", 256); m.Available() == nil {
		minds["mcts"], n = m, 2
	} else if onnx.Supported && os.Getenv(onnxtest.RequireEnv) != "" {
		t.Fatal(m.Available())
	} else {
		t.Logf("alpha-beta alone: %v", m.Available())
	}
	f := newFixture(t, Config{Minds: minds})
	id := f.create("").ID
	moves := sixtyMoves(t)
	f.playMoves(id, strings.Join(moves, " "))
	ev := f.events(id)
	t0 := time.Now()
	var rv Review
	code, _ := f.do("POST", "/api/games/"+id+"/review", `{"movetime":100}`, &rv)
	require.Equal(t, 200, code)
	searches := rv.Total
	progress := 0
	for {
		name, _ := ev.next(t)
		if name == "review" {
			progress++
		}
		if name == "review-end" {
			break
		}
	}
	took := time.Since(t0)
	want := time.Duration(searches) * 100 * time.Millisecond
	t.Logf("%d searches (%d minds) in %s; %s of search time", searches, n, took.Round(time.Millisecond), want)
	rv = f.review(id)
	assert.Equal(t, "done", rv.Status)
	assert.Equal(t, searches, rv.Done)
	assert.Equal(t, n*121, searches)
	assert.Equal(t, searches, progress, "a progress event per search")
	assert.Greater(t, took, want*9/10)
	assert.Less(t, took, want*3/2, "about the time the budget implies")
	for _, p := range rv.Plies {
		require.Len(t, p.Minds, n, "ply %d", p.Ply)
		assert.Contains(t, Classes, p.Class)
	}
	if n == 2 {
		assert.NotEmpty(t, rv.Positions[0].Evals["mcts"].Top)
	}

	f.do("POST", "/api/games/"+id+"/review", `{"movetime":100}`, nil)
	time.Sleep(time.Second)
	t1 := time.Now()
	code, _ = f.do("DELETE", "/api/games/"+id+"/review", "", &rv)
	require.Equal(t, 200, code)
	assert.Less(t, time.Since(t1), time.Second, "cancelled within a second")
	assert.Equal(t, "cancelled", rv.Status)
	assert.Positive(t, rv.Done)
}
