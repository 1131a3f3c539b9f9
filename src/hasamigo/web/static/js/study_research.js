// The researcher's area: log in (the session token stays in sessionStorage), progress
// (pseudonym and code: a subject asking to withdraw is found by the code), withdrawal,
// archive and re-open, exports (fetched with the token, saved as files) and the report
// with its options (where, group_by); the treatment fidelity of the finished games.
import { call, showError } from "./study_api.js";

const root = document.getElementById("research");
const study = root.dataset.studyId;
const key = `study-token:${study}`;
const errorBox = document.getElementById("research-error");

async function authorised(path, method = "GET") {
  const response = await fetch(`/api/studies/${study}/${path}`, {
    method, headers: { Authorization: `Bearer ${sessionStorage.getItem(key) || ""}` } });
  if (response.status === 401 || response.status === 403) {
    sessionStorage.removeItem(key);
    throw Object.assign(new Error("login"), { status: response.status });
  }
  if (!response.ok) throw new Error((await response.json()).error?.message || response.status);
  return response;
}

async function show() {
  try {
    const progress = await (await authorised("progress")).json();
    const body = document.getElementById("progress");
    body.replaceChildren();
    const words = document.getElementById("withdraw-text").dataset;
    const archived = Boolean(progress.study.archived_at);
    for (const s of progress.subjects) {
      const row = document.createElement("tr");
      row.dataset.code = s.code;
      row.dataset.pseudonym = s.pseudonym;
      const answered = s.games.map((g) => `${g.program}: ${g.answered}/${g.questions}`).join(", ");
      for (const value of [s.pseudonym, s.code, s.order.join(" → "), s.step, answered]) {
        const cell = document.createElement("td");
        cell.textContent = value;
        row.append(cell);
      }
      const action = document.createElement("td");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button danger small";
      button.dataset.withdraw = s.code;
      button.textContent = words.button;
      button.disabled = archived;
      button.addEventListener("click", () => withdraw(s.code, words.confirm));
      action.append(button);
      row.append(action);
      body.append(row);
    }
    const count = document.getElementById("withdrawn-count");
    count.dataset.withdrawn = String(progress.study.withdrawn);
    count.textContent = progress.study.withdrawn ? count.dataset.template.replace("{n}", progress.study.withdrawn) : "";
    showFidelity(progress.fidelity);
    document.getElementById("archive-study").hidden = archived;
    document.getElementById("unarchive-study").hidden = !archived;
    document.getElementById("area").hidden = false;
    document.getElementById("login").hidden = true;
    // no subjects: say so, rather than an empty table and a blank frame
    const none = !progress.subjects.length;
    document.getElementById("no-subjects").hidden = !none;
    document.getElementById("progress-table").hidden = none;
    const frame = document.getElementById("report");
    const note = document.getElementById("report-note");
    note.textContent = none ? note.dataset.empty : note.dataset.loading;
    note.hidden = false;
    frame.hidden = true;
    document.getElementById("print-report").disabled = true;
    if (none) return;
    try {
      const options = new URLSearchParams({ lang: root.dataset.lang });
      const where = document.getElementById("report-where").value.trim();
      const groupBy = document.getElementById("report-group-by").value.trim();
      if (where) options.set("where", where);
      if (groupBy) options.set("group_by", groupBy);
      const report = await authorised(`report?${options}`);
      frame.srcdoc = await report.text();
      frame.hidden = false;
      note.hidden = true;
      document.getElementById("print-report").disabled = false;
    } catch (error) {
      if (error.status) throw error;
      note.textContent = error.message;  // the report is not available here
    }
  } catch (error) {
    document.getElementById("area").hidden = true;
    document.getElementById("login").hidden = false;
    if (error.message !== "login") showError(errorBox, error);
  }
}

// per program: the finished games, and how many had the expectation and the surprise move
function showFidelity(fidelity) {
  const body = document.getElementById("fidelity");
  body.replaceChildren();
  for (const p of fidelity?.programs || []) {
    const row = document.createElement("tr");
    row.dataset.program = p.program;
    const share = (n) => (p.games ? `${n} (${Math.round((100 * n) / p.games)}%)` : "–");
    for (const value of [p.program, String(p.games), share(p.expectation), share(p.surprise)]) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.append(cell);
    }
    body.append(row);
  }
  document.getElementById("fidelity-card").hidden = !body.children.length;
}

// the report came with the researcher's token, so it is printed from its frame
document.getElementById("print-report").addEventListener("click", () => {
  document.getElementById("report").contentWindow.print();
});

document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const session = await call("POST", `/api/studies/${study}/login`, {
      password: document.getElementById("password").value });
    sessionStorage.setItem(key, session.token);
    showError(errorBox, null);
    show();
  } catch (error) { showError(errorBox, error); }
});

async function withdraw(code, question) {
  if (!confirm(question.replace("{code}", code))) return;
  try {
    showError(errorBox, null);
    await call("POST", `/api/studies/${study}/subjects/${encodeURIComponent(code)}/withdraw`, { confirm: true });
    show();
  } catch (error) { showError(errorBox, error); }
}

for (const [id, path] of [["archive-study", "archive"], ["unarchive-study", "unarchive"]]) {
  document.getElementById(id).addEventListener("click", async () => {
    try {
      showError(errorBox, null);
      await authorised(path, "POST");
      location.reload();  // the pages show the archive state
    } catch (error) { showError(errorBox, error); }
  });
}

document.getElementById("report-options").addEventListener("submit", (event) => {
  event.preventDefault();
  show();
});

for (const button of document.querySelectorAll("[data-export]")) {
  button.addEventListener("click", async () => {
    try {
      const response = await authorised(button.dataset.export);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(await response.blob());
      link.download = `study-${study}-${button.dataset.file}`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) { showError(errorBox, error); }
  });
}

show();
