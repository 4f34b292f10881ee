package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a bytes.Buffer safe to read while serve writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs serve until the test ends and returns the URL it prints.
func startServe(t *testing.T, args ...string) (url string, stderr *syncBuffer) {
	var stdout syncBuffer
	stderr = &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- serve(ctx, args, &stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		assert.Equal(t, 0, <-done)
	})
	re := regexp.MustCompile(`serving the board at (http://\S+)`)
	require.Eventually(t, func() bool { return re.MatchString(stdout.String()) }, 5*time.Second, 10*time.Millisecond)
	return re.FindStringSubmatch(stdout.String())[1], stderr
}

func TestServe(t *testing.T) {
	url, stderr := startServe(t, "--addr", "127.0.0.1:0", "--max-games", "1")
	assert.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), url)
	resp, err := http.Post(url+"api/games", "application/json", strings.NewReader(`{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}`))
	require.NoError(t, err)
	var st struct{ ID, Status string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	resp.Body.Close()
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	resp, err = http.Post(url+"api/games", "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "--max-games 1")
	resp, err = http.Post(url+"api/games/"+st.ID+"/engine", "application/json", strings.NewReader(`{"movetime":200}`))
	require.NoError(t, err)
	var reply struct{ Move string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&reply))
	resp.Body.Close()
	assert.Equal(t, "a1a8", reply.Move)
	assert.Empty(t, stderr.String(), "no warning on loopback")
}

func TestServeWarnsOffLoopback(t *testing.T) {
	url, stderr := startServe(t, "--addr", "0.0.0.0:0")
	assert.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), url)
	assert.Contains(t, stderr.String(), "warning: listening on")
	assert.Contains(t, stderr.String(), "reachable from other machines")
}

func TestServeBadFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, serve(context.Background(), []string{"--nope"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "unknown flag")
	stderr.Reset()
	assert.Equal(t, 1, serve(context.Background(), []string{"--addr", "256.0.0.1:99999"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "engine serve:")
	stdout.Reset()
	assert.Equal(t, 0, serve(context.Background(), []string{"--help"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "--addr")
	assert.Contains(t, stdout.String(), "--open")
}

func TestLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true, "127.1.2.3": true, "": false, "0.0.0.0": false, "::": false, "192.168.1.2": false, "example.com": false} {
		assert.Equal(t, want, loopback(host), host)
	}
}

// --syzygy gives the board and both minds the tables.
func TestServeWithTablebases(t *testing.T) {
	url, stderr := startServe(t, "--addr", "127.0.0.1:0", "--syzygy", "../../syzygy/testdata/tables"+string(filepath.ListSeparator)+"/nonexistent/tb")
	assert.Contains(t, stderr.String(), "engine serve: warning: syzygy: directory /nonexistent/tb")
	resp, err := http.Post(url+"api/games", "application/json", strings.NewReader(`{"fen":"8/8/8/4k3/8/8/8/KR6 w - - 0 1"}`))
	require.NoError(t, err)
	var st struct {
		Tablebase struct {
			WDL string
			DTZ int
		}
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	resp.Body.Close()
	assert.Equal(t, "win", st.Tablebase.WDL)
	assert.Equal(t, 29, st.Tablebase.DTZ)

	var stdout, errs bytes.Buffer
	assert.Equal(t, 1, serve(context.Background(), []string{"--addr", "127.0.0.1:0", "--syzygy", t.TempDir()}, &stdout, &errs))
	assert.Contains(t, errs.String(), "no tablebase files")
}
