// Variations on the replay page: other moves tried from any position, kept on the server
// as a tree with the game (GET/POST/DELETE /api/games/{id}/variations). The server checks
// every move and sends every node's position and the moves there: nothing here knows the
// rules. A *line* is {from, ids}: played from the main line's position `from`, the node
// ids from the first move on (each the previous one's child). The replay (replay.js)
// shows one line at a time; this module keeps the tree, draws the card that lists it and
// the bar under the board that says which line is shown.
import { api, escapeHtml, forCount } from "./api.js";

const $ = (id) => document.getElementById(id);
const ICON = (name) => `<svg class="icon" aria-hidden="true" focusable="false"><use href="#i-${name}"></use></svg>`;

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

export class VariationPanel {
  // open(line, ply): show that line at that ply; main(ply): back to the main line
  constructor({ gameId, token, T, open, main }) {
    this.gameId = gameId;
    this.url = `/api/games/${encodeURIComponent(gameId)}/variations`;
    this.token = token;
    this.T = T;
    this.open = open;
    this.main = main;
    this.data = null;
    this.nodes = new Map();
    this.enabled = false;
    $("var-list").addEventListener("click", (ev) => this.onListClick(ev));
  }

  async load() {
    try {
      this.update(await api("GET", this.url, undefined, { token: this.token }));
      this.enabled = true;
    } catch (err) {
      this.note(err.code === "official_game" ? this.T["var.unavailable"] : err.message);
    }
  }

  note(text) {
    const note = $("var-note");
    note.textContent = text || "";
    note.hidden = !text;
  }

  update(data) {
    this.data = data;
    this.nodes = new Map(data.nodes.map((n) => [n.id, n]));
    this.renderList();
  }

  // ---- lines ------------------------------------------------------------------------
  // the line through node `id`: its path from the main line, then on through first children
  lineThrough(id) {
    const node = this.nodes.get(id);
    if (!node) return null;
    const ids = [...node.line];
    let last = node;
    while (last.children.length) {
      last = this.nodes.get(last.children[0]);
      ids.push(last.id);
    }
    return { from: this.nodes.get(ids[0]).ply, ids };
  }

  // the positions of a line, shaped as /positions' (the main line's up to the branch)
  positions(line, mainPositions) {
    const out = mainPositions.slice(0, line.from + 1);
    for (const id of line.ids) {
      const n = this.nodes.get(id);
      out.push({ ply: out.length, move: n.move, colour: n.colour, cells: n.cells,
        black: n.black, white: n.white, flipped: n.flipped, node: n.id });
    }
    return out;
  }

  // what the side to move may play at `ply` of `line` (null: the main line)
  movesAt(line, ply) {
    if (!this.data) return null;
    if (!line || ply <= line.from) return this.data.main[ply] || null;
    const node = this.nodes.get(line.ids[ply - line.from - 1]);
    return node ? node.here : null;
  }

  // Add `move` at `ply` of `line` (null: the main line): the new line through it.
  async play(line, ply, move) {
    const body = !line || ply <= line.from
      ? { ply, move }
      : { parent: line.ids[ply - line.from - 1], move };
    const data = await api("POST", this.url, body, { token: this.token });
    this.update(data);
    return this.lineThrough(data.node);
  }

  async remove(id) {
    this.update(await api("DELETE", `${this.url}/${id}`, undefined, { token: this.token }));
  }

  // ---- drawing ----------------------------------------------------------------------
  renderList() {
    const T = this.T;
    const data = this.data;
    $("var-count").textContent = fill(T["var.count"], { count: data.count, max: data.max_nodes });
    $("var-stale").hidden = !data.stale;
    $("var-stale").textContent = fill(forCount(T, "var.stale", data.stale), { n: data.stale });
    const item = (v) => {
      const moves = v.moves.map((m, i) => `<button type="button" class="var-move" data-node="${v.ids[i]}" ` +
        `title="${escapeHtml(T["var.open"])}"><span class="n">${v.from_ply + i + 1}.</span>${escapeHtml(m)}</button>`).join("");
      const last = v.ids[v.ids.length - 1];
      return `<li data-first="${v.ids[0]}"><div class="var-line">` +
        `<span class="var-from muted small">${escapeHtml(fill(T["var.line_from"], { n: v.from_ply + 1 }))}</span>${moves}` +
        `<span class="var-actions"><a class="small" href="${this.url}/${last}/ggf" data-game-id="${escapeHtml(this.gameId)}" ` +
        `data-download="hasamigo-${escapeHtml(this.gameId)}-line-${last}.ggf">${ICON("download")} GGF</a>` +
        `<button type="button" class="button icon-button delete var-delete" data-delete="${v.ids[0]}" ` +
        `title="${escapeHtml(T["var.delete_title"])}" aria-label="${escapeHtml(T["var.delete"])}">${ICON("trash")}</button></span></div>` +
        (v.children.length ? `<ul class="var-tree">${v.children.map(item).join("")}</ul>` : "") + "</li>";
    };
    $("var-list").innerHTML = data.variations.length
      ? data.variations.map(item).join("")
      : `<li class="muted small var-empty">${escapeHtml(T["var.none"])}</li>`;
  }

  async onListClick(ev) {
    const del = ev.target.closest("button[data-delete]");
    if (del) {
      del.disabled = true;
      try {
        await this.remove(Number(del.dataset.delete));
        this.note("");
        this.main(null);  // the line shown may be gone: the replay checks it
      } catch (err) {
        this.note(err.message);
        del.disabled = false;
      }
      return;
    }
    const move = ev.target.closest("button[data-node]");
    if (!move) return;
    const id = Number(move.dataset.node);
    const line = this.lineThrough(id);
    if (line) this.open(line, this.nodes.get(id).ply + 1);
  }

  // the bar under the board: which line is shown, at which move (null: the main line)
  renderBar(line, ply) {
    const bar = $("var-bar");
    const list = $("var-list");
    list.querySelectorAll(".var-move.current").forEach((b) => b.classList.remove("current"));
    if (!line) { bar.hidden = true; return; }
    bar.hidden = false;
    const T = this.T;
    const moves = line.ids.map((id, i) => {
      const n = this.nodes.get(id);
      const here = line.from + i + 1 === ply;
      return `<button type="button" class="var-move${here ? " current" : ""}" data-step="${line.from + i + 1}"` +
        `${here ? ' aria-current="step"' : ""}>${escapeHtml(n.move)}</button>`;
    }).join("");
    $("var-crumb").innerHTML = `<strong>${escapeHtml(fill(T["var.from"], { n: line.from + 1 }))}</strong> ${moves}`;
    const shownId = ply > line.from ? line.ids[ply - line.from - 1] : line.ids[line.ids.length - 1];
    const ggf = $("var-ggf");
    ggf.href = `${this.url}/${shownId}/ggf`;
    ggf.dataset.download = `hasamigo-${this.gameId}-line-${shownId}.ggf`;
    const current = list.querySelector(`.var-move[data-node="${shownId}"]`);
    if (current && ply > line.from) current.classList.add("current");
  }
}
