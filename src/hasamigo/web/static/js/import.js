// Importing a game on the library page: pasted text (a transcript, or GGF when it opens a
// game with "(;") or a chosen file (.wtb: WTHOR, sent as base64, with WTHOR.JOU for the
// players' names if chosen too; .ggf: GGF; others: a transcript), the game number for
// files of several games. The answer's seat token is
// kept like any game's, and the replay opens, where the review is started.
import { api, keepSeatToken, strings } from "./api.js";

const T = strings();
const $ = (id) => document.getElementById(id);

// what a text is: GGF opens a game with "(;" (a GGS list may number it first)
const formatOfText = (text) => (/^\s*(?:\d+\s*)?\(;/.test(text) ? "ggf" : "transcript");

function formatOfFile(name) {
  const lower = name.toLowerCase();
  if (lower.endsWith(".wtb")) return "wthor";
  if (lower.endsWith(".ggf")) return "ggf";
  return null;  // decided by the text
}

// base64 of a file's bytes, in chunks (a spread of 600 kB would overflow the stack)
function base64(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

const kilobytes = (n) => `${Math.floor(n / 1024)} kB`;

async function body(form) {
  // a .wtb may come with WTHOR.JOU, the players' names (chosen together)
  const files = [...$("import-file").files];
  const names = files.find((f) => f.name.toLowerCase().endsWith(".jou"));
  const file = files.find((f) => f !== names);
  const index = Number.parseInt($("import-index").value, 10) || 1;
  const limit = Number(form.dataset.limit) || Infinity;
  if (file) {
    const format = formatOfFile(file.name);
    // the request carries the files as JSON text (base64 for WTHOR: 4 bytes for 3)
    const extra = format === "wthor" && names ? names.size : 0;
    const room = format === "wthor" ? (limit - 200) * 3 / 4 - extra : limit - 200;
    if (file.size > room) throw new Error(T["import.too_large"].replace("{size}", kilobytes(room)));
    if (format === "wthor") {
      const request = { format, data: base64(await file.arrayBuffer()), index };
      if (names) request.players = base64(await names.arrayBuffer());
      return request;
    }
    const text = await file.text();
    return { format: format || formatOfText(text), text, index };
  }
  const text = $("import-text").value;
  if (!text.trim()) throw new Error(T["import.empty"]);
  const format = formatOfText(text);
  return format === "ggf" ? { format, text, index } : { format, text };
}

function wire() {
  const form = $("import-form");
  if (!form) return;
  const error = $("import-error");
  const submit = $("import-submit");
  const label = submit.innerHTML;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    submit.disabled = true;
    submit.textContent = T["import.working"];
    try {
      const request = await body(form);
      // a JOF event is counted by the JOF rule of its date (before June 2014: empties split)
      if ($("import-jof-event")?.checked) request.jof_event = true;
      const game = await api("POST", "/api/games/import", request);
      keepSeatToken(game.id, game.seat_token);
      location.assign(`/games/${encodeURIComponent(game.id)}/replay`);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      submit.disabled = false;
      submit.innerHTML = label;
    }
  });
}

wire();
