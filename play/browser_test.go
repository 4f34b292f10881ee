package play

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// The page in a real browser: headless Chromium (Debian's chromium, never
// a downloaded one) driven over the DevTools protocol. Without a Chromium
// the test skips, unless TWOFOLD_REQUIRE_BROWSER is set (make
// test-browser), where a missing browser is a failure. Screenshots go to
// $TWOFOLD_BROWSER_OUT, or a temporary folder named in the log.

func chromiumPath(t *testing.T) string {
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TWOFOLD_REQUIRE_BROWSER") != "" {
		t.Fatal("no Chromium found (apt-get install chromium, or set $CHROMIUM)")
	}
	t.Skip("no Chromium found: the browser test needs one (make test-browser installs it)")
	return ""
}

// browser is a page under test.
type browser struct {
	t   *testing.T
	ctx context.Context
	out string
	// lastID is the game before newGame, to wait for a new one.
	lastID string
}

func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	require.NoError(b.t, chromedp.Do(b.ctx, steps...))
}

// js evaluates an expression in the page.
func js[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	require.NoError(b.t, err, expr)
	return v
}

// waitJS polls a JavaScript condition until it holds.
func (b *browser) waitJS(what, expr string, timeout time.Duration) {
	b.t.Helper()
	start := time.Now()
	deadline := start.Add(timeout)
	for {
		if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			if d := time.Since(start); d > 2*time.Second {
				b.t.Logf("waited %s for %s", d.Round(time.Millisecond), what)
			}
			return
		}
		if time.Now().After(deadline) {
			page, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent + " | " + document.getElementById("message").textContent`))
			b.t.Fatalf("timed out waiting for %s (%s); page says: %s", what, expr, page)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// idle waits until the page has no request under way and the engine is not thinking.
func (b *browser) idle() {
	b.t.Helper()
	b.waitJS("the page to settle", `ui.game && !ui.busy && !ui.game.thinking`, 30*time.Second)
}

// center returns the viewport coordinates of an element's centre.
func (b *browser) center(sel string) (x, y float64) {
	b.t.Helper()
	pt := js[[]float64](b, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: "nearest"}); const r = e.getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, sel))
	require.Len(b.t, pt, 2)
	return pt[0], pt[1]
}

func square(sq string) string { return fmt.Sprintf(`#board [data-sq="%s"]`, sq) }

// click clicks an element with the mouse, as a person would.
func (b *browser) click(sel string) {
	b.t.Helper()
	x, y := b.center(sel)
	b.do(chromedp.MouseClickXY(x, y))
}

// setValue sets a form field and tells the page it changed.
func (b *browser) setValue(id, v string) {
	b.t.Helper()
	js[bool](b, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("change")); return true; })()`, id, v))
}

// drag presses on one square, moves in steps and releases on another, as
// a mouse does (Chromium turns these into pointer events).
func (b *browser) drag(from, to string) {
	b.t.Helper()
	x0, y0 := b.center(square(from))
	x1, y1 := b.center(square(to))
	held := func(p *input.DispatchMouseEventParams) { p.Button, p.Buttons = input.MouseButtonLeft, 1 }
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x0, y0, held, chromedp.ClickCount(1))}
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, held))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	b.do(steps...)
}

func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	require.NoError(b.t, err)
	path := filepath.Join(b.out, name)
	require.NoError(b.t, os.WriteFile(path, png, 0o644))
	b.t.Logf("screenshot %s", path)
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	return js[string](b, fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
}

func (b *browser) moves() []string {
	b.t.Helper()
	return js[[]string](b, `ui.game.moves`)
}

// key presses a key, as on a keyboard.
func (b *browser) key(k string) {
	b.t.Helper()
	b.do(chromedp.KeyEvent(k))
}

// ply is the viewed position's ply on the mainline (-1 in a variation).
func (b *browser) ply() int {
	b.t.Helper()
	return js[int](b, `mainPly()`)
}

// piece is the code of the piece on a square ("wQ"), or "".
func (b *browser) piece(sq string) string {
	b.t.Helper()
	return js[string](b, fmt.Sprintf(`document.querySelector('#board [data-sq="%s"] .piece')?.dataset.piece || ""`, sq))
}

// clickMove clicks the move of the move list with this SAN (the first).
func (b *browser) clickMove(san string) {
	b.t.Helper()
	id := js[string](b, fmt.Sprintf(`(() => { const el = [...document.querySelectorAll("#moves .mv")].find(e => e.firstChild.textContent === %q); if (!el) return ""; el.id = "click-target"; return el.id; })()`, san))
	require.NotEmpty(b.t, id, "no move %s in the list", san)
	b.click("#" + id)
	js[bool](b, `(document.getElementById("click-target")?.removeAttribute("id"), true)`)
}

// legalHere waits until the viewed position's legal moves are known.
func (b *browser) legalHere() {
	b.t.Helper()
	b.waitJS("the position's legal moves", `viewInfo().known`, 10*time.Second)
}

// newGame fills the form and starts a game.
func (b *browser) newGame(side, fen string) {
	b.t.Helper()
	b.setValue("side", side)
	b.setValue("fen", fen)
	b.click("#new")
	placement := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	if fen != "" {
		placement = strings.Fields(fen)[0]
	}
	b.waitJS("the new game", fmt.Sprintf(`ui.game && ui.userSide === %q && ui.game.moves.length + (ui.game.turn === %q ? 0 : 1) >= 0 && ui.game.startFen.startsWith(%q) && ui.game.id !== %q`, side, side, placement, b.lastID), 10*time.Second)
	b.lastID = js[string](b, `ui.game.id`)
	b.idle()
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	exe := chromiumPath(t)
	out := os.Getenv("TWOFOLD_BROWSER_OUT")
	if out == "" {
		out = filepath.Join(os.TempDir(), "twofold-browser")
	}
	require.NoError(t, os.MkdirAll(out, 0o755))

	// AlphaBeta plays for real (quick moves); MCTS is offered as
	// unavailable, to see the page grey it out with the reason.
	srv := New(Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(4), "mcts": broken()}})
	ts := httptest.NewServer(srv.Handler())
	defer srv.Close()
	defer ts.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // root in containers; the page is our own
		chromedp.DisableGPU,
		chromedp.WindowSize(1100, 760),
		chromedp.Flag("hide-scrollbars", true),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// The whole test is bounded by a timer that cancels the browser's
	// context (chromedp wants no deadline on the context that starts it).
	stop := time.AfterFunc(3*time.Minute, cancel)
	defer stop.Stop()
	b := &browser{t: t, ctx: ctx, out: out}

	b.do(chromedp.Navigate(ts.URL + "/"))
	b.waitJS("the board", `document.querySelectorAll("#board .piece").length === 32`, 20*time.Second)
	b.idle()
	b.lastID = js[string](b, `ui.game.id`)
	// Quick engine replies for the test.
	b.setValue("movetime", "300")

	// MCTS greyed out, with the reason.
	require.True(t, js[bool](b, `document.querySelector('#mind option[value="mcts"]').disabled`))
	require.Contains(t, b.text("#mind-note"), "no network here")
	// The Elo field offers UCI_Elo's calibrated range, as the server declares it.
	require.Equal(t, fmt.Sprint(MinElo), js[string](b, `document.getElementById("elo").min`))
	require.Equal(t, fmt.Sprint(MaxElo), js[string](b, `document.getElementById("elo").max`))

	// Click-click: e2, then e4; the legal destinations show as targets.
	b.click(square("e2"))
	targets := js[[]string](b, `[...document.querySelectorAll("#board .sq.target")].map(d => d.dataset.sq).sort()`)
	require.Equal(t, []string{"e3", "e4"}, targets)
	b.click(square("e4"))
	b.waitJS("the engine's reply", `ui.game.moves.length === 2`, 30*time.Second)
	b.idle()
	require.Equal(t, "e4", b.moves()[0])

	// Drag: the king's knight out.
	b.drag("g1", "f3")
	b.waitJS("the engine's second reply", `ui.game.moves.length === 4`, 30*time.Second)
	b.idle()
	require.Equal(t, "Nf3", b.moves()[2])
	last := js[[]string](b, `[...document.querySelectorAll("#board .sq.last")].map(d => d.dataset.sq).sort()`)
	require.Len(t, last, 2, "the last move is highlighted")
	require.Contains(t, b.text("#moves"), "Nf3")
	b.screenshot("01-game.png")

	// Undo takes back the engine's reply and your move.
	b.click("#undo")
	b.waitJS("undo", `ui.game.moves.length === 2`, 10*time.Second)
	b.idle()

	// Flip turns the board round.
	b.click("#flip")
	require.Equal(t, "h1", js[string](b, `document.querySelector("#board .sq").dataset.sq`))
	b.click("#flip")
	require.Equal(t, "a8", js[string](b, `document.querySelector("#board .sq").dataset.sq`))

	// Promotion with the picker: drag the pawn to the last rank, pick a knight.
	b.newGame("white", "7k/P6p/8/8/8/8/8/K7 w - - 0 1")
	b.drag("a7", "a8")
	b.waitJS("the promotion picker", `!document.getElementById("promo").hidden`, 5*time.Second)
	b.screenshot("02-promotion.png")
	b.click(`#promo-pieces [data-promo="n"]`)
	b.waitJS("the promotion and the reply", `ui.game.moves.length === 2`, 30*time.Second)
	b.idle()
	require.Equal(t, "a8=N", b.moves()[0])

	// Checkmate: a back-rank mate in one, then the reason shown.
	b.newGame("white", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	b.click(square("a1"))
	b.click(square("a8"))
	b.waitJS("checkmate", `document.getElementById("status").textContent === "Checkmate: White wins"`, 10*time.Second)
	require.Equal(t, "g8", js[string](b, `document.querySelector("#board .sq.check")?.dataset.sq || ""`), "the mated king is highlighted")
	require.Equal(t, "Ra8#", b.moves()[0])
	b.screenshot("03-checkmate.png")

	// Playing Black: the board is turned and the engine opens.
	b.newGame("black", "")
	b.waitJS("the engine's first move", `ui.game.moves.length === 1`, 30*time.Second)
	b.idle()
	require.Equal(t, "h1", js[string](b, `document.querySelector("#board .sq").dataset.sq`))
	// The thinking indicator shows the live score and line meanwhile.
	b.setValue("movetime", "1000")
	b.drag("e7", "e5")
	b.waitJS("the thinking indicator", `!document.getElementById("thinking").hidden && / d\d+ /.test(document.getElementById("think-text").textContent)`, 10*time.Second)
	b.screenshot("04-thinking.png")
	b.setValue("movetime", "300")
	b.waitJS("the engine's reply to Black", `ui.game.moves.length === 3`, 30*time.Second)
	b.idle()
	require.Equal(t, "e5", b.moves()[1])

	// Analysis: MultiPV lines from an infinite search; leaving stops it
	// (and the engine, to move, answers).
	b.newGame("white", "")
	b.click("#analyse")
	b.waitJS("three analysis lines", `document.querySelectorAll("#lines .line").length === 3`, 20*time.Second)
	b.drag("d2", "d4") // a move restarts the analysis in the new position
	b.waitJS("analysis after d4", `ui.game.moves.length === 1 && ui.game.analysing && document.querySelectorAll("#lines .line").length === 3`, 20*time.Second)
	b.screenshot("05-analysis.png")
	b.click("#analyse")
	b.waitJS("the analysis to stop", `!ui.game.analysing && ui.game.moves.length === 2`, 30*time.Second)
	b.idle()

	// In a game against the engine, a move in the game's past asks first
	// and then cuts the game there (and the engine answers); saying no
	// changes nothing.
	require.Equal(t, 2, len(b.moves()))
	b.clickMove(b.moves()[0])
	require.Equal(t, 1, b.ply())
	b.key(kb.Home)
	b.waitJS("the start", `mainPly() === 0`, 5*time.Second)
	b.legalHere()
	js[bool](b, `(ui.asked = 0, ui.confirm = () => { ui.asked++; return false; }, true)`)
	b.click(square("e2"))
	b.click(square("e4"))
	b.waitJS("the question", `ui.asked === 1 && !ui.busy`, 5*time.Second)
	require.Equal(t, "d4", b.moves()[0], "refused: nothing changed")
	js[bool](b, `(ui.confirm = () => { ui.asked++; return true; }, true)`)
	b.click(square("e2"))
	b.click(square("e4"))
	b.waitJS("the game cut and the reply", `ui.asked === 2 && ui.game.moves.length === 2 && ui.game.moves[0] === "e4"`, 30*time.Second)
	b.idle()
	require.Equal(t, 2, b.ply(), "the view follows the game again")

	// A phone-sized screen: the board fills the width, the panel goes below.
	b.do(chromedp.EmulateViewport(390, 760, chromedp.EmulateScale(1), chromedp.EmulateMobile))
	b.waitJS("the phone layout", `document.getElementById("board-wrap").getBoundingClientRect().width <= 390`, 5*time.Second)
	width := js[float64](b, `document.getElementById("board-wrap").getBoundingClientRect().width`)
	boardTop := js[float64](b, `document.getElementById("board-wrap").getBoundingClientRect().top`)
	panelTop := js[float64](b, `document.getElementById("panel").getBoundingClientRect().top`)
	require.Greater(t, width, 340.0)
	require.Greater(t, panelTop, boardTop+width-1, "the panel is below the board")
	b.click(square("b1"))
	b.click(square("c3"))
	b.waitJS("a move on the phone", `ui.game.moves.length === 4`, 30*time.Second)
	b.idle()
	b.screenshot("06-phone.png")

	b.do(chromedp.EmulateViewport(1100, 760, chromedp.EmulateScale(1)))
	reviewInBrowser(t, b)
}

// reviewPGN is a short game with a comment, a variation and a blunder.
const reviewPGN = `[Event "Browser test"]
[White "Anna"]
[Black "Ben"]
[Result "1-0"]

1. e4 e5 2. Bc4 {Eyeing f7.} Nc6 3. Qh5 Nf6 (3... g6 4. Qf3 Nf6) 4. Qxf7# 1-0
`

// reviewInBrowser drives the analysis board: a PGN import, moving through
// the game by clicks and keys, a variation, a reload at the same place,
// a review by both minds (the network where ONNX Runtime is installed, a
// stand-in elsewhere), the bar, the graph, the arrows, the annotated PGN,
// and the review on a phone-sized screen.
func reviewInBrowser(t *testing.T, b *browser) {
	mcts := MCTS("", "", 64)
	if err := mcts.Available(); err != nil {
		t.Logf("MCTS unavailable (%v): a stand-in reviews in its place", err)
		mcts = (&fakeMind{root: true}).pool()
	}
	srv := New(Config{Minds: map[string]*Pool{"alphabeta": AlphaBeta(16), "mcts": mcts}})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	defer srv.Close()
	// The page leaves first, so that its event stream ends.
	defer b.do(chromedp.Navigate("about:blank"))
	b.do(chromedp.Navigate(ts.URL + "/"))
	b.waitJS("the board", `document.querySelectorAll("#board .piece").length === 32`, 20*time.Second)
	b.idle()
	b.lastID = js[string](b, `ui.game.id`)

	// A bad PGN: the line and the reason, and the game stays.
	b.click("#import-box summary")
	b.setValue("import-text", "1. e4 e5\n2. Ke3 *")
	b.click("#import")
	b.waitJS("the import's error", `!document.getElementById("message").hidden`, 10*time.Second)
	require.Contains(t, b.text("#message"), `line 2: illegal move "Ke3"`)
	require.Equal(t, b.lastID, js[string](b, `ui.game.id`))

	// The import: the moves, the comment, the variation; the start shown.
	b.setValue("import-text", reviewPGN)
	b.click("#import")
	b.waitJS("the imported game", fmt.Sprintf(`ui.game.id !== %q && ui.game.moves.length === 7 && !ui.busy`, b.lastID), 10*time.Second)
	require.Equal(t, "both", js[string](b, `ui.userSide`), "an imported game is an analysis board")
	require.Equal(t, 0, b.ply())
	require.Contains(t, b.text("#moves"), "Eyeing f7.")
	require.Contains(t, b.text("#moves .var"), "g6")
	require.Contains(t, b.text("#players"), "Anna – Ben")

	// Clicking a move shows its position; the arrow keys step.
	b.clickMove("Qh5")
	require.Equal(t, 5, b.ply())
	require.Equal(t, "wQ", b.piece("h5"))
	require.Contains(t, js[string](b, `location.search`), "ply=5")
	b.key(kb.ArrowRight)
	b.waitJS("ply 6", `mainPly() === 6`, 5*time.Second)
	require.Equal(t, "bN", b.piece("f6"))
	b.key(kb.ArrowLeft)
	b.key(kb.ArrowLeft)
	b.waitJS("ply 4", `mainPly() === 4`, 5*time.Second)
	require.Equal(t, "", b.piece("h5"))
	b.key(kb.End)
	b.waitJS("the end", `mainPly() === 7`, 5*time.Second)
	require.Equal(t, "Checkmate: White wins", b.text("#status"))
	b.key(kb.Home)
	b.waitJS("the start", `mainPly() === 0`, 5*time.Second)
	// The variation's move: its position.
	b.clickMove("g6")
	b.waitJS("the variation", `mainPly() === -1`, 5*time.Second)
	require.Equal(t, "bP", b.piece("g6"))
	require.Contains(t, b.text("#nav-where"), "variation")
	// A move from an earlier position of an analysis board starts a
	// variation; the mainline stays.
	b.clickMove("e5")
	b.legalHere()
	b.click(square("d2"))
	b.click(square("d4"))
	b.waitJS("a new variation", `!ui.busy && ui.game.notes && ui.game.notes[2] && ui.game.notes[2].variations.length === 1`, 10*time.Second)
	require.Equal(t, 7, len(b.moves()))
	require.Equal(t, "e2e4,e7e5,d2d4", js[string](b, `viewPath().join(",")`))

	// A reload shows the same place (the URL holds the game and the ply).
	b.clickMove("Nc6")
	url := js[string](b, `location.href`)
	require.Contains(t, url, "ply=4")
	b.do(chromedp.Reload())
	b.waitJS("the reloaded page", `ui.game && ui.game.moves.length === 7 && mainPly() === 4`, 20*time.Second)
	require.Equal(t, "bN", b.piece("c6"))

	// The review: both minds, progress, then every move classified.
	b.setValue("review-budget", "100")
	b.click("#review")
	b.waitJS("the review", `ui.review && ui.review.status === "done"`, 90*time.Second)
	b.waitJS("the review drawn", `!document.getElementById("graph").hasAttribute("hidden") && document.querySelectorAll("#graph .curve").length === 2`, 10*time.Second)
	require.Equal(t, []string{"alphabeta", "mcts"}, js[[]string](b, `ui.review.minds`))
	for _, m := range []string{"alphabeta", "mcts"} {
		for _, side := range []string{"white", "black"} {
			acc := b.text(fmt.Sprintf(`#review-summary td.acc[data-mind=%q][data-side=%q]`, m, side))
			require.NotEqual(t, "–", acc, "%s %s accuracy", m, side)
		}
	}
	require.Contains(t, b.text("#moves .mv.cls-blunder"), "Nf6", "the blunder marked in the move list")
	require.Equal(t, 1, js[int](b, `document.querySelectorAll("#graph circle.cls-blunder").length`))

	// The graph is clickable: the position after the blunder.
	x := js[float64](b, `(() => { const g = document.getElementById("graph"); g.scrollIntoView({block: "nearest"}); const r = g.getBoundingClientRect(); return r.left + r.width * 6 / 7; })()`)
	y := js[float64](b, `(() => { const r = document.getElementById("graph").getBoundingClientRect(); return r.top + r.height / 2; })()`)
	b.do(chromedp.MouseClickXY(x, y))
	b.waitJS("the graph's ply", `mainPly() === 6`, 5*time.Second)
	card := b.text("#review-move")
	require.Contains(t, card, "blunder")
	require.Contains(t, card, "Better:")
	require.Contains(t, card, "prior", "MCTS's top moves with the network's priors")
	// The bar: White is winning (mate in one).
	require.Greater(t, js[float64](b, `Number(document.getElementById("evalbar").dataset.win)`), 90.0)
	// The arrows: each mind's best move here, Qxf7#.
	arrows := js[map[string]string](b, `Object.fromEntries([...document.querySelectorAll("#arrows line.arrow")].map(l => [l.dataset.mind, l.dataset.move]))`)
	require.Equal(t, "h5f7", arrows["alphabeta"])
	require.Contains(t, arrows, "mcts")
	b.screenshot("07-review.png")
	// Before the blunder, MCTS's top moves with their visit shares.
	b.clickMove("Qh5")
	require.Contains(t, b.text("#review-move"), "% of playouts, prior")

	// The annotated PGN: evals, glyphs, the better line, the comment kept.
	href := js[string](b, `document.getElementById("download-review").getAttribute("href")`)
	require.Contains(t, href, "annotated=1")
	annotated, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(%q).then(r => r.text())`, href), chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	require.Contains(t, annotated, "[%eval")
	require.Contains(t, annotated, "$4")
	require.Contains(t, annotated, "{Eyeing f7.")
	require.Contains(t, annotated, `[Annotator "Twofold"]`)

	// On a phone: the board, the bar and the graph fit the width, the graph
	// still takes clicks.
	b.do(chromedp.EmulateViewport(390, 760, chromedp.EmulateScale(1), chromedp.EmulateMobile))
	b.waitJS("the phone layout", `document.getElementById("left").getBoundingClientRect().right <= 390`, 5*time.Second)
	g := js[[]float64](b, `(() => { const e = document.getElementById("graph"); e.scrollIntoView({block: "nearest"}); const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.height]; })()`)
	require.GreaterOrEqual(t, g[0], 0.0)
	require.LessOrEqual(t, g[1], 390.0)
	require.Greater(t, js[float64](b, `document.getElementById("board-wrap").getBoundingClientRect().width`), 340.0)
	b.do(chromedp.MouseClickXY(g[0]+(g[1]-g[0])*5/7, g[2]+g[3]/2))
	b.waitJS("the graph's ply on the phone", `mainPly() === 5`, 5*time.Second)
	b.screenshot("08-review-phone.png")
}
