// The chess clock of a game over the board, full screen: two big halves, one per player.
// Tap your half (or press the space bar for the side whose time runs) to end your turn;
// the first press, White's (Black's in a handicap game), starts the game. A fallen flag
// is only shown: it is lost when the opponent claims it or its owner reports it. Then
// the winner chooses 33–31 or play-out (勝手打ち); both flags down is a draw (the draw-win
// holder's win). The server's game controller keeps the time: every press is an event,
// and this page only counts down between the server's readings.
import { api, escapeHtml, formatClock, isPrivateRefusal, scoringNote, seatToken, strings } from "./api.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("clock-screen");
const gameId = root.dataset.gameId;
const token = seatToken(gameId);
const base = `/api/record/games/${gameId}`;
const gameBase = `/api/games/${gameId}`;
const COLOURS = ["black", "white"];
const other = (c) => (c === "black" ? "white" : "black");
const colourName = (c) => (c === "black" ? T.black : T.white);

let view = null;
let readAt = performance.now();
let busy = false;
let errorTimer = null;
let noticeTimer = null;

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
  clearTimeout(errorTimer);
  if (message) errorTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

// what an action did, where it does not show on the halves (an illegal move claimed)
function showNotice(message) {
  const box = $("notice");
  box.textContent = message;
  box.hidden = !message;
  clearTimeout(noticeTimer);
  if (message) noticeTimer = setTimeout(() => { box.hidden = true; }, 8000);
}

async function load() {
  try {
    view = await api("GET", base, undefined, { token });
    readAt = performance.now();
    render();
  } catch (err) {
    if (isPrivateRefusal(err)) showError(T["private.title"]);
    else showError(err.message);
  }
}

// one action; the clock's answer is read back at once. True when it was done.
async function act(method, path, body) {
  if (busy) return false;
  busy = true;
  try {
    const answer = await api(method, path, body, { token });
    if (answer && answer.game && answer.clock !== undefined) {
      view = answer;
      readAt = performance.now();
      render();
    } else {
      await load();
    }
    showError("");
    return true;
  } catch (err) {
    showError(err.message);
    await load();
    return false;
  } finally {
    busy = false;
  }
}

// seconds left now: the server's reading less the time since, for the running side
function left(colour) {
  const clock = view.clock;
  let seconds = clock[colour];
  if (clock.running === colour) seconds -= (performance.now() - readAt) / 1000;
  return seconds;
}
const down = (c) => view.clock && left(c) <= 0;

function claimOpen() {
  const g = view.game;
  return view.clock && (g.phase === "playing" || (g.phase === "over" && !g.result_final));
}

function press(colour) {
  if (!view || !view.clock) return;
  const g = view.game;
  if (g.phase !== "playing") return;
  act("POST", `${base}/press`, { colour }).then((done) => { if (done) showNotice(""); });
}

function pressRunning() {
  if (!view || !view.clock) return;
  const colour = view.clock.started ? view.clock.running : view.clock.starter;
  if (colour) press(colour);
}

function render() {
  if (!view) return;
  const g = view.game;
  const clock = view.clock;
  const names = view.names || {};
  for (const c of COLOURS) {
    $(`name-${c}`).textContent = names[c] || colourName(c);
  }
  const loser = g.timeout_loser;
  const winner = loser ? other(loser) : null;
  for (const c of COLOURS) {
    const half = $(`half-${c}`);
    const actions = $(`actions-${c}`);
    const show = (action, on) => { actions.querySelector(`[data-action="${action}"]`).hidden = !on; };
    const running = clock && clock.running === c;
    half.classList.toggle("running", Boolean(running));
    half.classList.toggle("flagged", Boolean(clock && down(c)));
    half.classList.toggle("starter", Boolean(clock && !clock.started && clock.starter === c && g.phase === "playing"));
    show("claim", claimOpen() && down(other(c)));
    show("self", claimOpen() && down(c) && !down(other(c)));
    show("3331", g.phase === "timeout-choice" && winner === c);
    show("playout", g.phase === "timeout-choice" && winner === c);
    show("stop", g.phase === "playout" && winner === c);
    let state = "";
    if (clock && down(c)) state = T["record.flag"];
    else if (clock && clock.in_byoyomi.includes(c)) state = T["record.byoyomi_on"];
    if (g.phase === "playout" && winner === c) state = T["timeout.playout"];
    if (view.last_press && view.last_press.colour === c && view.last_press.passed && clock && clock.running === other(c)) {
      state = state ? `${state} · ${T["record.passed"]}` : T["record.passed"];
    }
    $(`state-${c}`).textContent = state;
  }
  $("message").textContent = message();
  const playing = g.phase === "playing" && clock && clock.started;
  $("pass").hidden = !playing;
  // rule 10: the last move, kept as played, may be claimed after the game ended
  $("illegal").hidden = !playing && !view.last_move_claimant;
  $("penalties").innerHTML = (view.penalties || []).map((p) => {
    const what = p.loss ? T["term.penalty"] : `−${formatClock(p.seconds)}`;
    return `<li>${escapeHtml(names[p.colour] || colourName(p.colour))}: ${escapeHtml(what)} — ${escapeHtml(p.reason)}</li>`;
  }).join("");
  const lateBefore = g.phase !== "over" && clock && !clock.started;
  for (const p of [0, 1]) {
    const button = $(`absent-${p}`);
    button.hidden = !(lateBefore && !view.late);
    button.textContent = T["record.absent"].replace("{name}", g.participants[p].name);
  }
  const late = view.late;
  $("arrive").hidden = !(lateBefore && late && late.arrived === null);
  $("forfeit").hidden = !(lateBefore && late);
  // the result, and the card still to hand in
  const result = $("result");
  result.hidden = g.phase !== "over";
  if (g.result) {
    const r = g.result;
    $("result-word").textContent = r.winner
      ? `${T.wins.replace("{name}", names[r.winner] || colourName(r.winner))} ${r.score}` : `${T.draw} ${r.score}`;
    const notes = [T[`term.${r.termination}`] || r.termination];
    if (r.by_draw_win) notes.push(T.draw_win);
    if (!r.rated) notes.push(T["record.not_rated"]);
    if (view.card) notes.push(`${T["record.card.in"]} ${view.card[0]}–${view.card[1]}`);
    $("result-detail").textContent = notes.join(" · ") + scoringNote(T, r);
  }
  $("card-form").hidden = view.card !== null || g.phase !== "over";
  tick();
}

function message() {
  const g = view.game;
  const clock = view.clock;
  if (g.phase === "colours") return T["record.status.colours"];
  if (!clock) return T["record.no_clock"];
  if (view.pending.length) return T["record.status.pending"].replace("{n}", view.pending[0].move_number);
  if (g.phase === "timeout-choice") {
    return `${colourName(other(g.timeout_loser))} ${T["timeout.choosing"]}`;
  }
  if (g.phase === "playout") return T["playout.note"];
  if (g.phase === "over") return "";
  if (view.late && view.late.arrived === null) {
    return T["record.late"].replace("{name}", view.late.name);
  }
  if (!clock.started) return T["record.start"].replace("{colour}", colourName(clock.starter));
  return "";
}

function tick() {
  if (!view || !view.clock) return;
  for (const c of COLOURS) {
    $(`time-${c}`).textContent = formatClock(left(c));
    const flagged = down(c);
    $(`half-${c}`).classList.toggle("flagged", flagged);
  }
}

// ---- input ---------------------------------------------------------------------------
for (const c of COLOURS) {
  const half = $(`half-${c}`);
  half.addEventListener("click", (ev) => {
    if (ev.target.closest("button")) return;
    press(c);
  });
  half.querySelector('[data-action="claim"]').addEventListener("click", () =>
    act("POST", `${gameBase}/claim`, { colour: c, flagged: other(c) }));
  half.querySelector('[data-action="self"]').addEventListener("click", () =>
    act("POST", `${gameBase}/claim`, { colour: c, flagged: c }));
  half.querySelector('[data-action="3331"]').addEventListener("click", () =>
    act("POST", `${gameBase}/timeout`, { choice: "33-31" }));
  half.querySelector('[data-action="playout"]').addEventListener("click", () =>
    act("POST", `${gameBase}/timeout`, { choice: "playout" }));
  half.querySelector('[data-action="stop"]').addEventListener("click", () =>
    act("POST", `${gameBase}/playout/stop`));
}
document.addEventListener("keydown", (ev) => {
  if (ev.code !== "Space" || ev.target.closest("input, textarea, select")) return;
  ev.preventDefault();
  if (!ev.repeat) pressRunning();
});
$("pass").addEventListener("click", () => {
  if (view?.clock?.running) act("POST", `${base}/press`, { colour: view.clock.running, passed: true });
});
// the side whose clock runs claims the opponent's last move was illegal: the clock goes
// back to the offender (in byo-yomi it is a time-out); the notice says which happened
$("illegal").addEventListener("click", async () => {
  const last = view?.last_move_claimant;
  const claimant = last || view?.clock?.running;
  if (!claimant || !(await act("POST", `${base}/illegal`, { colour: claimant }))) return;
  const names = view.names || {};
  const name = (c) => names[c] || colourName(c);
  let key = view.game.phase === "playing" ? "record.illegal.claimed" : "record.illegal.timeout";
  if (last && view.game.phase !== "timeout-choice") key = "record.illegal.last";
  showNotice(T[key].replaceAll("{claimant}", name(claimant)).replaceAll("{offender}", name(other(claimant))));
});
for (const p of [0, 1]) {
  $(`absent-${p}`).addEventListener("click", () => act("POST", `${base}/absent`, { participant: p }));
}
$("arrive").addEventListener("click", () => act("POST", `${base}/arrive`, { participant: view.late.participant }));
$("forfeit").addEventListener("click", () => {
  if (confirm(T["record.forfeit.confirm"])) {
    act("POST", `${base}/forfeit`, { participant: view.late.participant });
  }
});
// the arbiter's penalty (rule 21): minutes off a clock, or the game lost by penalty
function penalty(loss) {
  const reason = $("penalty-reason").value.trim();
  if (!reason) { $("penalty-reason").reportValidity(); return; }
  const body = { colour: $("penalty-colour").value, reason, loss };
  if (!loss) body.seconds = Number($("penalty-minutes").value) * 60;
  act("POST", `${base}/penalty`, body).then((done) => { if (done) $("penalty-reason").value = ""; });
}
$("penalty-form").addEventListener("submit", (ev) => { ev.preventDefault(); penalty(false); });
$("penalty-loss").addEventListener("click", () => { if (confirm(T["term.penalty"])) penalty(true); });
$("card-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act("POST", `${base}/card`, { black: Number($("card-black").value), white: Number($("card-white").value) });
});
const halves = $("halves");
halves.classList.toggle("swapped", localStorage.getItem("clock-swapped") === "1");
$("swap").addEventListener("click", () => {
  halves.classList.toggle("swapped");
  localStorage.setItem("clock-swapped", halves.classList.contains("swapped") ? "1" : "0");
});

// the countdown and what a fallen flag allows are redrawn between the server's readings
setInterval(render, 100);
setInterval(() => { if (!busy && document.visibilityState === "visible") load(); }, 1500);
load();
