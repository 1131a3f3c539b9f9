// Games of three and four players (/multi): the new-game form, the join link, and the game
// itself — its board drawn as coloured discs with each colour's letter on them, the seats
// as a legend, moves by click for the seats this browser's token holds, the replay, and
// polling for the others' moves. The seat token lives under "hasamigo:multi:<id>", the
// join links made for the other people under "hasamigo:multi-join:<id>". A signed-in
// person whose account holds a seat, in a browser without its token, gets a fresh one
// (POST /api/multi/{id}/seat); a rated game's end shows each player's rating change.
import { ApiError, api, escapeHtml, strings } from "./api.js";

const T = strings();
const GAMES = JSON.parse(document.getElementById("multi-games").textContent);
const $ = (id) => document.getElementById(id);
const POLL_MS = 700;

function read(key) { try { return localStorage.getItem(key); } catch { return null; } }
function write(key, value) { try { localStorage.setItem(key, value); } catch { /* private mode */ } }
const tokenKey = (id) => `hasamigo:multi:${id}`;
const linksKey = (id) => `hasamigo:multi-join:${id}`;
const colourText = (c) => T[`multi.colour.${c}`] || c;

function disc(game, colour, extra = "") {
  const symbol = GAMES[game].symbols[GAMES[game].colours.indexOf(colour)];
  return `<span class="mdisc ${game}-${colour}${extra}" title="${escapeHtml(colourText(colour))}">${symbol}</span>`;
}

// ---- the new-game form ------------------------------------------------------------
function newGameForm(form) {
  const game = () => form.querySelector("input[name=game]:checked").value;
  const rows = [...form.querySelectorAll(".multi-seat-row")];
  const taken = () => rows.filter((row) => row.querySelector("select").value !== "");

  function refresh() {
    const g = GAMES[game()];
    const count = Math.max(2, taken().length);
    const colours = g.seats[count - 2].map((i) => g.colours[i]);
    let n = 0;
    for (const row of rows) {
      const used = row.querySelector("select").value !== "";
      const mark = row.querySelector(".mdisc");
      mark.className = "mdisc";
      mark.textContent = "";
      if (used && n < colours.length) {
        mark.classList.add(`${game()}-${colours[n]}`);
        mark.textContent = g.symbols[g.colours.indexOf(colours[n])];
        row.querySelector("input").placeholder = colourText(colours[n]);
        n += 1;
      }
    }
    const first = $("multi-first");
    const chosen = first.value;
    first.innerHTML = `<option value="random">${escapeHtml(T["multi.random_first"])}</option>` +
      colours.map((c) => `<option value="${c}">${escapeHtml(colourText(c))}</option>`).join("");
    if ([...first.options].some((o) => o.value === chosen)) first.value = chosen;
    for (const name of Object.keys(GAMES)) $(`multi-rule-${name}`).hidden = name !== game();
  }

  form.addEventListener("change", refresh);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seats = taken().map((row) => {
      const player = row.querySelector("select").value;
      // a person without a name is called by the colour's name in the page's language
      const input = row.querySelector("input");
      const name = input.value.trim() || (player === "person" ? input.placeholder : "");
      return name ? { player, name } : { player };
    });
    const online = form.querySelector("input[name=where]:checked").value === "online";
    const rated = Boolean($("multi-rated")?.checked);
    $("multi-start").disabled = true;
    try {
      const created = await api("POST", "/api/multi",
        { game: game(), seats, first: $("multi-first").value, online, rated });
      write(tokenKey(created.id), created.seat_token);
      write(linksKey(created.id), JSON.stringify(created.join_urls));
      location.href = `/multi/${created.id}`;
    } catch (err) {
      $("multi-form-error").textContent = err.message;
      $("multi-form-error").hidden = false;
      $("multi-start").disabled = false;
    }
  });
  refresh();
}

// ---- a game -----------------------------------------------------------------------
class MultiGame {
  constructor(root) {
    this.id = root.dataset.gameId;
    this.view = null;
    this.ply = null; // the replay's position; null: follow the game
    this.sending = false;
    this.ratingAsked = false;
    this.buildBoard();
    $("multi-start-ply").addEventListener("click", () => this.show(0));
    $("multi-prev").addEventListener("click", () => this.show(this.at() - 1));
    $("multi-next").addEventListener("click", () => this.show(this.at() + 1));
    $("multi-end").addEventListener("click", () => this.show(null));
  }

  get token() { return read(tokenKey(this.id)); }
  at() { return this.ply === null ? this.view.moves.length : this.ply; }

  buildBoard() {
    const board = $("multi-board");
    const cells = [];
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const name = `${"abcdefgh"[col]}${row + 1}`;
        cells.push(`<button type="button" class="msq" role="gridcell" data-square="${name}" aria-label="${name}"></button>`);
      }
    }
    board.innerHTML = cells.join("");
    board.addEventListener("click", (ev) => {
      const square = ev.target.closest("[data-square]");
      if (square) this.play(square.dataset.square);
    });
  }

  mine() {
    const v = this.view;
    return v && !v.over && this.ply === null && v.your_colours.includes(v.turn);
  }

  async play(square) {
    if (!this.mine() || this.sending || !this.view.legal.includes(square)) return;
    this.sending = true;
    try {
      this.render(await api("POST", `/api/multi/${this.id}/moves`, { move: square }, { token: this.token }));
      $("multi-error").hidden = true;
    } catch (err) {
      $("multi-error").textContent = err.message;
      $("multi-error").hidden = false;
    } finally {
      this.sending = false;
    }
  }

  show(ply) {
    const last = this.view.moves.length;
    this.ply = ply === null || ply >= last ? null : Math.max(0, ply);
    this.render(this.view);
  }

  seatOf(colour) { return this.view.seats.find((s) => s.colour === colour); }

  render(view) {
    const fresh = !this.view || view.version !== this.view.version;
    this.view = view;
    const game = view.game;
    const at = this.at();
    const picture = view.boards[at];
    const live = this.ply === null;
    const legal = live && this.mine() ? new Set(view.legal) : new Set();
    const lastMove = at > 0 ? view.moves[at - 1] : null;
    $("multi-title").textContent = T[`multi.game.${game}`] || view.title;
    document.querySelectorAll("#multi-board .msq").forEach((cell, i) => {
      const ch = picture[i];
      const index = GAMES[game].symbols.indexOf(ch);
      const name = cell.dataset.square;
      cell.classList.toggle("legal", legal.has(name));
      cell.classList.toggle("last", name === lastMove);
      if (index < 0) {
        cell.innerHTML = legal.has(name) ? '<span class="mdot"></span>' : "";
        cell.setAttribute("aria-label", name);
      } else {
        const colour = GAMES[game].colours[index];
        const owner = this.seatOf(colour);
        cell.innerHTML = disc(game, colour);
        cell.setAttribute("aria-label", `${name} ${colourText(colour)}${owner ? ` (${owner.name})` : ""}`);
      }
    });
    this.renderSeats(picture);
    this.renderStatus();
    this.renderRating();
    $("multi-ply").textContent = `${at} / ${view.moves.length}`;
    $("multi-moves").innerHTML = view.moves.map((m, i) => {
      const seat = view.seats[i % view.seats.length];
      return `<li class="${i === at - 1 ? "current" : ""}"><span class="move-number">${i + 1}.</span> ` +
        `${disc(game, seat.colour, " small")} ${escapeHtml(m === "PA" ? T["multi.pass"] : m)}</li>`;
    }).join("");
    if (fresh) this.renderLinks();
  }

  renderSeats(picture) {
    const v = this.view;
    const counts = {};
    for (const ch of picture) counts[ch] = (counts[ch] || 0) + 1;
    $("multi-seats").innerHTML = v.seats.map((s) => {
      const notes = [];
      if (v.your_colours.includes(s.colour)) notes.push(T["you"]);
      if (s.left) notes.push(T["multi.left"]);
      if (s.program) notes.push(T["multi.program"]);
      if (s.waiting) notes.push(T["multi.waiting"]);
      const turn = !v.over && s.colour === v.turn && this.ply === null;
      return `<li class="multi-seat${turn ? " turn" : ""}" data-colour="${s.colour}">${disc(v.game, s.colour)}
        <span class="multi-seat-name"><b>${escapeHtml(s.name)}</b> <span class="muted small">${escapeHtml(colourText(s.colour))}${notes.length ? ` · ${escapeHtml(notes.join(" · "))}` : ""}</span></span>
        <span class="multi-count">${counts[s.symbol] || 0}</span>${turn ? `<span class="multi-turn small">${escapeHtml(T["to_move"])}</span>` : ""}</li>`;
    }).join("");
  }

  renderStatus() {
    const v = this.view;
    let text;
    if (v.over) {
      text = `${T["multi.over"]} ` + v.standings.map((s) =>
        `${s.rank}. ${this.seatOf(s.colour).name} (${colourText(s.colour)}) ${s.discs}`).join(" · ");
    } else {
      const seat = this.seatOf(v.turn);
      const who = `${seat.name} (${colourText(v.turn)})`;
      if (v.your_colours.includes(v.turn)) text = `${T["your_turn"]}: ${who}`;
      else if (seat.program) text = `${who} ${T["thinking"]}`;
      else if (seat.waiting) text = `${who}: ${T["multi.waiting"]}`;
      else text = `${who} ${T["to_move"]}`;
    }
    $("multi-status").textContent = text;
  }

  // A rated game's end: each player's rating before and after (GET …/rating, asked once),
  // or why the game was not rated.
  async renderRating() {
    const v = this.view;
    if (!v.rated || !v.over || this.ratingAsked) return;
    this.ratingAsked = true;
    let verdict;
    try { verdict = await api("GET", `/api/multi/${this.id}/rating`); } catch { this.ratingAsked = false; return; }
    const parts = (verdict.changes || []).filter((c) => c.colour).map((c) =>
      `${c.name} (${colourText(c.colour)}): ${T["rating.change"].replace("{before}", c.before)
        .replace("{after}", c.after).replace("{delta}", c.delta > 0 ? `+${c.delta}` : String(c.delta))}`);
    if (!parts.length && verdict.excluded) parts.push(T["rating.not_rated"].replace("{reason}", verdict.excluded.reason));
    $("multi-rating").textContent = parts.join(" · ");
    $("multi-rating").hidden = !parts.length;
  }

  renderLinks() {
    let links = {};
    try { links = JSON.parse(read(linksKey(this.id)) || "{}"); } catch { links = {}; }
    const waiting = Object.entries(links).filter(([c]) => this.seatOf(c)?.waiting);
    $("multi-links").hidden = waiting.length === 0;
    $("multi-link-list").innerHTML = waiting.map(([c, url]) => {
      const full = new URL(url, location.href).href;
      return `<li>${disc(this.view.game, c)} <b>${escapeHtml(this.seatOf(c).name)}</b> <input type="text" readonly class="multi-link" data-colour="${c}" value="${escapeHtml(full)}" aria-label="${escapeHtml(colourText(c))}"></li>`;
    }).join("");
  }

  async refresh() {
    try {
      const token = this.token;
      const view = await api("GET", `/api/multi/${this.id}`, undefined, { token });
      if (!this.view || view.version > this.view.version) this.render(view);
    } catch (err) {
      // no answer: the page's banner says so and the next poll tries again
      if (err instanceof ApiError && err.code === "unreachable") return;
      $("multi-error").textContent = err.message;
      $("multi-error").hidden = false;
    }
  }

  async run() {
    await this.refresh();
    const tick = async () => {
      if (!this.view || !this.view.over) await this.refresh();
      setTimeout(tick, POLL_MS);
    };
    setTimeout(tick, POLL_MS);
  }
}

// The seat the signed-in account holds in this game, for a browser without its token.
async function seatOfAccount(id) {
  if (read(tokenKey(id)) || document.body.dataset.signedIn !== "1") return;
  try {
    write(tokenKey(id), (await api("POST", `/api/multi/${id}/seat`)).seat_token);
  } catch { /* no seat of this account's: the game is watched */ }
}

async function joinThenPlay(root) {
  const id = root.dataset.gameId;
  let keepLink = false;
  if (location.pathname.endsWith("/join")) {
    const code = new URLSearchParams(location.search).get("code");
    if (!read(tokenKey(id)) && code) {
      $("multi-join-status").hidden = false;
      try {
        const joined = await api("POST", `/api/multi/${id}/join`, { code });
        write(tokenKey(id), joined.seat_token);
      } catch (err) {
        // a rated game's seat is taken signed in: the link stays, to open once signed in
        keepLink = err instanceof ApiError && err.status === 401;
        $("multi-error").textContent = keepLink ? T["multi.rated_sign_in"] : err.message;
        $("multi-error").hidden = false;
      }
      $("multi-join-status").hidden = true;
    }
    if (!keepLink) history.replaceState(null, "", `/multi/${id}`);
  }
  await seatOfAccount(id);
  new MultiGame(root).run();
}

const form = $("multi-new");
if (form) newGameForm(form);
const root = $("multi-game");
if (root) joinThenPlay(root);
