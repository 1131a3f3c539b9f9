// The account pages: the sign-up and sign-in form (POST /api/accounts, …/login: the
// server sets the HttpOnly session cookie, this script never sees it), and on one's own
// profile the claim of this browser's anonymous games and the account's deletion (the
// password asked again). A refusal is said in the page's language by its code; the
// server's own message otherwise.
import { ApiError, api, forCount, strings } from "./api.js";

const T = strings();
const $ = (id) => document.getElementById(id);

function say(box, err) {
  const byCode = {
    invalid_name: T["acct.invalid_name"], invalid_password: T["acct.invalid_password"],
    name_taken: T["acct.name_taken"], unauthorized: T["acct.wrong_login"],
    forbidden: T["acct.wrong_password"], rate_limited: T["acct.rate_limited"],
    invalid_request: T["acct.invalid_request"],
  };
  let text = (err instanceof ApiError && byCode[err.code]) || err.message;
  if (err instanceof ApiError && err.code === "rate_limited" && err.retryAfter > 90) {
    // a name's or a browser's limit lasts up to an hour: say how long, in minutes
    const minutes = Math.ceil(err.retryAfter / 60);
    text = forCount(T, "acct.rate_limited_for", minutes).replace("{n}", String(minutes));
  }
  box.textContent = text;
  box.hidden = false;
}

const form = $("account-form");
if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = $("acct-error");
    error.hidden = true;
    const button = $("acct-submit");
    button.disabled = true;
    const signup = form.dataset.mode === "signup";
    try {
      const reply = await api("POST", signup ? "/api/accounts" : "/api/accounts/login",
        { name: $("acct-name").value, password: $("acct-password").value });
      const next = form.dataset.next;
      location.assign(next && next !== "/" ? next
        : `/players/${encodeURIComponent(reply.account.name)}`);
    } catch (err) {
      say(error, err);
      button.disabled = false;
    }
  });
}

const claim = $("claim-button");
if (claim) {
  claim.addEventListener("click", async () => {
    claim.disabled = true;
    const result = $("claim-result");
    try {
      const reply = await api("POST", "/api/accounts/claim");
      const n = reply.claimed.length;
      result.textContent = forCount(T, "acct.claimed", n).replace("{n}", n);
      result.hidden = false;
      if (n) setTimeout(() => location.reload(), 800);
    } catch (err) {
      say(result, err);
      claim.disabled = false;
    }
  });
}

const deletion = $("delete-form");
if (deletion) {
  deletion.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = $("delete-error");
    error.hidden = true;
    if (!window.confirm(T["acct.confirm_delete"])) return;
    const button = $("delete-button");
    button.disabled = true;
    try {
      await api("POST", "/api/accounts/delete", { password: $("delete-password").value });
      location.assign("/");
    } catch (err) {
      say(error, err);
      button.disabled = false;
    }
  });
}
