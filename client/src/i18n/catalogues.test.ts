import { describe, expect, it } from "vitest";

// The catalogues are imported one by one: `./index` touches `document` and
// `navigator` when loaded, which the node environment does not have.
import { de } from "./de";
import { en, type Key } from "./en";
import { nl } from "./nl";
import { pl } from "./pl";

const OTHERS: Record<string, Record<Key, string>> = { nl, pl, de };
const EN: Record<Key, string> = en;
const KEYS = Object.keys(en) as Key[];

/** The `{name}` places of a template, sorted (repeats kept). */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

/** The words of a template without its places, to judge how much text there is. */
function words(text: string): string {
  return text.replace(/\{\w+\}/g, "").trim();
}

// Longer English texts must be translated. Only these keys may stay as in English:
// the product name is never translated.
const SAME_AS_ENGLISH = new Set<Key>(["app.title"]);
const LONG = 12;

describe.each(Object.entries(OTHERS))("catalogue %s", (_lang, catalogue) => {
  it("has exactly the keys of English, in the same order", () => {
    expect(Object.keys(catalogue)).toEqual(KEYS);
  });

  it("keeps every placeholder of each key, adding none", () => {
    for (const key of KEYS) {
      expect(placeholders(catalogue[key]), key).toEqual(placeholders(EN[key]));
    }
  });

  it("has no empty text", () => {
    for (const key of KEYS) {
      expect(typeof catalogue[key], key).toBe("string");
      expect(catalogue[key].trim(), key).not.toBe("");
    }
  });

  it("translates every longer text", () => {
    const untranslated = KEYS.filter(
      (key) => !SAME_AS_ENGLISH.has(key) && words(EN[key]).length > LONG && catalogue[key] === EN[key],
    );
    expect(untranslated).toEqual([]);
  });
});

describe("the whitelist", () => {
  it("names only keys that exist", () => {
    for (const key of SAME_AS_ENGLISH) expect(KEYS, key).toContain(key);
  });
});
