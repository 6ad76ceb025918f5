import { beforeAll, describe, expect, it, vi } from "vitest";

// The module reads `navigator` and sets `document.documentElement.lang` when loaded:
// stand-ins are enough (Node 20 has neither).
let i18n: typeof import("./index");
beforeAll(async () => {
  vi.stubGlobal("document", { documentElement: {} });
  vi.stubGlobal("navigator", { languages: ["en-GB"], language: "en-GB" });
  i18n = await import("./index");
});

describe("plural forms", () => {
  it("English: one and other", () => {
    i18n.setLang("en");
    expect(i18n.tn("archive.games", 1)).toBe("1 game");
    expect(i18n.tn("archive.games", 0)).toBe("0 games");
    expect(i18n.tn("archive.games", 2)).toBe("2 games");
    expect(i18n.tn("lobby.players", 1)).toBe("1 player online");
  });

  it("Polish: one, few and many", () => {
    i18n.setLang("pl");
    expect(i18n.tn("archive.games", 1)).toBe("1 partia");
    expect(i18n.tn("archive.games", 3)).toBe("3 partie");
    expect(i18n.tn("archive.games", 5)).toBe("5 partii");
    expect(i18n.tn("archive.games", 12)).toBe("12 partii");
    expect(i18n.tn("archive.games", 22)).toBe("22 partie");
    expect(i18n.tn("archive.games", 25)).toBe("25 partii");
    expect(i18n.tn("lobby.players", 2)).toBe("2 graczy w sieci");
    expect(i18n.tn("lobby.running", 4)).toBe("4 partie w toku");
  });

  it("Dutch and German", () => {
    i18n.setLang("nl");
    expect(i18n.tn("archive.games", 1)).toBe("1 partij");
    expect(i18n.tn("archive.games", 7)).toBe("7 partijen");
    i18n.setLang("de");
    expect(i18n.tn("lobby.running", 1)).toBe("1 laufende Partie");
    expect(i18n.tn("lobby.running", 2)).toBe("2 laufende Partien");
  });

  it("every plural key has all four forms in every catalogue", () => {
    for (const [code, catalogue] of Object.entries(i18n.catalogues)) {
      const bases = Object.keys(catalogue).filter((k) => k.endsWith(".other")).map((k) => k.slice(0, -".other".length));
      expect(bases.length, code).toBeGreaterThan(0);
      for (const base of bases) {
        for (const form of ["one", "few", "many", "other"]) expect(catalogue, `${code} ${base}.${form}`).toHaveProperty(`${base}.${form}`);
      }
    }
  });
});

describe("the engine's name", () => {
  it("is written in the page's language", () => {
    const names: Record<string, string> = {
      en: "Engine (level 3)",
      nl: "Engine (niveau 3)",
      pl: "Silnik (poziom 3)",
      de: "Engine (Stufe 3)",
    };
    for (const [code, name] of Object.entries(names)) {
      i18n.setLang(code as "en");
      expect(i18n.engineName(3)).toBe(name);
    }
    i18n.setLang("en");
  });
});
