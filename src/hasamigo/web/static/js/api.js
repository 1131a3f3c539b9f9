// Small fetch helpers: JSON in, JSON out, refusals as Error with .code/.reason.
export class ApiError extends Error {
  constructor(body, status) {
    super(body?.error?.message || `HTTP ${status}`);
    this.code = body?.error?.code || "http";
    this.reason = body?.error?.reason || null;
    this.status = status;
  }
}

export async function api(method, url, body = undefined) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(data, response.status);
  return data;
}

export function strings() {
  return JSON.parse(document.getElementById("strings").textContent);
}

export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = Math.floor(s % 60);
  const text = `${m}:${String(rest).padStart(2, "0")}`;
  return s < 10 && s > 0 ? `${text}.${Math.floor((s * 10) % 10)}` : text;
}
