// The lobby page: polls GET /api/lobby every few seconds (If-None-Match: an unchanged
// lobby is a bodiless 304) and draws the open challenges, the games to watch and the
// viewer's own games; posts, accepts and cancels challenges; the waiting button calls
// POST /api/lobby/waiting every few seconds while waiting. A challenge of this viewer that
// becomes a game while the page is open, or a pairing, sends the page to the game.
import { api, ApiError, escapeHtml, forCount, reach, strings } from "./api.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("lobby");
const signedIn = root.dataset.signedIn === "1";
const boards = JSON.parse($("lobby-boards").textContent);
const POLL_MS = 4000;
const WAIT_MS = 3000;

let etag = null;
let waiting = false;
let waitTimer = null;
// this viewer's open challenges seen while the page is open: one that becomes a game
// sends the page there
const mineOpen = new Set();
let leaving = false;

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

function showError(el, err) {
  if (!el) return;
  if (!err) { el.hidden = true; el.textContent = ""; return; }
  let text = err.message || String(err);
  if (err instanceof ApiError && err.code === "lobby") text = `${T["lobby.refused"]} ${text}`;
  el.textContent = text;
  el.hidden = false;
}

function go(gameId) {
  if (leaving) return;
  leaving = true;
  window.location.assign(`/games/${encodeURIComponent(gameId)}`);
}

function timeControl(c) {
  if (c.days_per_move) return fill(forCount(T, "corr.per_move", c.days_per_move), { n: c.days_per_move });
  return fill(T["lobby.minutes"], { n: c.clock_minutes });
}

function board(variant) { return boards[variant] || variant; }

function challengeItem(c) {
  const li = document.createElement("li");
  li.className = "lobby-item";
  li.dataset.challenge = c.id;
  const colour = T[`lobby.colour.${c.colour}`] || c.colour;
  const tags = [board(c.variant), timeControl(c), c.rated ? T["lobby.rated"] : T["lobby.unrated"], colour];
  if (!c.public) tags.push(T["lobby.private"]);
  li.innerHTML = `<span class="lobby-who"><a href="/players/${encodeURIComponent(c.poster.name)}">${escapeHtml(c.poster.name)}</a>`
    + ` <span class="lobby-rating">${escapeHtml(String(c.rating))}</span></span>`
    + ` <span class="lobby-terms">${tags.map(escapeHtml).join(" · ")}</span> `;
  if (c.mine) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button lobby-cancel";
    button.textContent = T["lobby.cancel"];
    button.addEventListener("click", () => cancel(c.id, button));
    li.append(button);
  } else if (signedIn) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button primary lobby-accept";
    button.textContent = T["lobby.accept"];
    button.addEventListener("click", () => accept(c.id, button));
    li.append(button);
  }
  return li;
}

function liveItem(g) {
  const li = document.createElement("li");
  li.className = "lobby-item";
  const tags = [board(g.variant)];  // no move count: the poll changes with a game's start and end, not each move
  if (g.rated) tags.push(T["lobby.rated"]);
  if (g.days_per_move) tags.push(fill(forCount(T, "corr.per_move", g.days_per_move), { n: g.days_per_move }));
  li.innerHTML = `<span class="lobby-who">${escapeHtml(g.black)} – ${escapeHtml(g.white)}</span>`
    + ` <span class="lobby-terms">${tags.map(escapeHtml).join(" · ")}</span>`
    + ` <a class="button lobby-watch" href="/games/${encodeURIComponent(g.id)}">${escapeHtml(T["lobby.watch"])}</a>`;
  return li;
}

function yourGameItem(g) {
  const li = document.createElement("li");
  li.className = "lobby-item" + (g.your_move ? " lobby-your-move" : "");
  const tags = [g.your_move ? T["lobby.your_move"] : T["lobby.their_move"]];
  if (g.correspondence) tags.push(T["lobby.correspondence"]);
  if (g.deadline) tags.push(fill(T["corr.by"], { when: new Date(g.deadline * 1000).toLocaleString() }));
  li.innerHTML = `<span class="lobby-who">${escapeHtml(fill(T["lobby.against"], { name: g.opponent }))}</span>`
    + ` <span class="lobby-terms">${tags.map(escapeHtml).join(" · ")}</span>`
    + ` <a class="button lobby-open" href="/games/${encodeURIComponent(g.id)}">${escapeHtml(T["lobby.open"])}</a>`;
  return li;
}

function list(el, items, make, empty) {
  if (!el) return;
  el.replaceChildren(...(items.length ? items.map(make) : [Object.assign(
    document.createElement("li"), { className: "lobby-empty small", textContent: empty })]));
}

function draw(state) {
  list($("lobby-challenges"), state.challenges, challengeItem, T["lobby.no_challenges"]);
  list($("lobby-live"), state.live, liveItem, T["lobby.no_live"]);
  const count = $("lobby-waiting-count");
  if (count) count.textContent = fill(T["lobby.waiting_count"], { n: state.waiting });
  const you = state.you;
  if (!you) return;
  $("lobby-rating").textContent = `${you.rating}${you.provisional ? "?" : ""}`;
  const provisional = $("lobby-provisional");  // what the "?" means, seen on a phone too
  provisional.textContent = `(${T["lobby.provisional"]})`;
  provisional.hidden = !you.provisional;
  list($("lobby-your-games"), you.games, yourGameItem, T["lobby.no_games"]);
  const open = new Set(state.challenges.filter((c) => c.mine).map((c) => c.id));
  for (const started of you.started) {
    if (mineOpen.has(started.challenge) && started.game_id) { go(started.game_id); return; }
  }
  for (const id of open) mineOpen.add(id);
  if (waiting && you.waiting && you.waiting.game_id) go(you.waiting.game_id);
}

async function poll() {
  try {
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    const response = await reach("/api/lobby", { headers });
    if (response.status === 200) {
      etag = response.headers.get("ETag");
      draw(await response.json());
      root.dataset.ready = "1";
    }
  } catch { /* the banner says the server is out of reach; the next poll tries again */ }
}

async function accept(id, button) {
  button.disabled = true;
  showError($("lobby-error"), null);
  try {
    const reply = await api("POST", `/api/lobby/challenges/${id}/accept`);
    go(reply.game_id);
  } catch (err) {
    showError($("lobby-error"), err);
    button.disabled = false;
    etag = null;
    poll();
  }
}

async function cancel(id, button) {
  button.disabled = true;
  try {
    await api("DELETE", `/api/lobby/challenges/${id}`);
    mineOpen.delete(id);
  } catch (err) {
    showError($("lobby-error"), err);
  }
  etag = null;
  poll();
}

function showWaiting(reply) {
  const status = $("lobby-waiting");
  if (!waiting || !reply) { status.textContent = ""; return; }
  status.textContent = reply.window === null
    ? fill(T["lobby.waiting_any"], { rating: reply.rating })
    : fill(T["lobby.waiting_near"], { rating: reply.rating, window: reply.window });
}

async function askToWait() {
  if (!waiting) return;
  try {
    const reply = await api("POST", "/api/lobby/waiting");
    if (reply.game_id) { go(reply.game_id); return; }
    showWaiting(reply);
  } catch (err) {
    showError($("lobby-error"), err);
    setWaiting(false);
    return;
  }
  waitTimer = setTimeout(askToWait, WAIT_MS);
}

function setWaiting(on) {
  waiting = on;
  $("lobby-wait").hidden = on;
  $("lobby-stop").hidden = !on;
  clearTimeout(waitTimer);
  if (on) askToWait();
  else showWaiting(null);
}

if (signedIn) {
  $("lobby-wait").addEventListener("click", () => { showError($("lobby-error"), null); setWaiting(true); });
  $("lobby-stop").addEventListener("click", async () => {
    setWaiting(false);
    try { await api("DELETE", "/api/lobby/waiting"); } catch (err) { showError($("lobby-error"), err); }
  });
  const timing = $("post-timing");
  timing.addEventListener("change", () => {
    const days = timing.value === "days";
    $("post-days-label").hidden = !days;
    $("post-minutes-label").hidden = days;
  });
  $("post-rated").addEventListener("change", () => {
    if ($("post-rated").checked) $("post-variant").value = "8x8";
  });
  $("post-variant").addEventListener("change", () => {
    if ($("post-variant").value !== "8x8") $("post-rated").checked = false;
  });
  $("lobby-post").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      variant: $("post-variant").value,
      colour: $("post-colour").value,
      rated: $("post-rated").checked,
      public: $("post-public").checked,
    };
    if (timing.value === "days") body.days_per_move = Number($("post-days").value);
    else body.clock_minutes = Number($("post-minutes").value);
    const submit = $("post-submit");
    submit.disabled = true;
    showError($("post-error"), null);
    try {
      const posted = await api("POST", "/api/lobby/challenges", body);
      mineOpen.add(posted.id);
      $("lobby-post-panel").open = false;
    } catch (err) {
      showError($("post-error"), err);
    }
    submit.disabled = false;
    etag = null;
    poll();
  });
}

poll();
setInterval(() => { if (!document.hidden || waiting) poll(); }, POLL_MS);
document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
