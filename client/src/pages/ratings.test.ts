import { describe, expect, it, vi } from "vitest";

// The catalogue touches `document` when loaded; `t` returns the key here (the
// variant and time class words are the catalogues' own test).
vi.mock("../i18n", () => ({ t: (key: string) => key }));

import {
  CATEGORIES,
  categoryLabel,
  categoryOf,
  changeDirection,
  isRegistered,
  profileHash,
  ratingChange,
  ratingText,
  signed,
  sortByCategory,
} from "./ratings";

describe("categories", () => {
  it("lists the server's ten, standard first, fastest first, correspondence last", () => {
    expect(CATEGORIES).toEqual([
      "standard-bullet",
      "standard-quick",
      "standard-rapid",
      "standard-classical",
      "standard-correspondence",
      "blitz-bullet",
      "blitz-quick",
      "blitz-rapid",
      "blitz-classical",
      "blitz-correspondence",
    ]);
  });

  it("finds a game's category as the server does: minutes + 30 × increment seconds", () => {
    const of = (variant: "standard" | "blitz", minutes: number, increment: number) => categoryOf({ variant, time: { minutes, increment } });
    expect(categoryOf({ variant: "standard" })).toBeNull();
    expect(of("standard", 1, 0)).toBe("standard-bullet");
    expect(of("standard", 2, 1)).toBe("standard-bullet"); // 150 s
    expect(of("standard", 2, 2)).toBe("standard-quick"); // 180 s
    expect(of("standard", 3, 0)).toBe("standard-quick");
    expect(of("standard", 7, 59)).toBe("standard-classical");
    expect(of("standard", 7, 1)).toBe("standard-quick"); // 420 + 30 = 450 s
    expect(of("standard", 7, 2)).toBe("standard-rapid"); // 420 + 60 = 480 s
    expect(of("standard", 10, 5)).toBe("standard-rapid");
    expect(of("standard", 24, 0)).toBe("standard-rapid");
    expect(of("standard", 25, 0)).toBe("standard-classical");
    expect(of("blitz", 5, 3)).toBe("blitz-quick");
    // Days per turn rate in their own category; unlimited games are not rated.
    expect(categoryOf({ variant: "blitz", correspondence: { days: 3 } })).toBe("blitz-correspondence");
    expect(categoryOf({ variant: "standard", correspondence: {} })).toBeNull();
  });

  it("names a category by its variant and time class, and leaves an unknown one as it is", () => {
    expect(categoryLabel("standard-rapid")).toBe("variant.standard · speed.rapid");
    expect(categoryLabel("blitz-bullet")).toBe("variant.blitz · speed.bullet");
    expect(categoryLabel("chess-blitz")).toBe("chess-blitz");
    expect(categoryLabel("standard-rapid-x")).toBe("standard-rapid-x");
  });

  it("sorts by category in the server's order, unknown ones last", () => {
    const items = ["blitz-rapid", "odd", "standard-classical", "standard-bullet"].map((category) => ({ category }));
    expect(sortByCategory(items, (i) => i.category).map((i) => i.category)).toEqual([
      "standard-bullet",
      "standard-classical",
      "blitz-rapid",
      "odd",
    ]);
  });
});

describe("ratings in words", () => {
  it("marks a provisional rating with a question mark", () => {
    expect(ratingText(1662, false)).toBe("1662");
    expect(ratingText(1662, true)).toBe("1662?");
    expect(ratingText(1661.6, false)).toBe("1662");
  });

  it("signs a difference with a plus, a minus sign or ±", () => {
    expect(signed(162)).toBe("+162");
    expect(signed(-12)).toBe("−12");
    expect(signed(0)).toBe("±0");
    expect(signed(-0.3)).toBe("±0");
  });

  it("writes a change as before → after (difference)", () => {
    expect(ratingChange({ before: 1500, after: 1662, provisional: false })).toBe("1500 → 1662 (+162)");
    expect(ratingChange({ before: 1500, after: 1338, provisional: true })).toBe("1500 → 1338? (−162)");
    expect(ratingChange({ before: 1712, after: 1712, provisional: false })).toBe("1712 → 1712 (±0)");
  });

  it("tells up from down", () => {
    expect(changeDirection({ before: 1500, after: 1662, provisional: true })).toBe("up");
    expect(changeDirection({ before: 1500, after: 1338, provisional: true })).toBe("down");
    expect(changeDirection({ before: 1500, after: 1500, provisional: false })).toBe("same");
  });
});

describe("players' pages", () => {
  it("belong to registered players only: not guests, not the engine", () => {
    expect(isRegistered({})).toBe(true);
    expect(isRegistered({ guest: false })).toBe(true);
    expect(isRegistered({ guest: true })).toBe(false);
    expect(isRegistered({ bot: 3 })).toBe(false);
    expect(isRegistered(null)).toBe(false);
  });

  it("are addressed #/@/<name>, the name escaped", () => {
    expect(profileHash("Ann")).toBe("#/@/Ann");
    expect(profileHash("a b/c?d")).toBe("#/@/a%20b%2Fc%3Fd");
  });
});
