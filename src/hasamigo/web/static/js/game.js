// The game page: renders the server's state, sends a person's actions, follows the game
// over a websocket (polling if it drops). The server is authoritative; nothing here decides.
import { api, formatClock, strings } from "./api.js";
import { BoardView } from "./board.js";
import { drawGraph } from "./graph.js";

const T = strings();
const root = document.getElementById("game");
const gameId = root.dataset.gameId;
let state = JSON.parse(document.getElementById("initial-state").textContent);
let receivedAt = performance.now();
let pending = false;
let hints = null;
let lastRender = 0;
let queued = null;
let syncAsked = 0;

const board = new BoardView(document.getElementById("board"), state.rows, state.cols, onSquare);
const $ = (id) => document.getElementById(id);

const panels = {
  hints: $("toggle-hints"),
  graph: $("toggle-graph"),
  opening: $("toggle-opening"),
};
for (const [key, box] of Object.entries(panels)) {
  box.checked = localStorage.getItem(`panel-${key}`) === "1";
  box.addEventListener("change", () => {
    localStorage.setItem(`panel-${key}`, box.checked ? "1" : "0");
    hints = null;
    render();
    refreshPanels();
  });
}

function colourName(c) { return c === "black" ? T.black : T.white; }
function isPerson(colour) { return state.persons.includes(colour); }
function soloPerson() { return state.persons.length === 1 ? state.persons[0] : null; }

function personToMove() {
  if (state.phase === "playout") return true;
  return state.phase === "playing" && isPerson(state.turn) && !state.thinking;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
  if (message) setTimeout(() => { if (box.textContent === message) box.hidden = true; }, 6000);
}

async function onSquare(square) {
  if (pending || !personToMove()) return;
  pending = true;
  showError("");
  try {
    const next = await api("POST", `/api/games/${gameId}/moves`, { move: square, revision: state.revision });
    accept(next);
  } catch (err) {
    showError(err.message);
    sync();
  } finally {
    pending = false;
  }
}

// States are applied in revision order; a program's reply right after a person's move waits
// a moment, so both moves can be seen.
function accept(next) {
  const newest = queued && queued.revision > state.revision ? queued : state;
  if (next.revision < newest.revision) return;
  if (next.revision === newest.revision) {
    if (newest === queued) { queued = next; return; }
    state = next;  // same position, fresher details (thinking, clocks)
    receivedAt = performance.now();
    render();
    return;
  }
  const wait = 450 - (performance.now() - lastRender);
  if (next.last_move !== state.last_move && wait > 0) {
    queued = next;
    setTimeout(flush, wait);
    return;
  }
  queued = null;
  apply(next);
}

function flush() {
  if (!queued) return;
  const wait = 450 - (performance.now() - lastRender);
  if (wait > 0) { setTimeout(flush, wait); return; }
  const q = queued;
  queued = null;
  if (q.revision > state.revision) apply(q);
}

function apply(next) {
  const moved = next.revision !== state.revision;
  state = next;
  receivedAt = performance.now();
  if (moved) hints = null;
  render(true);
  if (moved) refreshPanels();
}

function clockNow(colour) {
  if (!state.clock) return null;
  let left = state.clock[colour];
  if (state.clock.running === colour) left -= (performance.now() - receivedAt) / 1000;
  return left;
}

function seatLabel(colour) {
  const seat = state.seats ? state.seats[colour] : null;
  if (!seat) return "";
  if (seat.person && soloPerson() === colour) return `${T.you}`;
  return seat.name;
}

function playerBar(colour) {
  const count = state.counts[colour];
  const active = state.phase === "playing" && state.turn === colour;
  const left = clockNow(colour);
  const clock = left === null ? "" :
    `<span class="clock ${state.clock.running === colour ? "running" : ""} ${left < 60 ? "low" : ""}" data-clock="${colour}">${formatClock(left)}</span>`;
  const drawWin = state.draw_win === colour ? `<span class="tag" title="${T.draw_win}">引き分け勝ち</span>` : "";
  return `<div class="player ${active ? "active" : ""}" data-colour="${colour}">
    <span class="disc-icon ${colour} big"></span>
    <span class="player-name">${escapeHtml(seatLabel(colour))} ${drawWin}
      <small>${colourName(colour)}</small></span>
    <span class="count" data-count="${colour}">${count}</span>
    ${clock}
  </div>`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function statusText() {
  if (state.phase === "colours") return T["fuse.title"];
  if (state.phase === "over" && state.result) {
    const r = state.result;
    return `${r.black}–${r.white} · ${T[`term.${r.termination}`] || r.termination}`;
  }
  if (state.phase === "timeout-choice") return `${T["timeout.title"]}: ${colourName(state.timeout_loser)}`;
  if (state.phase === "playout") return T["playout.note"];
  const who = seatLabel(state.turn);
  if (state.thinking || !isPerson(state.turn)) return `${who} ${T.thinking}`;
  if (soloPerson() === state.turn) return `${T.your_turn} (${colourName(state.turn)})`;
  return `${colourName(state.turn)} ${T.to_move}`;
}

function render(animate = false) {
  lastRender = performance.now();
  // you at the bottom; with two people on one screen, Black at the bottom
  const bottom = soloPerson() || "black";
  const top = bottom === "black" ? "white" : "black";
  $("bar-top").innerHTML = state.seats ? playerBar(top) : "";
  $("bar-bottom").innerHTML = state.seats ? playerBar(bottom) : "";

  const hintMap = hints && panels.hints.checked ? new Map(hints.hints.map((h) => [h.move, h.score])) : null;
  const best = hints && hints.hints.length ? Math.max(...hints.hints.map((h) => h.score)) : null;
  board.render(state.cells, {
    legal: personToMove() ? state.legal : [],
    last: state.last_move,
    flipped: animate ? state.flipped : [],
    clickable: personToMove(),
    hints: hintMap,
    bestHint: best,
  });

  $("status").textContent = statusText();
  $("status").dataset.turn = state.turn;
  const notice = $("notice");
  if (state.passed.length && state.phase !== "over") {
    notice.textContent = state.passed.map((c) => `${seatLabel(c) || colourName(c)} (${colourName(c)}) ${T.pass_notice}`).join(" · ");
    notice.hidden = false;
  } else {
    notice.hidden = true;
  }

  $("undo").hidden = !state.casual || state.phase === "over";
  $("undo").disabled = !state.can_undo || pending;
  $("resign").hidden = state.phase !== "playing" || state.persons.length === 0;
  $("claim").hidden = !(state.claimable && isPerson(state.claimable === "black" ? "white" : "black"));
  $("stop-playout").hidden = state.phase !== "playout";

  renderFuse();
  renderTimeout();
  renderResult();
  renderMoves();
  renderOpening();
}

function renderFuse() {
  const panel = $("fuse-panel");
  const f = state.fuse_ishi;
  if (!f || (state.phase !== "colours" && !f.top)) { panel.hidden = true; return; }
  panel.hidden = false;
  const body = $("fuse-body");
  const buttons = (step, options) => options.map(([value, label]) =>
    `<button class="button" data-step="${step}" data-value="${value}" type="button">${label}</button>`).join(" ");
  let html = "";
  if (f.top) html += `<p>${T["fuse.revealed"]}: <span class="disc-icon ${f.top}"></span> <strong>${colourName(f.top)}</strong></p>`;
  if (state.phase === "colours" && f.step) {
    const who = state.participants[f.by];
    if (f.step === "call") {
      html += `<p>${T["fuse.hidden"]} ${escapeHtml(who.name)}:</p>`;
      html += f.draws_allowed
        ? `<p>${T["fuse.call_draws"]}</p>${buttons("call", [["top", T["fuse.top"]], ["bottom", T["fuse.bottom"]]])}`
        : `<p>${T["fuse.call_nodraws"]}</p>${buttons("call", [["black", T.black], ["white", T.white]])}`;
    } else if (f.step === "right") {
      html += `<p>${escapeHtml(who.name)}: ${T["fuse.right"]}</p>${buttons("right", [["draw-win", T["fuse.right.drawwin"]], ["colour", T["fuse.right.colour"]]])}`;
    } else {
      html += `<p>${escapeHtml(who.name)}: ${T["fuse.colour"]}</p>${buttons("colour", [["black", T.black], ["white", T.white]])}`;
    }
  } else if (state.seats) {
    html += `<p><span class="disc-icon black"></span> ${escapeHtml(state.seats.black.name)} · <span class="disc-icon white"></span> ${escapeHtml(state.seats.white.name)}</p>`;
    if (state.draw_win) html += `<p>${T.draw_win}: ${escapeHtml(state.seats[state.draw_win].name)}</p>`;
  }
  body.innerHTML = html;
  body.querySelectorAll("button[data-step]").forEach((b) => b.addEventListener("click", () =>
    action(`/api/games/${gameId}/colours`, { step: b.dataset.step, value: b.dataset.value, participant: f.by })));
}

function renderTimeout() {
  const panel = $("timeout-panel");
  if (state.phase !== "timeout-choice" || !state.timeout_loser) { panel.hidden = true; return; }
  const winner = state.timeout_loser === "black" ? "white" : "black";
  panel.hidden = false;
  $("timeout-body").innerHTML = isPerson(winner)
    ? `<p>${escapeHtml(seatLabel(winner))}: ${T["timeout.choose"]}</p>
       <button class="button primary" data-choice="33-31" type="button">${T["timeout.3331"]}</button>
       <button class="button" data-choice="playout" type="button">${T["timeout.playout"]}</button>`
    : `<p>${colourName(state.timeout_loser)}: ${T["timeout.title"]}</p>`;
  $("timeout-body").querySelectorAll("button[data-choice]").forEach((b) => b.addEventListener("click", () =>
    action(`/api/games/${gameId}/timeout`, { choice: b.dataset.choice })));
}

function renderResult() {
  const banner = $("result");
  const r = state.result;
  if (!r) { banner.hidden = true; return; }
  banner.hidden = false;
  const me = soloPerson();
  let word;
  let cls;
  if (r.winner === null) { word = T.draw; cls = "draw"; }
  else if (me) { word = r.winner === me ? T.win : T.lose; cls = r.winner === me ? "win" : "lose"; }
  else { word = `${colourName(r.winner)} ${T.wins}`; cls = "win"; }
  $("result-word").textContent = word;
  banner.dataset.outcome = cls;
  $("result-score").innerHTML = `<span class="disc-icon black"></span> ${r.black} – ${r.white} <span class="disc-icon white"></span>`;
  let detail = T[`term.${r.termination}`] || r.termination;
  if (r.by_draw_win) detail += ` · ${T.draw_win}`;
  $("result-detail").textContent = detail;
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = moveItems(state.moves, state.first_colour);
  list.scrollTop = list.scrollHeight;
  $("move-count").textContent = `(${state.moves.filter((m) => m !== "pass").length})`;
}

function moveItems(moves, first) {
  let colour = first;
  return moves.map((m, i) => {
    const item = `<li class="${i === moves.length - 1 ? "current" : ""}"><span class="n">${i + 1}</span><span class="mv"><i class="disc-icon ${colour}"></i>${m}</span></li>`;
    colour = colour === "black" ? "white" : "black";
    return item;
  }).join("");
}

function renderOpening() {
  const panel = $("opening-panel");
  if (!panels.opening.checked) { panel.hidden = true; return; }
  panel.hidden = false;
  const o = state.opening;
  panel.innerHTML = o
    ? `<span class="muted">${T.opening}</span> <strong>${escapeHtml(o.en || "")}</strong> <span lang="ja">${escapeHtml(o.ja || "")}</span>`
    : `<span class="muted">${T.opening}: —</span>`;
}

async function refreshPanels() {
  if (panels.hints.checked && personToMove() && state.phase === "playing") {
    const revision = state.revision;
    try {
      const h = await api("GET", `/api/games/${gameId}/hints`);
      if (state.revision === revision) { hints = h; render(); }
    } catch { /* hints are optional */ }
  }
  $("graph-panel").hidden = !panels.graph.checked;
  if (panels.graph.checked) {
    try {
      const e = await api("GET", `/api/games/${gameId}/evaluations`);
      drawGraph($("graph"), e.scores);
    } catch { /* optional */ }
  }
}

async function action(url, body = {}) {
  showError("");
  try {
    accept(await api("POST", url, body));
  } catch (err) {
    showError(err.message);
  }
}

$("undo").addEventListener("click", () => action(`/api/games/${gameId}/undo`));
$("resign").addEventListener("click", () => {
  if (confirm(T["resign.confirm"])) action(`/api/games/${gameId}/resign`, {});
});
$("claim").addEventListener("click", () => action(`/api/games/${gameId}/claim`, {}));
$("stop-playout").addEventListener("click", () => action(`/api/games/${gameId}/playout/stop`));

async function sync() {
  try { accept(await api("GET", `/api/games/${gameId}`)); } catch { /* next tick */ }
}

// clocks: count down locally between states; when a person's time is up, ask the server
function tickClocks() {
  if (state.clock) {
    for (const colour of ["black", "white"]) {
      const node = document.querySelector(`[data-clock="${colour}"]`);
      const left = clockNow(colour);
      if (node) {
        node.textContent = formatClock(left);
        node.classList.toggle("low", left < 60);
      }
    }
    const running = state.clock.running;
    if (running && clockNow(running) <= 0 && performance.now() - syncAsked > 1000) {
      syncAsked = performance.now();
      sync();
    }
    // a program's flag: offer the claim locally (the server checks it)
    const claim = $("claim");
    for (const colour of ["black", "white"]) {
      if (state.phase === "playing" && !isPerson(colour) && state.persons.length && clockNow(colour) <= 0) claim.hidden = false;
    }
  }
  requestAnimationFrame(tickClocks);
}

// websocket with reconnect; polling while it is down
let socket = null;
let retry = 500;
let pollTimer = null;
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}`);
  socket.addEventListener("open", () => {
    retry = 500;
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    document.body.classList.remove("offline");
  });
  socket.addEventListener("message", (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") accept(msg.game);
    else if (msg.type === "error") showError(msg.error.message);
  });
  socket.addEventListener("close", () => {
    document.body.classList.add("offline");
    if (!pollTimer) pollTimer = setInterval(sync, 2000);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

render();
refreshPanels();
connect();
requestAnimationFrame(tickClocks);
