import { call, showError } from "./study_api.js";

const checked = (name) => [...document.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value);

// each protocol's own surprise window unless the researcher picks another
document.getElementById("study-protocol").addEventListener("change", (event) => {
  document.getElementById("study-window").value = event.target.selectedOptions[0].dataset.window;
});

document.getElementById("new-study").addEventListener("submit", async (event) => {
  event.preventDefault();
  const clock = document.getElementById("study-clock").value;
  // the ticked programs, then any typed ones (engine levels…), each once, in that order
  const more = document.getElementById("study-more-arms").value.split(",").map((a) => a.trim().toLowerCase()).filter(Boolean);
  const arms = [...new Set([...checked("arm"), ...more])];
  try {
    const made = await call("POST", "/api/studies", {
      name: document.getElementById("study-name").value,
      password: document.getElementById("study-password").value,
      arms, languages: checked("language"),
      protocol: document.getElementById("study-protocol").value,
      surprise_window: document.getElementById("study-window").value,
      clock_minutes: clock ? Number(clock) : null,
    });
    sessionStorage.setItem(`study-token:${made.study.id}`, made.session.token);
    location.href = `/studies/${made.study.id}/research`;
  } catch (error) { showError(document.getElementById("new-error"), error); }
});

document.getElementById("login-study").addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = document.getElementById("login-id").value.trim();
  try {
    const session = await call("POST", `/api/studies/${encodeURIComponent(id)}/login`, {
      password: document.getElementById("login-password").value });
    sessionStorage.setItem(`study-token:${id}`, session.token);
    location.href = `/studies/${id}/research`;
  } catch (error) { showError(document.getElementById("login-error"), error); }
});
