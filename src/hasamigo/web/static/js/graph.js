// The evaluation graph: discs from Black's point of view after every ply.
const NS = "http://www.w3.org/2000/svg";

export function drawGraph(container, scores) {
  const width = 320;
  const height = 140;
  const pad = 8;
  const n = Math.max(scores.length - 1, 1);
  const limit = Math.max(16, ...scores.filter((s) => s !== null).map((s) => Math.abs(s)));
  const x = (i) => pad + (i / n) * (width - 2 * pad);
  const y = (s) => height / 2 - (s / limit) * (height / 2 - pad);
  const points = scores.map((s, i) => (s === null ? null : `${x(i).toFixed(1)},${y(s).toFixed(1)}`)).filter(Boolean);
  const area = points.length ? `M${x(0)},${height / 2} L${points.join(" L")} L${x(scores.length - 1)},${height / 2} Z` : "";
  container.innerHTML = `<svg viewBox="0 0 ${width} ${height}" class="graph-svg" role="img">
    <rect x="0" y="0" width="${width}" height="${height / 2}" class="graph-black"/>
    <rect x="0" y="${height / 2}" width="${width}" height="${height / 2}" class="graph-white"/>
    <line x1="0" x2="${width}" y1="${height / 2}" y2="${height / 2}" class="graph-axis"/>
    <path d="${area}" class="graph-area"/>
    <polyline points="${points.join(" ")}" class="graph-line"/>
    <text x="${width - pad}" y="14" class="graph-label" text-anchor="end">+${limit}</text>
    <text x="${width - pad}" y="${height - 4}" class="graph-label" text-anchor="end">−${limit}</text>
  </svg>`;
  void NS;
}
