// The SVG board: discs, grey dots on legal squares (as in the paper's GUI), the last move,
// brief flip animations and optional hint scores. No dependencies.
const NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghij"; // columns of the widest board (10×10)
const CELL = 60;
const MARGIN = 26;
const EDGE = 14; // right and bottom frame (coordinates sit top and left)

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function squareName(col, row) {
  return `${FILES[col]}${row + 1}`;
}

// A ring (a line that closes on itself: the circular Nip board's circumference), drawn as
// the circle nearest its squares' centres: about their mean, with the radius halfway
// between the nearest and the farthest, so that it runs through every one of their discs
// (on that board the centres lie 3.54 and 3.81 cells out). Drawn over the squares, it is
// masked where a disc stands (see render), so discs sit on the line. Not a circle if the
// squares are far from one: the closed line through their centres. Adds each square's
// mask hole to ``gaps`` (name -> [circle]).
function drawRing(svg, defs, ring, index, gaps) {
  const centres = ring.map((name) => {
    const col = FILES.indexOf(name[0]);
    const row = Number(name.slice(1)) - 1;
    return [MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2];
  });
  const mask = el("mask", { id: `ring-mask-${index}`, maskUnits: "userSpaceOnUse" }, defs);
  el("rect", { x: 0, y: 0, width: "100%", height: "100%", fill: "white" }, mask);
  ring.forEach((name, i) => {
    const [x, y] = centres[i];
    const hole = el("circle", { cx: x, cy: y, r: CELL * 0.41, fill: "black", visibility: "hidden" }, mask);
    gaps.set(name, [...(gaps.get(name) || []), hole]);
  });
  const cx = centres.reduce((sum, [x]) => sum + x, 0) / centres.length;
  const cy = centres.reduce((sum, [, y]) => sum + y, 0) / centres.length;
  const radii = centres.map(([x, y]) => Math.hypot(x - cx, y - cy));
  const near = Math.min(...radii);
  const far = Math.max(...radii);
  const attrs = { class: "ring-line", "data-ring": ring.join(" "), mask: `url(#ring-mask-${index})` };
  if (far - near < CELL * 0.8) {
    return el("circle", { cx, cy, r: (near + far) / 2, ...attrs }, svg);
  }
  return el("polygon", { points: centres.map(([x, y]) => `${x},${y}`).join(" "), ...attrs }, svg);
}

export class BoardView {
  // rings: the variant's closed lines (lists of square names), drawn over the grid
  constructor(container, rows, cols, onClick = null, rings = []) {
    this.rows = rows;
    this.cols = cols;
    this.onClick = onClick;
    this.onPick = null;
    this.cells = null;
    const width = cols * CELL + MARGIN + EDGE;
    const height = rows * CELL + MARGIN + EDGE;
    this.svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "board-svg", role: "grid" });
    container.replaceChildren(this.svg);
    const defs = el("defs", {}, this.svg);
    const gb = el("radialGradient", { id: "disc-black", cx: "35%", cy: "30%", r: "75%" }, defs);
    el("stop", { offset: "0%", "stop-color": "#5a5d63" }, gb);
    el("stop", { offset: "55%", "stop-color": "#1f2024" }, gb);
    el("stop", { offset: "100%", "stop-color": "#0b0b0d" }, gb);
    const gw = el("radialGradient", { id: "disc-white", cx: "35%", cy: "30%", r: "75%" }, defs);
    el("stop", { offset: "0%", "stop-color": "#ffffff" }, gw);
    el("stop", { offset: "70%", "stop-color": "#eeebe3" }, gw);
    el("stop", { offset: "100%", "stop-color": "#cfcabd" }, gw);
    const shadow = el("filter", { id: "disc-shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" }, defs);
    el("feDropShadow", { dx: "0", dy: "2", stdDeviation: "1.6", "flood-opacity": "0.45" }, shadow);

    el("rect", { x: 0, y: 0, width, height, rx: 14, class: "board-frame" }, this.svg);
    el("rect", { x: MARGIN, y: MARGIN, width: cols * CELL, height: rows * CELL, class: "board-felt" }, this.svg);
    for (let c = 0; c < cols; c++) {
      const t = el("text", { x: MARGIN + c * CELL + CELL / 2, y: MARGIN - 8, class: "coord" }, this.svg);
      t.textContent = FILES[c];
    }
    for (let r = 0; r < rows; r++) {
      const t = el("text", { x: MARGIN / 2, y: MARGIN + r * CELL + CELL / 2 + 5, class: "coord" }, this.svg);
      t.textContent = String(r + 1);
    }
    this.squares = new Map();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const name = squareName(c, r);
        const x = MARGIN + c * CELL;
        const y = MARGIN + r * CELL;
        const g = el("g", { class: "square", "data-square": name, transform: `translate(${x},${y})` }, this.svg);
        el("rect", { width: CELL, height: CELL, class: "cell" }, g);
        g.addEventListener("click", () => {
          if (this.onPick && g.classList.contains("pickable")) this.onPick(name);
          else if (this.onClick && g.classList.contains("legal")) this.onClick(name);
        });
        this.squares.set(name, g);
      }
    }
    // grid lines and the four star points of a real board
    for (let i = 0; i <= cols; i++) {
      el("line", { x1: MARGIN + i * CELL, y1: MARGIN, x2: MARGIN + i * CELL, y2: MARGIN + rows * CELL, class: "grid" }, this.svg);
    }
    for (let i = 0; i <= rows; i++) {
      el("line", { x1: MARGIN, y1: MARGIN + i * CELL, x2: MARGIN + cols * CELL, y2: MARGIN + i * CELL, class: "grid" }, this.svg);
    }
    if (rows >= 6 && cols >= 6) {
      const k = rows === 8 ? 2 : 1;
      for (const [cx, cy] of [[k, k], [cols - k, k], [k, rows - k], [cols - k, rows - k]]) {
        el("circle", { cx: MARGIN + cx * CELL, cy: MARGIN + cy * CELL, r: 4, class: "star" }, this.svg);
      }
    }
    this.ringGaps = new Map();
    rings.forEach((ring, i) => drawRing(this.svg, defs, ring, i, this.ringGaps));
    this.svg.classList.toggle("has-ring", rings.length > 0);
    this.overlay = el("g", { class: "overlay" }, this.svg);
  }

  // cells: "XO-..." row by row; options: {legal: [...], last, flipped: [...], clickable, hints}
  render(cells, options = {}) {
    const legal = new Set(options.legal || []);
    const flipped = new Set(options.flipped || []);
    const previous = this.cells;
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) {
        const name = squareName(c, r);
        const g = this.squares.get(name);
        const ch = cells[r * this.cols + c];
        const before = previous ? previous[r * this.cols + c] : ch;
        let disc = g.querySelector(".disc");
        if (ch === "X" || ch === "O") {
          const colour = ch === "X" ? "black" : "white";
          if (!disc) {
            disc = el("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.41, filter: "url(#disc-shadow)" }, g);
            if (previous && name === options.last) disc.classList.add("placed");
          }
          if (disc.getAttribute("data-colour") !== colour) {  // a re-render keeps animations
            disc.setAttribute("class", `disc ${colour}`);
            disc.setAttribute("fill", `url(#disc-${colour})`);
            disc.setAttribute("data-colour", colour);
          }
          if (previous && before !== ch && (before === "X" || before === "O") && flipped.has(name)) {
            disc.classList.remove("flip");
            void disc.getBoundingClientRect();
            disc.classList.add("flip");
          } else if (previous && name === options.last && before !== ch) {
            disc.classList.add("placed");
          }
        } else if (disc) {
          disc.remove();
        }
        g.classList.toggle("hole", ch === "#");
        // a ring's line stops at a disc on it
        for (const gap of this.ringGaps.get(name) || []) {
          gap.setAttribute("visibility", ch === "X" || ch === "O" ? "visible" : "hidden");
        }
        // legal-move dot
        let dot = g.querySelector(".dot");
        const isLegal = legal.has(name) && options.clickable !== false;
        g.classList.toggle("legal", isLegal);
        if (isLegal && !dot) dot = el("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.11, class: "dot" }, g);
        if (!isLegal && dot) dot.remove();
        // last move marker
        let mark = g.querySelector(".last-mark");
        if (name === options.last) {
          if (!mark) mark = el("rect", { x: CELL / 2 - 5, y: CELL / 2 - 5, width: 10, height: 10, rx: 2, class: "last-mark" }, g);
        } else if (mark) {
          mark.remove();
        }
        g.classList.toggle("last", name === options.last);
        // hint score
        let hint = g.querySelector(".hint");
        const score = options.hints ? options.hints.get(name) : undefined;
        if (score !== undefined && isLegal) {
          if (!hint) hint = el("text", { x: CELL / 2, y: CELL / 2 + 6, class: "hint" }, g);
          hint.textContent = score > 0 ? `+${score}` : String(score);
          hint.classList.toggle("best", score === options.bestHint);
          if (dot) dot.setAttribute("visibility", "hidden");
        } else if (hint) {
          hint.remove();
          if (dot) dot.removeAttribute("visibility");
        }
      }
    }
    this.svg.classList.toggle("clickable", options.clickable !== false && legal.size > 0);
    this.cells = cells;
  }

  // 挟み碁's flip rules: ring the discs `names` to choose from (those in `selected` marked
  // as chosen); a click on one goes to onPick(name) instead of onClick. No names: none.
  setPicks(names = [], selected = [], onPick = null) {
    const picks = new Set(names);
    const chosen = new Set(selected);
    for (const [name, g] of this.squares) {
      const on = picks.has(name);
      g.classList.toggle("pickable", on);
      g.classList.toggle("picked", on && chosen.has(name));
      let ring = g.querySelector(".pick-ring");
      if (on && !ring) ring = el("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.45, class: "pick-ring" }, g);
      if (!on && ring) ring.remove();
    }
    this.onPick = picks.size ? onPick : null;
  }
}
