// The evaluation graph: discs from Black's point of view after every ply (the shaded half
// is Black's side). Options: `current` marks a ply; `onPick(ply)` makes the graph a
// control: a click (or a tap) on it chooses the nearest ply; `marks` ([{ply, label}])
// ring the points of those plies (class `mark-<label>`: the review's mistakes).
export function drawGraph(container, scores, { current = null, onPick = null, label = "", marks = [] } = {}) {
  const width = 320;
  const height = 140;
  const pad = 8;
  // the scale's labels (+64, −64) stand in a gutter of their own, left of the plot: a line
  // that ends at a wipe-out (−64 at the last ply) cannot run over them
  const gutter = 30;
  const n = Math.max(scores.length - 1, 1);
  const known = scores.filter((s) => s !== null && s !== undefined);
  const limit = Math.max(16, ...known.map((s) => Math.abs(s)));
  const x = (i) => gutter + (i / n) * (width - gutter - pad);
  const y = (s) => height / 2 - (s / limit) * (height / 2 - pad);
  const points = scores.map((s, i) => (s === null || s === undefined ? null : `${x(i).toFixed(1)},${y(s).toFixed(1)}`)).filter(Boolean);
  const area = points.length ? `M${x(0)},${height / 2} L${points.join(" L")} L${x(scores.length - 1)},${height / 2} Z` : "";
  const marker = current === null ? "" :
    `<line x1="${x(current).toFixed(1)}" x2="${x(current).toFixed(1)}" y1="0" y2="${height}" class="graph-current"/>` +
    (scores[current] === null || scores[current] === undefined ? "" :
      `<circle cx="${x(current).toFixed(1)}" cy="${y(scores[current]).toFixed(1)}" r="4" class="graph-dot"/>`);
  const ringed = marks.filter((m) => scores[m.ply] !== null && scores[m.ply] !== undefined)
    .map((m) => `<circle cx="${x(m.ply).toFixed(1)}" cy="${y(scores[m.ply]).toFixed(1)}" r="4.5" class="graph-mark mark-${String(m.label).replace(/[^a-z]/g, "")}" data-ply="${Number(m.ply)}"/>`)
    .join("");
  const interactive = onPick ? `class="graph-svg pickable"` : `class="graph-svg"`;
  const name = String(label).replace(/[&<>"']/g, "");
  container.innerHTML = `<svg viewBox="0 0 ${width} ${height}" ${interactive} role="img" aria-label="${name}">
    <rect x="${gutter}" y="0" width="${width - gutter}" height="${height / 2}" class="graph-black"/>
    <rect x="${gutter}" y="${height / 2}" width="${width - gutter}" height="${height / 2}" class="graph-white"/>
    <line x1="${gutter}" x2="${width}" y1="${height / 2}" y2="${height / 2}" class="graph-axis"/>
    <path d="${area}" class="graph-area"/>
    <polyline points="${points.join(" ")}" class="graph-line"/>
    ${ringed}
    ${marker}
    <text x="${gutter - 4}" y="14" class="graph-label" text-anchor="end">+${limit}</text>
    <text x="${gutter - 4}" y="${height / 2 + 4}" class="graph-label" text-anchor="end">0</text>
    <text x="${gutter - 4}" y="${height - 4}" class="graph-label" text-anchor="end">−${limit}</text>
  </svg>`;
  if (!onPick) return;
  const svg = container.querySelector("svg");
  svg.addEventListener("click", (ev) => {
    const box = svg.getBoundingClientRect();
    const along = ((ev.clientX - box.left) / box.width) * width;
    const ply = Math.round(((along - gutter) / (width - gutter - pad)) * n);
    onPick(Math.max(0, Math.min(scores.length - 1, ply)));
  });
}
