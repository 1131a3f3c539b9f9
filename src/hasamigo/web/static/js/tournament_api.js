// The director's session of a tournament: the signed token the server gave at login (or at
// creation), kept in sessionStorage under "hasamigo:director:<id>" — this tab only, never
// the password. Also small helpers shared by the tournament pages.
import { api } from "./api.js";

const KEY = "hasamigo:director:";

export function directorSession(id) {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY + id) || "null");
    return value && typeof value.token === "string" ? value : null;
  } catch { return null; }
}

export function keepDirectorSession(id, session) {
  try {
    if (session) sessionStorage.setItem(KEY + id, JSON.stringify(session));
    else sessionStorage.removeItem(KEY + id);
  } catch { /* storage refused (private mode): the session lasts as long as the page */ }
}

// api() with the director's token of tournament `id`.
export function directorApi(id, method, path, body) {
  const session = directorSession(id);
  return api(method, `/api/tournaments/${encodeURIComponent(id)}${path}`, body,
             { token: session ? session.token : null });
}

// "Round {n}" with {n} filled in.
export function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
}

// 3, 2.5, 170.5 (as the server's pages write scores)
export function num(value) {
  if (value === null || value === undefined) return "";
  return Number.isInteger(value) ? String(value) : String(Number(value));
}
