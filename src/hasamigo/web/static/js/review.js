// The game review on the replay page: a button starts it on the server (POST
// /api/games/{id}/review), a progress bar follows it (GET every 1.5 s), then the graph of
// the review's scores with the inaccuracies, mistakes and blunders marked, a summary per
// player and a table of every move. A point of the graph or a row of the table jumps the
// replay to the position before that move, where the square played and the best square
// are tinted (classes on the board's squares: board.js is left alone).
import { api, escapeHtml, forCount } from "./api.js";
import { drawGraph } from "./graph.js";

const MARKED = new Set(["inaccuracy", "mistake", "blunder"]);
const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const POLL_MS = 1500;
const $ = (id) => document.getElementById(id);

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

// A row without scores (null): a forced move (a pass, the only legal move) of a review
// stored before forced moves were searched. Its position is unknown, not worth 0. (A
// forced move reviewed since carries the position's score, `forced` marking it.)
function unscored(row) {
  return row.best_score === null || row.best_score === undefined;
}

function blackView(row, score) { return row.colour === "black" ? score : -score; }

// The value of every position of the game (Black's view): position k, the one after k
// moves, is valued by its own search (the best score of the move played from it, at the
// review's depth; a forced move's is the position's too); the last position, or one whose
// move is unscored, by the search of the move that led to it (one ply shallower: used
// everywhere, that odd depth would make the line zigzag, each side's search favouring
// the side to move); a position neither scores is left out (null).
export function reviewScores(rows) {
  const scores = [];
  for (let k = 0; k <= rows.length; k++) {
    const before = rows[k - 1];
    const from = rows[k];
    if (from && !unscored(from)) scores.push(blackView(from, from.best_score));
    else if (before && !unscored(before)) scores.push(blackView(before, before.played_score));
    else scores.push(null);
  }
  return scores;
}

export class ReviewPanel {
  // puzzleLink(ply, colour): the puzzle page of the position before that move, or null;
  // reviewed: whether the game had a review when the page was made (the page says so), so
  // that a game without one is offered the button without a GET that can only 404
  constructor({ gameId, token, T, jump, puzzleLink = () => null, reviewed = true }) {
    this.puzzleLink = puzzleLink;
    this.reviewed = reviewed;
    this.url = `/api/games/${encodeURIComponent(gameId)}/review`;
    this.token = token;
    this.T = T;
    this.jump = jump;
    this.data = null;
    this.scores = [];
    this.ply = 0;
    this.timer = null;
    this.card = $("review-card");
  }

  async init(game) {
    if (!game.analysable) return this.note(this.T["review.unavailable"]);
    if (game.phase !== "over") return this.note(this.T["review.not_over"]);
    $("review-button").addEventListener("click", () => this.start());
    $("review-table").addEventListener("click", (ev) => {
      const row = ev.target.closest("tr[data-ply]");
      if (row) this.jump(Number(row.dataset.ply));
    });
    $("review-table").addEventListener("keydown", (ev) => {
      const row = ev.target.closest("tr[data-ply]");
      if (row && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); this.jump(Number(row.dataset.ply)); }
    });
    $("review-summary").addEventListener("click", (ev) => {
      const button = ev.target.closest("button[data-ply]");
      if (button) this.jump(Number(button.dataset.ply));
    });
    if (!this.reviewed) return this.offer();
    try {
      this.update(await api("GET", this.url, undefined, { token: this.token }));
    } catch (err) {
      if (err.status === 404) this.offer();
      else this.note(err.message);
    }
  }

  note(text) {
    const note = $("review-note");
    note.textContent = text;
    note.hidden = false;
  }

  offer(label = this.T["review.start"]) {
    $("review-button").textContent = label;
    $("review-button").disabled = false;
    $("review-start").hidden = false;
  }

  async start() {
    $("review-button").disabled = true;
    $("review-note").hidden = true;
    try {
      this.update(await api("POST", this.url, undefined, { token: this.token }));
    } catch (err) {
      this.note(err.message);
      $("review-button").disabled = false;
    }
  }

  async poll() {
    try {
      this.update(await api("GET", this.url, undefined, { token: this.token }));
    } catch (err) {
      $("review-progress-text").textContent = err.message;
      this.schedule();
    }
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  update(data) {
    this.data = data;
    this.card.dataset.status = data.status;
    const working = data.status === "queued" || data.status === "running";
    $("review-progress").hidden = !working;
    $("review-start").hidden = true;
    $("review-note").hidden = true;
    if (working) {
      const bar = $("review-bar");
      bar.max = Math.max(1, data.total);
      bar.value = data.reviewed;
      $("review-progress-text").textContent = data.status === "queued" && data.reviewed === 0
        ? this.T["review.queued"]
        : fill(this.T["review.running"], { n: Math.min(data.reviewed + 1, data.total), total: data.total });
      this.schedule();
      return;
    }
    if (data.status === "failed") {
      this.note(`${this.T["review.failed"]} ${data.error || ""}`);
      this.offer(this.T["review.retry"]);
      return;
    }
    this.render();
  }

  render() {
    const data = this.data;
    const T = this.T;
    this.scores = reviewScores(data.moves);
    $("review-result").hidden = false;
    $("review-depth").textContent = fill(T["review.depth"], { depth: data.depth, exact: data.exact_empties });
    const colour = (c) => (c === "black" ? T.black : T.white);
    const sides = ["black", "white"].map((side) => {
      const s = data.summary[side];
      const counts = LABELS.filter((l) => s.labels[l] > 0)
        .map((l) => `<span class="verdict ${l}">${escapeHtml(fill(forCount(T, `review.count.${l}`, s.labels[l]), { n: s.labels[l] }))}</span>`).join("");
      const worst = s.worst ? ` · ${escapeHtml(fill(T["review.worst"], { n: s.worst.ply + 1, move: s.worst.move, loss: s.worst.loss }))}` : "";
      return `<div class="side" data-side="${side}"><div><i class="disc-icon ${side}"></i> <strong>${escapeHtml(colour(side))}</strong> ` +
        `<span class="muted">${escapeHtml(fill(T["review.average"], { avg: s.average_loss.toFixed(2), total: s.total_loss }))}${worst}</span></div>` +
        `<div class="counts">${counts}</div></div>`;
    });
    const turning = data.moves.find((row) => row.ply === data.turning_point);
    sides.push(turning
      ? `<p class="turning" id="review-turning"><button type="button" data-ply="${turning.ply}">${escapeHtml(fill(T["review.turning"], {
        n: turning.ply + 1, colour: colour(turning.colour), move: turning.move, best: turning.best_move, loss: turning.loss,
      }))}</button></p>`
      : `<p class="muted">${escapeHtml(T["review.no_turning"])}</p>`);
    $("review-summary").innerHTML = sides.join("");
    $("review-table").querySelector("tbody").innerHTML = data.moves.map((row) =>
      `<tr data-ply="${row.ply}" data-label="${escapeHtml(row.label)}" tabindex="0">` +
      `<td>${row.ply + 1}</td>` +
      `<td class="mv"><i class="disc-icon ${row.colour}" title="${escapeHtml(colour(row.colour))}"></i> ${escapeHtml(row.move)}</td>` +
      `<td class="best">${escapeHtml(row.best_move)}</td>` +
      `<td class="loss">${row.loss ? `−${row.loss}` : "0"}</td>` +
      `<td><span class="verdict ${escapeHtml(row.label)}">${escapeHtml(T[`review.label.${row.label}`] || row.label)}</span>` +
      `${row.forced ? ` <span class="muted small forced">${escapeHtml(T["review.forced"])}</span>` : ""}` +
      `${this.practise(row)}</td></tr>`).join("");
    this.showPly(this.ply);
  }

  // a mistake or blunder becomes a puzzle (the position before it; the solver judges)
  practise(row) {
    if (row.label !== "mistake" && row.label !== "blunder") return "";
    const href = this.puzzleLink(row.ply, row.colour);
    return href ? ` <a class="practise small" href="${escapeHtml(href)}">${escapeHtml(this.T["review.practise"])}</a>` : "";
  }

  // The replay shows position `ply`: the graph's marker, the table's row of the move
  // played from it, and that move's square (red if it lost discs) and the best (blue).
  showPly(ply) {
    this.ply = ply;
    const board = $("board");
    board.querySelectorAll(".review-played, .review-best").forEach((g) => g.classList.remove("review-played", "review-best"));
    if (!this.data || this.data.status !== "done") return;
    const rows = this.data.moves;
    const marks = rows.filter((row) => MARKED.has(row.label)).map((row) => ({ ply: row.ply, label: row.label }));
    drawGraph($("review-graph"), this.scores, { current: ply, onPick: (n) => this.jump(n), label: this.T["review.graph"], marks });
    const table = $("review-table");
    table.querySelectorAll("tr.current").forEach((tr) => tr.classList.remove("current"));
    const tr = table.querySelector(`tr[data-ply="${ply}"]`);
    if (tr) {
      tr.classList.add("current");
      const wrap = table.parentElement;
      if (tr.offsetTop < wrap.scrollTop + 30 || tr.offsetTop + tr.offsetHeight > wrap.scrollTop + wrap.clientHeight) {
        wrap.scrollTop = Math.max(0, tr.offsetTop - wrap.clientHeight / 2);
      }
    }
    const row = rows[ply];
    if (!row || row.move === "pass") return;
    const square = (name) => board.querySelector(`.square[data-square="${CSS.escape(name)}"]`);
    if (row.loss > 0) square(row.move)?.classList.add("review-played");
    if (row.best_move !== "pass") square(row.best_move)?.classList.add("review-best");
  }
}
