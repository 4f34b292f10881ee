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
	deadline := time.Now().Add(timeout)
	for {
		if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
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
	pt := js[[]float64](b, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, sel))
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
}
