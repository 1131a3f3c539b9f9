// The director's area of a tournament: log in with the director's password (the server
// answers a signed session token, kept in sessionStorage), then register and withdraw
// entrants, pair rounds (the finals too), enter and correct result cards, see why a round
// is paired as it is, give the sanctions of rule 21 (注意・警告・退場), and read the audit log.
// Everything goes through /api/tournaments.
import { api, ApiError, escapeHtml, forCount, strings } from "./api.js";
import { directorApi, directorSession, fill, keepDirectorSession } from "./tournament_api.js";

const t = strings();
const root = document.getElementById("director");
const id = root.dataset.tournamentId;
const $ = (sel) => document.getElementById(sel);

// stages whose games allow draws (the others need a draw-win holder; hasamigo.tournament.model)
const DRAWS_ALLOWED = new Set(["swiss", "placement", "round_robin"]);

let view = null;      // GET /director
let round = null;     // the round shown
let viewing = null;   // its number
let ratingNote = null; // a correction of a rated round keeps the ratings: said once

function showError(err) {
  const box = $("director-error");
  if (!err) { box.hidden = true; return; }
  box.textContent = err instanceof ApiError || err instanceof Error ? err.message : String(err);
  box.hidden = false;
}

function showLogin(message) {
  $("director-area").hidden = true;
  $("login-card").hidden = false;
  const box = $("login-error");
  box.hidden = !message;
  box.textContent = message || "";
  $("login-password").focus();
}

function sessionLost(err) {
  if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
    keepDirectorSession(id, null);
    showLogin(err.status === 401 ? t["tournament.director.session_ended"] : err.message);
    return true;
  }
  return false;
}

// Run a director's request; refusals are shown, a lost session asks to log in again.
async function act(request, after = load) {
  showError(null);
  try {
    const answer = await request();
    await after();
    return answer;
  } catch (err) {
    if (!sessionLost(err)) showError(err);
    return null;
  }
}

// ---- loading -------------------------------------------------------------------------------
async function load() {
  try {
    view = await directorApi(id, "GET", "/director");
  } catch (err) {
    if (!sessionLost(err)) showError(err);
    return;
  }
  $("login-card").hidden = true;
  $("director-area").hidden = false;
  $("director-name").textContent = view.director;
  const paired = view.tournament.rounds_paired;
  if (viewing === null || viewing > paired) viewing = paired;
  round = viewing ? await directorApi(id, "GET", `/rounds/${viewing}`) : null;
  renderMeta(view.tournament);
  renderState();
  renderRound();
  renderEntrants();
  renderRegistration();
  renderSanctions();
  const note = $("rating-note");
  note.hidden = !ratingNote;
  note.textContent = ratingNote || "";
  ratingNote = null;
  const explain = $("explain");
  if (explain.open) await loadExplanation();
}

// The page header was rendered when the page loaded: keep it in step with the director's
// changes (entrants registered, rounds paired, C following the number of games).
function renderMeta(info) {
  const roundOf = $("t-round");
  roundOf.hidden = !info.rounds_paired;
  roundOf.textContent = fill(t["tournament.round_of"], { n: info.rounds_paired, total: info.total_rounds });
  $("t-entrants").textContent = fill(forCount(t, "tournament.director.entrants_count", info.entrants), { n: info.entrants });
  $("t-c").textContent = `C = ${info.c}`;
}

// ---- the tournament's state: pair, take back --------------------------------------------------
function renderState() {
  const info = view.tournament;
  const st = $("t-state");
  if (st) {
    st.textContent = t[`tournament.state.${info.state}`] || info.state;
    st.className = `tag t-state ${info.state}`;
  }
  const pair = $("pair-button");
  const canPair = info.state !== "finished" && (info.rounds_paired === 0 || info.round_complete);
  pair.hidden = !canPair;
  pair.textContent = fill(t["tournament.director.pair"], { n: info.rounds_paired + 1 });
  $("finished-note").hidden = info.state !== "finished";
  $("pair-note").hidden = info.state === "finished";
  const last = round && round.number === info.rounds_paired;
  const untouched = last && round.games.every((g) => !["played", "forfeit", "penalty"].includes(g.kind) || !g.finished);
  const unpair = $("unpair-button");
  unpair.hidden = !untouched;
  if (round) unpair.textContent = fill(t["tournament.director.unpair"], { n: round.number });
  const print = $("print-link");
  print.hidden = !round;
  if (round) print.href = `/tournaments/${id}/print/pairings?round=${round.number}&lang=${document.documentElement.lang}`;
  const rounds = $("director-rounds");
  rounds.innerHTML = "";
  for (let n = 1; n <= info.rounds_paired; n += 1) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = String(n);
    b.className = n === viewing ? "active" : "";
    b.title = fill(t["tournament.round_n"], { n });
    b.addEventListener("click", async () => { viewing = n; await load(); });
    rounds.appendChild(b);
  }
  rounds.hidden = info.rounds_paired < 2;
  $("register-form").hidden = info.state !== "registration";
  $("register-closed").hidden = info.state === "registration";
}

$("pair-button").addEventListener("click", () => act(async () => {
  const paired = await directorApi(id, "POST", "/rounds");
  viewing = paired.number;
}));

$("unpair-button").addEventListener("click", () => act(async () => {
  await directorApi(id, "POST", `/rounds/${round.number}/unpair`, {});
  viewing = null;
}));

// ---- the boards of the round shown --------------------------------------------------------------
function resultText(g) {
  if (g.kind === "bye") return escapeHtml(t["tournament.bye"]);
  if (g.kind === "not_played_draw") return escapeHtml(t["tournament.not_played_draw"]);
  if (!g.finished) return g.colours === "fuse-ishi" ? `<span class="muted small">${escapeHtml(t["tournament.fuse_ishi"])}</span>` : "";
  let text = `<strong class="score">${g.black_discs}–${g.white_discs}</strong>`;
  if (g.kind === "forfeit") text += ` <span class="tag">${escapeHtml(t["tournament.forfeit"])}</span>`;
  if (g.kind === "penalty") text += ` <span class="tag penalty">${escapeHtml(t["term.penalty"])}</span> <span class="muted small penalty-reason">${escapeHtml(g.reason || "")}</span>`;
  if (g.draw_win) text += ` <span class="muted small">${escapeHtml(t["tournament.draw_win"])}: ${escapeHtml(g.draw_win)}</span>`;
  if (g.not_rated) text += ` <span class="muted small not-rated">${escapeHtml(t["tournament.not_rated"])}: ${escapeHtml(t[`tournament.not_rated.${g.not_rated}`] || g.not_rated_reason || "")}</span>`;
  return text;
}

function playerSelect(name, g, label, chosen, optional = false) {
  const players = [[g.black_number, g.black], [g.white_number, g.white]];
  const options = players.map(([n, who]) =>
    `<option value="${n}"${chosen === n ? " selected" : ""}>${escapeHtml(who)}</option>`).join("");
  const none = optional ? `<option value="">${escapeHtml(t["tournament.director.none"])}</option>` : "";
  return `<label class="t-field"><span>${escapeHtml(label)}</span><select name="${name}">${none}${options}</select></label>`;
}

function cardForm(g, correcting) {
  const draws = DRAWS_ALLOWED.has(g.stage);
  const fuse = g.colours === "fuse-ishi";
  const forfeit = g.kind === "forfeit";
  const value = (x) => (correcting && !forfeit && x !== null ? String(x) : "");
  const parts = [
    `<label class="t-field disc"><span><i class="disc-icon black"></i> ${escapeHtml(t["tournament.black"])}</span><input type="number" name="black_discs" min="0" max="64" step="1" inputmode="numeric" value="${value(g.black_discs)}"></label>`,
    `<label class="t-field disc"><span><i class="disc-icon white"></i> ${escapeHtml(t["tournament.white"])}</span><input type="number" name="white_discs" min="0" max="64" step="1" inputmode="numeric" value="${value(g.white_discs)}"></label>`,
  ];
  if (fuse) parts.push(playerSelect("black", g, t["tournament.director.played_black"], correcting ? g.black_number : null));
  if (!draws) {
    const holder = correcting && g.draw_win ? (g.draw_win === g.black ? g.black_number : g.white_number) : null;
    parts.push(playerSelect("draw_win", g, t["tournament.draw_win"], holder));
  }
  const loser = correcting && forfeit ? (g.winner === g.black ? g.white_number : g.black_number) : null;
  parts.push(playerSelect("forfeit_loser", g, t["tournament.director.forfeit_by"], loser, true));
  parts.push(`<label class="check late"><input type="checkbox" name="late"${correcting && forfeit && !g.rated ? " checked" : ""}> ${escapeHtml(t["tournament.director.late"])}</label>`);
  if (correcting) {
    parts.push(`<label class="t-field reason"><span>${escapeHtml(t["tournament.director.reason"])}</span><input type="text" name="reason" maxlength="300" required></label>`);
  }
  const button = correcting ? t["tournament.director.save_correction"] : t["tournament.director.enter"];
  parts.push(`<button class="button primary" type="submit">${escapeHtml(button)}</button>`);
  if (correcting) parts.push(`<button class="button" type="button" data-cancel>${escapeHtml(t["tournament.director.cancel"])}</button>`);
  return `<form class="card-entry${correcting ? " correcting" : ""}" data-board="${g.board}" novalidate>${parts.join("")}</form>`;
}

function boardRow(g) {
  const stage = t[`tournament.stage.${g.stage}`] || g.stage;
  const white = g.white === null ? "" : escapeHtml(g.white);
  const won = (name) => (g.finished && g.winner === name ? " winner" : "");
  const row = document.createElement("div");
  row.className = `board-row kind-${g.kind}${g.finished ? " finished" : ""}`;
  row.dataset.board = g.board;
  const enterable = ["played", "forfeit", "penalty"].includes(g.kind);
  row.innerHTML = `
    <div class="board-head">
      <span class="board-no">${escapeHtml(t["tournament.board"])} ${g.board}</span>
      <span class="tag stage">${escapeHtml(stage)}</span>
      <span class="board-players"><span class="t-player${won(g.black)}">${escapeHtml(g.black)}</span>
        ${g.white === null ? "" : `<span class="muted">–</span> <span class="t-player${won(g.white)}">${white}</span>`}</span>
      <span class="board-result">${resultText(g)}</span>
      ${enterable && g.finished ? `<button class="button" type="button" data-correct>${escapeHtml(t["tournament.director.correct"])}</button>` : ""}
      ${enterable && g.kind !== "penalty" ? `<button class="button warn" type="button" data-penalty>${escapeHtml(t["term.penalty"])}</button>` : ""}
    </div>
    ${enterable && !g.finished ? cardForm(g, false) : ""}
    ${g.kind === "played" && !g.finished ? gameLinkForm(g) : ""}`;
  return row;
}

// A board played over a real board: the record page opens with the two players filled
// in (colours as the pairing says), and the finished game's result is taken from it.
function gameLinkForm(g) {
  const query = new URLSearchParams({ black: g.black, white: g.white ?? "" });
  if (g.colours === "fuse-ishi") query.set("colours", "fuse-ishi");
  if (!DRAWS_ALLOWED.has(g.stage)) query.set("no_draws", "true");
  return `<form class="game-link" data-board="${g.board}" novalidate>
    <a class="button" href="/record?${escapeHtml(query.toString())}" target="_blank" rel="noopener">${escapeHtml(t["tournament.director.record_board"])}</a>
    <label class="t-field"><span>${escapeHtml(t["tournament.director.from_game"])}</span><input type="text" name="game" maxlength="300" placeholder="${escapeHtml(t["tournament.director.game"])}" required></label>
    <button class="button" type="submit">${escapeHtml(t["tournament.director.take_result"])}</button>
  </form>`;
}

function renderRound() {
  const boards = $("boards");
  boards.innerHTML = "";
  const heading = $("round-heading");
  if (!round) {
    heading.textContent = t["tournament.not_paired"];
    $("explain").hidden = true;
    return;
  }
  $("explain").hidden = false;
  const state = round.complete ? t["tournament.complete"] : t["tournament.in_play"];
  heading.innerHTML = `${escapeHtml(fill(t["tournament.round_n"], { n: round.number }))} <span class="tag ${round.complete ? "won" : "live"}">${escapeHtml(state)}</span>`;
  const waiting = round.games.filter((g) => g.kind === "played" && !g.finished).length;
  if (waiting) {
    const note = document.createElement("p");
    note.className = "muted small";
    note.id = "waiting";
    note.textContent = fill(t["tournament.director.waiting"], { n: waiting });
    boards.appendChild(note);
  }
  for (const g of round.games) boards.appendChild(boardRow(g));
}

function cardBody(form) {
  const data = new FormData(form);
  const int = (key) => {
    const text = String(data.get(key) ?? "").trim();
    return text === "" ? null : Number(text);
  };
  const body = {};
  const loser = int("forfeit_loser");
  if (loser !== null) {
    body.forfeit_loser = loser;
    body.late = data.get("late") === "on";
  } else {
    body.black_discs = int("black_discs");
    body.white_discs = int("white_discs");
  }
  if (data.has("black")) body.black = int("black");
  if (data.has("draw_win")) body.draw_win = int("draw_win");
  if (data.has("reason")) body.reason = String(data.get("reason")).trim();
  return body;
}

// a loss by penalty (反則負け, rule 21): who loses and why; the audit log keeps it
function penaltyForm(g) {
  return `<form class="penalty-entry" data-board="${g.board}" novalidate>
    ${playerSelect("loser", g, t["tournament.director.penalty_loser"], null)}
    <label class="t-field reason"><span>${escapeHtml(t["tournament.director.reason"])}</span><input type="text" name="reason" maxlength="300" required></label>
    <button class="button danger" type="submit">${escapeHtml(t["tournament.director.penalty_declare"])}</button>
    <button class="button" type="button" data-cancel>${escapeHtml(t["tournament.director.cancel"])}</button>
    <p class="muted small penalty-reading">${escapeHtml(t["tournament.director.penalty_rated"])}</p></form>`;
}

$("boards").addEventListener("submit", (ev) => {
  const penalty = ev.target.closest("form.penalty-entry");
  if (penalty) {
    ev.preventDefault();
    const data = new FormData(penalty);
    const body = { loser: Number(data.get("loser")), reason: String(data.get("reason") ?? "").trim() };
    act(() => directorApi(id, "POST", `/rounds/${round.number}/boards/${penalty.dataset.board}/penalty`, body));
    return;
  }
  const linked = ev.target.closest("form.game-link");
  if (linked) {
    ev.preventDefault();
    const game = String(new FormData(linked).get("game") ?? "").trim();
    const path = `/rounds/${round.number}/boards/${linked.dataset.board}/game`;
    act(() => directorApi(id, "POST", path, { game }));
    return;
  }
  const form = ev.target.closest("form.card-entry");
  if (!form) return;
  ev.preventDefault();
  const board = form.dataset.board;
  const correcting = form.classList.contains("correcting");
  const path = `/rounds/${round.number}/boards/${board}/${correcting ? "correction" : "result"}`;
  act(async () => {
    const answer = await directorApi(id, "POST", path, cardBody(form));
    ratingNote = answer && answer.rating_note ? t["tournament.rating_note"] : null;
  });
});

$("boards").addEventListener("click", (ev) => {
  const correct = ev.target.closest("[data-correct]");
  if (correct) {
    const row = correct.closest(".board-row");
    const g = round.games.find((x) => String(x.board) === row.dataset.board);
    if (!row.querySelector("form")) {
      row.insertAdjacentHTML("beforeend", cardForm(g, true));
      row.querySelector("input[name=reason]").focus();
    }
    return;
  }
  const penalty = ev.target.closest("[data-penalty]");
  if (penalty) {
    const row = penalty.closest(".board-row");
    const g = round.games.find((x) => String(x.board) === row.dataset.board);
    if (!row.querySelector("form.penalty-entry")) {
      row.insertAdjacentHTML("beforeend", penaltyForm(g));
      row.querySelector("form.penalty-entry input[name=reason]").focus();
    }
    return;
  }
  const cancel = ev.target.closest("[data-cancel]");
  if (cancel) cancel.closest("form").remove();
});

// ---- why these pairings --------------------------------------------------------------------------
async function loadExplanation() {
  const body = $("explain-body");
  if (!round) { body.innerHTML = ""; return; }
  try {
    const ex = await api("GET", `/api/tournaments/${id}/rounds/${round.number}/explain`);
    const notes = ex.notes.map((d) => `<li>${escapeHtml(d.text)}</li>`).join("");
    const boards = ex.boards.map(([board, a, b, why]) => `
      <li><strong>${escapeHtml(t["tournament.board"])} ${board}: ${escapeHtml(a)}${b === null ? ` (${escapeHtml(t["tournament.bye"])})` : ` – ${escapeHtml(b)}`}</strong>
        <ul>${why.map((d) => `<li><span class="tag">${escapeHtml(d.rule)}</span> ${escapeHtml(d.text)}</li>`).join("")}</ul></li>`).join("");
    body.innerHTML = `${notes ? `<ul class="t-notes">${notes}</ul>` : ""}<ol class="t-why">${boards}</ol>`;
  } catch (err) {
    body.textContent = err.message;
  }
}

$("explain").addEventListener("toggle", () => { if ($("explain").open) loadExplanation(); });

// ---- rule 21: caution, warning, removal ----------------------------------------------------------
// 「円滑で公正な大会運営を妨げる人物に注意、警告を与え、退場を命じることができる」 (JOF rule 21): the
// sanction names an entrant or another person, the kind, the reason, the round and board if any
const SANCTIONS = ["caution", "warning", "removal"];

function sanctionsCard() {
  let card = $("sanctions-card");
  if (card) return card;
  card = document.createElement("section");
  card.className = "card t-card";
  card.id = "sanctions-card";
  const field = (label, input) => `<label class="t-field"><span>${escapeHtml(label)}</span>${input}</label>`;
  card.innerHTML = `<h2>${escapeHtml(t["tournament.director.sanctions.title"])}</h2>
    <p class="muted small">${escapeHtml(t["tournament.director.sanctions.rule"])}</p>
    <form id="sanction-form" class="t-form" novalidate>
      ${field(t["tournament.director.sanctions.kind"], `<select name="kind" id="sanction-kind">${SANCTIONS.map((k) => `<option value="${k}">${escapeHtml(t[`tournament.director.sanctions.${k}`])}</option>`).join("")}</select>`)}
      ${field(t["tournament.director.sanctions.entrant"], `<select name="entrant" id="sanction-entrant"></select>`)}
      ${field(t["tournament.director.sanctions.person"], `<input type="text" name="person" id="sanction-person" maxlength="40">`)}
      ${field(t["tournament.director.sanctions.round"], `<input type="number" name="round" id="sanction-round" min="1" max="60">`)}
      ${field(t["tournament.director.sanctions.board"], `<input type="number" name="board" id="sanction-board" min="1" max="1000">`)}
      <label class="t-field wide reason"><span>${escapeHtml(t["tournament.director.reason"])}</span><input type="text" name="reason" id="sanction-reason" maxlength="300" required></label>
      <button class="button danger" type="submit" id="sanction-give">${escapeHtml(t["tournament.director.sanctions.give"])}</button>
    </form>
    <p class="muted small">${escapeHtml(t["tournament.director.sanctions.removal_note"])}</p>
    <ul id="sanctions-list" class="t-list"></ul>`;
  $("audit-card").before(card);
  card.querySelector("form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const data = new FormData(ev.target);
    const text = (key) => String(data.get(key) ?? "").trim();
    const number = (key) => (text(key) === "" ? null : Number(text(key)));
    const person = text("person");
    const body = { kind: text("kind"), reason: text("reason"), round: number("round"), board: number("board") };
    if (person) body.person = person;
    else body.entrant = number("entrant");
    act(async () => {
      const given = await directorApi(id, "POST", "/sanctions", body);
      ev.target.reset();  // given: the next one starts blank
      return given;
    });
  });
  return card;
}

function renderSanctions() {
  sanctionsCard();
  const none = `<option value="">${escapeHtml(t["tournament.director.none"])}</option>`;
  $("sanction-entrant").innerHTML = none + view.entrants.map((e) =>
    `<option value="${e.number}">${e.number} ${escapeHtml(e.name)}</option>`).join("");
  const list = $("sanctions-list");
  const given = view.sanctions || [];
  list.innerHTML = given.length ? given.map((s) => {
    const where = [s.round ? fill(t["tournament.round_n"], { n: s.round }) : "",
                   s.board ? `${t["tournament.board"]} ${s.board}` : ""].filter(Boolean).join(" · ");
    return `<li data-sanction="${s.id}"><span class="tag penalty">${escapeHtml(s.kind_ja)}</span>
      <span class="t-name">${escapeHtml(s.person)}</span>${s.entrant ? ` (#${s.entrant})` : ""}
      ${where ? `<span class="muted">${escapeHtml(where)}</span>` : ""} — ${escapeHtml(s.reason)}
      <span class="muted small">${escapeHtml(s.at.slice(0, 16).replace("T", " "))} · ${escapeHtml(s.who)}</span></li>`;
  }).join("") : `<li class="muted">${escapeHtml(t["tournament.director.sanctions.none"])}</li>`;
}

// ---- entrants ------------------------------------------------------------------------------------
// ---- self-registration and seeding (issue 67) -----------------------------------------------------
function renderRegistration() {
  const form = $("registration-settings");
  if (form.contains(document.activeElement)) return;  // not while the director edits it
  const s = view.tournament.settings;
  $("rs-open").checked = Boolean(s.registration);
  $("rs-cap").value = s.registration_cap ?? "";
  $("rs-seeding").value = s.seeding || "rank";
  $("rs-rating-seeds").value = s.rating_seeds ?? 0;
  const closes = s.registration_closes ? new Date(s.registration_closes) : null;
  // datetime-local shows the director's own time
  $("rs-closes").value = closes && !Number.isNaN(closes.getTime())
    ? new Date(closes.getTime() - closes.getTimezoneOffset() * 60000).toISOString().slice(0, 16) : "";
  const paired = view.tournament.rounds_paired > 0;
  $("rs-seeding").disabled = paired;
  $("rs-rating-seeds").disabled = paired;
}

$("registration-settings").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const closes = $("rs-closes").value;
  const cap = $("rs-cap").value;
  const body = {
    registration: $("rs-open").checked,
    registration_closes: closes ? new Date(closes).toISOString() : null,
    registration_cap: cap ? Number(cap) : null,
    seeding: $("rs-seeding").value,
    rating_seeds: Number($("rs-rating-seeds").value || 0),
  };
  act(async () => {
    document.activeElement.blur();
    await directorApi(id, "PUT", "/registration/settings", body);
  });
});

function renderEntrants() {
  const tbody = $("director-entrants").querySelector("tbody");
  $("entrant-count").textContent = `(${view.entrants.length})`;
  tbody.innerHTML = view.entrants.map((e) => {
    const tags = [
      e.woman ? `<span class="tag woman">${escapeHtml(t["tournament.woman"])}</span>` : "",
      e.seed ? `<span class="tag">${escapeHtml(t["tournament.seed"])}</span>` : "",
      e.program ? `<span class="tag">${escapeHtml(e.program)}</span>` : "",
      e.student ? `<span class="tag">${escapeHtml(t["tournament.student"])}</span>` : "",
      e.school_year ? `<span class="tag">${escapeHtml(fill(t["tournament.school_year"], { n: e.school_year }))}</span>` : "",
      e.withdrawn_from ? `<span class="tag">${escapeHtml(t["tournament.withdrawn"])} (${escapeHtml(fill(t["tournament.round_n"], { n: e.withdrawn_from }))})</span>` : "",
    ].join(" ");
    const action = e.withdrawn_from ? "" : `<button class="button danger" type="button" data-withdraw="${e.number}">${escapeHtml(t["tournament.director.withdraw"])}</button>`;
    return `<tr data-number="${e.number}" class="${e.withdrawn_from ? "withdrawn" : ""}">
      <td class="num">${e.number}</td><td class="name"><span class="t-name">${escapeHtml(e.name)}</span> ${tags}</td>
      <td>${escapeHtml(e.rank || "")}</td><td class="num rating">${e.rating ?? (e.account_id ? `<span class="muted small">${escapeHtml(t["tournament.unrated"])}</span>` : "")}</td><td class="opt">${escapeHtml(e.born ?? String(e.birth_year ?? ""))}</td><td class="opt">${escapeHtml(e.division || "")}</td>
      <td class="actions-cell">${action}</td></tr>`;
  }).join("");
}

$("director-entrants").addEventListener("click", (ev) => {
  const start = ev.target.closest("[data-withdraw]");
  if (start) {
    const cell = start.closest("td");
    const number = start.dataset.withdraw;
    cell.innerHTML = `<form class="withdraw-form" data-number="${number}">
      <input type="text" name="reason" maxlength="300" placeholder="${escapeHtml(t["tournament.director.reason"])}">
      <button class="button danger" type="submit">${escapeHtml(t["tournament.director.withdraw.confirm"])}</button>
      <button class="button" type="button" data-cancel-withdraw>${escapeHtml(t["tournament.director.cancel"])}</button></form>`;
    cell.querySelector("input").focus();
    return;
  }
  if (ev.target.closest("[data-cancel-withdraw]")) renderEntrants();
});

$("director-entrants").addEventListener("submit", (ev) => {
  const form = ev.target.closest("form.withdraw-form");
  if (!form) return;
  ev.preventDefault();
  const reason = form.querySelector("input").value.trim();
  act(() => directorApi(id, "POST", `/entrants/${form.dataset.number}/withdraw`, reason ? { reason } : {}));
});

$("register-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = (sel) => $(sel).value.trim();
  const body = {
    name: text("reg-name") || null,
    rank: text("reg-rank") || null,
    birth_year: text("reg-birth-year") ? Number(text("reg-birth-year")) : null,
    division: text("reg-division") || null,
    born: text("reg-born") || null,
    school_year: text("reg-school-year") ? Number(text("reg-school-year")) : null,
    student: $("reg-student").checked ? true : null,
    override: text("reg-override") || null,
    program: text("reg-program") || null,
    woman: $("reg-woman").checked,
    seed: $("reg-seed").checked,
  };
  const done = await act(() => directorApi(id, "POST", "/entrants", body));
  if (done) {
    $("register-form").reset();
    $("reg-override-field").hidden = true;
    $("reg-name").focus();
  } else if (!$("director-error").hidden) {
    $("reg-override-field").hidden = false;  // a refusal: the director may override it
  }
});

// ---- the audit log ---------------------------------------------------------------------------------
function summary(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return fill(forCount(t, "tournament.director.boards", value.length), { n: value.length });
  if (typeof value === "object") {
    if ("black_discs" in value) {
      const name = (n) => (view.entrants.find((e) => e.number === n) || { name: `#${n}` }).name;
      const how = value.forfeit ? ` (${t["tournament.forfeit"]})` : value.termination === "penalty" ? ` (${t["term.penalty"]})` : "";
      return `${name(value.black)} ${value.black_discs}–${value.white_discs} ${name(value.white)}${how}`;
    }
    if ("name" in value) return value.withdrawn_from ? `${value.name} (${t["tournament.withdrawn"]} ${value.withdrawn_from})` : value.name;
  }
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

$("audit-load").addEventListener("click", () => act(async () => {
  const entries = await directorApi(id, "GET", "/audit");
  const table = $("audit");
  table.querySelector("tbody").innerHTML = entries.map((e) => `
    <tr data-action="${escapeHtml(e.action)}">
      <td class="date">${escapeHtml(e.at.slice(0, 19).replace("T", " "))}</td>
      <td>${escapeHtml(e.who)}</td>
      <td>${escapeHtml(t[`tournament.action.${e.action}`] || e.action)}${e.round ? ` ${escapeHtml(fill(t["tournament.round_n"], { n: e.round }))}` : ""}${e.board ? ` · ${escapeHtml(t["tournament.board"])} ${e.board}` : ""}</td>
      <td class="before" data-label="${escapeHtml(t["tournament.director.audit.before"])}">${escapeHtml(summary(e.before))}</td>
      <td class="after" data-label="${escapeHtml(t["tournament.director.audit.after"])}">${escapeHtml(summary(e.after))}</td>
      <td class="reason" data-label="${escapeHtml(t["tournament.director.reason"])}">${escapeHtml(e.reason || "")}</td>
    </tr>`).reverse().join("");
  table.hidden = false;
}, async () => {}));

// ---- logging in and out -------------------------------------------------------------------------------
$("login-card").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const password = $("login-password").value;
  const director = $("login-name").value.trim();
  const button = $("login-button");
  button.disabled = true;
  try {
    const session = await api("POST", `/api/tournaments/${id}/login`,
                              director ? { password, director } : { password });
    keepDirectorSession(id, session);
    $("login-password").value = "";
    $("login-error").hidden = true;
    await load();
  } catch (err) {
    showLogin(err.message);
  } finally {
    button.disabled = false;
  }
});

$("logout").addEventListener("click", () => {
  keepDirectorSession(id, null);
  showLogin(null);
});

if (directorSession(id)) load();
else showLogin(null);
