// Replay a stored game move by move (the game and its positions come from the server, read
// with this browser's seat token, or as a spectator of a public game).
import {
  api, escapeHtml, isPrivateRefusal, moveItems, seatToken, strings, wireDownloads,
} from "./api.js";
import { BoardView } from "./board.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("replay");
const gameId = root.dataset.gameId;
const token = seatToken(gameId);
const slider = $("ply");
const list = $("moves");
let board = null;
let positions = [];
let ply = 0;

function colourName(c) { return c === "black" ? T.black : T.white; }

function show(n, animate = true) {
  ply = Math.max(0, Math.min(n, positions.length - 1));
  const p = positions[ply];
  if (!animate) board.cells = null;
  board.render(p.cells, { last: p.move === "pass" ? null : p.move, flipped: animate ? p.flipped : [], clickable: false, legal: [] });
  slider.value = String(ply);
  list.querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === ply - 1));
  const colour = p.colour ? colourName(p.colour) : "";
  $("replay-status").innerHTML =
    `${ply} / ${positions.length - 1} ${p.move ? `· ${colour} <strong>${escapeHtml(p.move)}</strong>` : ""}` +
    ` · <span class="disc-icon black"></span> ${p.black} – ${p.white} <span class="disc-icon white"></span>`;
}

function describe(game) {
  const name = (c) => escapeHtml(game.seats ? game.seats[c].name : "?");
  $("replay-players").innerHTML =
    `<i class="disc-icon black"></i> ${name("black")} – <i class="disc-icon white"></i> ${name("white")}`;
  const r = game.result;
  $("replay-result").innerHTML = r
    ? `<strong>${escapeHtml(r.score)}</strong> <span class="muted">${escapeHtml(T[`term.${r.termination}`] || r.termination)}</span>`
    : `<span class="tag live">${T.in_progress}</span> <a href="/games/${encodeURIComponent(gameId)}">${T["library.continue"]}</a>`;
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
  board = new BoardView($("board"), game.rows, game.cols);
  describe(game);
  slider.max = String(positions.length - 1);
  const first = positions.length > 1 ? positions[1].colour : game.first_colour;
  list.innerHTML = moveItems(positions.slice(1).map((p) => p.move), first, -1);
  list.querySelectorAll("li").forEach((li) => li.addEventListener("click", () => show(Number(li.dataset.ply), false)));
  show(positions.length - 1, false);
  wire();
}

function wire() {
  $("first").addEventListener("click", () => show(0, false));
  $("prev").addEventListener("click", () => show(ply - 1, false));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(positions.length - 1, false));
  slider.addEventListener("input", () => show(Number(slider.value), false));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowLeft") show(ply - 1, false);
    if (ev.key === "ArrowRight") show(ply + 1);
  });
}

$("private-retry").addEventListener("click", () => location.reload());
wireDownloads(root);
load();
