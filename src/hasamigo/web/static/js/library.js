// The library: update times in this browser's time zone, the filters (the days are this
// browser's days: the form sends its time-zone offset), and deleting one's own games
// (DELETE with the game's seat token, which only the creator's browser holds). Downloads
// carry the seat tokens too.
import { api, seatToken, strings, wireDownloads } from "./api.js";

const T = strings();
const $ = (id) => document.getElementById(id);
const pad = (n) => String(n).padStart(2, "0");

function localTimes() {
  for (const node of document.querySelectorAll("time[datetime]")) {
    const at = new Date(node.getAttribute("datetime"));
    if (Number.isNaN(at.getTime())) continue;
    node.textContent = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
    node.title = at.toLocaleString();
  }
}

// the filters: the local time zone, no empty fields in the address, applied on change
function wireFilters() {
  const form = $("library-filters");
  $("filter-tz").value = String(new Date().getTimezoneOffset());
  const go = () => {
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (value !== "") params.set(key, value);
    if (!params.has("since") && !params.has("until")) params.delete("tz");
    const query = params.toString();
    location.assign(query ? `/library?${query}` : "/library");
  };
  form.addEventListener("submit", (ev) => { ev.preventDefault(); go(); });
  for (const field of form.querySelectorAll("select, input[type=checkbox]")) {
    field.addEventListener("change", go);
  }
}

function wireDeletes() {
  for (const button of document.querySelectorAll("button[data-delete]")) {
    const gameId = button.dataset.delete;
    if (!seatToken(gameId)) { button.hidden = true; continue; }  // not this browser's seat
    button.addEventListener("click", async () => {
      if (!confirm(T["library.delete.confirm"])) return;
      const error = $("library-error");
      error.hidden = true;
      button.disabled = true;
      try {
        await api("DELETE", `/api/games/${encodeURIComponent(gameId)}`, undefined, { token: seatToken(gameId) });
      } catch (err) {
        if (err.status !== 404) {  // gone already: remove it all the same
          error.textContent = err.message;
          error.hidden = false;
          button.disabled = false;
          return;
        }
      }
      const row = button.closest("tr");
      const body = row.parentElement;
      row.remove();
      if (!body.children.length) {
        $("library-card").hidden = true;
        $("library-empty").hidden = false;
      }
    });
  }
}

localTimes();
wireFilters();
wireDeletes();
wireDownloads(document);
