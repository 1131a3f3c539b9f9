// The game page: reads the game with this browser's seat token, renders the server's
// state, sends the seat's actions (each with the token), follows the game over a
// websocket (polling while it is down). The server is authoritative; nothing here
// decides. Without a seat the page watches a public game read-only (観戦), or says the
// game is private.
import {
  api, escapeHtml, formatClock, isPrivateRefusal, joinLink, moveItems, seatToken, strings,
  wireDownloads,
} from "./api.js";
import { BoardView } from "./board.js";
import { drawGraph } from "./graph.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("game");
const gameId = root.dataset.gameId;
const token = seatToken(gameId);
const url = `/api/games/${gameId}`;

let state = null;
let board = null;
let receivedAt = performance.now();
let pending = false;
let hints = null;
let lastRender = 0;
let queued = null;
let syncAsked = 0;
let stopped = false; // the page shows the private panel: no more reads

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

// ---- who is looking --------------------------------------------------------------
const other = (c) => (c === "black" ? "white" : "black");
function colourName(c) { return c === "black" ? T.black : T.white; }
function isPerson(colour) { return state.persons.includes(colour); }
function mine(colour) { return state.your_colours.includes(colour); }
function spectator() { return state.you.length === 0; }
// the one colour this seat plays (null: both on one screen, none yet, or watching)
function myColour() { return state.your_colours.length === 1 ? state.your_colours[0] : null; }
function twoBrowsers() {
  return state.participants.every((p) => p.person) && state.you.length === 1;
}
// no engine help in an official game until it ends (the server refuses it: official_game)
function helpAllowed() { return !(state.official && state.phase !== "over"); }

function canMove() {
  if (state.phase === "playout") return mine(other(state.timeout_loser));
  return state.phase === "playing" && mine(state.turn) && !state.thinking;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
  if (message) setTimeout(() => { if (box.textContent === message) box.hidden = true; }, 6000);
}

function call(method, path, body = undefined) {
  return api(method, path, body, { token });
}

async function onSquare(square) {
  if (pending || !canMove()) return;
  pending = true;
  showError("");
  const body = { move: square, revision: state.position_revision };
  if (state.phase === "playing") body.colour = state.turn;
  let next = null;
  try {
    next = await call("POST", `${url}/moves`, body);
  } catch (err) {
    showError(err.message);
    sync();
  } finally {
    pending = false;
  }
  if (next) accept(next);
}

// States are applied in revision order; a program's reply right after a person's move waits
// a moment, so both moves can be seen.
function accept(next) {
  if (stopped) return;
  if (!next.you.length && !next.public) { showPrivate(); return; }  // made private
  const newest = queued && queued.revision > state.revision ? queued : state;
  if (next.revision < newest.revision) return;
  if (next.revision === newest.revision) {
    if (newest === queued) { queued = next; return; }
    state = next;  // same position, fresher details (thinking, clocks, public)
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
  if (state.clock.running === colour && !state.suspended) left -= (performance.now() - receivedAt) / 1000;
  return left;
}

// ---- rendering ---------------------------------------------------------------------
function seatLabel(colour) {
  const seat = state.seats ? state.seats[colour] : null;
  if (!seat) return "";
  if (myColour() === colour) return T.you;
  return seat.name;
}

function playerBar(colour) {
  const count = state.counts[colour];
  const active = state.phase === "playing" && state.turn === colour;
  const left = clockNow(colour);
  const clock = left === null ? "" :
    `<span class="clock ${state.clock.running === colour ? "running" : ""} ${left < 60 ? "low" : ""}" data-clock="${colour}">${formatClock(left)}</span>`;
  const drawWin = state.draw_win === colour ? `<span class="tag" title="${escapeHtml(T.draw_win)}">引き分け勝ち</span>` : "";
  return `<div class="player ${active ? "active" : ""}" data-colour="${colour}">
    <span class="disc-icon ${colour} big"></span>
    <span class="player-name">${escapeHtml(seatLabel(colour))} ${drawWin}
      <small>${escapeHtml(colourName(colour))}</small></span>
    <span class="count" data-count="${colour}">${count}</span>
    ${clock}
  </div>`;
}

function statusText() {
  if (state.phase === "colours") return T["fuse.title"];
  if (state.phase === "over" && state.result) {
    const r = state.result;
    return `${r.black}–${r.white} · ${T[`term.${r.termination}`] || r.termination}`;
  }
  if (state.phase === "timeout-choice") return `${T["timeout.title"]}: ${colourName(state.timeout_loser)}`;
  if (state.phase === "playout") return T["playout.note"];
  if (state.awaiting_join) return T["status.awaiting_join"];
  const who = seatLabel(state.turn);
  if (state.thinking || !isPerson(state.turn)) return `${who} ${T.thinking}`;
  if (mine(state.turn) && myColour()) return `${T.your_turn} (${colourName(state.turn)})`;
  const waiting = myColour() ? ` · ${T["waiting.opponent"]}` : "";
  return `${colourName(state.turn)} ${T.to_move}${waiting}`;
}

function render(animate = false) {
  lastRender = performance.now();
  // you at the bottom; with two people on one screen (or watching), Black at the bottom
  const bottom = myColour() || "black";
  $("bar-top").innerHTML = state.seats ? playerBar(other(bottom)) : "";
  $("bar-bottom").innerHTML = state.seats ? playerBar(bottom) : "";

  const showHints = hints && panels.hints.checked && !spectator() && helpAllowed();
  const hintMap = showHints ? new Map(hints.hints.map((h) => [h.move, h.score])) : null;
  const best = showHints && hints.hints.length ? Math.max(...hints.hints.map((h) => h.score)) : null;
  board.render(state.cells, {
    legal: canMove() ? state.legal : [],
    last: state.last_move,
    flipped: animate ? state.flipped : [],
    clickable: canMove(),
    hints: hintMap,
    bestHint: best,
  });

  $("status").textContent = statusText();
  $("status").dataset.turn = state.turn;
  $("watching").hidden = !spectator();
  const notice = $("notice");
  const notes = [];
  if (state.passed.length && state.phase !== "over") {
    notes.push(state.passed.map((c) => `${seatLabel(c) || colourName(c)} (${colourName(c)}) ${T.pass_notice}`).join(" · "));
  }
  if (state.awaiting_join && state.phase !== "over") notes.push(T["clock.awaiting_join"]);
  else if (state.suspended && state.phase !== "over") notes.push(T["clock.stopped"]);
  notice.textContent = notes.join(" · ");
  notice.hidden = !notes.length;

  renderControls();
  renderInvite();
  renderFuse();
  renderTimeout();
  renderResult();
  renderMoves();
  renderOpening();
  renderPanelToggles();
}

function renderControls() {
  $("controls").hidden = spectator();
  if (spectator()) return;
  const playing = state.phase === "playing";
  const asked = state.undo_request;
  const iAsked = asked && mine(asked) && myColour() !== null;
  const theyAsk = asked && !mine(asked) && state.your_colours.length > 0;
  $("undo").hidden = !state.casual || !playing || !state.your_colours.length || theyAsk;
  $("undo").disabled = !state.can_undo || pending || iAsked;
  $("undo-waiting").hidden = !iAsked;
  $("undo-request").hidden = !theyAsk;
  if (theyAsk) {
    const name = state.seats ? state.seats[asked].name : colourName(asked);
    $("undo-request-text").textContent = `${name} (${colourName(asked)}) ${T["undo.asks"]}`;
  }
  $("resign").hidden = !playing || !state.your_colours.length;

  const claim = $("claim");
  claim.hidden = !state.claimable;
  if (state.claimable) {
    $("claim-label").textContent = state.claimable === state.claim_for ? T["claim.self"] : T.claim;
  }
  $("stop-playout").hidden = !(state.phase === "playout" && mine(other(state.timeout_loser)));

  const open = state.phase === "over" && state.clock && !state.result_final;
  const toAccept = open && state.your_colours.some((c) => !state.accepted.includes(c));
  $("accept").hidden = !toAccept;
  $("accept-note").hidden = !toAccept;
  $("accept-waiting").hidden = !(open && !toAccept && state.your_colours.length);

  $("public-row").hidden = !state.you.includes(0);
  $("public").checked = state.public;
  const row = $("undo").parentElement;
  row.hidden = [...row.children].every((b) => b.hidden);
  $("controls").hidden = [...$("controls").children].every((child) => child.hidden);
}

function opponentHasActed() {
  const me = myColour();
  if (!me) return false;
  let colour = state.first_colour;
  for (const m of state.moves) {
    if (colour !== me && m !== "pass") return true;
    colour = other(colour);
  }
  return false;
}

function renderInvite() {
  const link = joinLink(gameId);
  const show = Boolean(link) && state.you.includes(0) && state.phase !== "over"
    && (state.awaiting_join || (twoBrowsers() && !opponentHasActed()));
  $("invite-panel").hidden = !show;
  if (show) {
    const full = new URL(link, location.origin).href;
    if ($("invite-url").value !== full) $("invite-url").value = full;
  }
}

function renderFuse() {
  const panel = $("fuse-panel");
  const f = state.fuse_ishi;
  if (!f || (state.phase !== "colours" && !f.top)) { panel.hidden = true; return; }
  panel.hidden = false;
  const body = $("fuse-body");
  const buttons = (step, options) => `<div class="button-row">${options.map(([value, label]) =>
    `<button class="button" data-step="${step}" data-value="${value}" type="button">${escapeHtml(label)}</button>`).join(" ")}</div>`;
  let html = "";
  if (f.draw_win_only && state.phase === "colours") html += `<p class="muted small">${escapeHtml(T["fuse.drawwin_only"])}</p>`;
  if (f.top) html += `<p>${T["fuse.revealed"]}: <span class="disc-icon ${f.top}"></span> <strong>${colourName(f.top)}</strong></p>`;
  if (state.phase === "colours" && f.step) {
    const name = escapeHtml(f.by_name || state.participants[f.by].name);
    const ours = state.you.includes(f.by);
    const byColour = !f.draws_allowed || f.draw_win_only;
    if (!ours) {
      if (f.step === "call") html += `<p>${T["fuse.hidden"]}</p>`;
      html += `<p class="waiting">${T["fuse.waiting"]} ${name}…</p>`;
    } else if (f.step === "call") {
      html += `<p>${T["fuse.hidden"]} ${name}:</p>`;
      html += byColour
        ? `<p>${T["fuse.call_nodraws"]}</p>${buttons("call", [["black", T.black], ["white", T.white]])}`
        : `<p>${T["fuse.call_draws"]}</p>${buttons("call", [["top", T["fuse.top"]], ["bottom", T["fuse.bottom"]]])}`;
    } else if (f.step === "right") {
      html += `<p>${name}: ${T["fuse.right"]}</p>${buttons("right", [["draw-win", T["fuse.right.drawwin"]], ["colour", T["fuse.right.colour"]]])}`;
    } else {
      html += `<p>${name}: ${T["fuse.colour"]}</p>${buttons("colour", [["black", T.black], ["white", T.white]])}`;
    }
  } else if (state.seats) {
    html += `<p><span class="disc-icon black"></span> ${escapeHtml(state.seats.black.name)} · <span class="disc-icon white"></span> ${escapeHtml(state.seats.white.name)}</p>`;
    if (state.draw_win) html += `<p>${T.draw_win}: ${escapeHtml(state.seats[state.draw_win].name)}</p>`;
  }
  body.innerHTML = html;
  body.querySelectorAll("button[data-step]").forEach((b) => b.addEventListener("click", () =>
    action(`${url}/colours`, { step: b.dataset.step, value: b.dataset.value, participant: f.by })));
}

function renderTimeout() {
  const panel = $("timeout-panel");
  if (state.phase !== "timeout-choice" || !state.timeout_loser) { panel.hidden = true; return; }
  const winner = other(state.timeout_loser);
  panel.hidden = false;
  const name = escapeHtml(state.seats ? state.seats[winner].name : colourName(winner));
  $("timeout-body").innerHTML = mine(winner)
    ? `<p>${escapeHtml(seatLabel(winner))}: ${T["timeout.choose"]}</p>
       <div class="button-row">
       <button class="button primary" data-choice="33-31" type="button">${T["timeout.3331"]}</button>
       <button class="button" data-choice="playout" type="button">${T["timeout.playout"]}</button></div>`
    : `<p>${name} (${colourName(winner)}) ${T["timeout.choosing"]}</p>`;
  $("timeout-body").querySelectorAll("button[data-choice]").forEach((b) => b.addEventListener("click", () =>
    action(`${url}/timeout`, { choice: b.dataset.choice })));
}

function renderResult() {
  const banner = $("result");
  const r = state.result;
  if (!r) { banner.hidden = true; return; }
  banner.hidden = false;
  const me = myColour();
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

function renderOpening() {
  const panel = $("opening-panel");
  if (!panels.opening.checked) { panel.hidden = true; return; }
  panel.hidden = false;
  const o = state.opening;
  panel.innerHTML = o
    ? `<span class="muted">${T.opening}</span> <strong>${escapeHtml(o.en || "")}</strong> <span lang="ja">${escapeHtml(o.ja || "")}</span>`
    : `<span class="muted">${T.opening}: —</span>`;
}

function renderPanelToggles() {
  $("hints-row").hidden = spectator() || !helpAllowed();
  $("graph-row").hidden = !helpAllowed();
  $("no-help").hidden = helpAllowed();
  $("graph-panel").hidden = !panels.graph.checked || !helpAllowed();
}

async function refreshPanels() {
  if (!helpAllowed()) return;
  if (panels.hints.checked && !spectator() && canMove() && state.phase === "playing") {
    const revision = state.revision;
    try {
      const h = await call("GET", `${url}/hints`);
      if (state.revision === revision) { hints = h; render(); }
    } catch { /* hints are optional */ }
  }
  if (panels.graph.checked) {
    try {
      const e = await call("GET", `${url}/evaluations`);
      drawGraph($("graph"), e.scores);
    } catch { /* optional */ }
  }
}

// ---- actions -------------------------------------------------------------------------
async function action(path, body = {}) {
  showError("");
  try {
    accept(await call("POST", path, body));
  } catch (err) {
    showError(err.message);
  }
}

$("undo").addEventListener("click", () => action(`${url}/undo`));
$("undo-allow").addEventListener("click", () => action(`${url}/undo`));
$("undo-decline").addEventListener("click", () => action(`${url}/undo/decline`));
$("resign").addEventListener("click", () => {
  if (confirm(T["resign.confirm"])) action(`${url}/resign`, {});
});
$("claim").addEventListener("click", () =>
  action(`${url}/claim`, { colour: state.claim_for, flagged: state.claimable }));
$("stop-playout").addEventListener("click", () => action(`${url}/playout/stop`));
$("accept").addEventListener("click", () => action(`${url}/accept`));
$("public").addEventListener("change", (ev) => action(`${url}/public`, { public: ev.target.checked }));
$("invite-copy").addEventListener("click", async () => {
  const input = $("invite-url");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  $("invite-copy").textContent = T.copied;
  setTimeout(() => { $("invite-copy").textContent = T.copy; }, 2000);
});
$("invite-url").addEventListener("focus", (ev) => ev.target.select());
$("private-retry").addEventListener("click", () => location.reload());
wireDownloads(root);

async function sync() {
  if (stopped) return;
  try {
    accept(await call("GET", url));
  } catch (err) {
    if (isPrivateRefusal(err)) showPrivate();
  }
}

// clocks: count down locally between states; when a running clock reaches zero, ask the
// server (once it reports the flag down, the claim is offered from its state)
function tickClocks() {
  if (stopped) return;
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
    if (running && clockNow(running) <= 0 && !state.clock.flagged.includes(running)
        && performance.now() - syncAsked > 1000) {
      syncAsked = performance.now();
      sync();
    }
  }
  requestAnimationFrame(tickClocks);
}

// ---- the socket: hello with the seat token first; reconnects, polling while down --------
let socket = null;
let retry = 500;
let pollTimer = null;
let socketRefusal = null;
function connect() {
  if (stopped) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}`);
  socket.addEventListener("open", () => {
    socketRefusal = null;
    socket.send(JSON.stringify({ type: "hello", token }));
    retry = 500;
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    document.body.classList.remove("offline");
  });
  socket.addEventListener("message", (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") accept(msg.game);
    else if (msg.type === "error") {
      socketRefusal = msg.error.code;
      showError(msg.error.message);
    }
  });
  socket.addEventListener("close", (ev) => {
    if (stopped) return;
    // refused at hello: no seat and the game is private (other refusals: try again later)
    if (ev.code === 4403 && ["unauthorized", "forbidden"].includes(socketRefusal)) {
      showPrivate();
      return;
    }
    if (ev.code === 4404) return;
    document.body.classList.add("offline");
    if (!pollTimer) pollTimer = setInterval(sync, 2000);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

function showPrivate() {
  stopped = true;
  if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  if (socket) socket.close();
  $("loading").hidden = true;
  root.hidden = true;
  $("private-panel").hidden = false;
}

async function start() {
  try {
    state = await call("GET", url);
  } catch (err) {
    if (isPrivateRefusal(err)) showPrivate();
    else $("loading").textContent = `${T.error}: ${err.message}`;
    return;
  }
  $("loading").hidden = true;
  root.hidden = false;
  document.title = `${state.title} · ${T.app}`;
  board = new BoardView($("board"), state.rows, state.cols, onSquare);
  render();
  refreshPanels();
  connect();
  requestAnimationFrame(tickClocks);
}

start();
