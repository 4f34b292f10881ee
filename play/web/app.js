// Twofold's board: plain JavaScript over the JSON API (see
// docs/play.md). The server holds the game (a tree: the mainline and its
// variations) and decides what is legal; the page draws the position the
// user looks at, offers the legal moves there, asks the engine to answer,
// and shows analyses and reviews.
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
const MIND_LABELS = { alphabeta: "AlphaBeta", mcts: "MCTS" };
const MIND_CLASS = { alphabeta: "ab", mcts: "mcts" };
const CLASS_MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const NAG_TEXT = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 10: "=", 13: "∞", 14: "⩲", 15: "⩱", 16: "±", 17: "∓", 18: "+−", 19: "−+" };

const mindLabel = (m) => MIND_LABELS[m] || m;

const ui = {
  game: null,        // the last State from the server
  info: null,        // /api/info
  orientation: "white",
  userSide: "white", // "white", "black", or "both" (an analysis board: the engine never moves by itself)
  analysing: false,  // analysis mode (both sides move; infinite search)
  selected: null,    // square of the selected piece
  busy: false,       // a request that changes the game is under way
  thinkingLine: "",
  lines: {},         // analysis lines by multipv, for the viewed position
  events: null,
  pending: null,     // promotion waiting for the picker: {from, to}
  // The viewed position: the end of the mainline while follow is set,
  // else the position path (UCI moves from the start) leads to.
  follow: true,
  path: [],
  nodes: new Map(),  // the game's tree by path key: {path, fen, san, main, children}
  posCache: new Map(), // /position answers by path key (legal moves, check, status)
  review: null,      // the last /review answer
  engineInfo: null,  // the engine's last line, for the bar
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

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

// ---- evaluations ----

// Lichess's win percentage for a centipawn score (capped at ±1000; a
// mate counts as 1000), the formula the review uses.
function winPercent(cp) {
  cp = Math.max(-1000, Math.min(1000, cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

function scoreWin(score) { // White's win percentage for a White's-view score
  if (score.mate !== undefined && score.mate !== null) return score.mate > 0 ? winPercent(1000) : winPercent(-1000);
  return winPercent(score.cp || 0);
}

function scoreText(score) {
  if (score.mate !== undefined && score.mate !== null) return "#" + score.mate;
  const v = (score.cp || 0) / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

// ---- the tree and the viewed position ----

const keyOf = (path) => path.join(",");

// buildTree indexes the game's positions by path: the mainline and every
// variation, each node with its children (the line's next move first).
function buildTree(g) {
  const nodes = new Map();
  const root = { path: [], fen: g.startFen, san: "", main: true, children: [], ply: 0 };
  nodes.set("", root);
  const add = (parent, uci, san, fen, main) => {
    const path = parent.path.concat([uci]);
    const key = keyOf(path);
    let n = nodes.get(key);
    if (!n) {
      n = { path, fen, san, main, children: [], ply: path.length };
      nodes.set(key, n);
      parent.children.push(n);
    }
    return n;
  };
  const addVariations = (before, variations) => {
    for (const v of variations || []) {
      let parent = before;
      for (const mv of v.moves) {
        const prev = parent;
        parent = add(parent, mv.uci, mv.san, mv.fen, false);
        if (mv.variations) addVariations(prev, mv.variations);
      }
    }
  };
  let parent = root;
  g.uciMoves.forEach((uci, i) => {
    const before = parent;
    parent = add(parent, uci, g.moves[i], g.fens[i + 1], true);
    // The mainline's next move must come first among the children.
    before.children.sort((a, b) => Number(b.main) - Number(a.main));
    const note = g.notes && g.notes[i];
    if (note) addVariations(before, note.variations);
  });
  return nodes;
}

function viewPath() { return ui.follow ? ui.game.uciMoves : ui.path; }
function viewNode() { return ui.nodes.get(keyOf(viewPath())) || ui.nodes.get(""); }

function isMainPrefix(path) {
  const m = ui.game.uciMoves;
  return path.length <= m.length && path.every((u, i) => u === m[i]);
}

function atEnd() {
  return ui.follow || (isMainPrefix(ui.path) && ui.path.length === ui.game.uciMoves.length);
}

// mainPly is the viewed position's ply when it is on the mainline, else -1.
function mainPly() {
  const p = viewPath();
  return isMainPrefix(p) ? p.length : -1;
}

// viewInfo: what the board needs of the viewed position.
function viewInfo() {
  const g = ui.game;
  const path = viewPath();
  if (atEnd()) {
    return { fen: g.fen, legal: g.legal, check: g.check, last: g.lastMove || "", status: g.status, reason: g.reason, turn: g.turn, known: true };
  }
  const node = viewNode();
  const turn = node.fen.split(" ")[1] === "w" ? "white" : "black";
  const cached = ui.posCache.get(keyOf(path));
  return {
    fen: node.fen, legal: cached ? cached.legal : [], check: cached ? cached.check : false,
    last: path.length ? path[path.length - 1] : "", status: cached ? cached.status : "ongoing",
    reason: cached ? cached.reason : "", turn, known: Boolean(cached),
  };
}

// fetchPosition asks the server for the viewed position's legal moves
// (the page knows the rules of nothing).
async function fetchPosition() {
  if (atEnd()) return;
  const path = viewPath();
  const key = keyOf(path);
  if (ui.posCache.has(key)) return;
  try {
    const pos = await api("GET", `/api/games/${ui.game.id}/position?at=${encodeURIComponent(key)}`);
    ui.posCache.set(key, pos);
    if (keyOf(viewPath()) === key) {
      drawPieces();
      renderStatus();
    }
  } catch (err) {
    message(err.message);
  }
}

// goto shows the position path leads to (and moves the analysis there,
// unless quiet).
function goto(path, quiet) {
  if (!ui.game) return;
  const main = ui.game.uciMoves;
  ui.follow = isMainPrefix(path) && path.length === main.length;
  ui.path = path.slice();
  ui.selected = null;
  ui.lines = {};
  renderView();
  fetchPosition();
  if (ui.analysing && !quiet) restartAnalysisSoon();
}

function navigate(where) {
  if (!ui.game) return;
  const path = viewPath();
  const node = viewNode();
  switch (where) {
    case "first": goto([]); break;
    case "prev": if (path.length) goto(path.slice(0, -1)); break;
    case "next": if (node.children.length) goto(node.children[0].path); break;
    case "last": {
      // The end of the line being looked at (the mainline's, or the variation's).
      let n = node;
      while (n.children.length) n = n.children[0];
      goto(n.path);
      break;
    }
  }
}

$("nav-first").addEventListener("click", () => navigate("first"));
$("nav-prev").addEventListener("click", () => navigate("prev"));
$("nav-next").addEventListener("click", () => navigate("next"));
$("nav-last").addEventListener("click", () => navigate("last"));

document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", ArrowUp: "first", ArrowDown: "last" };
  if (keys[e.key]) {
    e.preventDefault();
    navigate(keys[e.key]);
  }
});

// The URL holds the game and the ply (and a variation's path), so that a
// reload or a shared link shows the same place.
function updateURL() {
  if (!ui.game) return;
  const u = new URL(location.href);
  u.searchParams.set("game", ui.game.id);
  const path = viewPath();
  const ply = mainPly();
  if (ply >= 0) {
    u.searchParams.set("ply", String(ply));
    u.searchParams.delete("line");
  } else {
    let k = 0;
    while (k < path.length && path[k] === ui.game.uciMoves[k]) k++;
    u.searchParams.set("ply", String(k));
    u.searchParams.set("line", keyOf(path));
  }
  history.replaceState(null, "", u.pathname + "?" + u.searchParams.toString());
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
  $("evalbar").classList.toggle("flipped", ui.orientation === "black");
  drawPieces();
}

function squareEl(sq) { return document.querySelector(`#board [data-sq="${sq}"]`); }

function drawPieces() {
  if (!ui.game) return;
  const v = viewInfo();
  const pieces = parseFEN(v.fen);
  const turn = v.turn === "white" ? "w" : "b";
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
      if (v.check && code === turn + "K") d.classList.add("check");
    }
    if (v.last && (sq === v.last.slice(0, 2) || sq === v.last.slice(2, 4))) d.classList.add("last");
  }
  showTargets();
  drawArrows();
}

// movesFrom lists the legal moves (UCI) of the piece on sq.
function movesFrom(sq) {
  return (viewInfo().legal || []).filter((m) => m.startsWith(sq));
}

// freeBoard: both sides are the user's (analysis, or an analysis board).
function freeBoard() { return ui.analysing || ui.userSide === "both"; }

// canMove: the user may move the side to move in the viewed position: at
// the mainline's end their own side (both on an analysis board); earlier
// in a game against the engine their own side (which cuts the game there,
// after asking); in a variation either side.
function canMove() {
  const g = ui.game;
  if (!g || ui.busy || g.thinking) return false;
  const v = viewInfo();
  if (v.status !== "ongoing") return false;
  if (freeBoard()) return true;
  if (atEnd() || isMainPrefix(viewPath())) return v.turn === ui.userSide;
  return true;
}

function select(sq) {
  ui.selected = sq && movesFrom(sq).length > 0 && canMove() ? sq : null;
  showTargets();
}

function showTargets() {
  const pieces = ui.game ? parseFEN(viewInfo().fen) : {};
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
  const color = viewInfo().turn === "white" ? "w" : "b";
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

// ---- arrows: each mind's best move in the viewed position ----

function squareXY(sq) { // the centre of a square in the arrows' 800×800 box
  const file = FILES.indexOf(sq[0]);
  const rank = Number(sq[1]) - 1;
  const col = ui.orientation === "white" ? file : 7 - file;
  const row = ui.orientation === "white" ? 7 - rank : rank;
  return [col * 100 + 50, row * 100 + 50];
}

// bestMoves: {mind: uci} for the viewed position, from the review or the
// running analysis.
function bestMoves() {
  const out = {};
  const fen = viewInfo().fen;
  const pos = reviewPosition(mainPly());
  if (pos) {
    for (const [m, e] of Object.entries(pos.evals)) if (e.best) out[m] = e.best;
  }
  if (ui.analysing && ui.lines[1] && ui.lines[1].fen === fen && ui.lines[1].pv.length) {
    out[ui.game.mind] = ui.lines[1].pv[0];
  }
  return out;
}

function drawArrows() {
  const svg = $("arrows");
  if (!ui.game) return;
  const best = bestMoves();
  const minds = Object.keys(best).sort();
  let html = "";
  for (const m of minds) {
    html += `<marker id="head-${m}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" style="fill: var(--${MIND_CLASS[m] || "ab"})"/></marker>`;
  }
  html = `<defs>${html}</defs>`;
  minds.forEach((m, i) => {
    const u = best[m];
    const [x0, y0] = squareXY(u.slice(0, 2));
    let [x1, y1] = squareXY(u.slice(2, 4));
    // Stop short of the centre so the head sits on the square; two minds
    // choosing the same move get side-by-side arrows.
    const len = Math.hypot(x1 - x0, y1 - y0);
    const shrink = (len - 28) / len;
    x1 = x0 + (x1 - x0) * shrink;
    y1 = y0 + (y1 - y0) * shrink;
    const same = minds.filter((n) => best[n] === u).length > 1;
    const off = same ? (i === 0 ? -9 : 9) : 0;
    const nx = -(y1 - y0) / len * off;
    const ny = (x1 - x0) / len * off;
    html += `<line class="arrow" data-mind="${esc(m)}" data-move="${esc(u)}" x1="${x0 + nx}" y1="${y0 + ny}" x2="${x1 + nx}" y2="${y1 + ny}" ` +
      `style="stroke: var(--${MIND_CLASS[m] || "ab"})" stroke-width="16" stroke-linecap="round" opacity="0.72" marker-end="url(#head-${m})"/>`;
  });
  svg.innerHTML = html;
  legend(minds);
}

// legend names the colours of the minds on the board and the graph.
function legend(minds) {
  const all = new Set(minds);
  if (ui.review && !$("graph").hasAttribute("hidden")) for (const m of ui.review.minds) all.add(m);
  const list = [...all].sort();
  $("legend").innerHTML = list.map((m) => `<span class="key ${MIND_CLASS[m] || "ab"}"></span>${esc(mindLabel(m))}`).join(" ") +
    (list.length ? ' <span class="muted">best move (arrows), evaluation (graph)</span>' : "");
  $("legend").hidden = list.length === 0;
}

// ---- state, status, moves ----

function render(state) {
  if (!state) return;
  const newGame = !ui.game || ui.game.id !== state.id;
  ui.game = state;
  if (newGame) {
    ui.posCache.clear();
    ui.review = null;
    ui.engineInfo = null;
  }
  ui.nodes = buildTree(state);
  // A path that left the tree (the mainline was cut) falls back to the end.
  if (!ui.follow && !ui.nodes.has(keyOf(ui.path))) ui.follow = true;
  renderView();
  $("download-pgn").href = `/api/games/${state.id}/pgn`;
  $("undo").disabled = ui.busy || state.thinking || state.moves.length === 0;
  renderPlayers();
  if (state.review && (!ui.review || ui.review.status !== state.review)) scheduleReviewFetch();
  if (!state.review && ui.review) {
    ui.review = null;
    renderReview();
  }
}

// renderView draws everything that depends on the viewed position.
function renderView() {
  if (!ui.game) return;
  const key = keyOf(viewPath());
  if (ui.viewKey !== key) {
    ui.viewKey = key;
    ui.selected = null;
  }
  drawPieces();
  renderStatus();
  renderTablebase();
  renderMoves();
  renderLines();
  renderNav();
  renderBar();
  renderGraph();
  renderReviewMove();
  legend(Object.keys(bestMoves()));
  updateURL();
}

function renderPlayers() {
  const tags = Object.fromEntries((ui.game.tags || []).map((t) => [t.name, t.value]));
  const w = tags.White && tags.White !== "?" ? tags.White : "";
  const b = tags.Black && tags.Black !== "?" ? tags.Black : "";
  $("players").textContent = w || b ? `${w || "?"} – ${b || "?"}` + (tags.Event && tags.Event !== "?" ? ` · ${tags.Event}` : "") : "";
}

function renderStatus() {
  const g = ui.game;
  const s = $("status");
  const v = viewInfo();
  if (v.status !== "ongoing") {
    s.textContent = v.reason;
    s.className = "over";
  } else {
    const who = v.turn === "white" ? "White" : "Black";
    let yours = "";
    if (atEnd() && !freeBoard()) yours = v.turn === ui.userSide ? " (you)" : " (engine)";
    s.textContent = `${who} to move${yours}${v.check ? ": check" : ""}`;
    s.className = "";
  }
  const thinking = g.thinking || ui.busy && !freeBoard() && g.turn !== ui.userSide && g.status === "ongoing";
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

function renderNav() {
  const path = viewPath();
  const node = viewNode();
  $("nav-first").disabled = $("nav-prev").disabled = path.length === 0;
  $("nav-next").disabled = $("nav-last").disabled = node.children.length === 0;
  const ply = mainPly();
  const n = ui.game.uciMoves.length;
  $("nav-where").textContent = ply >= 0 ? `${ply} / ${n}` : `variation, ply ${path.length}`;
}

// moveNumber writes "12." or "12..." for the move from fen.
function moveNumber(fen, force) {
  const f = fen.split(" ");
  const n = Number(f[5] || 1);
  if (f[1] === "w") return `${n}.`;
  return force ? `${n}...` : "";
}

// reviewedMain: how many mainline moves the review covers (its moves must
// be the game's).
function reviewedMain() {
  const r = ui.review;
  if (!r || !ui.game) return -1;
  const m = ui.game.uciMoves;
  let k = 0;
  while (k < r.moves.length && k < m.length && r.moves[k] === m[k]) k++;
  return k;
}

// reviewPosition: the review's position at mainline ply k, or null.
function reviewPosition(k) {
  if (k < 0 || !ui.review || k > reviewedMain() || !ui.review.positions[k]) return null;
  return ui.review.positions[k];
}

// reviewPly: the review of the move that leads to mainline ply k (k ≥ 1).
function reviewPly(k) {
  if (k < 1 || !ui.review || k > reviewedMain()) return null;
  return ui.review.plies[k - 1] || null;
}

function renderMoves() {
  const box = $("moves");
  const g = ui.game;
  const current = keyOf(viewPath());
  const parts = [];
  const mv = (path, san, fen, extra, cls, title) =>
    `<span class="mv${cls ? " " + cls : ""}${keyOf(path) === current ? " current" : ""}" data-path="${esc(keyOf(path))}"${title ? ` title="${esc(title)}"` : ""}>${esc(san)}${extra}</span>`;
  const nags = (list) => (list || []).map((n) => `<span class="nag">${esc(NAG_TEXT[n] || "$" + n)}</span>`).join("");
  const comment = (c) => c ? `<span class="comment">${esc(c)}</span>` : "";
  // line writes a variation's moves from the position before (a path and a FEN).
  const line = (before, fen, moves, depth) => {
    let out = "";
    let path = before;
    let force = true;
    for (const m of moves) {
      const num = moveNumber(fen, force);
      if (num) out += `<span class="n">${num}</span>`;
      const prev = path;
      path = path.concat([m.uci]);
      out += mv(path, m.san, m.fen, nags(m.nags), "", "");
      out += comment(m.comment);
      force = Boolean(m.comment);
      for (const v of m.variations || []) {
        out += `<span class="var">(${line(prev, fen, v.moves, depth + 1)})</span>`;
        force = true;
      }
      fen = m.fen;
    }
    return out;
  };
  if (g.comment) parts.push(comment(g.comment));
  let force = true;
  g.uciMoves.forEach((uci, i) => {
    const fen = g.fens[i];
    const num = moveNumber(fen, force);
    if (num) parts.push(`<span class="n">${num}</span>`);
    const path = g.uciMoves.slice(0, i + 1);
    const note = g.notes ? g.notes[i] : null;
    const rp = reviewPly(i + 1);
    let extra = nags(note && note.nags);
    let cls = "";
    let title = "";
    if (rp && rp.class) {
      cls = "cls-" + rp.class;
      title = rp.class + (rp.class !== "best" && rp.bestSan ? `: ${rp.bestSan} was best` : "");
      if (CLASS_MARK[rp.class]) extra += `<span class="mark cls-${rp.class}">${CLASS_MARK[rp.class]}</span>`;
    }
    parts.push(mv(path, g.moves[i], g.fens[i + 1], extra, cls, title));
    force = false;
    if (note) {
      parts.push(comment(note.comment));
      if (note.comment) force = true;
      for (const v of note.variations || []) {
        parts.push(`<span class="var">(${line(g.uciMoves.slice(0, i), fen, v.moves, 1)})</span>`);
        force = true;
      }
    }
  });
  box.innerHTML = parts.join(" ");
  const cur = box.querySelector(".mv.current");
  if (cur) {
    const top = cur.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 20) box.scrollTop = top - box.clientHeight / 2;
  } else if (ui.follow) {
    box.scrollTop = box.scrollHeight;
  }
}

$("moves").addEventListener("click", (e) => {
  const el = e.target.closest(".mv");
  if (!el) return;
  const key = el.dataset.path;
  goto(key ? key.split(",") : []);
});

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
    div.innerHTML = `<b>${scoreText(l.score)}</b> d${l.depth} ${esc(l.san.slice(0, 12).join(" "))}`;
    box.appendChild(div);
  }
}

// ---- the evaluation bar and graph ----

// viewEval: the best known evaluation of the viewed position (White's
// view): the analysis, else the review's judge, else the engine's line.
function viewEval() {
  const fen = viewInfo().fen;
  if (ui.analysing && ui.lines[1] && ui.lines[1].fen === fen) return { score: ui.lines[1].score };
  const pos = reviewPosition(mainPly());
  if (pos) {
    const e = pos.evals[ui.review.judge] || Object.values(pos.evals)[0];
    if (e) return e;
  }
  if (ui.engineInfo && ui.engineInfo.fen === fen) return { score: ui.engineInfo.score };
  return null;
}

function renderBar() {
  const bar = $("evalbar");
  const e = viewEval();
  let win = 50;
  let text = "";
  if (e) {
    win = e.win !== undefined ? e.win : scoreWin(e.score);
    if (e.terminal === "checkmate") text = win > 50 ? "1-0" : "0-1";
    else if (e.terminal) text = "½";
    else if (e.score.mate !== undefined && e.score.mate !== null) text = (e.score.mate > 0 ? "M" : "-M") + Math.abs(e.score.mate);
    else text = scoreText(e.score).replace(/^\+/, "");
  }
  bar.dataset.win = e ? win.toFixed(1) : "";
  bar.title = e ? `evaluation ${text} (White's win chance ${win.toFixed(0)}%)` : "no evaluation yet: analyse or review";
  $("evalbar-fill").style.height = win + "%";
  $("evalbar-text").textContent = text;
  bar.classList.toggle("black-ahead", win < 50);
}

// renderGraph draws White's win percentage over the mainline by each mind
// of the review (the judge solid, the other dashed), the moves judged
// inaccuracies, mistakes and blunders, and the viewed ply.
function renderGraph() {
  const svg = $("graph");
  const r = ui.review;
  const n = ui.game.uciMoves.length;
  const k = reviewedMain();
  // An <svg> has no "hidden" property: the attribute itself.
  if (!r || n === 0 || k < 0) {
    svg.setAttribute("hidden", "");
    return;
  }
  svg.removeAttribute("hidden");
  const W = 1000;
  const H = 120;
  const x = (ply) => (n === 0 ? 0 : (ply / n) * W);
  const y = (win) => H - (win / 100) * H;
  // White's share of the judge's view is light, Black's dark.
  let html = `<rect x="0" y="0" width="${W}" height="${H}" fill="#8a8a8a"/>`;
  const last = Math.min(k, r.positions.length - 1);
  const judge = [];
  for (let i = 0; i <= last; i++) {
    const e = r.positions[i].evals[r.judge];
    if (e) judge.push(`${x(i).toFixed(1)},${y(e.win).toFixed(1)}`);
  }
  if (judge.length > 1) html += `<polygon points="${judge[0].split(",")[0]},${H} ${judge.join(" ")} ${judge[judge.length - 1].split(",")[0]},${H}" fill="#f7f6f2"/>`;
  html += `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#666" stroke-width="1" stroke-dasharray="3 3" vector-effect="non-scaling-stroke"/>`;
  for (const m of r.minds) {
    const pts = [];
    for (let i = 0; i <= Math.min(k, r.positions.length - 1); i++) {
      const e = r.positions[i].evals[m];
      if (e) pts.push(`${x(i).toFixed(1)},${y(e.win).toFixed(1)}`);
    }
    html += `<polyline class="curve" data-mind="${esc(m)}" points="${pts.join(" ")}" fill="none" style="stroke: var(--${MIND_CLASS[m] || "ab"})" stroke-width="2" ` +
      `${m === r.judge ? "" : 'stroke-dasharray="6 4"'} vector-effect="non-scaling-stroke"/>`;
  }
  for (let i = 1; i <= k; i++) {
    const p = r.plies[i - 1];
    const e = r.positions[i] && r.positions[i].evals[r.judge];
    if (p && e && CLASS_MARK[p.class]) {
      html += `<circle class="mark cls-${p.class}" data-ply="${i}" cx="${x(i)}" cy="${y(e.win)}" r="4" fill="currentColor" vector-effect="non-scaling-stroke"/>`;
    }
  }
  const ply = mainPly();
  if (ply >= 0) html += `<line id="graph-cursor" x1="${x(ply)}" y1="0" x2="${x(ply)}" y2="${H}" stroke="#2f6f4f" stroke-width="2" vector-effect="non-scaling-stroke"/>`;
  svg.innerHTML = html;
  legend(Object.keys(bestMoves()));
}

$("graph").addEventListener("click", (e) => {
  if (!ui.game) return;
  const r = $("graph").getBoundingClientRect();
  const n = ui.game.uciMoves.length;
  const ply = Math.max(0, Math.min(n, Math.round(((e.clientX - r.left) / r.width) * n)));
  goto(ui.game.uciMoves.slice(0, ply));
});

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
    if (!ui.game) return;
    if (info.kind === "analysis") {
      if (!ui.analysing || info.fen !== viewInfo().fen) return; // about another position
      ui.lines[info.multipv] = info;
      renderLines();
      if (info.multipv === 1) {
        renderBar();
        drawArrows();
      }
    } else {
      if (info.ply !== ui.game.moves.length) return; // about an earlier position
      ui.engineInfo = info;
      ui.thinkingLine = `${scoreText(info.score)} d${info.depth} ${info.san.slice(0, 8).join(" ")}`;
      $("think-text").textContent = "Thinking… " + ui.thinkingLine;
    }
  });
  es.addEventListener("review", (e) => {
    const p = JSON.parse(e.data);
    showProgress(p.done, p.total);
    scheduleReviewFetch();
  });
  es.addEventListener("review-end", () => scheduleReviewFetch(true));
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
  ui.follow = true;
  render(reply.state);
}

function engineToMove() {
  const g = ui.game;
  return !freeBoard() && g.status === "ongoing" && g.turn !== ui.userSide;
}

// confirmCut asks before a move in the past of a game against the engine
// deletes the moves after it (the test replaces it).
ui.confirm = (text) => window.confirm(text);

function play(uci) {
  act(async () => {
    const g = ui.game;
    const path = viewPath().slice();
    if (atEnd()) {
      render(await api("POST", `/api/games/${g.id}/moves`, { move: uci }));
      ui.follow = true;
    } else if (isMainPrefix(path) && !freeBoard()) {
      const lost = g.uciMoves.length - path.length;
      if (g.uciMoves[path.length] !== uci &&
        !ui.confirm(`Play this move here? The ${lost} move${lost === 1 ? "" : "s"} after this position will be deleted.`)) {
        renderView();
        return;
      }
      render(await api("POST", `/api/games/${g.id}/moves`, { move: uci, at: path }));
      goto(path.concat([uci]), true);
    } else {
      render(await api("POST", `/api/games/${g.id}/moves`, { move: uci, at: path, variation: true }));
      goto(path.concat([uci]), true);
    }
    if (ui.analysing) {
      await startAnalysis();
    } else if (atEnd() && engineToMove()) {
      await engineMove();
    }
  });
}

async function startAnalysis() {
  ui.lines = {};
  const v = viewInfo();
  if (v.status !== "ongoing") {
    renderLines();
    $("lines").textContent = "The game is over here.";
    return;
  }
  render(await api("POST", `/api/games/${ui.game.id}/analysis`, { multipv: 3, at: viewPath() }));
}

// After navigation the analysis follows the viewed position (a moment
// later, so that holding an arrow key does not restart it each step).
function restartAnalysisSoon() {
  clearTimeout(restartAnalysisSoon.timer);
  restartAnalysisSoon.timer = setTimeout(() => {
    if (ui.analysing && !ui.busy) startAnalysis().catch((err) => message(err.message));
  }, 200);
}

function levelValue() {
  const v = $("level").value;
  return v === "elo" ? String($("elo").value) : v;
}

function saveSession() {
  sessionStorage.setItem("twofold-game", JSON.stringify({ id: ui.game.id, side: ui.userSide }));
}

// adopt makes a new game the page's (the old one is deleted).
function adopt(st, side) {
  if (ui.game && ui.game.id !== st.id) {
    api("DELETE", `/api/games/${ui.game.id}`).catch(() => {});
  }
  ui.userSide = side;
  ui.orientation = side === "black" ? "black" : "white";
  ui.analysing = false;
  $("analyse").setAttribute("aria-pressed", "false");
  ui.follow = true;
  ui.path = [];
  ui.game = null;
  render(st);
  saveSession();
  $("conn").textContent = "";
  buildBoard();
  listen(st.id);
  render(st);
}

async function newGame() {
  const body = { mind: $("mind").value, level: levelValue() };
  const fen = $("fen").value.trim();
  if (fen) body.fen = fen;
  act(async () => {
    const st = await api("POST", "/api/games", body);
    adopt(st, $("side").value);
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
  if (!freeBoard() && g.turn === ui.userSide) plies = Math.min(2, g.moves.length);
  ui.follow = true;
  render(await api("POST", `/api/games/${g.id}/undo`, { plies }));
  if (ui.analysing) await startAnalysis();
  else if (engineToMove()) await engineMove();
}));

$("analyse").addEventListener("click", () => act(async () => {
  ui.analysing = !ui.analysing;
  $("analyse").setAttribute("aria-pressed", String(ui.analysing));
  if (ui.analysing) {
    await startAnalysis();
  } else {
    render(await api("DELETE", `/api/games/${ui.game.id}/analysis`));
    if (atEnd() && engineToMove()) await engineMove();
  }
}));

async function copyText(text) {
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
}

$("copy-pgn").addEventListener("click", async () => {
  try {
    const r = await fetch(`/api/games/${ui.game.id}/pgn`);
    if (!r.ok) throw new Error("cannot fetch the PGN");
    await copyText(await r.text());
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
    render(await api("PATCH", `/api/games/${ui.game.id}`, { mind: $("mind").value, level: levelValue() }));
  } catch (err) {
    message(err.message);
  }
}
$("mind").addEventListener("change", applySettings);
$("level").addEventListener("change", applySettings);
$("elo").addEventListener("change", applySettings);

// ---- import ----

const FEN_RE = /^\s*([pnbrqkPNBRQK1-8]+\/){7}[pnbrqkPNBRQK1-8]+\s+[wb]\b/;

$("import-file").addEventListener("change", async () => {
  const f = $("import-file").files[0];
  if (!f) return;
  $("import-text").value = await f.text();
  $("import-game-label").hidden = true;
  $("import-game").innerHTML = "";
});

$("import-text").addEventListener("input", () => {
  $("import-game-label").hidden = true;
  $("import-game").innerHTML = "";
});

// importGame: a FEN starts an analysis board there; a PGN of one game is
// imported at once; of several, the page lists them and the next press
// imports the one picked. A bad PGN leaves everything as it was and says
// where and why.
function importGame() {
  const text = $("import-text").value;
  if (!text.trim()) {
    message("Paste a PGN or a FEN first, or open a file.");
    return;
  }
  act(async () => {
    const body = { mind: $("mind").value, level: levelValue() };
    if (FEN_RE.test(text) && !text.includes("[")) {
      body.fen = text.trim();
    } else {
      body.pgn = text;
      const pick = $("import-game");
      if (!$("import-game-label").hidden && pick.value) {
        body.game = Number(pick.value);
      } else {
        const list = await api("POST", "/api/pgn", { pgn: text });
        if (list.games.length > 1) {
          pick.innerHTML = "";
          for (const gm of list.games) {
            const o = document.createElement("option");
            o.value = String(gm.game);
            o.textContent = `${gm.game}. ${gm.white || "?"} – ${gm.black || "?"} ${gm.result || ""} (${gm.plies} plies${gm.event ? ", " + gm.event : ""})`;
            pick.appendChild(o);
          }
          $("import-game-label").hidden = false;
          message(`The PGN holds ${list.games.length} games: pick one and press Import.`, true);
          return;
        }
        body.game = 1;
      }
    }
    const st = await api("POST", "/api/games", body);
    adopt(st, "both");
    goto([]);
    message("Imported: step through it with the arrows, or review it.", true);
  });
}

$("import").addEventListener("click", importGame);

// ---- review ----

$("review-budget").addEventListener("change", () => {
  const nodes = $("review-budget").value === "nodes";
  $("review-nodes-label").hidden = !nodes;
  $("review-playouts-label").hidden = !nodes || !availableMinds().includes("mcts");
});

function availableMinds() {
  return (ui.info?.minds || []).filter((m) => m.available).map((m) => m.name);
}

function reviewBody() {
  const v = $("review-budget").value;
  if (v !== "nodes") return { movetime: Number(v) };
  const minds = {};
  for (const m of availableMinds()) {
    minds[m] = { nodes: Number(m === "mcts" ? $("review-playouts").value : $("review-nodes").value) };
  }
  return { minds };
}

$("review").addEventListener("click", async () => {
  if (!ui.game) return;
  try {
    if (ui.review && ui.review.status === "running") {
      ui.review = await api("DELETE", `/api/games/${ui.game.id}/review`);
    } else {
      if (ui.analysing) $("analyse").click(); // the review's searches need the slots
      ui.review = await api("POST", `/api/games/${ui.game.id}/review`, reviewBody());
    }
    renderReview();
    renderView();
  } catch (err) {
    message(err.message);
  }
});

// Progress events come per search; the review itself is fetched at most
// every half second while it runs, and once at its end.
function scheduleReviewFetch(now) {
  if (!ui.game) return;
  if (scheduleReviewFetch.timer && !now) return;
  clearTimeout(scheduleReviewFetch.timer);
  scheduleReviewFetch.timer = setTimeout(async () => {
    scheduleReviewFetch.timer = null;
    try {
      ui.review = await api("GET", `/api/games/${ui.game.id}/review`);
    } catch (err) {
      if (err.status !== 404) message(err.message);
      ui.review = null;
    }
    renderReview();
    renderView();
  }, now ? 0 : 500);
}

function showProgress(done, total) {
  $("review-run").hidden = false;
  $("review-progress").max = Math.max(total, 1);
  $("review-progress").value = done;
  $("review-status").textContent = `${done} / ${total} searches`;
}

function renderReview() {
  const r = ui.review;
  const running = r && r.status === "running";
  $("review").textContent = running ? "Cancel review" : (r ? "Review again" : "Review game");
  $("review").classList.toggle("primary", !running);
  $("download-review").hidden = !r;
  if (ui.game) $("download-review").href = `/api/games/${ui.game.id}/pgn?annotated=1`;
  if (!r) {
    $("review-run").hidden = $("review-summary").hidden = $("review-note").hidden = true;
    return;
  }
  showProgress(r.done, r.total);
  const secs = (r.elapsedMs / 1000).toFixed(1);
  let status = running ? `${r.done} / ${r.total} searches, ${secs} s` : `${r.status}: ${r.done} / ${r.total} searches in ${secs} s`;
  if (r.error && r.status !== "done") status += ` (${r.error})`;
  $("review-status").textContent = status;
  const notes = [];
  for (const [m, why] of Object.entries(r.skipped || {})) notes.push(`${mindLabel(m)} is unavailable (${why}): reviewed by ${r.minds.map(mindLabel).join(" and ")} alone.`);
  if (r.stale) notes.push("The game has changed since this review: it covers the moves up to where they differ.");
  $("review-note").textContent = notes.join(" ");
  $("review-note").hidden = notes.length === 0;
  // Accuracy per side and mind; the judge's counts of bad moves.
  const sum = r.summary || {};
  let html = "<table><tr><th></th>";
  for (const m of r.minds) html += `<th>${esc(mindLabel(m))}${m === r.judge && r.minds.length > 1 ? " *" : ""}</th>`;
  html += "<th>?! / ? / ??</th></tr>";
  for (const side of ["white", "black"]) {
    html += `<tr><td>${side === "white" ? "White" : "Black"} accuracy</td>`;
    for (const m of r.minds) {
      const s = sum[m] && sum[m][side];
      html += `<td class="acc" data-mind="${esc(m)}" data-side="${side}">${s && s.moves ? s.accuracy.toFixed(1) : "–"}</td>`;
    }
    const c = (sum[r.judge] && sum[r.judge][side] && sum[r.judge][side].counts) || {};
    html += `<td>${c.inaccuracy || 0} / ${c.mistake || 0} / ${c.blunder || 0}</td></tr>`;
  }
  html += "</table>";
  if (r.minds.length > 1) html += `<div class="muted">* classifies the moves</div>`;
  $("review-summary").innerHTML = html;
  $("review-summary").hidden = false;
}

// renderReviewMove: the review of the move that led to the viewed
// position (its class, the better move, each mind's view) and the minds'
// views of the position itself.
function renderReviewMove() {
  const box = $("review-move");
  const ply = mainPly();
  const pos = reviewPosition(ply);
  const rp = reviewPly(ply);
  if (!pos && !rp) {
    box.hidden = true;
    return;
  }
  const r = ui.review;
  let html = "";
  if (rp && rp.class) {
    const num = moveNumber(ui.game.fens[ply - 1], true);
    html += `<div class="head cls-${rp.class}">${num} ${esc(rp.san)}${CLASS_MARK[rp.class] || ""}: <span class="class">${rp.class}</span></div>`;
    html += `<div>${rp.color === "white" ? "White" : "Black"}'s chance ${rp.winBefore.toFixed(0)}% → ${rp.winAfter.toFixed(0)}%` +
      `${rp.drop > 0 ? ` (−${rp.drop.toFixed(1)})` : ""}, accuracy ${rp.accuracy.toFixed(0)}</div>`;
    if (rp.class !== "best" && rp.bestSan) {
      const then = (rp.bestLine || []).slice(1).join(" ");
      html += `<div>Better: <b>${esc(rp.bestSan)}</b>${then ? `, then <span class="line">${esc(then)}</span>` : ""}</div>`;
    }
    if (!rp.agree && Object.keys(rp.minds).length > 1) {
      const views = r.minds.filter((m) => rp.minds[m]).map((m) => `${mindLabel(m)}: ${rp.minds[m].class} (best ${rp.minds[m].bestSan})`);
      html += `<div class="disagree">The minds disagree: ${esc(views.join("; "))}.</div>`;
    }
  } else if (rp) {
    html += `<div class="head">${esc(rp.san)}: not judged yet</div>`;
  }
  if (pos) {
    html += `<div class="muted" style="margin-top:0.4em">In this position:</div>`;
    for (const m of r.minds) {
      const e = pos.evals[m];
      if (!e) continue;
      html += `<div class="mind" data-mind="${esc(m)}"><b class="${MIND_CLASS[m] || ""}">${esc(mindLabel(m))}</b> `;
      if (e.terminal) {
        html += esc(e.terminal) + "</div>";
        continue;
      }
      html += `${scoreText(e.score)}`;
      if (e.q !== undefined && e.q !== null) html += ` (Q ${e.q >= 0 ? "+" : ""}${e.q.toFixed(2)})`;
      else if (e.depth) html += ` depth ${e.depth}`;
      html += `: <span class="line">${esc((e.san || []).slice(0, 8).join(" "))}</span>`;
      if (e.top && e.top.length) {
        const pct = (x) => (x > 0 && x < 0.01 ? "<1" : (100 * x).toFixed(0)) + "%";
        const played = e.top.some((t) => t.visits > 0); // a proof can end the search first
        html += `<ol class="top">` + e.top.map((t) => `<li data-move="${esc(t.move)}">${esc(t.san)} ` +
          `${t.proven ? `proven ${t.proven}, ` : ""}${played ? `${pct(t.share)} of playouts, ` : ""}prior ${pct(t.prior)}</li>`).join("") + "</ol>";
      }
      html += "</div>";
    }
    if (pos.agree === false) {
      const picks = r.minds.filter((m) => pos.evals[m] && pos.evals[m].bestSan).map((m) => `${mindLabel(m)} ${pos.evals[m].bestSan}`);
      html += `<div class="disagree">The minds disagree on the move here: ${esc(picks.join(", "))}.</div>`;
    }
  }
  box.innerHTML = html;
  box.hidden = false;
}

// ---- start ----

async function init() {
  try {
    ui.info = await api("GET", "/api/info");
  } catch (err) {
    message("cannot reach the server: " + err.message);
    return;
  }
  const mindSel = $("mind");
  const notes = [];
  for (const m of ui.info.minds) {
    const o = document.createElement("option");
    o.value = m.name;
    o.textContent = mindLabel(m.name) + (m.available ? "" : " (unavailable)");
    o.disabled = !m.available;
    if (!m.available) {
      o.title = m.reason;
      notes.push(`${mindLabel(m.name)} is unavailable: ${m.reason}`);
    }
    mindSel.appendChild(o);
  }
  mindSel.value = "alphabeta";
  // The Elo field takes UCI_Elo's calibrated range, which the server knows.
  $("elo").min = ui.info.elo.min;
  $("elo").max = ui.info.elo.max;
  $("mind-note").textContent = notes.join(" ");
  $("mind-note").hidden = notes.length === 0;
  renderReview();

  // A link names the game and the place (?game=..&ply=..&line=..); a
  // reload goes on with the same game.
  const params = new URLSearchParams(location.search);
  const saved = JSON.parse(sessionStorage.getItem("twofold-game") || "null");
  const id = params.get("game") || saved?.id;
  if (id) {
    try {
      const st = await api("GET", `/api/games/${id}`);
      const side = saved && saved.id === id ? saved.side : "both";
      ui.userSide = side;
      ui.orientation = side === "black" ? "black" : "white";
      if (side !== "both") $("side").value = side;
      $("mind").value = st.mind;
      if (["easy", "medium", "hard", "max"].includes(st.level)) {
        $("level").value = st.level;
      } else {
        $("level").value = "elo";
        $("elo").value = st.level;
        $("elo-label").hidden = false;
      }
      ui.follow = true;
      render(st);
      saveSession();
      buildBoard();
      listen(st.id);
      const line = params.get("line");
      const ply = params.get("ply");
      if (id === params.get("game") && line) goto(line.split(","));
      else if (id === params.get("game") && ply !== null) goto(st.uciMoves.slice(0, Number(ply)));
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
