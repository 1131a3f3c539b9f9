// A signed-in account enters a tournament itself, or withdraws its entry before round 1
// (issue 67): POST / DELETE /api/tournaments/{id}/registration with the session cookie;
// the page is rendered again from the server afterwards. A refusal (closed, full, round 1
// paired, entered already) is shown as the server words it.
import { api, ApiError } from "./api.js";

const card = document.getElementById("registration-card");
const id = card ? card.dataset.tournamentId : null;
const errorBox = document.getElementById("registration-error");

function showError(err) {
  errorBox.textContent = err instanceof ApiError || err instanceof Error ? err.message : String(err);
  errorBox.hidden = false;
}

async function send(method, body, button) {
  errorBox.hidden = true;
  if (button) button.disabled = true;
  try {
    await api(method, `/api/tournaments/${encodeURIComponent(id)}/registration`, body);
    window.location.reload();
  } catch (err) {
    showError(err);
    if (button) button.disabled = false;
  }
}

const form = document.getElementById("register-self");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const rank = document.getElementById("self-rank").value.trim();
    send("POST", rank ? { rank } : {}, document.getElementById("register-self-button"));
  });
}

const withdraw = document.getElementById("withdraw-self");
if (withdraw) withdraw.addEventListener("click", () => send("DELETE", undefined, withdraw));
