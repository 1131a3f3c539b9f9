// The new-game form: sends the choices to the API and opens the game.
import { api } from "./api.js";

const form = document.getElementById("new-game");
const levelRow = document.getElementById("level-row");
const level = document.getElementById("level");
const levelOut = document.getElementById("level-out");
const customRow = document.getElementById("custom-row");
const error = document.getElementById("form-error");

function value(name) {
  return form.querySelector(`input[name="${name}"]:checked`).value;
}

function sync() {
  levelRow.hidden = value("opponent") !== "engine";
  customRow.hidden = value("clock") !== "custom";
  levelOut.textContent = level.value;
}
form.addEventListener("change", sync);
level.addEventListener("input", sync);
for (const key of ["hints", "graph", "opening"]) {
  const box = document.getElementById(`panel-${key}`);
  box.checked = localStorage.getItem(`panel-${key}`) === "1";
  box.addEventListener("change", () => localStorage.setItem(`panel-${key}`, box.checked ? "1" : "0"));
}
sync();

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  error.hidden = true;
  const clock = value("clock");
  const body = {
    opponent: value("opponent"),
    level: Number(level.value),
    colour: value("colour"),
    handicap: Number(value("handicap")),
    clock_minutes: clock === "none" ? null : clock === "custom" ? Number(document.getElementById("custom-minutes").value) : 20,
    variant: value("variant"),
    start: value("start"),
    casual: value("casual") === "1",
    draws_allowed: !document.getElementById("no-draws").checked,
  };
  const button = document.getElementById("start-game");
  button.disabled = true;
  try {
    const game = await api("POST", "/api/games", body);
    location.href = `/games/${game.id}`;
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    button.disabled = false;
  }
});
