// Over the board: the form that starts a game over the board (/record), and record entry
// (/record/{id}): click the square where the disc was put, then the discs actually
// turned (the ones the disc brackets are marked to start with), or type the whole board;
// the server names every fault and the recorder corrects the move or keeps the board.
// The server decides everything; this page only shows the game and sends the entries.
import {
  api, escapeHtml, isPrivateRefusal, keepSeatToken, lengthNote, moveItems, scoringNote, seatToken, strings,
} from "./api.js";
import { BoardView, squareName } from "./board.js";

const T = strings();
const $ = (id) => document.getElementById(id);

// ---- the form -----------------------------------------------------------------------
const form = $("otb-form");
if (form) {
  let go = "clock";
  for (const button of form.querySelectorAll("button[data-go]")) {
    button.addEventListener("click", () => { go = button.dataset.go; });
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = $("form-error");
    error.hidden = true;
    const minutes = Number($("minutes").value);
    const body = {
      names: [$("name-0").value.trim(), $("name-1").value.trim()],
      colour: form.querySelector('input[name="colour"]:checked').value,
      clock_minutes: $("no-clock").checked ? null : minutes,
      byoyomi_seconds: Number($("byoyomi").value) || 0,
      handicap: Number($("handicap").value),
      draws_allowed: !$("no-draws").checked,
    };
    const time = $("scheduled").value;  // HH:MM today, local time
    if (time) {
      const [h, m] = time.split(":").map(Number);
      const when = new Date();
      when.setHours(h, m, 0, 0);
      body.scheduled_start = when.getTime() / 1000;
    }
    try {
      const created = await api("POST", "/api/record/games", body);
      const id = created.game.game.id;
      keepSeatToken(id, created.seat_token);
      location.href = go === "clock" ? `/record/${id}/clock` : `/record/${id}`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
}

// ---- record entry -------------------------------------------------------------------
const root = $("record");
if (root) startEntry(root);

function startEntry(root) {
  const gameId = root.dataset.gameId;
  const token = seatToken(gameId);
  const base = `/api/record/games/${gameId}`;
  let view = null; // the server's OtbView
  let board = null;
  let placed = null; // the square clicked for the new disc
  let turned = new Set(); // discs marked as turned
  let disc = null; // the colour of the disc put down (null: the mover's)

  const colourName = (c) => (c === "black" ? T.black : T.white);
  const mover = () => $("by").value || view.game.turn;
  const placedColour = () => disc || mover();

  function showError(message) {
    $("error").textContent = message;
    $("error").hidden = !message;
  }

  async function call(method, path, body) {
    showError("");
    try {
      view = await api(method, path, body, { token });
      reset();
      render();
    } catch (err) {
      showError(err.message);
    }
  }

  async function load() {
    try {
      view = await api("GET", base, undefined, { token });
    } catch (err) {
      $("loading").hidden = true;
      if (isPrivateRefusal(err)) { $("private-panel").hidden = false; return; }
      showError(err.message);
      root.hidden = false;
      return;
    }
    $("loading").hidden = true;
    root.hidden = false;
    const g = view.game;
    board = new BoardView($("board"), g.rows, g.cols);
    // every square takes a click here (board.js only routes clicks on legal squares)
    for (const [name, square] of board.squares) {
      square.addEventListener("click", () => clicked(name));
      square.classList.add("entry-square");
    }
    render();
  }

  // bracketed discs for a disc of `colour` on `name` (the same walk as the server's)
  function bracketed(cells, name, colour) {
    const g = view.game;
    const col = name.charCodeAt(0) - 97;
    const row = Number(name.slice(1)) - 1;
    const mine = colour === "black" ? "X" : "O";
    const theirs = colour === "black" ? "O" : "X";
    const out = [];
    for (const [dr, dc] of [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]) {
      const line = [];
      let r = row + dr;
      let c = col + dc;
      while (r >= 0 && r < g.rows && c >= 0 && c < g.cols) {
        const ch = cells[r * g.cols + c];
        if (ch === theirs) { line.push(squareName(c, r)); r += dr; c += dc; continue; }
        if (ch === mine && line.length) out.push(...line);
        break;
      }
    }
    return out;
  }

  function cellAt(name) {
    const g = view.game;
    return g.cells[(Number(name.slice(1)) - 1) * g.cols + (name.charCodeAt(0) - 97)];
  }

  function clicked(name) {
    if (!view || view.pending.length || view.game.phase === "over") return;
    const here = cellAt(name);
    if (placed === null || (here === "-" && name !== placed)) {
      if (here !== "-") return;
      placed = name;
      turned = new Set(bracketed(view.game.cells, name, placedColour()));
    } else if (name === placed) {
      placed = null;
      turned = new Set();
    } else if (here === "X" || here === "O") {
      if (turned.has(name)) turned.delete(name); else turned.add(name);
    }
    render();
  }

  // the board as the entry would leave it (a preview)
  function previewCells() {
    const g = view.game;
    const cells = g.cells.split("");
    if (placed) {
      const index = (Number(placed.slice(1)) - 1) * g.cols + (placed.charCodeAt(0) - 97);
      cells[index] = placedColour() === "black" ? "X" : "O";
      for (const name of turned) {
        const i = (Number(name.slice(1)) - 1) * g.cols + (name.charCodeAt(0) - 97);
        cells[i] = cells[i] === "X" ? "O" : "X";
      }
    }
    return cells.join("");
  }

  function reset() {
    placed = null;
    turned = new Set();
    disc = null;
  }

  function render() {
    const g = view.game;
    const names = view.names;
    $("names").innerHTML = names
      ? `<span><i class="disc-icon black"></i> ${escapeHtml(names.black)}</span><span><i class="disc-icon white"></i> ${escapeHtml(names.white)}</span>`
      : "";
    // a faulty move waiting for the recorder shows the board as it was played
    const faulty = new Set(view.pending.flatMap((f) => f.squares));
    const cells = view.pending_board || previewCells();
    board.render(cells, { legal: [], last: placed || g.last_move, flipped: [], clickable: false });
    for (const [name, square] of board.squares) {
      square.classList.toggle("marked", turned.has(name));
      square.classList.toggle("placing", name === placed);
      square.classList.toggle("fault", faulty.has(name));
    }
    for (const input of root.querySelectorAll('input[name="disc"]')) {
      input.checked = input.value === placedColour();
      input.onchange = () => {
        disc = input.value === mover() ? null : input.value;
        if (placed) turned = new Set(bracketed(g.cells, placed, placedColour()));
        render();
      };
    }
    $("by").onchange = () => render();
    $("placed").textContent = placed || "–";
    $("turned").textContent = placed ? ([...turned].sort().join(", ") || T["record.none"]) : "–";
    const number = g.moves.length + 1;
    let status;
    if (g.phase === "colours") status = T["record.status.colours"];
    else if (g.phase === "over") status = T["record.status.over"];
    else if (view.pending.length) status = T["record.status.pending"].replace("{n}", view.pending[0].move_number);
    else status = T["record.status.move"].replace("{n}", number).replace("{colour}", colourName(g.turn));
    $("status").textContent = status;
    $("colours-link").hidden = g.phase !== "colours";
    const entering = g.phase === "playing" || g.phase === "playout";
    $("entry-card").hidden = !entering || view.pending.length > 0;
    $("pending-card").hidden = view.pending.length === 0;
    $("pending").innerHTML = view.pending.map(faultItem).join("");
    $("last-move-card").hidden = !view.last_move_claimant;
    $("faults").innerHTML = view.faults.length
      ? view.faults.map(faultItem).join("") : `<li class="muted">${escapeHtml(T["record.no_faults"])}</li>`;
    const first = g.moves.length ? g.first_colour : g.turn;
    $("moves").innerHTML = moveItems(g.moves, first);
    $("move-count").textContent = g.moves.length ? lengthNote(T, g.moves) : "";
    const r = g.result;
    $("result").textContent = r
      ? `${r.score} ${r.winner ? T.wins.replace("{name}", colourName(r.winner)) : T.draw} (${T[`term.${r.termination}`] || r.termination}${scoringNote(T, r)})${view.card ? ` · ${T["record.card.in"]} ${view.card[0]}–${view.card[1]}` : ""}`
      : "";
    $("card-form").hidden = view.card !== null || view.pending.length > 0
      || g.phase === "colours" || g.phase === "timeout-choice";
  }

  function faultItem(f) {
    const decision = f.decision ? ` <span class="tag">${escapeHtml(T[`record.decision.${f.decision}`] || f.decision)}</span>` : "";
    return `<li data-kind="${escapeHtml(f.kind)}">${escapeHtml(f.message)}${decision}</li>`;
  }

  $("enter").addEventListener("click", () => {
    if (!placed) { showError(T["record.click_square"]); return; }
    const body = { square: placed, turned: [...turned] };
    if ($("by").value) body.by = $("by").value;
    body.colour = placedColour();
    call("POST", `${base}/entries`, body);
  });
  $("pass").addEventListener("click", () => {
    const body = { square: null };
    if ($("by").value) body.by = $("by").value;
    call("POST", `${base}/entries`, body);
  });
  $("clear").addEventListener("click", () => { reset(); render(); });
  $("undo").addEventListener("click", () => call("POST", `${base}/entries/undo`));
  $("correct").addEventListener("click", () => call("POST", `${base}/entries/correct`));
  $("keep").addEventListener("click", () => call("POST", `${base}/entries/keep`));
  $("claim-last").addEventListener("click", () => {
    if (view.last_move_claimant) call("POST", `${base}/illegal`, { colour: view.last_move_claimant });
  });
  $("enter-board").addEventListener("click", () => {
    const text = $("board-text").value.replace(/\s+/g, "");
    const body = { board: text };
    if ($("by").value) body.by = $("by").value;
    call("POST", `${base}/entries`, body);
  });
  $("card-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    call("POST", `${base}/card`, { black: Number($("card-black").value), white: Number($("card-white").value) });
  });
  $("private-retry")?.addEventListener("click", () => location.reload());
  load();
}
