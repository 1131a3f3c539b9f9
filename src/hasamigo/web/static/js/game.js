// The game page: reads the game with this browser's seat token, renders the server's
// state, sends the seat's actions (each with the token), follows the game over a
// websocket (polling while it is down). The server is authoritative; nothing here
// decides. Without a seat the page watches a public game read-only (観戦), or says the
// game is private.
//
// Moves and revisions: the board shown is always `state`, and a move is sent with that
// state's `position_revision`, so the server refuses it as stale only if the position
// really changed since. Dots are offered only while nothing newer is waiting to be shown
// (`queued`, a program's reply held back a moment so both moves can be seen) and no move
// of ours is on its way (`pending`). A refused move re-syncs quietly; the person hears of
// it only if their square is no longer playable in the position now shown.
import {
  ApiError, api, escapeHtml, forCount, formatClock, lengthNote, isPrivateRefusal, joinLink, keepSeatToken, moveItems, scoringNote, seatToken,
  strings, wireDownloads,
} from "./api.js";
import { BoardView } from "./board.js";
import { drawGraph } from "./graph.js";
import { WarmupWatch } from "./warmup.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("game");
const gameId = root.dataset.gameId;
const token = seatToken(gameId) || await seatOfAccount(gameId);
const url = `/api/games/${gameId}`;

// A signed-in person whose account holds a seat of this game, in a browser without its
// token (another device, a game the lobby made), gets a fresh token of that seat
// (POST /api/games/{id}/seat); anyone else reads the game as before.
async function seatOfAccount(id) {
  if (document.body.dataset.signedIn !== "1") return null;
  try {
    const reply = await api("POST", `/api/games/${id}/seat`);
    keepSeatToken(id, reply.seat_token);
    return reply.seat_token;
  } catch {
    return null;
  }
}

let state = null;
let board = null;
let receivedAt = performance.now();
let pending = false;
let hints = null;
let shownAt = 0; // when the position on the board was first shown
let queued = null;
let syncAsked = 0;
let stopped = false; // the page shows the private panel: no more reads
// a fresh server compiles its kernels: a waiting program, or hints refused meanwhile,
// show its progress (/api/status) instead of "is thinking…"
const warmup = new WarmupWatch($("engine-note"), T);
let hintsWaiting = false; // hints were refused while the engine warmed: ask again
// 挟み碁's flip rules: the move being chosen, {square, discs, selected: Set, revision}
let picking = null;

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
function helpAllowed() { return state.analysable && !(state.official && state.phase !== "over"); }

// a newer state is waiting to be shown: the board on screen is not the latest
function behind() { return queued !== null && queued.revision > state.revision; }

// whose move the shown state waits for is this seat's (whatever else is happening)
function myMoveIn(s) {
  if (s.phase === "playout") return s.your_colours.includes(other(s.timeout_loser));
  return s.phase === "playing" && s.your_colours.includes(s.turn) && !s.thinking;
}

// dots only on the latest state, and not while a move of ours is on its way
function canMove() { return myMoveIn(state) && !pending && !behind(); }

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
  if (!canMove() || !state.legal.includes(square)) return;
  if (picking) stopPicking();  // another square: the choice begun is given up
  // a flip rule of 挟み碁 and a square that brackets several discs: choose them first
  const discs = (state.choices || {})[square];
  if (discs && discs.length > 1 && state.flip_rule !== "all") {
    startPicking(square, discs);
    return;
  }
  await playMove(square, null);
}

async function playMove(square, turned) {
  pending = true;
  showError("");
  const shown = state;
  render();  // the dots go at once: one move per position
  let next = null;
  try {
    next = await sendMove(square, shown, turned);
  } catch (err) {
    await refused(square, shown, err, turned);
  }
  pending = false;
  if (next) accept(next);
  if (!stopped) render();
}

function sendMove(square, shown, turned = null) {
  const body = { move: square, revision: shown.position_revision };
  if (turned) body.turned = turned;
  if (shown.phase === "playing") body.colour = shown.turn;
  return call("POST", `${url}/moves`, body);
}

// ---- choosing the discs to turn (挟み碁's flip rules 'one' and 'choose') ----------------
// 'one': a click on one of the ringed discs plays at once. 'choose': clicks toggle the
// discs (all chosen to begin with, as a bare move would turn them) and Confirm plays;
// Cancel, or a new position, gives the choice up.
function startPicking(square, discs) {
  picking = {
    square, discs, revision: state.position_revision,
    selected: new Set(state.flip_rule === "choose" ? discs : []),
  };
  renderPicking();
}

function stopPicking() {
  picking = null;
  renderPicking();
}

function onPick(name) {
  if (!picking || !canMove()) return;
  if (state.flip_rule === "one") {
    const { square } = picking;
    stopPicking();
    playMove(square, [name]);
    return;
  }
  if (picking.selected.has(name)) picking.selected.delete(name);
  else picking.selected.add(name);
  renderPicking();
}

function confirmPicking() {
  if (!picking || !canMove()) return;
  if (!picking.selected.size) { showError(T["choose.none"]); return; }
  const { square, discs, selected } = picking;
  stopPicking();
  // every disc chosen is the bare move (the discs in square order, as the server names them)
  playMove(square, selected.size === discs.length ? null : discs.filter((d) => selected.has(d)));
}

function renderPicking() {
  if (picking && (picking.revision !== state.position_revision || !canMove())) picking = null;
  const bar = $("choose-bar");
  if (!board || !bar) return;
  if (!picking) {
    board.setPicks();
    bar.hidden = true;
    return;
  }
  board.setPicks(picking.discs, [...picking.selected], onPick);
  const key = state.flip_rule === "one" ? "choose.one" : "choose.some";
  $("choose-text").textContent = T[key].replace("{square}", picking.square);
  $("choose-confirm").hidden = state.flip_rule === "one";
  $("choose-confirm").disabled = picking.selected.size === 0;
  bar.hidden = false;
}

// A refused move: read the game again and show it. If the square can still be played in
// the position now shown, nothing is said (the person sees the new position and may
// click again); if the board did not change at all (only the revision moved on), the
// move is sent again at once. Otherwise the person is told why.
async function refused(square, shown, err, turned = null) {
  const answerOnly = !(err instanceof ApiError) || err.status >= 500 || err.status === 429
    || err.status === 401 || (err.status === 403 && err.code !== "not_your_seat");
  if (answerOnly) { showError(err.message); return; }
  const samePosition = (s) => s.cells === shown.cells && s.turn === shown.turn;
  const legalNow = () => myMoveIn(state) && state.legal.includes(square);
  const reread = async () => {
    try {
      accept(await call("GET", url));
      flushNow();
      return true;
    } catch (again) {
      if (isPrivateRefusal(again)) showPrivate();
      else if (again instanceof ApiError && again.status === 404) gone();
      else showError(err.message);
      return false;
    }
  };
  if (!await reread()) return;
  if (err.code === "stale" && legalNow() && samePosition(state)) {
    try {
      accept(await sendMove(square, state, turned));
      return;
    } catch (second) {
      err = second;
      if (!await reread()) return;
    }
  }
  if (legalNow()) {
    if (samePosition(state)) showError(err.message);  // refused for another reason
    return;
  }
  if (state.phase === "over") return;  // the result says what happened
  showError(err.code === "stale" || !samePosition(state)
    ? T["move.gone"].replace("{square}", square) : err.message);
}

// States are applied in revision order. Our own move shows at once; the reply that comes
// right after it (a program's, or the other browser's) waits a moment, so both moves can
// be seen. While a state waits, the board takes no clicks (canMove).
const REPLY_PAUSE = 450;

function accept(next) {
  if (stopped || !next) return;
  if (!next.you.length && !next.public) { showPrivate(); return; }  // made private
  const newest = behind() ? queued : state;
  if (next.revision < newest.revision) return;
  if (next.revision === newest.revision) {
    if (newest === queued) { queued = next; return; }
    state = next;  // same position, fresher details (thinking, clocks, public)
    receivedAt = performance.now();
    render();
    afterState();
    return;
  }
  // a new position that someone else brought: hold it back a moment after the last one
  const theirs = !myMoveIn(newest) && next.last_move !== newest.last_move;
  const wait = REPLY_PAUSE - (performance.now() - shownAt);
  if (theirs && wait > 0) {
    queued = next;
    render();  // no dots on the board shown meanwhile
    setTimeout(flush, wait);
    return;
  }
  queued = null;
  apply(next);
}

function flush() {
  if (!behind()) { queued = null; return; }
  const wait = REPLY_PAUSE - (performance.now() - shownAt);
  if (wait > 0) { setTimeout(flush, wait); return; }
  flushNow();
}

// show the state that waits now (a refused move must be judged on the latest position)
function flushNow() {
  if (!behind()) { queued = null; return; }
  const q = queued;
  queued = null;
  apply(q);
}

function apply(next) {
  const moved = next.revision !== state.revision;
  if (next.position_revision !== state.position_revision) shownAt = performance.now();
  state = next;
  receivedAt = performance.now();
  if (moved) hints = null;
  render(true);
  if (moved) refreshPanels();
  afterState();
}

function afterState() {
  watchEngine();
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
  if (state.paused) return T["warmup.paused"].replace("{name}", waitingName());
  if ((state.programs_waiting || []).includes(state.turn)) return `${who} ${T["warmup.status"]}`;
  if (state.thinking || !isPerson(state.turn)) return `${who} ${T.thinking}`;
  if (mine(state.turn) && myColour()) return `${T.your_turn} (${colourName(state.turn)})`;
  const waiting = myColour() ? ` · ${T["waiting.opponent"]}` : "";
  return `${colourName(state.turn)} ${T.to_move}${waiting}`;
}

function render(animate = false) {
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
  renderPicking();

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

  renderDeadline();
  renderControls();
  renderInvite();
  renderFuse();
  renderTimeout();
  renderResult();
  renderMoves();
  renderOpening();
  renderPanelToggles();
}

// ---- a correspondence game: each move within days, the deadline in the viewer's time ------
let pageTitle = document.title;  // the board's title, once the game is read

// the time left in days and hours (to the nearest hour), in minutes in the last hour
function timeLeft(seconds) {
  if (seconds <= 0) return null;
  const count = (key, n) => forCount(T, key, n).replace("{n}", n);
  if (seconds < 3600) return count("corr.minutes", Math.max(1, Math.floor(seconds / 60)));
  const hours = Math.round(seconds / 3600);
  const days = Math.floor(hours / 24);
  if (!days) return count("corr.hours", hours);
  if (hours % 24 === 0) return count("corr.days", days);
  return T["corr.days_hours"].replace("{days}", count("corr.days", days))
    .replace("{hours}", count("corr.hours", hours % 24));
}

function renderDeadline() {
  const box = $("deadline");
  const running = state.deadline != null && state.phase === "playing" && !state.awaiting_join;
  const yours = running && mine(state.turn) && !spectator();
  document.title = yours ? `» ${T["corr.title"]} · ${pageTitle}` : pageTitle;
  box.hidden = !running;
  box.classList.toggle("yours", yours);
  if (!running) return;
  const when = new Date(state.deadline * 1000);
  const left = timeLeft(state.deadline - Date.now() / 1000);
  const line = left === null ? T["corr.overdue"]
    : yours && myColour() ? T["corr.yours"].replace("{left}", left)
      : T["corr.theirs"].replace("{name}", seatLabel(state.turn) || colourName(state.turn)).replace("{left}", left);
  const by = T["corr.by"].replace("{when}", when.toLocaleString(document.documentElement.lang || undefined, {
    weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  }));
  const per = forCount(T, "corr.per_move", state.days_per_move).replace("{n}", state.days_per_move);
  box.innerHTML = `<strong>${escapeHtml(line)}</strong> <span class="deadline-when">${escapeHtml(by)}</span>
    <span class="muted small">${escapeHtml(per)}</span>`;
  box.querySelector(".deadline-when").title = when.toISOString();
}
// the time left, as the minutes pass (the view itself comes over the websocket)
setInterval(() => { if (state) renderDeadline(); }, 30000);

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

// The result sits in the status card, beside the board (below it on a phone): the
// final position stays in full view.
function renderResult() {
  const box = $("result");
  const r = state.result;
  $("status").hidden = Boolean(r);
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  const me = myColour();
  let word;
  let cls;
  if (r.winner === null) { word = T.draw; cls = "draw"; }
  else if (me) { word = r.winner === me ? T.win : T.lose; cls = r.winner === me ? "win" : "lose"; }
  else { word = T.wins.replace("{name}", colourName(r.winner)); cls = "win"; }  // both seats here, or watching
  $("result-word").textContent = word;
  box.dataset.outcome = cls;
  // the counts under the game's own scoring (halves under the JOF rule before June 2014)
  $("result-score").innerHTML = `<span class="disc-icon black"></span> ${Number(r.score_black)} – ${Number(r.score_white)} <span class="disc-icon white"></span>`;
  let detail = T[`term.${r.termination}`] || r.termination;
  if (r.by_draw_win) detail += ` · ${T.draw_win}`;
  detail += scoringNote(T, r);
  $("result-detail").textContent = detail;
  renderRating();
}

// A rated game's result: each player's rating before and after (GET …/rating), asked once
// the game is over; or why the game was not rated.
let ratingAsked = false;
async function renderRating() {
  const line = $("result-rating");
  if (!line || !state.rated || state.phase !== "over" || ratingAsked) return;
  ratingAsked = true;
  let verdict;
  try { verdict = await call("GET", `${url}/rating`); } catch { ratingAsked = false; return; }
  const mine = myColour();
  const parts = (verdict.changes || [])
    .filter((c) => !mine || c.colour === mine)
    .map((c) => `${mine ? "" : `${colourName(c.colour)}: `}${T["rating.change"]
      .replace("{before}", c.before).replace("{after}", c.after)
      .replace("{delta}", c.delta > 0 ? `+${c.delta}` : String(c.delta))}`);
  if (!parts.length && verdict.excluded) parts.push(T["rating.not_rated"].replace("{reason}", verdict.excluded.reason));
  line.textContent = parts.join(" · ");
  line.hidden = !parts.length;
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = moveItems(state.moves, state.first_colour);
  list.scrollTop = list.scrollHeight;
  $("move-count").textContent = lengthNote(T, state.moves);
}

function renderOpening() {
  const panel = $("opening-panel");
  if (!panels.opening.checked) { panel.hidden = true; return; }
  panel.hidden = false;
  const o = state.opening;
  const name = o
    ? `<span class="muted">${T.opening}</span> <strong>${escapeHtml(o.en || "")}</strong> <span lang="ja">${escapeHtml(o.ja || "")}</span>`
    : `<span class="muted">${T.opening}: —</span>`;
  // the book's moves come with the hints (help), so only where hints are shown
  const book = hints && panels.hints.checked && helpAllowed() && hints.book ? hints.book : [];
  const line = book.slice(0, 6).map((m) => {
    const value = m.value > 0 ? `+${m.value}` : `${m.value}`.replace("-", "\u2212");
    const how = m.in_book ? forCount(T, "book.games", m.games).replace("{n}", m.games.toLocaleString()) : T["book.search"];
    return `<span class="book-move"><strong>${escapeHtml(m.move)}</strong> ${value} <span class="muted">(${escapeHtml(how)})</span></span>`;
  }).join(" · ");
  panel.innerHTML = book.length
    ? `${name}<div class="book-line" id="book-line"><span class="muted">${T.book}</span> ${line}</div>`
    : name;
}

function renderPanelToggles() {
  $("hints-row").hidden = spectator() || !helpAllowed();
  $("graph-row").hidden = !helpAllowed();
  $("no-help").hidden = helpAllowed() || !state.analysable;
  $("no-analysis").hidden = state.analysable;
  $("graph-panel").hidden = !panels.graph.checked || !helpAllowed();
}

async function refreshPanels() {
  if (!helpAllowed()) return;
  if (panels.hints.checked && !spectator() && canMove() && state.phase === "playing") {
    const revision = state.revision;
    try {
      const h = await call("GET", `${url}/hints`);
      if (state.revision === revision) { hints = h; render(); }
    } catch (err) {  // hints are optional; refused while the engine warms: ask again later
      if (err instanceof ApiError && err.status === 503) { hintsWaiting = true; watchEngine(); }
    }
  }
  if (panels.graph.checked) {
    try {
      const e = await call("GET", `${url}/evaluations`);
      drawGraph($("graph"), e.scores, { current: e.scores.length - 1, label: T["graph.title"] });
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
    sync();
  }
}

$("choose-confirm").addEventListener("click", confirmPicking);
$("choose-cancel").addEventListener("click", stopPicking);
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
  $("invite-copy-label").textContent = T.copied;
  setTimeout(() => { $("invite-copy-label").textContent = T.copy; }, 2000);
});
$("invite-url").addEventListener("focus", (ev) => ev.target.select());
$("private-retry").addEventListener("click", () => location.reload());
wireDownloads(root);

window.addEventListener("hasamigo:online", () => { if (state) sync(); });

async function sync() {
  if (stopped) return;
  try {
    accept(await call("GET", url));
  } catch (err) {
    if (isPrivateRefusal(err)) showPrivate();
    else if (err instanceof ApiError && err.status === 404) gone();
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

// ---- the kernels on a fresh server ---------------------------------------------------------
// A program that cannot move yet (its kernels compile: programs_waiting, whose groups are
// waiting_for), or hints refused as busy meanwhile: the status card shows what is compiling
// and about how long is left (/api/status, every second) until it is ready.
function waitingName() {
  const colour = (state.programs_waiting || [])[0];
  return colour ? seatLabel(colour) : T["warmup.program"];
}

function watchEngine() {
  const programs = state.phase !== "over" && (state.programs_waiting || []).length > 0;
  const groups = new Set(programs ? state.waiting_for || [] : []);
  if (hintsWaiting) {
    for (const g of state.cols > 8 ? ["wide-rules", "wide"] : ["engine"]) groups.add(g);
  }
  let note = "";
  if (programs) note = T[state.paused ? "warmup.official" : "warmup.casual"].replaceAll("{name}", waitingName());
  else if (hintsWaiting) note = T["warmup.hints"];
  warmup.watch([...groups], () => {
    if (hintsWaiting) { hintsWaiting = false; refreshPanels(); }
  }, note);
}

// the game was deleted (from the library, maybe in another tab)
function gone() {
  stopped = true;
  if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  if (socket) socket.close();
  render();
  board.render(state.cells, { legal: [], last: state.last_move, clickable: false });
  $("controls").hidden = true;
  const notice = $("notice");
  notice.textContent = T["game.deleted"];
  notice.hidden = false;
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
    if (ev.code === 4404) { gone(); return; }
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
    // no answer: the banner says so, and the page starts once the server is back
    else if (err instanceof ApiError && err.code === "unreachable") {
      window.addEventListener("hasamigo:online", start, { once: true });
    } else $("loading").textContent = `${T.error}: ${err.message}`;
    return;
  }
  $("loading").hidden = true;
  root.hidden = false;
  pageTitle = `${state.title} · ${T.app}`;
  document.title = pageTitle;
  board = new BoardView($("board"), state.rows, state.cols, onSquare, state.rings || []);
  shownAt = performance.now();
  render();
  refreshPanels();
  afterState();
  connect();
  requestAnimationFrame(tickClocks);
}

start();
