import { describe, expect, it, vi } from "vitest";

// The real catalogue touches the browser when loaded: `t` gives the key here.
vi.mock("../i18n", () => ({
  t: (key: string) => key,
  lang: () => "en",
}));

import { CLOCKS, canPlayOn, playOnOptions } from "./play-on";

describe("play on from here", () => {
  const fen = "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b move 1-0 3-3 9";

  it("needs a position that is not finished", () => {
    expect(canPlayOn(fen)).toBe(true);
    expect(canPlayOn("bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 w end 1-0 1-1 9")).toBe(false);
    expect(canPlayOn(null)).toBe(false);
    expect(canPlayOn("")).toBe(false);
  });

  it("asks for a table at the position with the clock chosen", () => {
    expect(playOnOptions(fen, "")).toEqual({ variant: "standard", log: true, position: fen });
    expect(playOnOptions(fen, "2")).toEqual({ variant: "standard", log: true, position: fen, time: CLOCKS[2] });
    // Never rated: the server refuses rated games from a position.
    expect(playOnOptions(fen, "0").rated).toBeUndefined();
  });
});
