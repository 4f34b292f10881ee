// Twofold's board: plain JavaScript over the JSON API (see
// docs/play.md). The server holds the game and decides what is legal; the
// page draws its state, offers the legal moves it lists, and asks the
// engine to answer.
"use strict";

const $ = (id) => document.getElementById(id);

// Pieces: simple shapes drawn for this page (viewBox 45x45).
const SHAPES = {
  p: '<circle cx="22.5" cy="13" r="5"/><path d="M17 35c0-8 2.5-13 5.5-15 3 2 5.5 7 5.5 15z"/><ellipse cx="22.5" cy="20.5" rx="6" ry="2"/>',
  r: '<path d="M13 9h4v3h3V9h5v3h3V9h4v7H13z"/><path d="M15 16h15l1 19H14z"/><path d="M14 20h17" fill="none"/>',
  n: '<path d="M14 35c0-7 5-10 5-14-3 1-6 3-8 1s1-6 4-8c2-3 3-5 5-6l1-3 2 3c6 1 10 7 9 16-1 6-1 8-1 11z"/><circle cx="17" cy="14" r="1.2" class="eye"/>',
  b: '<circle cx="22.5" cy="7" r="2.3"/><path d="M22.5 9c-6.5 6-7.5 13-5 18h10c2.5-5 1.5-12-5-18z"/><path d="M24.5 13l-4 6" fill="none" class="eye"/><path d="M16 27h13v3H16z"/><path d="M17 30h11l2 5H15z"/>',
  q: '<path d="M14 35l-3-20 6 10 .5-14 5 13 5-13 .5 14 6-10-3 20z"/><circle cx="11" cy="13.5" r="2"/><circle cx="17.5" cy="9.5" r="2"/><circle cx="22.5" cy="7.5" r="2"/><circle cx="27.5" cy="9.5" r="2"/><circle cx="34" cy="13.5" r="2"/><path d="M14.5 31h16" fill="none"/>',
  k: '<path d="M21 5h3v4h3.5v3H24v5h-3v-5h-3.5V9H21z"/><path d="M14 35c-2-7-4-13 0-16 3-2 6 1 8.5 5 2.5-4 5.5-7 8.5-5 4 3 2 9 0 16z"/><path d="M14.5 30h16" fill="none"/>',
};
const BASE = '<rect x="11" y="35" width="23" height="4" rx="1.5"/>';

function pieceSVG(code) { // code: "wP", "bK", ...
  const white = code[0] === "w";
  const fill = white ? "#fbfaf7" : "#2a2724";
  const stroke = white ? "#1d1b19" : "#0b0a09";
  const detail = white ? "#1d1b19" : "#e9e4da";
  return `<svg viewBox="0 0 45 45" aria-hidden="true"><style>.eye{fill:${detail};stroke:${detail}}</style>` +
    `<g fill="${fill}" stroke="${stroke}" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">` +
    SHAPES[code[1].toLowerCase()] + BASE + "</g></svg>";
}

const FILES = "abcdefgh";
const PIECE_NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };

const ui = {
  game: null,        // the last State from the server
  info: null,        // /api/info
  orientation: "white",
  userSide: "white",
  analysing: false,  // analysis mode (both sides move; infinite search)
  selected: null,    // square of the selected piece
  busy: false,       // a request that changes the game is under way
  thinkingLine: "",
  lines: {},         // analysis lines by multipv
  events: null,
  pending: null,     // promotion waiting for the picker: {from, to}
};

// ---- API ----

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(data.error || `${r.status} ${r.statusText}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

function message(text, ok) {
  const m = $("message");
  m.textContent = text;
  m.className = ok ? "ok" : "";
  m.hidden = !text;
  clearTimeout(message.timer);
  if (text) message.timer = setTimeout(() => { m.hidden = true; }, ok ? 2500 : 8000);
}

// ---- the board ----

function parseFEN(fen) {
  const squares = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") { file += Number(ch); continue; }
      const color = ch === ch.toUpperCase() ? "w" : "b";
      squares[FILES[file] + (8 - i)] = color + ch.toUpperCase();
      file++;
    }
  });
  return squares;
}

function buildBoard() {
  const b = $("board");
  b.innerHTML = "";
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = ui.orientation === "white" ? col : 7 - col;
      const rank = ui.orientation === "white" ? 8 - row : row + 1;
      const sq = FILES[file] + rank;
      const d = document.createElement("div");
      d.className = "sq " + ((file + rank) % 2 === 0 ? "light" : "dark");
      d.dataset.sq = sq;
      d.setAttribute("role", "gridcell");
      if (row === 7) d.insertAdjacentHTML("beforeend", `<span class="coord file">${FILES[file]}</span>`);
      if (col === 0) d.insertAdjacentHTML("beforeend", `<span class="coord rank">${rank}</span>`);
      b.appendChild(d);
    }
  }
  drawPieces();
}

function squareEl(sq) { return document.querySelector(`#board [data-sq="${sq}"]`); }

function drawPieces() {
  if (!ui.game) return;
  const pieces = parseFEN(ui.game.fen);
  const last = ui.game.lastMove || "";
  const turn = ui.game.turn === "white" ? "w" : "b";
  for (const d of document.querySelectorAll("#board .sq")) {
    const sq = d.dataset.sq;
    d.querySelector(".piece")?.remove();
    d.classList.remove("last", "check", "selected", "target", "capture");
    const code = pieces[sq];
    if (code) {
      const p = document.createElement("div");
      p.className = "piece";
      p.dataset.piece = code;
      p.setAttribute("aria-label", (code[0] === "w" ? "white " : "black ") + PIECE_NAMES[code[1].toLowerCase()]);
      p.innerHTML = pieceSVG(code);
      d.appendChild(p);
      if (ui.game.check && code === turn + "K") d.classList.add("check");
    }
    if (last && (sq === last.slice(0, 2) || sq === last.slice(2, 4))) d.classList.add("last");
  }
  showTargets();
}

// movesFrom lists the legal moves (UCI) of the piece on sq.
function movesFrom(sq) {
  return (ui.game?.legal || []).filter((m) => m.startsWith(sq));
}

// canMove: the user may move the side to move (always in analysis mode).
function canMove() {
  const g = ui.game;
  return g && !ui.busy && !g.thinking && g.status === "ongoing" && (ui.analysing || g.turn === ui.userSide);
}

function select(sq) {
  ui.selected = sq && movesFrom(sq).length > 0 && canMove() ? sq : null;
  showTargets();
}

function showTargets() {
  const pieces = ui.game ? parseFEN(ui.game.fen) : {};
  for (const d of document.querySelectorAll("#board .sq")) d.classList.remove("selected", "target", "capture");
  if (!ui.selected) return;
  squareEl(ui.selected)?.classList.add("selected");
  for (const m of movesFrom(ui.selected)) {
    const el = squareEl(m.slice(2, 4));
    if (!el) continue;
    el.classList.add("target");
    if (pieces[m.slice(2, 4)]) el.classList.add("capture");
  }
}

// tryMove plays from→to if legal, asking for the promotion piece first.
function tryMove(from, to) {
  const moves = movesFrom(from).filter((m) => m.slice(2, 4) === to);
  if (moves.length === 0) return false;
  select(null);
  if (moves.length > 1 || moves[0].length === 5) {
    askPromotion(from, to);
  } else {
    play(moves[0]);
  }
  return true;
}

function askPromotion(from, to) {
  ui.pending = { from, to };
  const color = ui.game.turn === "white" ? "w" : "b";
  const box = $("promo-pieces");
  box.innerHTML = "";
  for (const p of ["q", "r", "b", "n"]) {
    const btn = document.createElement("button");
    btn.dataset.promo = p;
    btn.title = PIECE_NAMES[p];
    btn.innerHTML = pieceSVG(color + p.toUpperCase());
    btn.addEventListener("click", (e) => {
      e.stopPropagation();
      $("promo").hidden = true;
      ui.pending = null;
      play(from + to + p);
    });
    box.appendChild(btn);
  }
  $("promo").hidden = false;
}

$("promo").addEventListener("click", () => { // a click beside the pieces cancels
  $("promo").hidden = true;
  ui.pending = null;
  drawPieces();
});

// Pointer handling: a press on a movable piece selects it; moving beyond a
// few pixels drags a copy of it; releasing over a square tries the move; a
// press and release on one square is a click (click-click moves).
let drag = null;

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y)?.closest?.("#board .sq");
  return el ? el.dataset.sq : null;
}

$("board").addEventListener("pointerdown", (e) => {
  if (e.button !== 0) return;
  const sq = squareAt(e.clientX, e.clientY);
  if (!sq) return;
  if (ui.selected && ui.selected !== sq && tryMove(ui.selected, sq)) return;
  const piece = squareEl(sq).querySelector(".piece");
  if (piece && canMove() && movesFrom(sq).length > 0) {
    select(sq);
    drag = { from: sq, x: e.clientX, y: e.clientY, piece, ghost: null, id: e.pointerId };
    $("board").setPointerCapture(e.pointerId);
    e.preventDefault();
  } else {
    select(null);
  }
});

$("board").addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 4) return;
    drag.ghost = document.createElement("div");
    drag.ghost.className = "drag";
    drag.ghost.innerHTML = drag.piece.innerHTML;
    document.body.appendChild(drag.ghost);
    drag.piece.classList.add("dragging");
  }
  drag.ghost.style.left = e.clientX + "px";
  drag.ghost.style.top = e.clientY + "px";
  const over = squareAt(e.clientX, e.clientY);
  for (const d of document.querySelectorAll("#board .sq.hover")) d.classList.remove("hover");
  if (over) squareEl(over).classList.add("hover");
});

function endDrag(e, cancelled) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  for (const el of document.querySelectorAll("#board .sq.hover")) el.classList.remove("hover");
  if (!d.ghost) return; // a click: the piece stays selected
  d.ghost.remove();
  d.piece.classList.remove("dragging");
  const to = cancelled ? null : squareAt(e.clientX, e.clientY);
  if (!to || to === d.from || !tryMove(d.from, to)) select(null);
}
$("board").addEventListener("pointerup", (e) => endDrag(e, false));
$("board").addEventListener("pointercancel", (e) => endDrag(e, true));

// ---- state, status, moves ----

function render(state) {
  if (!state) return;
  const changed = !ui.game || ui.game.fen !== state.fen || ui.game.id !== state.id;
  ui.game = state;
  if (changed) {
    ui.selected = null;
    ui.lines = {};
  }
  drawPieces();
  renderStatus();
  renderTablebase();
  renderMoves();
  renderLines();
  $("download-pgn").href = `/api/games/${state.id}/pgn`;
  $("undo").disabled = ui.busy || state.thinking || state.moves.length === 0;
}

function renderStatus() {
  const g = ui.game;
  const s = $("status");
  if (g.status !== "ongoing") {
    s.textContent = g.reason;
    s.className = "over";
  } else {
    const who = g.turn === "white" ? "White" : "Black";
    const yours = ui.analysing ? "" : g.turn === ui.userSide ? " (you)" : " (engine)";
    s.textContent = `${who} to move${yours}${g.check ? ": check" : ""}`;
    s.className = "";
  }
  const thinking = g.thinking || ui.busy && !ui.analysing && g.turn !== ui.userSide && g.status === "ongoing";
  $("thinking").hidden = !thinking;
  if (thinking) $("think-text").textContent = "Thinking… " + ui.thinkingLine;
}

// The tables' verdict when the position is in them: the result for the
// side to move, the distance to zeroing, and every move with its result.
const tbWords = { "win": "wins", "cursed-win": "wins, but the fifty-move rule draws", "draw": "draws",
  "blessed-loss": "loses, but the fifty-move rule saves", "loss": "loses" };
function renderTablebase() {
  const box = $("tablebase");
  const tb = ui.game.tablebase;
  box.hidden = !tb;
  if (!tb) return;
  const who = ui.game.turn === "white" ? "White" : "Black";
  const dtz = tb.dtz !== undefined && tb.dtz !== 0 ? ` · DTZ ${Math.abs(tb.dtz)}` : "";
  box.innerHTML = "";
  const head = document.createElement("div");
  head.textContent = `Tablebase: ${who} ${tbWords[tb.wdl] || tb.wdl}${dtz}`;
  box.appendChild(head);
  const list = document.createElement("div");
  list.className = "tb-moves";
  for (const m of tb.moves) {
    const span = document.createElement("span");
    span.className = "tb-" + m.wdl;
    span.textContent = m.san + (m.dtz !== undefined && m.dtz !== 0 ? ` ${Math.abs(m.dtz)}` : "");
    span.title = `${m.wdl}${m.dtz !== undefined ? ", DTZ " + m.dtz : ""}`;
    list.appendChild(span);
  }
  box.appendChild(list);
}

function renderMoves() {
  const ol = $("moves");
  const g = ui.game;
  ol.innerHTML = "";
  // A game from a FEN with Black to move starts with "1... move".
  const blackFirst = g.startFen.split(" ")[1] === "b";
  const start = Number(g.startFen.split(" ")[5] || 1);
  const sans = blackFirst ? ["…"].concat(g.moves) : g.moves.slice();
  for (let i = 0; i < sans.length; i += 2) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="n">${start + i / 2}.</span><span>${sans[i]}</span>` + (i + 1 < sans.length ? `<span>${sans[i + 1]}</span>` : "");
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function scoreText(score) {
  if (score.mate !== undefined && score.mate !== null) return "#" + score.mate;
  const v = (score.cp || 0) / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

function renderLines() {
  const box = $("lines");
  box.hidden = !ui.analysing;
  if (!ui.analysing) return;
  const keys = Object.keys(ui.lines).map(Number).sort((a, b) => a - b);
  box.innerHTML = keys.length ? "" : "<div>Analysing…</div>";
  for (const k of keys) {
    const l = ui.lines[k];
    const div = document.createElement("div");
    div.className = "line";
    div.innerHTML = `<b>${scoreText(l.score)}</b> d${l.depth} ${l.san.slice(0, 12).join(" ")}`;
    box.appendChild(div);
  }
}

// ---- events ----

function listen(id) {
  if (ui.events) ui.events.close();
  const es = new EventSource(`/api/games/${id}/events`);
  ui.events = es;
  es.addEventListener("state", (e) => {
    const st = JSON.parse(e.data);
    if (st.id === ui.game?.id) render(st);
  });
  es.addEventListener("info", (e) => {
    const info = JSON.parse(e.data);
    if (!ui.game || info.ply !== ui.game.moves.length) return; // about an earlier position
    if (info.kind === "analysis") {
      if (!ui.analysing) return;
      ui.lines[info.multipv] = info;
      renderLines();
    } else {
      ui.thinkingLine = `${scoreText(info.score)} d${info.depth} ${info.san.slice(0, 8).join(" ")}`;
      $("think-text").textContent = "Thinking… " + ui.thinkingLine;
    }
  });
  es.onopen = () => { $("conn").textContent = ""; };
  es.onerror = async () => {
    // EventSource retries by itself; a game that is gone ends it.
    try {
      await api("GET", `/api/games/${id}`);
    } catch (err) {
      if (err.status === 404 && ui.game?.id === id) {
        es.close();
        $("conn").textContent = "this game expired or was deleted: start a new one";
      } else {
        $("conn").textContent = "connection lost, retrying…";
      }
    }
  };
}

// ---- actions ----

async function act(fn) {
  if (ui.busy) return;
  ui.busy = true;
  render(ui.game);
  try {
    await fn();
  } catch (err) {
    message(err.message);
    if (err.status === 404) $("conn").textContent = "this game expired or was deleted: start a new one";
  } finally {
    ui.busy = false;
    render(ui.game);
  }
}

async function engineMove() {
  ui.thinkingLine = "";
  const movetime = Number($("movetime").value);
  const reply = await api("POST", `/api/games/${ui.game.id}/engine`, { movetime });
  ui.game = reply.state;
}

function engineToMove() {
  const g = ui.game;
  return !ui.analysing && g.status === "ongoing" && g.turn !== ui.userSide;
}

function play(uci) {
  act(async () => {
    ui.game = await api("POST", `/api/games/${ui.game.id}/moves`, { move: uci });
    render(ui.game);
    if (ui.analysing) {
      await startAnalysis();
    } else if (engineToMove()) {
      await engineMove();
    }
  });
}

async function startAnalysis() {
  ui.lines = {};
  if (ui.game.status !== "ongoing") {
    renderLines();
    $("lines").textContent = "The game is over.";
    return;
  }
  ui.game = await api("POST", `/api/games/${ui.game.id}/analysis`, { multipv: 3 });
}

function levelValue() {
  const v = $("level").value;
  return v === "elo" ? String($("elo").value) : v;
}

async function newGame() {
  const body = { mind: $("mind").value, level: levelValue() };
  const fen = $("fen").value.trim();
  if (fen) body.fen = fen;
  act(async () => {
    const st = await api("POST", "/api/games", body);
    if (ui.game && ui.game.id !== st.id) {
      api("DELETE", `/api/games/${ui.game.id}`).catch(() => {});
    }
    ui.userSide = $("side").value;
    ui.orientation = ui.userSide;
    ui.analysing = false;
    $("analyse").setAttribute("aria-pressed", "false");
    ui.game = st;
    sessionStorage.setItem("twofold-game", JSON.stringify({ id: st.id, side: ui.userSide }));
    $("conn").textContent = "";
    buildBoard();
    listen(st.id);
    render(st);
    if (engineToMove()) await engineMove();
  });
}

$("new").addEventListener("click", newGame);

$("flip").addEventListener("click", () => {
  ui.orientation = ui.orientation === "white" ? "black" : "white";
  buildBoard();
});

$("undo").addEventListener("click", () => act(async () => {
  const g = ui.game;
  // Against the engine, take back its reply too, so it is your move again.
  let plies = 1;
  if (!ui.analysing && g.turn === ui.userSide) plies = Math.min(2, g.moves.length);
  ui.game = await api("POST", `/api/games/${g.id}/undo`, { plies });
  render(ui.game);
  if (ui.analysing) await startAnalysis();
  else if (engineToMove()) await engineMove();
}));

$("analyse").addEventListener("click", () => act(async () => {
  ui.analysing = !ui.analysing;
  $("analyse").setAttribute("aria-pressed", String(ui.analysing));
  if (ui.analysing) {
    await startAnalysis();
  } else {
    ui.game = await api("DELETE", `/api/games/${ui.game.id}/analysis`);
    render(ui.game);
    if (engineToMove()) await engineMove();
  }
}));

$("copy-pgn").addEventListener("click", async () => {
  try {
    const r = await fetch(`/api/games/${ui.game.id}/pgn`);
    if (!r.ok) throw new Error("cannot fetch the PGN");
    const text = await r.text();
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Without the async clipboard (no permission, older browsers).
      const ta = document.createElement("textarea");
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand("copy");
      ta.remove();
    }
    message("PGN copied", true);
  } catch (err) {
    message(err.message);
  }
});

// Mind and strength apply to the current game at once.
async function applySettings() {
  $("elo-label").hidden = $("level").value !== "elo";
  if (!ui.game || ui.game.thinking) return;
  try {
    ui.game = await api("PATCH", `/api/games/${ui.game.id}`, { mind: $("mind").value, level: levelValue() });
    render(ui.game);
  } catch (err) {
    message(err.message);
  }
}
$("mind").addEventListener("change", applySettings);
$("level").addEventListener("change", applySettings);
$("elo").addEventListener("change", applySettings);

// ---- start ----

async function init() {
  try {
    ui.info = await api("GET", "/api/info");
  } catch (err) {
    message("cannot reach the server: " + err.message);
    return;
  }
  const mindSel = $("mind");
  const labels = { alphabeta: "AlphaBeta", mcts: "MCTS" };
  const notes = [];
  for (const m of ui.info.minds) {
    const o = document.createElement("option");
    o.value = m.name;
    o.textContent = (labels[m.name] || m.name) + (m.available ? "" : " (unavailable)");
    o.disabled = !m.available;
    if (!m.available) {
      o.title = m.reason;
      notes.push(`${labels[m.name] || m.name} is unavailable: ${m.reason}`);
    }
    mindSel.appendChild(o);
  }
  mindSel.value = "alphabeta";
  // The Elo field takes UCI_Elo's calibrated range, which the server knows.
  $("elo").min = ui.info.elo.min;
  $("elo").max = ui.info.elo.max;
  $("mind-note").textContent = notes.join(" ");
  $("mind-note").hidden = notes.length === 0;

  // A reload goes on with the same game.
  const saved = JSON.parse(sessionStorage.getItem("twofold-game") || "null");
  if (saved) {
    try {
      const st = await api("GET", `/api/games/${saved.id}`);
      ui.userSide = ui.orientation = saved.side;
      $("side").value = saved.side;
      $("mind").value = st.mind;
      if (["easy", "medium", "hard", "max"].includes(st.level)) {
        $("level").value = st.level;
      } else {
        $("level").value = "elo";
        $("elo").value = st.level;
        $("elo-label").hidden = false;
      }
      ui.game = st;
      buildBoard();
      listen(st.id);
      render(st);
      if (st.analysing) {
        await api("DELETE", `/api/games/${st.id}/analysis`).then(render).catch(() => {});
      }
      return;
    } catch {
      sessionStorage.removeItem("twofold-game");
    }
  }
  await newGame();
}

// Leaving the page stops an analysis (it would otherwise run to its limit).
window.addEventListener("pagehide", () => {
  if (ui.analysing && ui.game) {
    fetch(`/api/games/${ui.game.id}/analysis`, { method: "DELETE", keepalive: true }).catch(() => {});
  }
});

init();
