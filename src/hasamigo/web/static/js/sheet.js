// Record sheets. On /record/sheet: type the move numbers into the 8×8 grid (or paste the
// sheet's text), and the server says whether it is a legal game, where it fails and the
// likely fix. On /record/{id}/sheet: the game's filled sheet, fetched with this browser's
// seat token, to print (English or Japanese headings).
import { api, escapeHtml, reach, seatToken, strings } from "./api.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";
const START = { d4: "white", e4: "black", d5: "black", e5: "white" };
const CORNERS = [["a1"], ["a1", "h8"], ["a1", "h1", "h8"], ["a1", "h1", "a8", "h8"]];

// ---- checking a typed sheet ------------------------------------------------------------
const page = $("sheet-page");
if (page) startChecker();

function startChecker() {
  const grid = $("sheet-grid");
  const inputs = new Map();

  function taken() {
    const discs = { ...START };
    const handicap = Number($("handicap").value);
    if (handicap) for (const sq of CORNERS[handicap - 1]) discs[sq] = "black";
    return discs;
  }

  function build() {
    const discs = taken();
    let html = `<tr><th></th>${[...FILES].map((f) => `<th>${f}</th>`).join("")}</tr>`;
    for (let r = 1; r <= 8; r++) {
      html += `<tr><th>${r}</th>`;
      for (const f of FILES) {
        const sq = `${f}${r}`;
        html += discs[sq]
          ? `<td class="start"><i class="disc-icon ${discs[sq]}"></i></td>`
          : `<td><input type="text" inputmode="numeric" maxlength="2" data-square="${sq}" aria-label="${sq}"></td>`;
      }
      html += "</tr>";
    }
    const kept = new Map([...inputs].map(([sq, input]) => [sq, input.value]));
    grid.innerHTML = html;
    inputs.clear();
    for (const input of grid.querySelectorAll("input[data-square]")) {
      input.value = kept.get(input.dataset.square) || "";
      inputs.set(input.dataset.square, input);
      input.addEventListener("input", () => { $("sheet-text").value = text(); });
    }
    $("sheet-text").value = text();
  }

  // the grid as the sheet's text form: 8 lines of 8 fields
  function text() {
    const lines = [];
    for (let r = 1; r <= 8; r++) {
      const fields = [];
      for (const f of FILES) {
        const value = inputs.get(`${f}${r}`)?.value.trim() || "";
        fields.push((value || "-").padStart(2, " "));
      }
      lines.push(fields.join(" "));
    }
    return lines.join("\n");
  }

  function fromText() {
    const rows = $("sheet-text").value.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    rows.forEach((line, r) => {
      line.split(/\s+/).forEach((field, c) => {
        const input = inputs.get(`${FILES[c]}${r + 1}`);
        if (input) input.value = /^\d+$/.test(field) ? field : "";
      });
    });
  }

  async function check() {
    const body = { text: $("sheet-text").value, handicap: Number($("handicap").value) };
    if ($("first").value) body.first = $("first").value;
    const box = $("check-result");
    box.hidden = false;
    try {
      const result = await api("POST", "/api/record/sheets/check", body);
      $("check-verdict").textContent = result.ok ? T["record.sheet.ok"] : T["record.sheet.bad"];
      box.dataset.ok = result.ok ? "1" : "0";
      $("check-faults").innerHTML = result.faults.map((f) => `<li data-kind="${escapeHtml(f.kind)}">${escapeHtml(f.message)}</li>`).join("");
      $("check-transcript").textContent = result.transcript;
      $("check-suggestion").hidden = !result.suggestion;
      if (result.suggestion) {
        $("suggestion-text").textContent = result.suggestion.description;
        $("suggestion-transcript").textContent = result.suggestion.transcript;
      }
    } catch (err) {
      box.dataset.ok = "0";
      $("check-verdict").textContent = err.message;
      $("check-faults").innerHTML = "";
      $("check-transcript").textContent = "";
      $("check-suggestion").hidden = true;
    }
  }

  $("handicap").addEventListener("change", build);
  $("check").addEventListener("click", check);
  $("read-text").addEventListener("click", () => { fromText(); check(); });
  $("clear-grid").addEventListener("click", () => {
    for (const input of inputs.values()) input.value = "";
    $("sheet-text").value = text();
    $("check-result").hidden = true;
  });
  build();
}

// ---- printing a game's sheet ------------------------------------------------------------
const print = $("sheet-print");
if (print) startPrint();

function startPrint() {
  const gameId = print.dataset.gameId;
  const token = seatToken(gameId);
  const frame = $("sheet-frame");

  async function show(lang) {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    try {
      const response = await reach(`/api/record/games/${gameId}/sheet?lang=${lang}`, { headers });
      if (!response.ok) {
        let message = `HTTP ${response.status}`;
        try { message = (await response.json()).error.message; } catch { /* not JSON */ }
        throw new Error(message);
      }
      frame.srcdoc = await response.text();
      $("error").hidden = true;
    } catch (err) {
      $("error").textContent = err.message;
      $("error").hidden = false;
    }
  }

  // the frame as tall as the sheet in it: the page scrolls, the sheet is never cut off
  // inside a frame of its own (row 8 of 60 at the bottom of a short window)
  function fit() {
    const doc = frame.contentDocument;
    if (!doc || !doc.documentElement) return;
    frame.style.height = `${Math.ceil(doc.documentElement.scrollHeight) + 2}px`;
  }
  frame.addEventListener("load", fit);
  window.addEventListener("resize", fit);

  for (const button of document.querySelectorAll("[data-sheet-lang]")) {
    button.addEventListener("click", () => show(button.dataset.sheetLang));
  }
  $("print").addEventListener("click", () => frame.contentWindow?.print());
  show(document.documentElement.lang === "ja" ? "ja" : "en");
}
