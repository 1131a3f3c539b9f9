// The study's API calls: JSON in, JSON out; a refusal throws its message.
import { reach } from "./api.js";

export async function call(method, url, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await reach(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    const error = new Error(data?.error?.message || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

export function showError(element, error) {
  element.textContent = error ? String(error.message || error) : "";
  element.hidden = !error;
}
