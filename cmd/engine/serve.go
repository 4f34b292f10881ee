package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/play"
	"github.com/twofold-chess/twofold/syzygy"
)

const serveHelp = `Usage: engine serve [flags]

Serves a board to play and analyse in the browser, and its JSON API (see
docs/play.md). Binds to 127.0.0.1 unless --addr says
otherwise; the limits below keep one instance on a network from being
exhausted. With --syzygy both minds probe the tablebases and the board
shows their verdict (docs/tablebases.md). Ctrl-C stops it.

Flags:
`

func runServe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
}

// serve runs the server until ctx ends; split from runServe for tests.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	d := play.DefaultConfig
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	open := fs.Bool("open", false, "open the page in the default browser")
	cfg := play.Config{}
	fs.IntVar(&cfg.MaxGames, "max-games", d.MaxGames, "games held at once")
	fs.IntVar(&cfg.Searches, "searches", d.Searches, "engine searches running at once, all games together")
	fs.DurationVar(&cfg.MaxThink, "max-think", d.MaxThink, "the longest time per move a request may ask")
	fs.DurationVar(&cfg.IdleExpiry, "idle-expiry", d.IdleExpiry, "a game untouched this long is deleted")
	fs.DurationVar(&cfg.MaxAnalysis, "max-analysis", d.MaxAnalysis, "an analysis stops by itself after this")
	syzygyDir := fs.String("syzygy", "", "Syzygy tablebase directories (':'-separated, ';' on Windows): both minds probe them and the board shows their verdict")
	if done, code := parseFlags(fs, args, serveHelp, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "engine serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *syzygyDir != "" {
		tb, ok := openServeTables(*syzygyDir, stdout, stderr)
		if !ok {
			return 1
		}
		defer tb.Close() // after srv.Close: no search probes then
		cfg.Tablebases = mind.DefaultTablebases(tb)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "engine serve: %v\n", err)
		return 1
	}
	srv := play.New(cfg)
	defer srv.Close()
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		// No WriteTimeout: event streams and analyses are long by design;
		// each search is bounded by --max-think or --max-analysis instead.
	}
	url := pageURL(ln.Addr().(*net.TCPAddr))
	// The warning comes before the address line, so whoever waits for
	// the address (a user, a script, a test) has already been warned.
	if host, _, _ := net.SplitHostPort(*addr); !loopback(host) {
		fmt.Fprintf(stderr, "engine serve: warning: listening on %s, reachable from other machines: anyone who can connect may play and use the engine's CPU (the API has no authentication)\n", ln.Addr())
	}
	fmt.Fprintf(stdout, "Twofold is serving the board at %s (Ctrl-C stops it)\n", url)
	if *open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(stderr, "engine serve: cannot open a browser (%v); open %s yourself\n", err, url)
		}
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "engine serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	srv.Close() // stops searches and event streams, so Shutdown need not wait for them
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stderr, "engine serve: %v\n", err)
	}
	return 0
}

// openServeTables opens the tables of --syzygy and says what it found; a
// directory that cannot be read is a warning, no table at all an error.
// A table found unusable when first probed is a warning then.
func openServeTables(dir string, stdout, stderr io.Writer) (*syzygy.Tablebase, bool) {
	var mu sync.Mutex
	tb, _ := syzygy.OpenWith(dir, syzygy.Options{OnTableError: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stderr, "engine serve: warning: %v; searching on without it\n", err)
	}})
	for _, err := range tb.Problems() {
		fmt.Fprintf(stderr, "engine serve: warning: %v\n", err)
	}
	if tb.NumWDL() == 0 {
		_ = tb.Close()
		fmt.Fprintf(stderr, "engine serve: no tablebase files (.rtbw) in %s\n", dir)
		return nil, false
	}
	fmt.Fprintf(stdout, "Tablebases: %d WDL and %d DTZ files, up to %d pieces, in %s\n", tb.NumWDL(), tb.NumDTZ(), tb.MaxPieces(), dir)
	return tb, true
}

// loopback reports whether host names only this machine ("" and
// unspecified addresses listen on every interface, so they do not).
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// pageURL is the address to open: a wildcard listener is reached on
// 127.0.0.1 from this machine.
func pageURL(a *net.TCPAddr) string {
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(a.Port)) + "/"
}

// openBrowser asks the desktop to open url.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	case "darwin":
		cmd = exec.Command("open", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no display")
		}
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
