// A fresh server compiles its kernels in the background, the first run only (issue 50):
// a program whose kernels are not ready yet waits (its clock does not run), hints wait
// for the engine's. This says, from GET /api/status, what a page waits for: a line ("Getting
// the engine ready (first run only): compiling the endgame solver… about 40 s left") and
// a progress bar. The server names the groups and the kernel compiling now
// ("endgame.solve3"); the words are the page's (T["warmup.…"], by the kernel's module).
import { api } from "./api.js";

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));

function about(T, seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds >= 90) return fill(T["warmup.left.minutes"], { n: Math.round(seconds / 60) });
  const n = seconds > 20 ? Math.ceil(seconds / 5) * 5 : Math.max(1, Math.ceil(seconds));
  return fill(T["warmup.left.seconds"], { n });
}

// {text, fraction} for the `groups` a page waits for; null once they are all ready. The
// group ready last names the wait and gives the estimate; the one compiling now says what
// it compiles. `what` overrides the group's name (the study does not name its programs).
// A status without groups (an older server): the engine's word alone.
export function describe(T, status, groups, what = null) {
  if (!status) return null;
  if (!status.groups) {
    return status.engine === "warming" ? { text: T["engine.warming"], fraction: null } : null;
  }
  const pending = groups.map((g) => [g, status.groups[g]])
    .filter(([, info]) => info && info.state !== "ready");
  if (!pending.length) return null;
  const later = (a, b) => ((b[1].seconds_left ?? Infinity) > (a[1].seconds_left ?? Infinity) ? b : a);
  const [group, info] = pending.reduce(later);
  const [, now] = pending.find(([, i]) => i.state === "compiling") || [group, info];
  let doing = T["warmup.waiting"];
  if (now.state === "compiling") {
    const kernel = T[`warmup.kernel.${(now.kernel || "").split(".")[0]}`];
    doing = kernel ? fill(T["warmup.compiling"], { kernel }) : T["warmup.compiling_any"];
  } else if (now.state === "loading") {
    doing = T["warmup.loading"];
  }
  const name = what || T[`warmup.group.${group}`] || T["warmup.group.engine"];
  const left = about(T, info.seconds_left);
  return {
    text: `${fill(T["warmup.getting"], { what: name })}${T["warmup.colon"]}${doing}${left ? ` ${left}` : ""}`,
    fraction: info.fraction,
  };
}

// Follows /api/status while a page waits for some groups, drawing into `box`: its
// [data-warmup=text], [data-warmup=bar] (a <progress>) and [data-warmup=note]. The box
// stays hidden when nothing is waited for.
export class WarmupWatch {
  constructor(box, T, { every = 1000, what = null } = {}) {
    this.box = box;
    this.T = T;
    this.every = every;
    this.what = what;
    this.groups = [];
    this.note = "";
    this.timer = null;
    this.onReady = null;
    this.last = null;
  }

  // wait for `groups` (none: stop watching); `onReady` runs once they are all ready
  watch(groups, onReady = null, note = "") {
    this.note = note;
    const same = groups.length === this.groups.length && groups.every((g) => this.groups.includes(g));
    this.groups = groups;
    this.onReady = onReady;
    if (!groups.length) {
      clearTimeout(this.timer);
      this.timer = null;
      this.last = null;
      this.draw(null);
      return;
    }
    if (!same || this.timer === null) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.check(), 0);
    }
    this.draw(this.last);
  }

  async check() {
    this.timer = null;
    if (!this.groups.length) return;
    let status = null;
    try {
      status = await api("GET", "/api/status");
    } catch {
      status = { engine: "ready", groups: {} };  // no word from the server: not in the way
    }
    if (!this.groups.length) return;
    this.last = describe(this.T, status, this.groups, this.what);
    this.draw(this.last);
    if (this.last === null) {
      const done = this.onReady;
      this.groups = [];
      this.onReady = null;
      if (done) done();
      return;
    }
    this.timer = setTimeout(() => this.check(), this.every);
  }

  draw(described) {
    const shown = described !== null && this.groups.length > 0;
    this.box.hidden = !shown;
    if (!shown) return;
    this.box.querySelector("[data-warmup=text]").textContent = described.text;
    const bar = this.box.querySelector("[data-warmup=bar]");
    if (described.fraction === null || described.fraction === undefined) bar.removeAttribute("value");
    else bar.value = described.fraction;
    const note = this.box.querySelector("[data-warmup=note]");
    note.textContent = this.note;
    note.hidden = !this.note;
  }
}

// the box's first text before /api/status has answered
export function firstWords(T, what = null) {
  return `${fill(T["warmup.getting"], { what: what || T["warmup.group.engine"] })}…`;
}
