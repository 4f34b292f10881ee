package play

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/pgn"
)

// jsonString quotes s for a JSON body.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pgnText fetches a game's PGN.
func (f *fixture) pgnText(id, query string) (int, string) {
	f.t.Helper()
	resp, err := http.Get(f.ts.URL + "/api/games/" + id + "/pgn" + query)
	require.NoError(f.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(f.t, err)
	return resp.StatusCode, string(b)
}

const lichessGame = `[Event "Casual game"]
[White "Anna"]
[Black "Ben"]
[Result "0-1"]

{ A trap. } 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4?! { The trap is set. } ( 3... Nf6 4. Ng5 ( 4. d3 Be7 ) 4... d5 ) 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1
`

func TestImportPGN(t *testing.T) {
	f := newFixture(t, Config{MaxPGN: 4096})
	st := f.create(`{"pgn":` + jsonString(lichessGame) + `}`)
	assert.Equal(t, strings.Fields("e4 e5 Nf3 Nc6 Bc4 Nd4 Nxe5 Qg5 Nxf7 Qxg2 Rf1 Qxe4+ Be2 Nf3#"), st.Moves)
	assert.Equal(t, "checkmate", st.Status)
	assert.Equal(t, "0-1", st.Result)
	assert.Equal(t, "A trap.", st.Comment)
	assert.Contains(t, st.Tags, Tag{"White", "Anna"})
	require.Len(t, st.FENs, len(st.Moves)+1)
	assert.Equal(t, st.StartFEN, st.FENs[0])
	assert.Equal(t, st.FEN, st.FENs[len(st.Moves)])
	require.Len(t, st.Notes, len(st.Moves))
	nd4 := st.Notes[5]
	assert.Equal(t, []int{pgn.NAGDubious}, nd4.NAGs)
	assert.Equal(t, "The trap is set.", nd4.Comment)
	require.Len(t, nd4.Variations, 1)
	v := nd4.Variations[0]
	require.Len(t, v.Moves, 3)
	assert.Equal(t, "Nf6", v.Moves[0].SAN)
	assert.Equal(t, "g8f6", v.Moves[0].UCI)
	assert.Equal(t, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", v.Moves[0].FEN)
	require.Len(t, v.Moves[1].Variations, 1, "the variation within the variation")
	assert.Equal(t, "d3", v.Moves[1].Variations[0].Moves[0].SAN)

	// The PGN comes back with its tags, comments and variations.
	code, text := f.pgnText(st.ID, "")
	require.Equal(t, 200, code)
	assert.Contains(t, text, `[White "Anna"]`)
	assert.Contains(t, text, `[Event "Casual game"]`)
	assert.Contains(t, text, "{A trap.}")
	assert.Contains(t, strings.Join(strings.Fields(text), " "), "3. Bc4 Nd4 $6 {The trap is set.} (3... Nf6 4. Ng5 (4. d3 Be7) 4... d5)")
	back, err := pgn.ReadAll(text)
	require.NoError(t, err)
	assert.Len(t, back[0].Moves, 14)

	// A game without a result tag keeps the position's.
	st = f.create(`{"pgn":"1. e4 e5 2. Nf3 *"}`)
	assert.Equal(t, "*", st.Result)
	assert.Equal(t, "ongoing", st.Status)
	assert.Empty(t, st.Notes)

	// A FEN start is honoured; moves go on from the imported game.
	st = f.create(`{"pgn":"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *"}`)
	assert.Equal(t, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40", st.StartFEN)
	assert.Equal(t, []string{"Kd7", "e4"}, st.Moves)
	f.do("POST", "/api/games/"+st.ID+"/moves", `{"move":"d7e6"}`, &st)
	assert.Equal(t, []string{"Kd7", "e4", "Ke6"}, st.Moves)
}

func TestImportToolsPGN(t *testing.T) {
	f := newFixture(t, Config{})
	for _, name := range []string{"cutechess", "fastchess"} {
		text, err := os.ReadFile("../pgn/testdata/" + name + ".pgn")
		require.NoError(t, err)
		games, err := pgn.ReadAll(string(text))
		require.NoError(t, err)
		for i, want := range games {
			body := `{"pgn":` + jsonString(string(text)) + `,"game":` + itoa(i+1) + `}`
			var st State
			code, _ := f.do("POST", "/api/games", body, &st)
			require.Equal(t, 201, code, name)
			assert.Len(t, st.Moves, len(want.Moves), name)
			assert.Equal(t, want.StartPosition().FEN(), st.StartFEN, name)
			_, out := f.pgnText(st.ID, "")
			again, err := pgn.ReadAll(out)
			require.NoError(t, err)
			assert.Equal(t, want.Moves, again[0].Moves, "%s game %d imports and exports unchanged", name, i+1)
			assert.Equal(t, want.Notes, again[0].Notes, name)
			for _, tag := range want.Tags {
				if tag.Name != "PlyCount" {
					assert.Contains(t, out, "["+tag.Name+` "`+tag.Value+`"]`, name)
				}
			}
		}
	}
	// Twofold's own PGN imports unchanged.
	id := f.create("").ID
	for _, m := range strings.Fields("e2e4 c7c5 g1f3 d7d6 d2d4") {
		f.do("POST", "/api/games/"+id+"/moves", `{"move":"`+m+`"}`, nil)
	}
	_, text := f.pgnText(id, "")
	st := f.create(`{"pgn":` + jsonString(text) + `}`)
	assert.Equal(t, []string{"e4", "c5", "Nf3", "d6", "d4"}, st.Moves)
	_, again := f.pgnText(st.ID, "")
	assert.Equal(t, text, again)
}

func TestImportErrors(t *testing.T) {
	f := newFixture(t, Config{MaxBody: 256, MaxPGN: 2048})
	two := "[Event \"one\"]\n\n1. e4 *\n\n[Event \"two\"]\n\n1. d4 d5 *"
	f.wantError("POST", "/api/games", `{"pgn":`+jsonString(two)+`}`, 400, `holds 2 games: say which with "game"`)
	var st State
	code, _ := f.do("POST", "/api/games", `{"pgn":`+jsonString(two)+`,"game":2}`, &st)
	require.Equal(t, 201, code)
	assert.Equal(t, []string{"d4", "d5"}, st.Moves)
	f.wantError("POST", "/api/games", `{"pgn":`+jsonString(two)+`,"game":3}`, 400, "holds 2 game(s)")
	f.wantError("POST", "/api/games", `{"pgn":`+jsonString(two)+`,"game":0}`, 400, "holds 2 game(s)")
	f.wantError("POST", "/api/games", `{"game":1}`, 400, `"pgn", which is missing`)
	f.wantError("POST", "/api/games", `{"pgn":"1. e4 *","fen":"8/8/8/8/8/8/8/8 w - - 0 1"}`, 400, "not both")
	f.wantError("POST", "/api/games", `{"pgn":"1. e4 e5\n2. Ke3 *"}`, 400, `bad PGN (game 1): line 2: illegal move "Ke3"`)
	f.wantError("POST", "/api/games", `{"pgn":"1. e4 (2. d4 *"}`, 400, "line 1")
	f.wantError("POST", "/api/games", `{"pgn":"  "}`, 400, "no game in it")
	f.wantError("POST", "/api/games", `{"pgn":5}`, 400, "bad JSON")
	// A PGN may be longer than other bodies, up to its own limit.
	long := "{" + strings.Repeat("x", 1000) + "} 1. e4 *"
	code, _ = f.do("POST", "/api/games", `{"pgn":`+jsonString(long)+`}`, &st)
	assert.Equal(t, 201, code)
	f.wantError("POST", "/api/games", `{"pgn":`+jsonString(strings.Repeat(long, 3))+`}`, 413, "over 2048 bytes")
	f.wantError("POST", "/api/games", `{"fen":`+jsonString(strings.Repeat(" ", 300))+`}`, 413, "over 256 bytes")

	// The list of a file's games.
	var list struct{ Games []PGNSummary }
	code, _ = f.do("POST", "/api/pgn", `{"pgn":`+jsonString(two)+`}`, &list)
	require.Equal(t, 200, code)
	assert.Equal(t, []PGNSummary{{Game: 1, Event: "one", Result: "*", Plies: 1}, {Game: 2, Event: "two", Result: "*", Plies: 2}}, list.Games)
	f.wantError("POST", "/api/pgn", `{}`, 400, `missing "pgn"`)
	f.wantError("POST", "/api/pgn", `{"pgn":"1. e4 xx *"}`, 400, "line 1")
	f.wantError("GET", "/api/pgn", "", 405, "use POST")
}

// Moves from earlier positions: a variation, or (asked for) a new
// mainline; variations of variations; positions anywhere in the tree.
func TestMovesAtAPath(t *testing.T) {
	f := newFixture(t, Config{})
	id := f.create("").ID
	path := "/api/games/" + id + "/moves"
	var st State
	for _, m := range strings.Fields("e2e4 e7e5 g1f3 b8c6") {
		f.do("POST", path, `{"move":"`+m+`"}`, &st)
	}
	// After 1. e4: 1... c5 as a variation; the mainline stays.
	code, _ := f.do("POST", path, `{"move":"c7c5","at":["e2e4"],"variation":true}`, &st)
	require.Equal(t, 200, code)
	assert.Equal(t, []string{"e4", "e5", "Nf3", "Nc6"}, st.Moves)
	require.Len(t, st.Notes, 4)
	require.Len(t, st.Notes[1].Variations, 1)
	assert.Equal(t, "c5", st.Notes[1].Variations[0].Moves[0].SAN)
	// The variation goes on: 2. Nf3 in it, then 2... d6 and, beside it, 2... Nc6.
	f.do("POST", path, `{"move":"g1f3","at":["e2e4","c7c5"],"variation":true}`, &st)
	f.do("POST", path, `{"move":"d7d6","at":["e2e4","c7c5","g1f3"]}`, &st)
	f.do("POST", path, `{"move":"b8c6","at":["e2e4","c7c5","g1f3"],"variation":true}`, &st)
	v := st.Notes[1].Variations[0]
	require.Len(t, v.Moves, 3)
	assert.Equal(t, []string{"c5", "Nf3", "d6"}, []string{v.Moves[0].SAN, v.Moves[1].SAN, v.Moves[2].SAN})
	require.Len(t, v.Moves[2].Variations, 1)
	assert.Equal(t, "Nc6", v.Moves[2].Variations[0].Moves[0].SAN)
	// The same move again changes nothing; the mainline's next move neither.
	before := f.state(id)
	f.do("POST", path, `{"move":"c7c5","at":["e2e4"],"variation":true}`, &st)
	f.do("POST", path, `{"move":"e7e5","at":["e2e4"],"variation":true}`, &st)
	f.do("POST", path, `{"move":"e7e5","at":["e2e4"]}`, &st)
	assert.Equal(t, before, st)

	// The PGN has the variations.
	_, text := f.pgnText(id, "")
	assert.Contains(t, strings.Join(strings.Fields(text), " "), "1. e4 e5 (1... c5 2. Nf3 d6 (2... Nc6)) 2. Nf3 Nc6")

	// Without "variation", a move in the mainline's past cuts it there.
	f.do("POST", path, `{"move":"f1c4","at":["e2e4","e7e5","g1f3","b8c6"]}`, &st)
	assert.Equal(t, []string{"e4", "e5", "Nf3", "Nc6", "Bc4"}, st.Moves, "at the end: as without at")
	code, _ = f.do("POST", path, `{"move":"d2d4","at":["e2e4","e7e5"]}`, &st)
	require.Equal(t, 200, code)
	assert.Equal(t, []string{"e4", "e5", "d4"}, st.Moves)
	assert.Len(t, st.Notes[1].Variations, 1, "the variation before the cut stays")
	assert.Equal(t, st.FEN, st.FENs[3])

	// Errors change nothing.
	before = f.state(id)
	f.wantError("POST", path, `{"move":"e2e4","at":["e2e5"]}`, 422, "at: move 1")
	f.wantError("POST", path, `{"move":"e2e4","at":["zz"]}`, 400, "at: move 1")
	f.wantError("POST", path, `{"move":"d2d4","at":["d2d4"]}`, 409, "not in this game")
	f.wantError("POST", path, `{"move":"e2e5","at":["e2e4"],"variation":true}`, 422, "illegal move")
	f.wantError("POST", path, `{"move":"e2","at":["e2e4"],"variation":true}`, 400, "malformed")
	f.wantError("POST", path, `{"move":"e7e5","at":"e2e4"}`, 400, "bad JSON")
	assert.Equal(t, before, f.state(id))

	// A position anywhere: its FEN and legal moves, and whether the tree has it.
	var pos PositionState
	code, _ = f.do("GET", "/api/games/"+id+"/position?at=e2e4,c7c5,g1f3", "", &pos)
	require.Equal(t, 200, code)
	assert.Equal(t, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", pos.FEN)
	assert.Equal(t, 3, pos.Ply)
	assert.True(t, pos.InGame)
	assert.Equal(t, "black", pos.Turn)
	assert.Equal(t, "g1f3", pos.LastMove)
	assert.Contains(t, pos.Legal, "d7d6")
	f.do("GET", "/api/games/"+id+"/position?at=", "", &pos)
	assert.Equal(t, board.StartFEN, pos.FEN)
	assert.Len(t, pos.Legal, 20)
	f.do("GET", "/api/games/"+id+"/position?at=a2a3", "", &pos)
	assert.False(t, pos.InGame)
	f.wantError("GET", "/api/games/"+id+"/position?at=e2e4,e2e4", "", 422, "move 2")
	f.wantError("GET", "/api/games/nope/position", "", 404, "no such game")
	f.wantError("POST", "/api/games/"+id+"/position", "", 405, "use GET")
}

// An analysis of a position in the game's past says which position it is
// about.
func TestAnalysisAtAPath(t *testing.T) {
	f := newFixture(t, Config{})
	id := f.create("").ID
	for _, m := range strings.Fields("e2e4 e7e5") {
		f.do("POST", "/api/games/"+id+"/moves", `{"move":"`+m+`"}`, nil)
	}
	ev := f.events(id)
	var st State
	code, _ := f.do("POST", "/api/games/"+id+"/analysis", `{"at":["e2e4"],"multipv":1}`, &st)
	require.Equal(t, 200, code)
	var info Info
	require.NoError(t, json.Unmarshal([]byte(ev.until(t, "info")), &info))
	assert.Equal(t, "analysis", info.Kind)
	assert.Equal(t, 1, info.Ply)
	assert.Equal(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", info.FEN)
	f.do("DELETE", "/api/games/"+id+"/analysis", "", nil)
	f.wantError("POST", "/api/games/"+id+"/analysis", `{"at":["e2e5"]}`, 422, "at: move 1")
	mate := f.create(`{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}`).ID
	f.wantError("POST", "/api/games/"+mate+"/analysis", `{"at":["a1a8"]}`, 409, "game is over")
}
