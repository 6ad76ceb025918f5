// JSON requests to the server's HTTP API with the session's cookie, for the pages
// that act on the account (the account page, its tokens panel, and those to come).
// They say the page's language (`Accept-Language`), in which the server words its
// refusals where it can.

import { lang } from "./i18n";

export interface Answer<T> {
  ok: boolean;
  status: number;
  body: T | null;
  error?: string;
}

/** One request with a JSON body (if any) and a JSON answer; never throws. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  try {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? { "Accept-Language": lang() } : { "Accept-Language": lang(), "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
    return { ok: response.ok, status: response.status, body: json, error: json?.error };
  } catch (e) {
    return { ok: false, status: 0, body: null, error: String(e) };
  }
}

/** One request with a form body (the lichess-shaped routes read forms) and a JSON
 * answer; never throws. */
export async function apiForm<T>(path: string, form: URLSearchParams): Promise<Answer<T>> {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Accept-Language": lang(), "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    const json = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
    return { ok: response.ok, status: response.status, body: json, error: json?.error };
  } catch (e) {
    return { ok: false, status: 0, body: null, error: String(e) };
  }
}
