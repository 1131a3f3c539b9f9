import { call, showError } from "./study_api.js";

const root = document.getElementById("study-entry");
const study = root.dataset.studyId;
const error = document.getElementById("entry-error");

document.getElementById("start").addEventListener("click", async () => {
  try {
    const subject = await call("POST", `/api/studies/${study}/subjects`, { language: root.dataset.lang });
    location.href = `/studies/${study}/s/${subject.code}`;
  } catch (e) { showError(error, e); }
});

document.getElementById("resume").addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = document.getElementById("resume-code").value.trim().toUpperCase();
  try {
    await call("GET", `/api/studies/${study}/subjects/${encodeURIComponent(code)}`);
    location.href = `/studies/${study}/s/${code}`;
  } catch (e) { showError(error, e); }
});
