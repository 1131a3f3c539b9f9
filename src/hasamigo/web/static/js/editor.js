// The board editor: a position set up by clicks (empty → black → white → empty), checked
// by the server after every change (moves, pass, flags, notes), analysed on request,
// shared as a board string or a link, and played out through the new-game API. The
// server reads every board string: a pasted one is loaded from the check's answer.
import { api, keepSeatToken, strings } from "./api.js";
import { BoardView } from "./board.js";

const t = strings();
const data = JSON.parse(document.getElementById("editor-data").textContent);
const boards = new Map(data.boards.map((b) => [b.name, b]));
const $ = (id) => document.getElementById(id);
const FILES = "abcdefghij";
const NEXT = { "-": "X", X: "O", O: "-" };
const ja = document.documentElement.lang === "ja";

const state = {
  variant: data.variant,
  cells: "",
  turn: "X",
  check: null, // the server's check of the board string state.checked
  checked: null,
  hints: null, // square -> score, for the board string state.analysed
  analysed: null,
  best: null,
};
let view = null;
let asked = 0; // the latest check asked for: older answers are dropped
let youChose = false; // the player picked their colour: keep it

// "Black to move", "黒の手番": Japanese joins the words without a space
// a text with its {side} filled in (word order and spacing are the catalog's)
function withSide(key, side) { return t[key].replace("{side}", side); }

function boardString() { return `${state.cells} ${state.turn}`; }

function index(name) {
  const b = boards.get(state.variant);
  return (Number(name.slice(1)) - 1) * b.cols + FILES.indexOf(name[0]);
}

function showError(box, message) {
  box.textContent = message || "";
  box.hidden = !message;
}

function setBoard(variant, cells, turn) {
  if (variant !== state.variant || view === null) {
    state.variant = variant;
    const b = boards.get(variant);
    view = new BoardView($("board"), b.rows, b.cols, null, b.rings);
    for (const [name, g] of view.squares) g.addEventListener("click", () => cycle(name));
    $("variant").value = variant;
    offerPrograms(b);
  }
  state.cells = cells;
  state.turn = turn;
  changed();
}

function cycle(name) {
  const i = index(name);
  const ch = state.cells[i];
  if (!(ch in NEXT)) return; // a square cut from a shaped board
  state.cells = state.cells.slice(0, i) + NEXT[ch] + state.cells.slice(i + 1);
  changed();
}

// after any change: the board as it stands, the share link, then the server's check
function changed() {
  const text = boardString();
  $("board-string").value = text;
  const params = new URLSearchParams({ variant: state.variant, board: text });
  const path = `/editor?${params}`;
  $("share-link").value = location.origin + path;
  history.replaceState(null, "", path);
  $("copied").textContent = "";
  if (!youChose) $("you-play").value = state.turn === "X" ? "black" : "white";
  const colour = state.turn === "X" ? "black" : "white";
  $("turn-disc").className = `disc-icon ${colour}`;
  $("turn-label").textContent = withSide("editor.to_move", t[`editor.${colour}`]);
  render();
  check(text);
}

function render() {
  const fresh = state.check !== null && state.checked === boardString();
  const analysed = state.analysed === boardString();
  view.render(state.cells, {
    legal: fresh ? state.check.legal : [],
    hints: analysed ? state.hints : null,
    bestHint: analysed ? state.best : null,
  });
  $("analyse").disabled = !fresh || !state.check.analysable || state.check.legal.length === 0;
  if (fresh && !state.check.analysable) $("analysis-note").textContent = t["editor.no_analysis"];
  else if (!analysed && $("analysis-note").dataset.busy !== "1") $("analysis-note").textContent = "";
  $("play").disabled = !fresh || state.check.game_over;
}

async function check(text) {
  const mine = ++asked;
  try {
    const answer = await api("POST", "/api/positions/check", { variant: state.variant, board: text });
    if (mine !== asked) return;
    state.check = answer;
    state.checked = text;
    showError($("error"), null);
    showCheck(answer);
  } catch (err) {
    if (mine !== asked) return;
    state.check = null;
    showError($("error"), err.message);
  }
  render();
}

function colourName(colour) { return t[`editor.${colour}`]; }

function showCheck(c) {
  const side = colourName(c.turn);
  const colon = t.colon;
  let status = withSide("editor.to_move", side);
  if (c.game_over) {
    status = `${t["editor.game_over"]}${colon}${c.winner === null ? t["editor.draw"]
      : withSide("editor.winner", colourName(c.winner))} ${c.counts.black}–${c.counts.white}`;
  } else if (c.must_pass) {
    status = `${status}${colon}${t["editor.must_pass"]}`;
  }
  $("status").textContent = status;
  $("counts").innerHTML = "";
  $("counts").append(`${t["editor.discs"]}${colon}`, disc("black"), ` ${c.counts.black}  `, disc("white"),
    ` ${c.counts.white}  · ${t["editor.empty"]} ${c.counts.empty}`);
  $("legal-label").textContent = `${t["editor.legal"]}${colon}`;
  $("legal").textContent = c.legal.length ? c.legal.join(" ") : t["editor.none"];
  $("reach").textContent = c.unreachable ? t["editor.unreachable"] : t["editor.reachable"];
  $("reach").className = `reach ${c.unreachable ? "bad" : "ok"}`;
  $("flags").replaceChildren(...c.flags.map((f) => item(ja ? f.text_ja : f.text, f.code)));
  $("notes").replaceChildren(...c.notes.map((n) => {
    const li = item(ja ? n.text_ja : n.text, n.kind);
    const rule = document.createElement("b");
    rule.textContent = `${ja ? n.rule_ja : n.rule}${colon}`;
    li.prepend(rule);
    return li;
  }));
}

function disc(colour) {
  const i = document.createElement("i");
  i.className = `disc-icon ${colour}`;
  return i;
}

function item(text, code) {
  const li = document.createElement("li");
  li.textContent = text;
  li.dataset.code = code;
  return li;
}

async function analyse() {
  const text = boardString();
  const note = $("analysis-note");
  note.dataset.busy = "1";
  note.textContent = t["editor.analysing"];
  $("analyse").disabled = true;
  try {
    const answer = await api("POST", "/api/positions/analyse", { variant: state.variant, board: text });
    if (text !== boardString()) return; // the board changed meanwhile
    state.hints = new Map(answer.hints.map((h) => [h.move, h.score]));
    state.best = answer.hints.length ? Math.max(...answer.hints.map((h) => h.score)) : null;
    state.analysed = text;
    note.textContent = `${t["editor.analysis"]} ${answer.depth}`;
  } catch (err) {
    note.textContent = err.message;
  } finally {
    note.dataset.busy = "0";
    render();
  }
}

// the new-game form's programs that play this board (the others are disabled)
function offerPrograms(b) {
  const select = $("opponent");
  for (const option of select.options) option.disabled = !b.programs.includes(option.value);
  if (select.selectedOptions[0]?.disabled) {
    const first = [...select.options].find((o) => !o.disabled);
    if (first) select.value = first.value;
  }
  $("level-field").hidden = select.value !== "engine";
}

async function play() {
  const chosen = $("opponent").value;
  const external = chosen.startsWith("external:");
  const body = {
    opponent: external ? "external" : chosen,
    ...(external ? { engine: chosen.slice("external:".length) } : {}),
    level: Number($("level").value),
    colour: $("you-play").value,
    clock_minutes: null,
    variant: state.variant,
    start: "cross",
    casual: true,
    position: boardString(),
  };
  $("play").disabled = true;
  showError($("play-error"), null);
  try {
    const game = await api("POST", "/api/games", body);
    keepSeatToken(game.id, game.seat_token);
    location.href = `/games/${game.id}`;
  } catch (err) {
    showError($("play-error"), err.message);
    render();
  }
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    $("copied").textContent = t["editor.copied"];
  } catch {
    input.focus();
    input.select();
    $("copied").textContent = t["editor.copy_failed"];
  }
}

async function load() {
  const text = $("board-string").value;
  try {
    const answer = await api("POST", "/api/positions/check", { variant: state.variant, board: text });
    setBoard(state.variant, answer.cells, answer.turn === "black" ? "X" : "O");
  } catch (err) {
    showError($("error"), err.message);
  }
}

$("variant").addEventListener("change", () => {
  const b = boards.get($("variant").value);
  setBoard(b.name, b.start, "X");
});
$("turn").addEventListener("click", () => {
  state.turn = state.turn === "X" ? "O" : "X";
  changed();
});
$("clear").addEventListener("click", () => {
  state.cells = state.cells.replace(/[XO]/g, "-");
  changed();
});
$("start").addEventListener("click", () => setBoard(state.variant, boards.get(state.variant).start, "X"));
$("analyse").addEventListener("click", analyse);
$("play").addEventListener("click", play);
$("opponent").addEventListener("change", () => { $("level-field").hidden = $("opponent").value !== "engine"; });
$("you-play").addEventListener("change", () => { youChose = true; });
$("copy-board").addEventListener("click", () => copy(boardString(), $("board-string")));
$("copy-link").addEventListener("click", () => copy($("share-link").value, $("share-link")));
$("load").addEventListener("click", load);
$("board-string").addEventListener("keydown", (ev) => { if (ev.key === "Enter") load(); });

const [cells, side] = data.board.split(" ");
setBoard(data.variant, cells, side === "O" ? "O" : "X");
