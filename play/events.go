package play

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Live search information goes out as Server-Sent Events: the stream only
// flows from server to page, which is what SSE is for, and it needs nothing
// beyond net/http on this side and EventSource (with its reconnection) on
// the page, where WebSocket would need a handshake and framing of its own.

// event is one message of a game's stream.
type event struct {
	name string // "info", "state", "bestmove", "analysis-end"
	data []byte // JSON
}

// hub fans a game's events out to its subscribers. A subscriber that does
// not keep up loses events rather than slowing the search down: info lines
// are superseded by the next ones anyway.
type hub struct {
	mu     sync.Mutex
	subs   map[chan event]struct{}
	closed bool
}

func newHub() *hub { return &hub{subs: map[chan event]struct{}{}} }

// subscribe adds a subscriber; it fails when the hub holds max already or
// the game is gone.
func (h *hub) subscribe(max int) (chan event, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errGone
	}
	if len(h.subs) >= max {
		return nil, &apiError{status: http.StatusTooManyRequests, msg: fmt.Sprintf("too many event streams for this game (at most %d)", max)}
	}
	c := make(chan event, 64)
	h.subs[c] = struct{}{}
	return c, nil
}

func (h *hub) unsubscribe(c chan event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[c]; ok {
		delete(h.subs, c)
		close(c)
	}
}

// publish sends v, as JSON, to every subscriber that has room for it.
func (h *hub) publish(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs {
		select {
		case c <- event{name: name, data: data}:
		default:
		}
	}
}

// close ends every stream (the game was deleted or expired).
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.subs {
		delete(h.subs, c)
		close(c)
	}
}

// keepAlive is how often an idle stream gets a comment line, so proxies
// and browsers do not time it out.
const keepAlive = 15 * time.Second

// serveEvents streams c to w until c closes or the client leaves.
func serveEvents(w http.ResponseWriter, r *http.Request, c chan event, first event) {
	flusher, _ := w.(http.Flusher)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(e event) bool {
		_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
		if flusher != nil {
			flusher.Flush()
		}
		return err == nil
	}
	if !write(first) {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case e, ok := <-c:
			if !ok || !write(e) {
				return
			}
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
}
