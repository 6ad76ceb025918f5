import { describe, expect, it, vi } from "vitest";

vi.mock("../i18n", () => ({ t: (key: string) => key, tn: (key: string) => key, lang: () => "en", engineName: () => "engine" }));

import { leaderboardApiUrl, leaderboardCategory, leaderboardHash } from "./leaderboard";
import { profileApiUrl, readerRecord, vsName } from "./player";

describe("a player's page", () => {
  it("asks for the player, with the reader to compare when there is one", () => {
    expect(profileApiUrl("Ann", null)).toBe("/api/player/Ann");
    expect(profileApiUrl("Ann", "Bob")).toBe("/api/player/Ann?vs=Bob");
    expect(profileApiUrl("a/b c", "x&y")).toBe("/api/player/a%2Fb%20c?vs=x%26y");
  });

  it("compares with a registered reader only, and not with themselves", () => {
    expect(vsName(null, "Ann")).toBeNull();
    expect(vsName({ name: "SwiftOtter4821", guest: true }, "Ann")).toBeNull();
    expect(vsName({ name: "ann" }, "Ann")).toBeNull();
    expect(vsName({ name: "Bob" }, "Ann")).toBe("Bob");
  });

  it("turns the record round to the reader's side", () => {
    // Ann's page read by Bob: Ann won 1, drew 2, lost 3 against Bob.
    expect(readerRecord({ opponent: "Bob", wins: 1, draws: 2, losses: 3 })).toEqual({ mine: 3, draws: 2, theirs: 1 });
  });
});

describe("the leaderboards", () => {
  it("read a known category from the address, all boards otherwise", () => {
    expect(leaderboardCategory("#/leaderboard")).toBeNull();
    expect(leaderboardCategory("#/leaderboard?category=blitz-rapid")).toBe("blitz-rapid");
    expect(leaderboardCategory("#/leaderboard?category=blitz")).toBeNull();
    expect(leaderboardCategory("#/leaderboard?category=")).toBeNull();
  });

  it("ask for one board or all of them", () => {
    expect(leaderboardApiUrl(null)).toBe("/api/leaderboard");
    expect(leaderboardApiUrl("standard-quick")).toBe("/api/leaderboard?category=standard-quick");
    expect(leaderboardHash("standard-quick")).toBe("#/leaderboard?category=standard-quick");
  });
});
