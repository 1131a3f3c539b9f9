// The solved boards' perfect lines: a board and a slider for each (positions from the page).
import { BoardView } from "./board.js";

for (const section of document.querySelectorAll(".solved-board")) {
  const positions = JSON.parse(section.querySelector(".solved-positions").textContent);
  const view = new BoardView(section.querySelector(".board"), Number(section.dataset.rows),
    Number(section.dataset.cols));
  const slider = section.querySelector(".solved-ply");
  const label = section.querySelector(".solved-move");
  const show = () => {
    const n = Number(slider.value);
    const p = positions[n];
    view.render(p.cells, { last: p.move && p.move !== "pass" ? p.move : null, legal: [], clickable: false });
    label.textContent = n === 0 ? "0" : `${n}. ${p.move}`;
    section.dataset.ply = String(n);
  };
  slider.addEventListener("input", show);
  show();
}
