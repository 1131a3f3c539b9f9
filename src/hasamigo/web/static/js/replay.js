// Replay a stored game move by move (the game, its positions and its evaluations come
// from the server, read with this browser's seat token, or as a spectator of a public
// game). It opens at the start (move 0); a move of the list, a point of the graph, the
// buttons, the slider and the arrow keys go to any position. The game's review (review.js)
// lives in a card of its own and jumps the replay the same way. Variations
// (variations.js): a click on a legal square (a grey dot) tries another move there; the
// replay then shows that line (the main line up to where it branches, then its moves)
// until "Back to the main line" or a jump to a main-line position.
import {
  ApiError, api, escapeHtml, isPrivateRefusal, moveItems, scoringNote, seatToken, strings, wireDownloads,
} from "./api.js";
import { BoardView } from "./board.js";
import { drawGraph } from "./graph.js";
import { ReviewPanel } from "./review.js";
import { VariationPanel } from "./variations.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("replay");
const gameId = root.dataset.gameId;
const token = seatToken(gameId);
const slider = $("ply");
const list = $("moves");
let board = null;
let mainPositions = [];  // the game's, from /positions
let positions = [];  // the line shown: the main line, or a variation's (see variations.js)
let line = null;  // the variation shown ({from, ids}), null on the main line
let scores = null;
let ply = 0;
let review = null;
let variations = null;
let busy = false;

function colourName(c) { return c === "black" ? T.black : T.white; }

// the main line at position n (a variation shown is left)
function showMain(n, animate = false) {
  if (line) {
    line = null;
    positions = mainPositions;
    slider.max = String(positions.length - 1);
  }
  show(n, animate);
}

// a variation's line at position n
function openLine(next, n) {
  line = next;
  positions = variations.positions(line, mainPositions);
  slider.max = String(positions.length - 1);
  show(n);
}

// on a position of the main line (before a variation branches, too)
function onMain(n) { return !line || n <= line.from; }

function show(n, animate = false) {
  ply = Math.max(0, Math.min(n, positions.length - 1));
  const p = positions[ply];
  if (!animate) board.cells = null;
  stopPicking();
  const moves = variations && variations.enabled ? variations.movesAt(line, ply) : null;
  // a move that chose its discs (挟み碁's flip rules) is c4(d4): its square is c4
  board.render(p.cells, { last: p.move === "pass" || !p.move ? null : p.move.split("(")[0], flipped: animate ? p.flipped : [],
    clickable: Boolean(moves && moves.legal.length), legal: moves ? moves.legal : [] });
  $("var-pass").hidden = !(moves && moves.must_pass);
  slider.value = String(ply);
  root.dataset.ply = String(ply);
  root.dataset.line = line ? line.ids.join(",") : "";
  list.querySelectorAll("li").forEach((li, i) => {
    const here = i === ply - 1 && onMain(ply);
    li.classList.toggle("current", here);
    if (here) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  keepInView(list.querySelector("li.current"));
  const what = p.move
    ? `${colourName(p.colour)} <strong>${escapeHtml(p.move)}</strong>`
    : escapeHtml(T["replay.start"]);
  const tag = onMain(ply) ? "" : `<span class="tag var-tag">${escapeHtml(T["var.tag"])}</span> `;
  $("replay-status").innerHTML =
    `${tag}<span class="ply">${ply} / ${positions.length - 1}</span> · ${what}` +
    ` · <span class="disc-icon black"></span> ${Number(p.black)} – ${Number(p.white)} <span class="disc-icon white"></span>`;
  $("first").disabled = $("prev").disabled = ply === 0;
  $("next").disabled = $("last").disabled = ply === positions.length - 1;
  const mainPly = line ? Math.min(ply, line.from) : ply;
  if (scores) drawGraph($("graph"), scores, { current: mainPly, onPick: (n) => showMain(n), label: T["graph.title"] });
  if (review) {
    review.showPly(mainPly);
    if (!onMain(ply)) {
      $("board").querySelectorAll(".review-played, .review-best").forEach((g) => g.classList.remove("review-played", "review-best"));
    }
  }
  if (variations) variations.renderBar(line, ply);
  if (onMain(ply)) showNotes(ply);
  else {
    notesWanted = -1;
    $("notes").innerHTML = `<p class="muted small">${escapeHtml(T["var.notes"])}</p>`;
  }
}

// ---- variations: a click on a legal square tries that move ---------------------------
async function onSquare(square) {
  if (busy || !variations || !variations.enabled) return;
  const here = variations.movesAt(line, ply);
  if (!here || !here.legal.includes(square)) return;
  const discs = here.picks[square];
  if (discs && discs.length > 1) {  // the flip rule turns one of them: which?
    board.setPicks(discs, [], (disc) => tryMove(`${square}(${disc})`));
    $("var-pick").hidden = false;
    return;
  }
  await tryMove(square);
}

function stopPicking() {
  if (!board) return;
  board.setPicks();
  $("var-pick").hidden = true;
}

async function tryMove(move) {
  stopPicking();
  const next = positions[ply + 1];
  if (next && next.move === move) { show(ply + 1, true); return; }  // the line's own move
  if (line && ply <= line.from && mainPositions[ply + 1] && mainPositions[ply + 1].move === move) {
    showMain(ply + 1, true);  // back on the game's own move
    return;
  }
  busy = true;
  try {
    const at = ply;
    const through = await variations.play(line, at, move);
    variations.note("");
    line = through;
    positions = variations.positions(line, mainPositions);
    slider.max = String(positions.length - 1);
    show(at + 1, true);
  } catch (err) {
    variations.note(err.message);
  } finally {
    busy = false;
  }
}

// after a deletion: stay on the line shown if it is still there, else the main line
function refreshLine() {
  if (!line) { show(ply); return; }
  const kept = line.ids.filter((id) => variations.nodes.has(id));
  if (!kept.length) { showMain(Math.min(ply, line.from)); return; }
  const through = variations.lineThrough(kept[kept.length - 1]);
  openLine(through, Math.min(ply, through.from + kept.length));
}

// notes in the words players use (stable discs, X/C squares, mobility, 中割り, parity…)
// on the position shown and the move that led to it, fetched once per ply
const notesCache = new Map();
let notesWanted = -1;
async function showNotes(n) {
  notesWanted = n;
  let data = notesCache.get(n);
  if (!data) {
    try {
      data = await api("GET", `/api/games/${gameId}/notes?ply=${n}`, undefined, { token });
    } catch (err) {
      if (notesWanted !== n) return;
      const note = err instanceof ApiError && err.code === "official_game" ? T["official.no_help"] : err.message;
      $("notes").innerHTML = `<p class="muted small">${escapeHtml(note)}</p>`;
      return;
    }
    notesCache.set(n, data);
  }
  if (notesWanted !== n) return;  // the reader moved on meanwhile
  const ja = document.documentElement.lang === "ja";
  const item = (note) => {
    const where = note.squares.length ? ` <span class="muted">(${escapeHtml(note.squares.join(" "))})</span>` : "";
    return `<li data-kind="${escapeHtml(note.kind)}">${escapeHtml(ja ? note.text_ja : note.text)}${where}` +
      ` <span class="tag">${escapeHtml(ja ? note.rule_ja : note.rule)}</span></li>`;
  };
  const part = (title, notes) => notes.length
    ? `<h4 class="review-sub">${escapeHtml(title)}</h4><ul class="notes-list">${notes.map(item).join("")}</ul>` : "";
  $("notes").innerHTML =
    part(data.move ? `${T["notes.move"]} ${data.move}` : "", data.move_notes) +
    part(T["notes.position"], data.position);
}

// scroll the move list (only the list: the page stays where it is) to show the move
function keepInView(item) {
  if (!item) { list.scrollTop = 0; return; }
  const top = item.offsetTop;
  const bottom = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

// how the game counts a board that ends with empties: shown to everyone, changed by its
// creator (seat 0: the browser that imported it) and the page reloaded to show the count
function describeScoring(game) {
  const form = $("scoring-form");
  const select = $("scoring-select");
  select.value = game.scoring || "jof-2014";
  const mine = (game.you || []).includes(0);
  select.disabled = !mine;
  $("scoring-save").hidden = !mine;
  form.hidden = false;
  if (!mine || form.dataset.wired) return;
  form.dataset.wired = "1";
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("scoring-error").hidden = true;
    try {
      await api("POST", `/api/games/${gameId}/scoring`, { scoring: select.value }, { token });
      location.reload();
    } catch (err) {
      $("scoring-error").textContent = err.message;
      $("scoring-error").hidden = false;
    }
  });
}

function describe(game) {
  describeScoring(game);
  const name = (c) => escapeHtml(game.seats ? game.seats[c].name : "?");
  $("replay-players").innerHTML =
    `<i class="disc-icon black"></i> ${name("black")} – <i class="disc-icon white"></i> ${name("white")}`;
  const r = game.result;
  $("replay-result").innerHTML = r
    ? `<strong>${escapeHtml(r.score)}</strong> <span class="muted">${escapeHtml((T[`term.${r.termination}`] || r.termination) + scoringNote(T, r))}</span>`
    : `<span class="tag live">${escapeHtml(T.in_progress)}</span> <a href="/games/${encodeURIComponent(gameId)}">${escapeHtml(T["library.continue"])}</a>`;
}

// the evaluation graph: refused (official_game) only for an official game in progress
async function loadScores() {
  try {
    const e = await api("GET", `/api/games/${gameId}/evaluations`, undefined, { token });
    scores = e.scores;
    show(ply);
  } catch (err) {
    const note = err instanceof ApiError && err.code === "official_game" ? T["official.no_help"] : err.message;
    $("graph").innerHTML = `<p class="muted small">${escapeHtml(note)}</p>`;
    $("graph-note").hidden = true;
  }
}

async function load() {
  let game;
  try {
    [game, mainPositions] = await Promise.all([
      api("GET", `/api/games/${gameId}`, undefined, { token }),
      api("GET", `/api/games/${gameId}/positions`, undefined, { token }),
    ]);
  } catch (err) {
    $("loading").hidden = true;
    if (isPrivateRefusal(err)) $("private-panel").hidden = false;
    else { $("loading").textContent = `${T.error}: ${err.message}`; $("loading").hidden = false; }
    return;
  }
  $("loading").hidden = true;
  root.hidden = false;
  positions = mainPositions;
  board = new BoardView($("board"), game.rows, game.cols, (square) => onSquare(square), game.rings || []);
  describe(game);
  slider.max = String(positions.length - 1);
  const first = positions.length > 1 ? positions[1].colour : game.first_colour;
  list.innerHTML = moveItems(positions.slice(1).map((p) => p.move), first, -1);
  list.querySelectorAll("li").forEach((li) => {
    li.tabIndex = 0;
    li.setAttribute("role", "button");
    li.addEventListener("click", () => showMain(Number(li.dataset.ply)));
    li.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); showMain(Number(li.dataset.ply)); }
    });
  });
  show(0);
  wire();
  loadScores();
  review = new ReviewPanel({ gameId, token, T, reviewed: root.dataset.reviewed === "true", jump: (n) => showMain(n), puzzleLink: (n, colour) => {
    const p = mainPositions[n];
    if (!p || (p.cells.match(/-/g) || []).length > 20) return null;  // the solver's range
    const board = `${p.cells} ${colour === "black" ? "X" : "O"}`;
    return `/puzzles?variant=${encodeURIComponent(game.variant)}&board=${encodeURIComponent(board)}`;
  } });
  review.init(game);
  variations = new VariationPanel({ gameId, token, T, open: openLine, main: refreshLine });
  await variations.load();
  show(ply);
}

function wire() {
  $("var-back").addEventListener("click", () => showMain(line ? line.from : ply));
  $("var-pass").addEventListener("click", () => tryMove("pass"));
  $("var-crumb").addEventListener("click", (ev) => {
    const step = ev.target.closest("button[data-step]");
    if (step) show(Number(step.dataset.step));
  });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1, true));
  $("last").addEventListener("click", () => show(positions.length - 1));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (ev) => {
    if (ev.target === slider || ev.altKey || ev.ctrlKey || ev.metaKey) return;  // the slider steps itself
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: positions.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    show(to, ev.key === "ArrowRight");
  });
}

$("private-retry").addEventListener("click", () => location.reload());
wireDownloads(root);
load();
