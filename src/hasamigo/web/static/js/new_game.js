// The new-game form: sends the choices to the API, keeps the seat token it answers with
// (and the join link for a second person's browser), and opens the game.
import { api, keepJoinLink, keepSeatToken, strings } from "./api.js";
import { WarmupWatch } from "./warmup.js";

const form = document.getElementById("new-game");
const $ = (id) => document.getElementById(id);
const level = $("level");
const error = $("form-error");

function value(name) {
  return form.querySelector(`input[name="${name}"]:checked`).value;
}

function sync() {
  const opponent = value("opponent");
  // a correspondence game (days per move) is played by two people in two browsers
  const byPost = opponent === "person" && value("same_screen") === "0";
  $("clock-days").hidden = !byPost;
  if (!byPost && value("clock") === "days") form.querySelector('input[name="clock"][value="20"]').checked = true;
  const clock = value("clock");
  $("level-row").hidden = opponent !== "engine";
  $("person-row").hidden = opponent !== "person";
  $("custom-row").hidden = clock !== "custom";
  $("days-row").hidden = clock !== "days";
  // claims concern a program opponent and a clock
  $("claims-row").hidden = opponent === "person" || clock === "none";
  // who hides the disc matters for fuse-ishi, and for the draw-win fuse-ishi without draws
  $("fuse-details").hidden = value("colour") !== "fuse-ishi" && !$("no-draws").checked;
  $("level-out").textContent = level.value;
  // the level's measured rating (docs/ratings.md), if the server ships one
  const rating = $("level-rating");
  if (rating) {
    const measured = JSON.parse(rating.dataset.ratings || "{}")[level.value];
    rating.textContent = measured ? `≈ ${measured}` : "";
  }
}
form.addEventListener("change", sync);
level.addEventListener("input", sync);
for (const key of ["hints", "graph", "opening"]) {
  const box = $(`panel-${key}`);
  box.checked = localStorage.getItem(`panel-${key}`) === "1";
  box.addEventListener("change", () => localStorage.setItem(`panel-${key}`, box.checked ? "1" : "0"));
}
sync();

// ---- a fresh server (the first run only): which programs are still getting ready ------------
// Each tile names the kernel groups its opponent needs (data-needs); until they are ready
// (GET /api/status) the tile says it is getting ready, and the notice above says what is
// compiling and about how long is left. A game may be started meanwhile.
const T = strings();
const tiles = [...form.querySelectorAll(".tile[data-needs]")];
const needed = [...new Set(tiles.flatMap((t) => t.dataset.needs.split(" ").filter(Boolean)))];
const warmup = new WarmupWatch($("form-warmup"), T, { every: 2000 });

async function markTiles() {
  let status;
  try {
    status = await api("GET", "/api/status");
  } catch {
    setTimeout(markTiles, 2000);  // no answer yet: ask again
    return;
  }
  // a group the server does not name yet is not ready (unless the engine is: an older
  // server, without groups)
  const groups = status.groups || {};
  const isReady = (g) => (groups[g] ? groups[g].state === "ready" : status.engine === "ready");
  let waiting = false;
  for (const tile of tiles) {
    const ready = tile.dataset.needs.split(" ").filter(Boolean).every(isReady);
    tile.querySelector(".tile-warming").hidden = ready;
    tile.classList.toggle("warming", !ready);
    waiting ||= !ready;
  }
  if (waiting) setTimeout(markTiles, 2000);
}
markTiles();
warmup.watch(needed, null, T["warmup.form"]);

// ranks and birth years: sent only when one is given (null for a blank one)
function seatDetails() {
  if ($("fuse-details").hidden) return {};
  const ranks = [0, 1].map((i) => $(`rank-${i}`).value.trim() || null);
  const years = [0, 1].map((i) => {
    const n = Number.parseInt($(`year-${i}`).value, 10);
    return Number.isFinite(n) ? n : null;
  });
  const out = {};
  if (ranks.some((r) => r !== null)) out.ranks = ranks;
  if (years.some((y) => y !== null)) out.birth_years = years;
  return out;
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  error.hidden = true;
  const clock = value("clock");
  const chosen = value("opponent");
  // an external engine of the server's settings file: sent by its key only
  const external = chosen.startsWith("external:");
  const opponent = external ? "external" : chosen;
  const body = {
    opponent,
    ...(external ? { engine: chosen.slice("external:".length) } : {}),
    level: Number(level.value),
    colour: value("colour"),
    handicap: Number(value("handicap")),
    clock_minutes: clock === "none" || clock === "days" ? null : clock === "custom" ? Number($("custom-minutes").value) : 20,
    ...(clock === "days" ? { days_per_move: Number($("days-per-move").value) } : {}),
    variant: value("variant"),
    start: value("start"),
    // 挟み碁's flip rule: the server names the game's variant with it (hasegawa-8x9+one)
    flip_rule: $("flip-rule").value,
    casual: value("casual") === "1",
    draws_allowed: !$("no-draws").checked,
    public: $("public").checked,
    ...seatDetails(),
  };
  if (opponent === "person") {
    body.same_screen = value("same_screen") === "1";
  } else {
    body.auto_claim = $("auto-claim").checked;
    body.program_claims = $("program-claims").checked;
  }
  const button = $("start-game");
  button.disabled = true;
  try {
    const game = await api("POST", "/api/games", body);
    keepSeatToken(game.id, game.seat_token);
    if (game.join_url) keepJoinLink(game.id, game.join_url);
    location.href = `/games/${game.id}`;
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    button.disabled = false;
  }
});
