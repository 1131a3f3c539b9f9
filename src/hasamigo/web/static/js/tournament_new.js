// The create form on /tournaments: a new tournament, then its director's area (the answer
// carries the director's first session; the password stays in this form only).
import { api, ApiError } from "./api.js";
import { keepDirectorSession } from "./tournament_api.js";

const form = document.getElementById("new-tournament");
const error = document.getElementById("new-error");

function optionalInt(id) {
  const text = document.getElementById(id).value.trim();
  return text === "" ? null : Number(text);
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  error.hidden = true;
  const body = {
    name: document.getElementById("new-name").value.trim(),
    format: document.getElementById("new-format").value,
    password: document.getElementById("new-password").value,
    rounds: optionalInt("new-rounds"),
    c: optionalInt("new-c"),
    third_place: document.getElementById("new-third-place").checked,
  };
  const day = document.getElementById("new-date").value;
  if (day) body.date = day;
  const director = document.getElementById("new-director").value.trim();
  if (director) body.director = director;
  const button = document.getElementById("new-create");
  button.disabled = true;
  try {
    const created = await api("POST", "/api/tournaments", body);
    keepDirectorSession(created.tournament.id, created.session);
    window.location.href = `/tournaments/${created.tournament.id}/director`;
  } catch (err) {
    error.textContent = err instanceof ApiError ? err.message : String(err);
    error.hidden = false;
    button.disabled = false;
  }
});
