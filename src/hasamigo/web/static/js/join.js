// The join link: exchanges the link's one-time code for this browser's seat token, keeps
// it, and opens the game. A used or bad code shows the server's message.
import { api, keepSeatToken, seatToken, strings } from "./api.js";

const T = strings();
const root = document.getElementById("join");
const gameId = root.dataset.gameId;
const $ = (id) => document.getElementById(id);

function fail(message, { canOpen = false } = {}) {
  $("join-status").textContent = T["join.failed"];
  $("join-error").textContent = message;
  $("join-error").hidden = false;
  $("join-open").hidden = !canOpen;
  $("join-links").hidden = false;
}

async function join() {
  const code = new URLSearchParams(location.search).get("code");
  if (seatToken(gameId)) {
    // the creator opening their own link must not spend it (nor lose their own seat)
    $("join-status").textContent = T["join.already"];
    $("join-open").hidden = false;
    $("join-links").hidden = false;
    return;
  }
  if (!code) { fail(T["join.no_code"]); return; }
  try {
    const joined = await api("POST", `/api/games/${gameId}/join`, { code });
    keepSeatToken(gameId, joined.seat_token);
    location.replace(`/games/${gameId}`);
  } catch (err) {
    fail(err.message);
  }
}

join();
