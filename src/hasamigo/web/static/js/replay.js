// Replay a stored game move by move (the game, its positions and its evaluations come
// from the server, read with this browser's seat token, or as a spectator of a public
// game). It opens at the start (move 0); a move of the list, a point of the graph, the
// buttons, the slider and the arrow keys go to any position. The game's review (review.js)
// lives in a card of its own and jumps the replay the same way.
import {
  ApiError, api, escapeHtml, isPrivateRefusal, moveItems, seatToken, strings, wireDownloads,
} from "./api.js";
import { BoardView } from "./board.js";
import { drawGraph } from "./graph.js";
import { ReviewPanel } from "./review.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("replay");
const gameId = root.dataset.gameId;
const token = seatToken(gameId);
const slider = $("ply");
const list = $("moves");
let board = null;
let positions = [];
let scores = null;
let ply = 0;
let review = null;

function colourName(c) { return c === "black" ? T.black : T.white; }

function show(n, animate = false) {
  ply = Math.max(0, Math.min(n, positions.length - 1));
  const p = positions[ply];
  if (!animate) board.cells = null;
  // a move that chose its discs (挟み碁's flip rules) is c4(d4): its square is c4
  board.render(p.cells, { last: p.move === "pass" || !p.move ? null : p.move.split("(")[0], flipped: animate ? p.flipped : [], clickable: false, legal: [] });
  slider.value = String(ply);
  root.dataset.ply = String(ply);
  list.querySelectorAll("li").forEach((li, i) => {
    const here = i === ply - 1;
    li.classList.toggle("current", here);
    if (here) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  keepInView(list.querySelector("li.current"));
  const what = p.move
    ? `${colourName(p.colour)} <strong>${escapeHtml(p.move)}</strong>`
    : escapeHtml(T["replay.start"]);
  $("replay-status").innerHTML =
    `<span class="ply">${ply} / ${positions.length - 1}</span> · ${what}` +
    ` · <span class="disc-icon black"></span> ${Number(p.black)} – ${Number(p.white)} <span class="disc-icon white"></span>`;
  $("first").disabled = $("prev").disabled = ply === 0;
  $("next").disabled = $("last").disabled = ply === positions.length - 1;
  if (scores) drawGraph($("graph"), scores, { current: ply, onPick: (n) => show(n), label: T["graph.title"] });
  if (review) review.showPly(ply);
  showNotes(ply);
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

function describe(game) {
  const name = (c) => escapeHtml(game.seats ? game.seats[c].name : "?");
  $("replay-players").innerHTML =
    `<i class="disc-icon black"></i> ${name("black")} – <i class="disc-icon white"></i> ${name("white")}`;
  const r = game.result;
  $("replay-result").innerHTML = r
    ? `<strong>${escapeHtml(r.score)}</strong> <span class="muted">${escapeHtml(T[`term.${r.termination}`] || r.termination)}</span>`
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
    [game, positions] = await Promise.all([
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
  board = new BoardView($("board"), game.rows, game.cols, null, game.rings || []);
  describe(game);
  slider.max = String(positions.length - 1);
  const first = positions.length > 1 ? positions[1].colour : game.first_colour;
  list.innerHTML = moveItems(positions.slice(1).map((p) => p.move), first, -1);
  list.querySelectorAll("li").forEach((li) => {
    li.tabIndex = 0;
    li.setAttribute("role", "button");
    li.addEventListener("click", () => show(Number(li.dataset.ply)));
    li.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); show(Number(li.dataset.ply)); }
    });
  });
  show(0);
  wire();
  loadScores();
  review = new ReviewPanel({ gameId, token, T, jump: (n) => show(n), puzzleLink: (n, colour) => {
    const p = positions[n];
    if (!p || (p.cells.match(/-/g) || []).length > 20) return null;  // the solver's range
    const board = `${p.cells} ${colour === "black" ? "X" : "O"}`;
    return `/puzzles?variant=${encodeURIComponent(game.variant)}&board=${encodeURIComponent(board)}`;
  } });
  review.init(game);
}

function wire() {
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
