import { describe, expect, it, vi } from "vitest";

// The real catalogue touches `document` when loaded; the words themselves are not
// under test here, so `t` returns the key and its arguments.
vi.mock("../i18n", () => {
  const t = (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key;
  return {
    t,
    tn: (base: string, count: number) => t(`${base}.n`, { count }),
    lang: () => "en",
    engineName: (level: number) => t("engine.name", { level }),
  };
});

import {
  archiveApiUrl,
  dateLocale,
  formatDate,
  playerName,
  archiveHash,
  optionsSummary,
  pageOffsets,
  parseArchiveQuery,
} from "./archive";

describe("archive query", () => {
  it("reads an empty or bare hash as no filter", () => {
    const none = { player: "", from: "", to: "", offset: 0 };
    expect(parseArchiveQuery("")).toEqual(none);
    expect(parseArchiveQuery("#/archive")).toEqual(none);
    expect(parseArchiveQuery("#/archive?")).toEqual(none);
  });

  it("reads every field", () => {
    expect(parseArchiveQuery("#/archive?player=Ann+Lee&from=2026-01-02&to=2026-02-03&offset=50")).toEqual({
      player: "Ann Lee",
      from: "2026-01-02",
      to: "2026-02-03",
      offset: 50,
    });
  });

  it("drops malformed dates and offsets", () => {
    const q = parseArchiveQuery("#/archive?from=yesterday&to=2026-1-2&offset=-5");
    expect(q).toEqual({ player: "", from: "", to: "", offset: 0 });
    expect(parseArchiveQuery("#/archive?offset=abc").offset).toBe(0);
    expect(parseArchiveQuery("#/archive?offset=2.5").offset).toBe(0);
  });

  it("writes a hash that reads back the same", () => {
    const q = { player: "Zoë & co=1", from: "2025-12-31", to: "", offset: 25 };
    const hash = archiveHash(q);
    expect(hash.startsWith("#/archive?")).toBe(true);
    expect(hash).not.toContain("to=");
    expect(parseArchiveQuery(hash)).toEqual(q);
  });

  it("writes the bare hash for no filter", () => {
    expect(archiveHash({ player: " ", from: "", to: "", offset: 0 })).toBe("#/archive");
  });

  it("builds the server request with limit and offset", () => {
    expect(archiveApiUrl({ player: "bob", from: "", to: "2026-03-04", offset: 0 })).toBe(
      "/api/archive?player=bob&to=2026-03-04&limit=25&offset=0",
    );
    expect(archiveApiUrl({ player: "", from: "", to: "", offset: 75 }, 10)).toBe("/api/archive?limit=10&offset=75");
  });
});

describe("paging", () => {
  it("has no newer page at the start", () => {
    expect(pageOffsets(0, 25, 60)).toEqual({ newer: null, older: 25 });
  });
  it("has both in the middle", () => {
    expect(pageOffsets(25, 25, 60)).toEqual({ newer: 0, older: 50 });
  });
  it("has no older page at the end", () => {
    expect(pageOffsets(50, 10, 60)).toEqual({ newer: 25, older: null });
    expect(pageOffsets(25, 25, 50)).toEqual({ newer: 0, older: null });
  });
  it("has neither for a single page or nothing", () => {
    expect(pageOffsets(0, 3, 3)).toEqual({ newer: null, older: null });
    expect(pageOffsets(0, 0, 0)).toEqual({ newer: null, older: null });
  });
  it("leads back from an offset past the end", () => {
    expect(pageOffsets(10, 0, 5)).toEqual({ newer: 0, older: null });
  });
});

describe("words", () => {
  it("summarises options without the log flag", () => {
    expect(optionsSummary({ variant: "standard", log: true })).toBe("variant.standard · opt.untimed");
    expect(
      optionsSummary({
        variant: "blitz",
        log: true,
        time: { minutes: 5, increment: 3 },
        handicap: { white: 3, black: 2 },
        turn_limit: 40,
      }),
    ).toBe("variant.blitz · opt.time(minutes=5,increment=3) · opt.handicap(white=3,black=2) · opt.turns(turns=40)");
  });
});

describe("dates and names", () => {
  // 1 December 2026, 12:00 UTC: the same day in every time zone the tests run in.
  const noon = Date.UTC(2026, 11, 1, 12, 0);

  it("writes a date in the page's language, not the browser's", () => {
    expect(formatDate(noon, "en")).toMatch(/1 Dec 2026|Dec 1, 2026/);
    expect(formatDate(noon, "de")).toMatch(/^01\.12\.2026/);
    expect(formatDate(noon, "nl")).toMatch(/1 dec\.? 2026/);
    expect(formatDate(noon, "pl")).toMatch(/1 gru 2026/);
  });

  it("takes the browser's regional form of the page's language for dates", () => {
    expect(dateLocale("en", ["en-GB", "de-DE"])).toBe("en-GB");
    expect(dateLocale("de", ["en-GB", "de-AT"])).toBe("de-AT");
    expect(dateLocale("pl", ["en-GB", "de-DE"])).toBe("pl");
    expect(formatDate(noon, dateLocale("en", ["en-GB"]))).toMatch(/^1 Dec 2026/);
  });

  it("names the engine in the page's language and keeps a person's name", () => {
    expect(playerName("Engine (level 3)", 3)).toBe("engine.name(level=3)");
    expect(playerName("SwiftOtter4821", undefined)).toBe("SwiftOtter4821");
  });
});
