package play

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

// The page is plain HTML, CSS and JavaScript, embedded so that the binary
// alone serves it.
//
//go:embed web
var webFS embed.FS

// apiError is an error with its HTTP status; every API error goes out as
// {"error": msg}.
type apiError struct {
	status int
	msg    string
	retry  bool // 503 with Retry-After
}

func (e *apiError) Error() string { return e.msg }

var errGone = &apiError{status: http.StatusNotFound, msg: "no such game (it was deleted, or expired after being idle)"}

func itoa(n int) string { return strconv.Itoa(n) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{status: http.StatusInternalServerError, msg: err.Error()}
	}
	if ae.retry {
		w.Header().Set("Retry-After", "2")
	}
	writeJSON(w, ae.status, map[string]string{"error": ae.msg})
}

// decode reads an optional JSON body into v: empty is allowed (the caller
// checks required fields), anything else must be one JSON object of known
// fields within MaxBody bytes.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) error {
	_, err := s.decodeUpTo(w, r, v, s.cfg.MaxBody)
	return err
}

// decodeUpTo is decode with a limit of its own (a PGN's); it returns the
// body's length.
func (s *Server) decodeUpTo(w http.ResponseWriter, r *http.Request, v any, limit int64) (int, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return 0, tooLarge(limit)
		}
		return 0, &apiError{status: http.StatusBadRequest, msg: "cannot read the request body: " + err.Error()}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return len(data), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return len(data), &apiError{status: http.StatusBadRequest, msg: "bad JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return len(data), &apiError{status: http.StatusBadRequest, msg: "bad JSON: more than one value in the body"}
	}
	return len(data), nil
}

func tooLarge(limit int64) error {
	return &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("request body over %d bytes", limit)}
}

// levelField is a level given as a string ("hard", "1500") or a number (1500).
type levelField string

func (l *levelField) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*l = levelField(s)
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return errors.New("level: want a name (easy, medium, hard, max) or an Elo")
	}
	*l = levelField(strconv.Itoa(n))
	return nil
}

// Handler returns the page and the API:
//
//	GET    /                          the page
//	GET    /api/info                  minds (with availability), levels, limits
//	POST   /api/pgn                   {"pgn"} → the games in a PGN text
//	POST   /api/games                 new game {"fen"|"pgn","game","mind","level"} (all optional) → state
//	GET    /api/games/{id}            state
//	PATCH  /api/games/{id}            {"mind","level"} → state
//	DELETE /api/games/{id}            delete the game
//	GET    /api/games/{id}/position   ?at=e2e4,e7e5 → a position of the game: FEN, legal moves
//	POST   /api/games/{id}/moves      {"move":"e2e4","at":[...],"variation":bool} → state
//	POST   /api/games/{id}/engine     {"movetime":ms} (optional) → the engine's move and the state
//	POST   /api/games/{id}/undo       {"plies":n} (optional, default 1) → state
//	POST   /api/games/{id}/analysis   {"multipv":n,"at":[...]} (optional) → start an infinite search
//	DELETE /api/games/{id}/analysis   stop it
//	POST   /api/games/{id}/review     {"movetime":ms}|{"nodes":n}|{"minds":{...}} → start a review
//	GET    /api/games/{id}/review     the review, per position and move
//	DELETE /api/games/{id}/review     cancel it
//	GET    /api/games/{id}/events     Server-Sent Events: state, info, bestmove, analysis-end, review, review-end
//	GET    /api/games/{id}/pgn        the game in PGN (?annotated=1: with the review)
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	routes := map[string]map[string]http.HandlerFunc{
		"/api/info":                {"GET": s.handleInfo},
		"/api/pgn":                 {"POST": s.handlePGNList},
		"/api/games":               {"POST": s.handleCreate},
		"/api/games/{id}":          {"GET": s.handleGet, "PATCH": s.handlePatch, "DELETE": s.handleDelete},
		"/api/games/{id}/position": {"GET": s.handlePosition},
		"/api/games/{id}/review":   {"POST": s.handleReview, "GET": s.handleGetReview, "DELETE": s.handleStopReview},
		"/api/games/{id}/moves":    {"POST": s.handleMove},
		"/api/games/{id}/engine":   {"POST": s.handleEngine},
		"/api/games/{id}/undo":     {"POST": s.handleUndo},
		"/api/games/{id}/analysis": {"POST": s.handleAnalyse, "DELETE": s.handleStopAnalysis},
		"/api/games/{id}/events":   {"GET": s.handleEvents},
		"/api/games/{id}/pgn":      {"GET": s.handlePGN},
	}
	for path, methods := range routes {
		var allow []string
		for m, h := range methods {
			mux.HandleFunc(m+" "+path, h)
			allow = append(allow, m)
		}
		// Without this, ServeMux answers a wrong method in plain text.
		mux.HandleFunc(path, methodNotAllowed(strings.Join(sortedStrings(allow), ", ")))
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{status: http.StatusNotFound, msg: "no such API endpoint: " + r.URL.Path})
	})
	static, _ := fs.Sub(webFS, "web")
	files := http.FileServerFS(static)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed("GET, HEAD")(w, r)
			return
		}
		// The page is small and changes with the binary: always revalidate.
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
	return mux
}

func sortedStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("method %s not allowed here; use %s", r.Method, allow)})
	}
}

// MindInfo describes a mind for the page.
type MindInfo struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"` // why it is not available
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request) {
	var minds []MindInfo
	for _, n := range s.mindNames() {
		mi := MindInfo{Name: n, Available: true}
		if err := s.cfg.Minds[n].Available(); err != nil {
			mi.Available, mi.Reason = false, err.Error()
		}
		minds = append(minds, mi)
	}
	c := s.cfg
	writeJSON(w, http.StatusOK, map[string]any{
		"minds":  minds,
		"levels": []string{"easy", "medium", "hard", "max"},
		"elo":    map[string]int{"min": MinElo, "max": MaxElo},
		"limits": map[string]any{
			"maxGames": c.MaxGames, "idleExpirySeconds": int(c.IdleExpiry.Seconds()),
			"defaultThinkMs": c.DefaultThink.Milliseconds(), "maxThinkMs": c.MaxThink.Milliseconds(),
			"maxAnalysisSeconds": int(c.MaxAnalysis.Seconds()), "maxBodyBytes": c.MaxBody, "maxPgnBytes": c.MaxPGN,
			"searches": c.Searches, "maxMultiPV": c.MaxMultiPV, "maxStreams": c.MaxStreams,
		},
	})
}

// settings checks a mind and a level from a request.
func (s *Server) settings(mind string, level levelField) (string, Level, error) {
	mind = strings.ToLower(strings.TrimSpace(mind))
	if mind == "" {
		mind = "alphabeta"
	}
	m, ok := s.cfg.Minds[mind]
	if !ok {
		return "", Level{}, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("unknown mind %q: want one of %s", mind, strings.Join(s.mindNames(), ", "))}
	}
	if err := m.Available(); err != nil {
		return "", Level{}, &apiError{status: http.StatusUnprocessableEntity, msg: fmt.Sprintf("%s is unavailable: %v", mind, err)}
	}
	lv, err := ParseLevel(string(level))
	if err != nil {
		return "", Level{}, &apiError{status: http.StatusBadRequest, msg: err.Error()}
	}
	return mind, lv, nil
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req struct {
		FEN   string     `json:"fen"`
		PGN   *string    `json:"pgn"`
		Game  *int       `json:"game"`
		Mind  string     `json:"mind"`
		Level levelField `json:"level"`
	}
	// Only a PGN may be longer than MaxBody.
	n, err := s.decodeUpTo(w, r, &req, s.cfg.MaxPGN)
	if err == nil && req.PGN == nil && int64(n) > s.cfg.MaxBody {
		err = tooLarge(s.cfg.MaxBody)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	pos := board.StartPosition()
	var imported *pgn.Game
	switch fen := strings.TrimSpace(req.FEN); {
	case req.PGN != nil && fen != "":
		writeError(w, &apiError{status: http.StatusBadRequest, msg: `give "fen" or "pgn", not both`})
		return
	case req.PGN != nil:
		gm, err := pickGame(*req.PGN, req.Game)
		if err != nil {
			writeError(w, err)
			return
		}
		imported, pos = &gm, gm.StartPosition()
	case req.Game != nil:
		writeError(w, &apiError{status: http.StatusBadRequest, msg: `"game" picks a game of "pgn", which is missing`})
		return
	case fen != "":
		p, err := movegen.ParseFEN(fen)
		if err != nil {
			writeError(w, &apiError{status: http.StatusBadRequest, msg: "bad FEN: " + err.Error()})
			return
		}
		pos = p
	}
	mind, lv, err := s.settings(req.Mind, req.Level)
	if err != nil {
		writeError(w, err)
		return
	}
	g, err := s.add(pos, mind, lv)
	if err != nil {
		writeError(w, err)
		return
	}
	g.mu.Lock()
	if imported != nil {
		g.load(*imported)
	}
	st := g.state()
	g.mu.Unlock()
	w.Header().Set("Location", "/api/games/"+g.id)
	writeJSON(w, http.StatusCreated, st)
}

// pickGame reads a PGN and returns its game n (1-based; nil: the only
// one).
func pickGame(text string, n *int) (pgn.Game, error) {
	games, err := readPGN(text)
	if err != nil {
		return pgn.Game{}, err
	}
	switch {
	case n != nil && (*n < 1 || *n > len(games)):
		return pgn.Game{}, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("game %d: the PGN holds %d game(s)", *n, len(games))}
	case n != nil:
		return games[*n-1], nil
	case len(games) > 1:
		return pgn.Game{}, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf(`the PGN holds %d games: say which with "game" (1 to %d)`, len(games), len(games))}
	}
	return games[0], nil
}

// readPGN reads every game of a PGN text; a bad one is a 400 with its
// line and the reason.
func readPGN(text string) ([]pgn.Game, error) {
	games, err := pgn.ReadAll(text)
	var pe *pgn.Error
	switch {
	case errors.As(err, &pe):
		return nil, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("bad PGN (game %d): %v", pe.Game, pe)}
	case err != nil:
		return nil, &apiError{status: http.StatusBadRequest, msg: "bad PGN: " + err.Error()}
	case len(games) == 0:
		return nil, &apiError{status: http.StatusBadRequest, msg: "bad PGN: there is no game in it"}
	}
	return games, nil
}

// load takes a PGN game's moves, notes and tags (g.mu held; the game is
// new, at gm's start).
func (g *game) load(gm pgn.Game) {
	for _, m := range gm.Moves {
		g.pos.Make(m)
	}
	g.moves = append([]board.Move(nil), gm.Moves...)
	g.notes, g.comment, g.tags = gm.Notes, gm.Comment, gm.Tags
	if g.tags == nil {
		g.tags = []pgn.Tag{}
	}
	if gm.Result != "*" {
		g.result = gm.Result
	}
}

// PGNSummary describes one game of a PGN text.
type PGNSummary struct {
	Game   int    `json:"game"` // 1-based, as "game" picks it
	Event  string `json:"event,omitempty"`
	Date   string `json:"date,omitempty"`
	White  string `json:"white,omitempty"`
	Black  string `json:"black,omitempty"`
	Result string `json:"result,omitempty"`
	Plies  int    `json:"plies"`
	FEN    string `json:"fen,omitempty"` // a start other than the usual
}

func (s *Server) handlePGNList(w http.ResponseWriter, r *http.Request) {
	var req struct {
		PGN *string `json:"pgn"`
	}
	if _, err := s.decodeUpTo(w, r, &req, s.cfg.MaxPGN); err != nil {
		writeError(w, err)
		return
	}
	if req.PGN == nil {
		writeError(w, &apiError{status: http.StatusBadRequest, msg: `missing "pgn"`})
		return
	}
	games, err := readPGN(*req.PGN)
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]PGNSummary, 0, len(games))
	for i, gm := range games {
		tag := func(n string) string { v, _ := gm.Tag(n); return v }
		sum := PGNSummary{Game: i + 1, Event: tag("Event"), Date: tag("Date"), White: tag("White"), Black: tag("Black"), Result: gm.Result, Plies: len(gm.Moves)}
		if gm.Start != nil {
			sum.FEN = gm.Start.FEN()
		}
		out = append(out, sum)
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out})
}

// withGame runs f on the game named in the path, under its lock, marks the
// game used, and answers with f's value (or error). f changes nothing when
// it fails.
func (s *Server) withGame(w http.ResponseWriter, r *http.Request, f func(g *game) (any, error)) {
	g, err := s.get(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	g.mu.Lock()
	if g.gone {
		g.mu.Unlock()
		writeError(w, errGone)
		return
	}
	g.lastUsed = s.cfg.Now()
	v, err := f(g)
	g.mu.Unlock()
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

var errThinking = &apiError{status: http.StatusConflict, msg: "the engine is thinking in this game; wait for its move"}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	s.withGame(w, r, func(g *game) (any, error) { return g.state(), nil })
}

func (s *Server) handlePatch(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Mind  string     `json:"mind"`
		Level levelField `json:"level"`
	}
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	s.withGame(w, r, func(g *game) (any, error) {
		if g.thinking {
			return nil, errThinking
		}
		if req.Mind == "" {
			req.Mind = g.mind
		}
		if req.Level == "" {
			req.Level = levelField(g.level.String())
		}
		mind, lv, err := s.settings(req.Mind, req.Level)
		if err != nil {
			return nil, err
		}
		g.mind, g.level = mind, lv
		st := g.state()
		g.events.publish("state", st)
		return st, nil
	})
}

func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) {
	if err := s.remove(r.PathValue("id")); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"deleted": true})
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Move      *string   `json:"move"`
		At        *[]string `json:"at"`
		Variation bool      `json:"variation"`
	}
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Move == nil {
		writeError(w, &apiError{status: http.StatusBadRequest, msg: `missing "move" (a move in UCI, e.g. {"move":"e2e4"})`})
		return
	}
	s.withGame(w, r, func(g *game) (any, error) {
		if g.thinking {
			return nil, errThinking
		}
		if err := g.moveAt(*req.Move, req.At, req.Variation); err != nil {
			return nil, err
		}
		// After the move is known legal: a refused move leaves the
		// analysis running, as it leaves everything else.
		g.stopAnalysis()
		st := g.state()
		g.events.publish("state", st)
		return st, nil
	})
}

// moveAt plays a move in UCI at the position the path at leads to (g.mu
// held): at the mainline's end (also when at is nil) it extends the game;
// earlier in the mainline it starts a variation, or with variation false
// cuts the mainline there and plays it (the moves after are lost); in a
// variation it extends or branches the variation.
func (g *game) moveAt(uci string, at *[]string, variation bool) error {
	if at == nil {
		return g.play(uci)
	}
	path, pos, err := parsePath(g.start, *at)
	if err != nil {
		return err
	}
	cur, ok := g.walk(path)
	if !ok {
		return &apiError{status: http.StatusConflict, msg: "at: that position is not in this game (did it change?)"}
	}
	if cur.main && cur.i == len(g.moves) {
		return g.play(uci)
	}
	if st := movegen.GameStatus(pos); st.Over() {
		return &apiError{status: http.StatusConflict, msg: fmt.Sprintf("the game is over there (%s)", st)}
	}
	m, err := movegen.ParseUCI(pos, strings.TrimSpace(uci))
	if err != nil {
		if errors.Is(err, movegen.ErrIllegalMove) {
			return &apiError{status: http.StatusUnprocessableEntity, msg: fmt.Sprintf("illegal move %q in this position", uci)}
		}
		return &apiError{status: http.StatusBadRequest, msg: err.Error()}
	}
	switch {
	case cur.main && !variation:
		if g.moves[cur.i] != m {
			g.truncate(cur.i)
			g.pos.Make(m)
			g.moves = append(g.moves, m)
		}
	default:
		cur.addVariation(m)
	}
	return nil
}

// PositionState is a position of a game: GET /api/games/{id}/position.
type PositionState struct {
	FEN      string   `json:"fen"`
	Ply      int      `json:"ply"`
	Legal    []string `json:"legal"`
	Turn     string   `json:"turn"`
	Check    bool     `json:"check"`
	LastMove string   `json:"lastMove,omitempty"`
	Status   string   `json:"status"`
	Reason   string   `json:"reason,omitempty"`
	InGame   bool     `json:"inGame"` // the position is in the game's tree
}

// splitPath reads a path given as comma-separated UCI moves.
func splitPath(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request) {
	s.withGame(w, r, func(g *game) (any, error) {
		path, p, err := parsePath(g.start, splitPath(r.URL.Query().Get("at")))
		if err != nil {
			return nil, err
		}
		_, in := g.walk(path)
		st := movegen.GameStatus(p)
		_, reason := result(p, st)
		ps := PositionState{FEN: p.FEN(), Ply: len(path), Legal: []string{}, Turn: colorName(p.Side()), Check: movegen.InCheck(p),
			Status: statusNames[st], Reason: reason, InGame: in}
		if n := len(path); n > 0 {
			ps.LastMove = path[n-1].UCI(p.Chess960())
		}
		if !st.Over() {
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			for _, m := range ml.Moves() {
				ps.Legal = append(ps.Legal, m.UCI(p.Chess960()))
			}
		}
		return ps, nil
	})
}

func (s *Server) handleUndo(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Plies *int `json:"plies"`
	}
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	n := 1
	if req.Plies != nil {
		n = *req.Plies
	}
	s.withGame(w, r, func(g *game) (any, error) {
		if g.thinking {
			return nil, errThinking
		}
		if err := g.undo(n); err != nil {
			return nil, err
		}
		g.stopAnalysis()
		st := g.state()
		g.events.publish("state", st)
		return st, nil
	})
}

func (s *Server) handlePGN(w http.ResponseWriter, r *http.Request) {
	g, err := s.get(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	annotated := false
	switch v := r.URL.Query().Get("annotated"); v {
	case "", "0", "false":
	case "1", "true":
		annotated = true
	default:
		writeError(w, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("annotated=%q: want 1 or 0", v)})
		return
	}
	name := "twofold-" + g.id[:8]
	g.mu.Lock()
	var text string
	if annotated {
		if g.review == nil {
			g.mu.Unlock()
			writeError(w, &apiError{status: http.StatusConflict, msg: "this game has not been reviewed: POST /api/games/{id}/review first"})
			return
		}
		text, name = g.annotatedPGN(), name+"-review"
	} else {
		text = g.pgn()
	}
	g.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.pgn"`)
	_, _ = io.WriteString(w, text)
}

// Score is a score from White's point of view: centipawns, or moves to
// mate (> 0 White mates).
type Score struct {
	CP   *int `json:"cp,omitempty"`
	Mate *int `json:"mate,omitempty"`
}

// Info is a search report as the API sends it.
type Info struct {
	Kind    string   `json:"kind"` // "engine" or "analysis"
	Ply     int      `json:"ply"`  // the game's length when the search began (the path's for an analysis)
	FEN     string   `json:"fen"`  // the position searched
	MultiPV int      `json:"multipv"`
	Depth   int      `json:"depth"`
	Score   Score    `json:"score"`
	Nodes   uint64   `json:"nodes"`
	TimeMs  int64    `json:"timeMs"`
	PV      []string `json:"pv"`
	SAN     []string `json:"san"`
}

// toInfo turns a searcher's line into the API's: scores from White's point
// of view (positive: White is better), as a board shows them, where the
// searcher's are the side to move's.
func toInfo(kind string, ply int, pos *board.Position, l mind.Info) Info {
	in := Info{Kind: kind, Ply: ply, FEN: pos.FEN(), MultiPV: max(l.MultiPV, 1), Depth: l.Depth, Nodes: l.Nodes, TimeMs: l.Time.Milliseconds(), PV: []string{}}
	v := whitePOV(pos.Side(), l.Score.Value)
	if l.Score.Mate {
		in.Score.Mate = &v // moves to mate: > 0 White mates, < 0 Black mates
	} else {
		in.Score.CP = &v
	}
	for _, m := range l.PV {
		in.PV = append(in.PV, m.UCI(pos.Chess960()))
	}
	in.SAN = sanLine(pos, l.PV)
	return in
}

// EngineReply is the answer to POST /api/games/{id}/engine.
type EngineReply struct {
	Move  string `json:"move"` // UCI
	SAN   string `json:"san"`
	Info  Info   `json:"info"` // score and PV of the move played
	State State  `json:"state"`
}

func (s *Server) handleEngine(w http.ResponseWriter, r *http.Request) {
	var req struct {
		MoveTime *int64 `json:"movetime"`
	}
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	think := s.cfg.DefaultThink
	if req.MoveTime != nil {
		ms := *req.MoveTime
		if ms < 1 || ms > s.cfg.MaxThink.Milliseconds() {
			writeError(w, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("movetime %d ms: want 1 to %d", ms, s.cfg.MaxThink.Milliseconds())})
			return
		}
		think = time.Duration(ms) * time.Millisecond
	}
	g, err := s.get(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	// Claim the game first (so a second /engine gets 409 at once, not
	// after queueing), then a search slot.
	g.mu.Lock()
	switch {
	case g.gone:
		err = errGone
	case g.thinking:
		err = &apiError{status: http.StatusConflict, msg: "the engine is already thinking in this game"}
	default:
		if st := movegen.GameStatus(g.pos); st.Over() {
			err = &apiError{status: http.StatusConflict, msg: fmt.Sprintf("the game is over (%s)", st)}
		}
	}
	if err != nil {
		g.mu.Unlock()
		writeError(w, err)
		return
	}
	pool := s.cfg.Minds[g.mind]
	g.stopAnalysis()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stopOnClose := context.AfterFunc(s.ctx, cancel)
	defer stopOnClose()
	g.thinking, g.cancelThink = true, cancel
	g.lastUsed = s.cfg.Now()
	pos, ply, level, mindName := g.pos.Clone(), len(g.moves), g.level, g.mind
	g.events.publish("state", g.state())
	g.mu.Unlock()

	line, err := func() (mind.Info, error) {
		release, err := s.acquire(ctx)
		if err != nil {
			return mind.Info{}, err
		}
		defer release()
		line, _, err := pool.think(ctx, pos, ThinkRequest{MoveTime: think, MultiPV: 1, Level: level}, func(l mind.Info) {
			g.events.publish("info", toInfo("engine", ply, pos, l))
		})
		return line, err
	}()

	g.mu.Lock()
	defer g.mu.Unlock()
	g.thinking, g.cancelThink = false, nil
	g.lastUsed = s.cfg.Now()
	switch {
	case g.gone:
		err = errGone
	case err != nil:
		var ae *apiError
		if !errors.As(err, &ae) {
			err = &apiError{status: http.StatusInternalServerError, msg: fmt.Sprintf("%s: %v", mindName, err)}
		}
	case len(line.PV) == 0:
		err = &apiError{status: http.StatusInternalServerError, msg: mindName + " returned no move"}
	}
	if err == nil && ctx.Err() != nil {
		// The client left, or the server is closing: the move is not played.
		err = &apiError{status: http.StatusServiceUnavailable, msg: "the search was cancelled; no move was played"}
	}
	if err != nil {
		g.events.publish("state", g.state())
		writeError(w, err)
		return
	}
	m := line.PV[0]
	info := toInfo("engine", ply, pos, line)
	san := movegen.SAN(g.pos, m)
	g.pos.Make(m)
	g.moves = append(g.moves, m)
	g.result = ""
	reply := EngineReply{Move: m.UCI(pos.Chess960()), SAN: san, Info: info, State: g.state()}
	g.events.publish("bestmove", reply)
	g.events.publish("state", reply.State)
	writeJSON(w, http.StatusOK, reply)
}

func (s *Server) handleAnalyse(w http.ResponseWriter, r *http.Request) {
	var req struct {
		MultiPV *int      `json:"multipv"`
		At      *[]string `json:"at"`
	}
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	n := min(3, s.cfg.MaxMultiPV)
	if req.MultiPV != nil {
		n = *req.MultiPV
		if n < 1 || n > s.cfg.MaxMultiPV {
			writeError(w, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("multipv %d: want 1 to %d", n, s.cfg.MaxMultiPV)})
			return
		}
	}
	g, err := s.get(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	// A running analysis of this game gives its slot up first, so that
	// restarting one (another MultiPV) never waits on itself.
	g.mu.Lock()
	g.stopAnalysis()
	g.mu.Unlock()
	release, err := s.acquire(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	started := false // the analysis owns the slot from then on
	defer func() {
		if !started {
			release()
		}
	}()
	s.withGame(w, r, func(g *game) (any, error) {
		if g.thinking {
			return nil, errThinking
		}
		pos, ply := g.pos.Clone(), len(g.moves)
		if req.At != nil {
			path, p, err := parsePath(g.start, *req.At)
			if err != nil {
				return nil, err
			}
			pos, ply = p, len(path)
		}
		if st := movegen.GameStatus(pos); st.Over() {
			return nil, &apiError{status: http.StatusConflict, msg: fmt.Sprintf("the game is over (%s): nothing to analyse", st)}
		}
		g.stopAnalysis() // one started meanwhile
		pool := s.cfg.Minds[g.mind]
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.MaxAnalysis)
		a := &analysis{cancel: cancel, done: make(chan struct{}), multiPV: n}
		g.analysis = a
		hub := g.events
		started = true
		go func() {
			defer close(a.done)
			defer cancel()
			defer release()
			_, _, err := pool.think(ctx, pos, ThinkRequest{Infinite: true, MultiPV: n, Level: Level{Name: "max"}}, func(l mind.Info) {
				hub.publish("info", toInfo("analysis", ply, pos, l))
			})
			end := map[string]any{"ply": ply}
			if err != nil {
				end["error"] = err.Error()
			}
			hub.publish("analysis-end", end)
		}()
		return g.state(), nil
	})
}

func (s *Server) handleStopAnalysis(w http.ResponseWriter, r *http.Request) {
	s.withGame(w, r, func(g *game) (any, error) {
		g.stopAnalysis()
		return g.state(), nil
	})
}

func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	g, err := s.get(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	c, err := g.events.subscribe(s.cfg.MaxStreams)
	if err != nil {
		writeError(w, err)
		return
	}
	defer g.events.unsubscribe(c)
	g.mu.Lock()
	st, _ := json.Marshal(g.state())
	g.mu.Unlock()
	serveEvents(w, r, c, event{name: "state", data: st})
}
