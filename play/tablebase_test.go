package play

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/syzygy"
)

// tablesDir holds every 3- and 4-piece table (package syzygy's test data).
const tablesDir = "../syzygy/testdata/tables"

func openTables(t *testing.T) mind.Tablebases {
	t.Helper()
	tb, err := syzygy.Open(tablesDir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = tb.Close() })
	return mind.DefaultTablebases(tb)
}

// When the position on the board is in the tables, the state says what
// they say: the result, the distance to zeroing and every move's result.
func TestStateReportsTablebase(t *testing.T) {
	f := newFixture(t, Config{Tablebases: openTables(t)})
	st := f.create(`{"fen":"8/8/8/4k3/8/8/8/KR6 w - - 0 1"}`)
	tb := st.Tablebase
	require.NotNil(t, tb)
	assert.Equal(t, "win", tb.WDL)
	require.NotNil(t, tb.DTZ)
	assert.Equal(t, 29, *tb.DTZ)
	require.Len(t, tb.Moves, 15)
	assert.Equal(t, "Kb2", tb.Moves[0].SAN)
	assert.Equal(t, "a1b2", tb.Moves[0].UCI)
	assert.Equal(t, "win", tb.Moves[0].WDL)
	assert.Equal(t, 29, *tb.Moves[0].DTZ)
	assert.Equal(t, 33, *tb.Moves[len(tb.Moves)-1].DTZ, "the slowest last")

	// The side to lose, after a move: the state follows the board.
	var after State
	code, _ := f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"a1b2"}`, &after)
	require.Equal(t, 200, code)
	require.NotNil(t, after.Tablebase)
	assert.Equal(t, "loss", after.Tablebase.WDL)
	assert.Equal(t, -28, *after.Tablebase.DTZ)
	for _, m := range after.Tablebase.Moves {
		assert.Equal(t, "loss", m.WDL)
	}

	// The fifty-move counter counts: 80 plies on it, the win is cursed.
	st = f.create(`{"fen":"8/8/8/4k3/8/8/8/KR6 w - - 80 1"}`)
	require.NotNil(t, st.Tablebase)
	assert.Equal(t, "cursed-win", st.Tablebase.WDL)

	// A drawn KRvKR: the moves that lose the rook are told apart.
	st = f.create(`{"fen":"8/8/8/8/3k4/8/2r5/1R2K3 w - - 0 1"}`)
	require.NotNil(t, st.Tablebase)
	assert.Equal(t, "draw", st.Tablebase.WDL)
	results := map[string]string{}
	for _, m := range st.Tablebase.Moves {
		results[m.SAN] = m.WDL
	}
	assert.Equal(t, "loss", results["Rc1"])
	assert.Equal(t, "draw", results["Kd1"])

	// Not in the tables: too many pieces, castling rights, or over.
	for _, fen := range []string{
		"",
		"8/8/3k4/3r4/8/3KR3/3P4/8 w - - 0 1",
		"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
		"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
	} {
		st = f.create(`{"fen":"` + fen + `"}`)
		assert.Nil(t, st.Tablebase, fen)
	}
	st = f.create(`{"fen":"k7/8/1K6/8/8/8/8/7R w - - 0 1"}`)
	require.NotNil(t, st.Tablebase)
	var over State
	f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"h1h8"}`, &over)
	assert.Equal(t, "checkmate", over.Status)
	assert.Nil(t, over.Tablebase, "a game over needs no tables")

	// A server without tables says nothing of them.
	assert.Nil(t, newFixture(t, Config{}).create(`{"fen":"8/8/8/4k3/8/8/8/KR6 w - - 0 1"}`).Tablebase)
}

// The server's minds get the tables: the engine keeps a won ending won
// within the fifty-move rule.
func TestEngineUsesTablebases(t *testing.T) {
	f := newFixture(t, Config{Tablebases: openTables(t), Minds: map[string]*Pool{"alphabeta": AlphaBeta(4)}})
	// 70 plies on the counter: only Kb2 and Re1+ win for certain.
	st := f.create(`{"fen":"8/8/8/4k3/8/8/8/KR6 w - - 70 1"}`)
	var reply EngineReply
	code, _ := f.do("POST", "/api/games/"+st.ID+"/engine", `{"movetime":200}`, &reply)
	require.Equal(t, 200, code)
	assert.Contains(t, []string{"a1b2", "b1e1"}, reply.Move)
	require.NotNil(t, reply.Info.Score.CP)
	assert.Equal(t, 20000, *reply.Info.Score.CP, "the tables' score")
}

// The page shows the tables' verdict under the status.
func TestBrowserTablebase(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	exe := chromiumPath(t)
	out := os.Getenv("TWOFOLD_BROWSER_OUT")
	if out == "" {
		out = filepath.Join(os.TempDir(), "twofold-browser")
	}
	require.NoError(t, os.MkdirAll(out, 0o755))
	srv := New(Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(4), "mcts": broken()}, Tablebases: openTables(t)})
	ts := httptest.NewServer(srv.Handler())
	defer srv.Close()
	defer ts.Close()
	actx, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1100, 760),
		chromedp.Flag("hide-scrollbars", true))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	stop := time.AfterFunc(2*time.Minute, cancel)
	defer stop.Stop()
	b := &browser{t: t, ctx: ctx, out: out}

	b.do(chromedp.Navigate(ts.URL + "/"))
	b.waitJS("the board", `document.querySelectorAll("#board .piece").length === 32`, 20*time.Second)
	b.idle()
	require.True(t, js[bool](b, `document.getElementById("tablebase").hidden`), "the opening is not in the tables")
	b.lastID = js[string](b, `ui.game.id`)
	b.newGame("white", "8/8/8/4k3/8/8/8/KR6 w - - 0 1")
	b.waitJS("the tablebase box", `!document.getElementById("tablebase").hidden`, 10*time.Second)
	text := b.text("#tablebase")
	assert.True(t, strings.HasPrefix(text, "Tablebase: White wins · DTZ 29"), text)
	assert.Contains(t, text, "Kb2 29")
	assert.Equal(t, "tb-win", js[string](b, `document.querySelector("#tablebase .tb-moves span").className`))
	b.screenshot("07-tablebase.png")
}
