// A puzzle: the position, a click on a legal square answers, the server judges it with
// the exact solver (its score, the best moves and score, the discs lost).
import { ApiError, api, escapeHtml, forCount, strings } from "./api.js";
import { BoardView } from "./board.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const root = $("puzzle");
const puzzle = JSON.parse($("puzzle-data").textContent);
const own = root.dataset.own === "yes";
const [cells, side] = puzzle.board.split(" ");
let view = null;
let busy = false;

function sign(n) { return n > 0 ? `+${n}` : `${n}`; }

function render(options = {}) {
  view.render(cells, { legal: options.done ? [] : puzzle.legal, clickable: !options.done && !busy,
    last: options.last || null, hints: options.hints || null, bestHint: options.best ?? null });
}

async function answer(move) {
  if (busy) return;
  busy = true;
  render();
  $("verdict").textContent = T["puzzles.judging"];
  const body = own ? { move, variant: puzzle.variant, board: puzzle.board } : { move, key: puzzle.key };
  try {
    const v = await api("POST", "/api/puzzles/answer", body);
    const hints = new Map(v.best_moves.map((m) => [m, v.best_score]));
    hints.set(v.move, v.score);
    const head = v.correct ? T["puzzles.right"] : T["puzzles.wrong"].replace("{loss}", String(v.loss));
    $("verdict").innerHTML = `<strong>${escapeHtml(head)}</strong> ${escapeHtml(v.move)} ${sign(v.score)}` +
      ` · ${escapeHtml(T["puzzles.best"])} ${escapeHtml(v.best_moves.join(", "))} ${sign(v.best_score)}`;
    root.dataset.verdict = v.correct ? "right" : "wrong";
    busy = false;
    render({ done: true, last: v.move, hints, best: v.best_score });
    $("retry").hidden = false;
  } catch (err) {
    busy = false;
    $("verdict").textContent = err instanceof ApiError ? err.message : String(err);
    render();
  }
}

function go(n) {
  const count = $("puzzle-number").options.length;
  const k = ((n - 1 + count) % count) + 1;
  location.href = `/puzzles?n=${k}`;
}

view = new BoardView($("board"), puzzle.rows, puzzle.cols, (name) => answer(name));
$("puzzle-side").textContent = forCount(T, "puzzles.to_move", puzzle.empties)
  .replace("{side}", side === "X" ? T.black : T.white).replace("{n}", String(puzzle.empties));
const number = puzzle.key.startsWith("ffo-") ? Number(puzzle.key.slice(4)) : 0;
if (number) $("puzzle-number").value = String(number);
$("puzzle-number").addEventListener("change", () => go(Number($("puzzle-number").value)));
$("prev-puzzle").addEventListener("click", () => go((number || 1) - 1));
$("next-puzzle").addEventListener("click", () => go((number || 0) + 1));
$("retry").addEventListener("click", () => {
  $("retry").hidden = true;
  $("verdict").textContent = "";
  delete root.dataset.verdict;
  render();
});
render();
