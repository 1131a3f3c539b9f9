// Small fetch helpers: JSON in, JSON out, refusals as ApiError with .code/.reason/.status;
// the seat tokens this browser keeps (one per game, in localStorage); escaping for HTML.
export class ApiError extends Error {
  // retryAfter: a refusal's Retry-After header (a 429's: seconds to wait), else null
  constructor(body, status, retryAfter = null) {
    super(body?.error?.message || `HTTP ${status}`);
    this.code = body?.error?.code || "http";
    this.reason = body?.error?.reason || null;
    this.status = status;
    const seconds = Number.parseInt(retryAfter ?? "", 10);
    this.retryAfter = Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
  }
}

// ---- the server out of reach --------------------------------------------------------
// A request that gets no answer at all (the server is down or the network is gone: fetch
// rejects with a TypeError, "Failed to fetch") becomes an ApiError with the code
// "unreachable" and words a player can act on; the page's banner (#offline, base.html)
// says the server cannot be reached and that the page keeps trying, and this module tries
// every few seconds until the server answers again, then hides it.
const PROBE_MS = 3000;
let probeTimer = null;

function pageText(key, fallback) {
  try { return strings()[key] || fallback; } catch { return fallback; }
}

function showOffline(down) {
  document.body.classList.toggle("offline", down);
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = !down;
}

function probe() {
  if (probeTimer) return;
  probeTimer = setInterval(async () => {
    try {
      await fetch("/api/status", { cache: "no-store" });
    } catch { return; }
    clearInterval(probeTimer);
    probeTimer = null;
    showOffline(false);
    window.dispatchEvent(new Event("hasamigo:online"));
  }, PROBE_MS);
}

export function serverUnreachable() {
  showOffline(true);
  probe();
  return new ApiError({ error: {
    code: "unreachable",
    message: pageText("offline.action", "The server cannot be reached, so this did not go through. Try again once it is back."),
  } }, 0);
}

// fetch, with "no answer at all" as serverUnreachable()'s ApiError
export async function reach(url, options = {}) {
  try {
    return await fetch(url, options);
  } catch (err) {
    if (err instanceof TypeError) throw serverUnreachable();
    throw err;
  }
}

// api("POST", url, body, {token}): with a token, the request proves its seat
// (Authorization: Bearer <token>).
export async function api(method, url, body = undefined, { token = null } = {}) {
  const options = { method, headers: { Accept: "application/json" } };
  if (token) options.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await reach(url, options);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(data, response.status, response.headers.get("Retry-After"));
  return data;
}

// ---- seat tokens -------------------------------------------------------------------
// A game's seat token lives under "hasamigo:seat:<id>"; the join link made for a second
// person in another browser under "hasamigo:join:<id>" (shown to the creator).
const SEAT = "hasamigo:seat:";
const JOIN = "hasamigo:join:";

function read(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function write(key, value) {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch { /* storage refused (private mode): the seat lasts as long as the page */ }
}

export function seatToken(gameId) { return read(SEAT + gameId); }
export function keepSeatToken(gameId, token) { write(SEAT + gameId, token); }
export function joinLink(gameId) { return read(JOIN + gameId); }
export function keepJoinLink(gameId, url) { write(JOIN + gameId, url); }

// A private game refuses a reader without its seat token (401) or with another's (403).
export function isPrivateRefusal(err) {
  return err instanceof ApiError && (err.status === 401 || err.status === 403)
    && err.code !== "official_game";
}

// Download links (a[data-download]) of a game fetch with its seat token: a plain link
// can't send the Authorization header. Without a token the link is followed as it is
// (public games).
export function wireDownloads(root = document) {
  root.addEventListener("click", async (ev) => {
    const link = ev.target.closest("a[data-download]");
    if (!link) return;
    const token = seatToken(link.dataset.gameId);
    if (!token) return;
    ev.preventDefault();
    try {
      const response = await reach(link.href, { headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const save = document.createElement("a");
      save.href = url;
      save.download = link.dataset.download;
      document.body.appendChild(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      link.title = err.message;
    }
  });
}

export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function strings() {
  return JSON.parse(document.getElementById("strings").textContent);
}

// The text of `key` for a count of n: a text that follows a count comes from the catalog
// as its two forms (keyed_text.py, ngettext for 1 and for many); {n} is left to the caller.
export function forCount(T, key, n) {
  const text = T[key];
  if (text && typeof text === "object") return n === 1 ? text.one : text.other;
  return text;
}

// A game's length as the library gives it, plies (every move and every pass): "(58 plies,
// 2 passes)"
export function lengthNote(T, moves) {
  const passes = moves.filter((m) => m === "pass").length;
  let text = forCount(T, "moves.plies", moves.length).replace("{n}", String(moves.length));
  if (passes) text += `, ${forCount(T, "moves.passes", passes).replace("{n}", String(passes))}`;
  return `(${text})`;
}

// A result's scoring, after its other notes (" · …"): the game's scoring when it is not
// today's JOF rule, and the count with the empties to the winner when that differs.
export function scoringNote(T, r) {
  let note = r.scoring && r.scoring !== "jof-2014" ? ` · ${T[`scoring.${r.scoring}`] || r.scoring}` : "";
  if (r.today) note += ` · ${T["scoring.today"]} ${r.today}`;
  return note;
}

export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = Math.floor(s % 60);
  const text = `${m}:${String(rest).padStart(2, "0")}`;
  return s < 10 && s > 0 ? `${text}.${Math.floor((s * 10) % 10)}` : text;
}

// The moves as list items, each with its colour (passes included, colours alternate).
export function moveItems(moves, first, current = moves.length - 1) {
  let colour = first;
  return moves.map((m, i) => {
    const item = `<li data-ply="${i + 1}" class="${i === current ? "current" : ""}"><span class="n">${i + 1}</span><span class="mv"><i class="disc-icon ${colour}"></i>${escapeHtml(m)}</span></li>`;
    colour = colour === "black" ? "white" : "black";
    return item;
  }).join("");
}
