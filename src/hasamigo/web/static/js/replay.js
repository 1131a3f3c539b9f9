// Replay a stored game move by move (positions come from the server).
import { api, strings } from "./api.js";
import { BoardView } from "./board.js";

const T = strings();
const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const game = JSON.parse(document.getElementById("initial-state").textContent);
const board = new BoardView(document.getElementById("board"), game.rows, game.cols);
const slider = document.getElementById("ply");
const list = document.getElementById("moves");
let positions = [];
let ply = 0;

function show(n, animate = true) {
  ply = Math.max(0, Math.min(n, positions.length - 1));
  const p = positions[ply];
  if (!animate) board.cells = null;
  board.render(p.cells, { last: p.move === "pass" ? null : p.move, flipped: animate ? p.flipped : [], clickable: false, legal: [] });
  slider.value = String(ply);
  list.querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === ply - 1));
  const colour = p.colour ? (p.colour === "black" ? T.black : T.white) : "";
  document.getElementById("replay-status").innerHTML =
    `${ply} / ${positions.length - 1} ${p.move ? `· ${colour} <strong>${p.move}</strong>` : ""}` +
    ` · <span class="disc-icon black"></span> ${p.black} – ${p.white} <span class="disc-icon white"></span>`;
}

async function load() {
  positions = await api("GET", `/api/games/${gameId}/positions`);
  slider.max = String(positions.length - 1);
  list.innerHTML = positions.slice(1).map((p, i) => `<li data-ply="${i + 1}">${p.move}</li>`).join("");
  list.querySelectorAll("li").forEach((li) => li.addEventListener("click", () => show(Number(li.dataset.ply), false)));
  show(positions.length - 1, false);
}

document.getElementById("first").addEventListener("click", () => show(0, false));
document.getElementById("prev").addEventListener("click", () => show(ply - 1, false));
document.getElementById("next").addEventListener("click", () => show(ply + 1));
document.getElementById("last").addEventListener("click", () => show(positions.length - 1, false));
slider.addEventListener("input", () => show(Number(slider.value), false));
document.addEventListener("keydown", (ev) => {
  if (ev.key === "ArrowLeft") show(ply - 1, false);
  if (ev.key === "ArrowRight") show(ply + 1);
});
load();
