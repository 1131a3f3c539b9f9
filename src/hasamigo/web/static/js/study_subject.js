// The subject's procedure: one step shown at a time, every answer committed before the
// next question appears (the server's state says what comes next). The questions and
// their words are the study's protocol's, drawn by the template; at the paper's timing
// they follow the subject's own move and the program replies once they are answered.
import { strings } from "./api.js";
import { call, showError } from "./study_api.js";
import { WarmupWatch, firstWords } from "./warmup.js";

const root = document.getElementById("subject");
const base = `/api/studies/${root.dataset.studyId}/subjects/${root.dataset.code}`;
const text = JSON.parse(document.getElementById("study-text").textContent);
const errorBox = document.getElementById("subject-error");
let state = null;
let shownAt = performance.now();
let shownFor = null;
let busy = false;
let poll = null;
// a fresh server compiling the program's kernels (not named: the study keeps its
// programs anonymous)
const T = strings();
const warmup = new WarmupWatch(document.getElementById("warmup"), T, { what: T["warmup.program"] });

async function send(method, path, body) {
  if (busy) return;
  busy = true;
  try {
    showError(errorBox, null);
    render(await call(method, `${base}${path}`, body));
  } catch (error) {
    showError(errorBox, error);
  } finally {
    busy = false;
  }
}

function render(next) {
  state = next;
  if (!state) return;
  for (const section of document.querySelectorAll(".study-step")) {
    section.hidden = section.dataset.step !== state.step;
  }
  clearTimeout(poll);
  renderLastResult();
  if (state.step === "game") renderGame();
  if (state.step === "felt" && document.getElementById("felt")) renderFelt();
  if (state.step === "after") renderAfter();
}

function renderGame() {
  document.getElementById("game-index").textContent = `${state.game_index} / ${state.order.length}`;
  const game = state.game;
  document.getElementById("start-row").hidden = game !== null;
  document.getElementById("play").hidden = game === null;
  if (game === null) return;
  const mine = game.your_colours[0];
  document.getElementById("you-are").textContent = text[mine];
  // the discs drawn as on the other pages (not ● ○, which many machines draw as emoji)
  document.getElementById("counts").innerHTML = `<i class="disc-icon black"></i> ${Number(game.counts.black)} – <i class="disc-icon white"></i> ${Number(game.counts.white)}`;
  const question = state.question;
  const myTurn = game.turn === mine && game.phase === "playing" && question === null;
  const programToMove = game.phase === "playing" && game.turn !== mine;
  const waiting = game.phase === "playing" && (game.programs_waiting || []).length > 0;
  document.getElementById("status").textContent = waiting ? ""
    : myTurn ? text.your_move : (programToMove && question === null ? text.thinking : "");
  if (waiting) {
    if (document.getElementById("warmup").hidden) {
      document.querySelector("#warmup [data-warmup=text]").textContent = firstWords(T, T["warmup.program"]);
    }
    const note = T[game.paused ? "warmup.official" : "warmup.casual"].replaceAll("{name}", T["warmup.program"]);
    warmup.watch(game.waiting_for || [], null, note);
  } else {
    warmup.watch([]);
  }
  drawBoard(game, myTurn);
  const bar = document.getElementById("questions");
  bar.hidden = question === null;
  if (question !== null) {
    const key = `${game.id}:${question.move_number}`;
    if (shownFor !== key) { shownFor = key; shownAt = performance.now(); }
    bar.dataset.moveNumber = question.move_number;
    for (const row of bar.querySelectorAll(".study-q")) {
      // at Black's first move there is no program move to ask about
      row.hidden = !(question.asks || []).includes(row.dataset.question);
      const given = question.answered[row.dataset.question];
      row.classList.toggle("answered", Boolean(given));
      for (const button of row.querySelectorAll("button")) {
        button.disabled = Boolean(given);
        button.classList.toggle("chosen", button.dataset.answer === given);
      }
    }
  }
  // the program's turn, or the end being stored: look again shortly
  if (!myTurn && question === null) {
    poll = setTimeout(() => send("GET", ""), 400);
  }
}

function drawBoard(game, myTurn) {
  const board = document.getElementById("board");
  board.replaceChildren();
  const legal = new Set(myTurn ? game.legal : []);
  for (let row = 0; row < game.rows; row++) {
    for (let col = 0; col < game.cols; col++) {
      const square = `${"abcdefgh"[col]}${row + 1}`;
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "study-cell";
      cell.dataset.square = square;
      const disc = game.cells[row * game.cols + col];
      if (disc === "X" || disc === "O") {
        const piece = document.createElement("span");
        piece.className = `study-disc ${disc === "X" ? "black" : "white"}`;
        cell.append(piece);
      } else if (legal.has(square)) {
        cell.classList.add("legal");  // the grey dot
        cell.addEventListener("click", () => send("POST", "/moves", { move: square }));
      }
      if (game.last_move === square) cell.classList.add("last");
      cell.disabled = !legal.has(square);
      board.append(cell);
    }
  }
}

// the result of the game just finished (WIN / LOSE / DRAW from the subject's side, with
// the count) until the next one starts: a game the program ended goes on to the next
// step at once, and the subject must have seen how it came out
function renderLastResult() {
  const element = document.getElementById("last-result");
  const done = (state.games || []).filter((g) => g.over && g.outcome);
  const last = done[done.length - 1];
  const playing = state.step === "game" && state.game !== null;
  element.hidden = !last || playing || state.step === "felt" || state.step === "done";
  if (element.hidden) return;
  element.textContent = `${text.game} ${last.index}: ${text[last.outcome]} ${last.discs[0]}–${last.discs[1]}`;
  element.dataset.outcome = last.outcome;
  element.dataset.game = String(last.index);
}

function renderFelt() {
  // WIN / LOSE / DRAW from the subject's side, with the final count
  const game = state.game;
  const result = game && game.result;
  if (!result) return;
  const mine = game.your_colours[0];
  const outcome = result.winner === null ? "draw" : (result.winner === mine ? "win" : "lose");
  const own = mine === "black" ? result.black : result.white;
  const theirs = mine === "black" ? result.white : result.black;
  const element = document.getElementById("result");
  element.textContent = `${text[outcome]} ${own}–${theirs}`;
  element.dataset.outcome = outcome;
}

function renderAfter() {
  const box = document.getElementById("more-fun");
  if (box.childElementCount) return;
  state.order.forEach((program, i) => {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="more-fun" value="${program}" required> ${text.game} ${i + 1}`;
    box.append(label);
  });
  // a question asked once per game (the paper's 「それぞれ対戦した勝敗結果」): a row each
  for (const field of document.querySelectorAll("#after [data-per-game]")) {
    const choices = field.querySelector("template");
    state.order.forEach((program, i) => {
      const row = document.createElement("div");
      row.className = "study-per-game";
      row.dataset.game = String(i + 1);
      row.append(`${text.game} ${i + 1}: `);
      row.append(choices.content.cloneNode(true));
      for (const input of row.querySelectorAll("input")) input.name = `${field.dataset.question}-${i + 1}`;
      field.append(row);
    });
  }
}

const valueOf = (id) => { const element = document.getElementById(id); return element ? element.value : undefined; };

for (const row of document.querySelectorAll(".study-q")) {
  for (const button of row.querySelectorAll("button")) {
    button.addEventListener("click", () => send("POST", "/answers", {
      move_number: state.question.move_number, question: row.dataset.question,
      answer: button.dataset.answer, seconds: Math.round(performance.now() - shownAt) / 1000,
    }));
  }
}

document.getElementById("consent").addEventListener("click", () => send("POST", "/consent"));
document.getElementById("start-game").addEventListener("click", () => send("POST", "/game"));
document.getElementById("before").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  // only the items this protocol asks are on the form, and only they are sent
  const body = { strength: Number(form.querySelector("input[name=strength]:checked").value) };
  const frequency = form.querySelector("input[name=play_frequency]:checked");
  if (frequency) body.play_frequency = frequency.value;
  if (form.querySelector("input[name=strategies]")) {
    body.strategies = [...form.querySelectorAll("input[name=strategies]:checked")].map((i) => i.value);
  }
  send("POST", "/before", body);
});
const feltForm = document.getElementById("felt");
if (feltForm) {
  feltForm.addEventListener("submit", (event) => {
    event.preventDefault();
    send("POST", "/felt", { index: state.game_index, felt: Number(event.target.felt.value),
                            note: valueOf("q-felt_note") || "" });
  });
}
document.getElementById("after").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const body = { more_fun: form["more-fun"].value, more_fun_why: valueOf("q-more_fun_why") || "",
                 what_makes_fun: valueOf("q-what_makes_fun") || "" };
  if (valueOf("q-strategies_text") !== undefined) body.strategies_text = valueOf("q-strategies_text");
  if (form.querySelector("[data-question=reported_outcome]")) {
    body.reported_outcomes = state.order.map((_, i) =>
      form.querySelector(`input[name=reported_outcome-${i + 1}]:checked`).value);
  }
  send("POST", "/after", body);
});

// withdrawing: the box ticked, then the button; everything of the subject is deleted
const confirmBox = document.getElementById("withdraw-confirm");
const withdrawButton = document.getElementById("withdraw-button");
confirmBox.addEventListener("change", () => { withdrawButton.disabled = !confirmBox.checked; });
withdrawButton.addEventListener("click", async () => {
  if (!confirmBox.checked) return;
  try {
    showError(errorBox, null);
    await call("POST", `${base}/withdraw`, { confirm: true });
    clearTimeout(poll);
    for (const section of document.querySelectorAll(".study-step, #withdraw, .study-code")) section.hidden = true;
    document.getElementById("withdrawn").hidden = false;
  } catch (error) {
    showError(errorBox, error);
  }
});

send("GET", "");
