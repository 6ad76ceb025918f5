// The client's words in English, Dutch, Polish and German. The language comes from
// the browser (or an earlier choice on the page) and can be switched at any time;
// the server is told too, so its replies follow.

import { de } from "./de";
import { en, type Key } from "./en";
import { nl } from "./nl";
import { pl } from "./pl";

export type { Key };
export type Lang = "en" | "nl" | "pl" | "de";

/** The languages, each named in itself. */
export const LANGS: { code: Lang; name: string }[] = [
  { code: "en", name: "English" },
  { code: "nl", name: "Nederlands" },
  { code: "pl", name: "Polski" },
  { code: "de", name: "Deutsch" },
];

const CATALOGUES: Record<Lang, Record<Key, string>> = { en, nl, pl, de };
const STORAGE = "yinsh.lang";

let current: Lang = detect();
const listeners = new Set<(lang: Lang) => void>();

function isLang(code: string | null | undefined): code is Lang {
  return code === "en" || code === "nl" || code === "pl" || code === "de";
}

/** The saved choice, else the first of the browser's languages we have, else English. */
function detect(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE);
    if (isLang(saved)) return saved;
  } catch {
    // Storage can be unavailable (private mode); the browser's languages still work.
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split("-")[0];
    if (isLang(primary)) return primary;
  }
  return "en";
}

/** The language in use. */
export function lang(): Lang {
  return current;
}

/** Switches the language, remembers it, and tells every listener. */
export function setLang(next: Lang): void {
  if (next === current) return;
  current = next;
  try {
    localStorage.setItem(STORAGE, next);
  } catch {
    // Not remembered across visits, still switched now.
  }
  document.documentElement.lang = next;
  for (const listener of listeners) listener(next);
}

/** Calls `listener` after each switch; returns the function that stops it. */
export function onLangChange(listener: (lang: Lang) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The text of `key` in the current language, `{name}` places filled from `args`. */
export function t(key: Key, args: Record<string, string | number> = {}): string {
  const template = CATALOGUES[current][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in args ? String(args[name]) : whole,
  );
}

/** The keys with plural forms: `base.one`, `base.few`, `base.many`, `base.other`. */
type PluralBase<K> = K extends `${infer B}.other` ? B : never;
export type Plural = PluralBase<Key>;

/** The plural category of `count` in a language (`one`, `few`, `many`, `other`, …). */
export function pluralCategory(language: Lang, count: number): string {
  return new Intl.PluralRules(language).select(count);
}

/**
 * The text of a plural key for `count` (`{count}` filled in), in the form the current
 * language's rules choose (Polish: 1 partia, 2 partie, 5 partii); `other` for a
 * category the catalogues do not write (`zero`, `two`).
 */
export function tn(base: Plural, count: number, args: Record<string, string | number> = {}): string {
  const key = `${base}.${pluralCategory(current, count)}`;
  return t((key in en ? key : `${base}.other`) as Key, { count, ...args });
}

/** The engine's name in the current language (`Silnik (poziom 3)`), not the server's English one. */
export function engineName(level: number): string {
  return t("engine.name", { level });
}

/** Every catalogue, for the completeness test. */
export const catalogues = CATALOGUES;

document.documentElement.lang = current;
