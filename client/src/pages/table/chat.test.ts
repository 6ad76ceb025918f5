import { describe, expect, it, vi } from "vitest";

// `t` returns the key and its arguments.
vi.mock("../../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
}));

import type { PlayerView, TableView } from "../../protocol";
import { spectatorsText, typedLine } from "./chat";

const seat = (name: string) => ({ id: 1, name, online: true }) as PlayerView;

describe("a typed line", () => {
  it("is sent trimmed; nothing for an empty one", () => {
    expect(typedLine("  hello  ")).toEqual({ text: "hello", quiet: true });
    expect(typedLine("   ")).toBeNull();
  });

  it("answers in the log when it is a command; chat shows as its event", () => {
    expect(typedLine("/who")).toEqual({ text: "/who", quiet: false });
    expect(typedLine("who?")?.quiet).toBe(true);
  });
});

describe("who is watching", () => {
  const view = (spectators: string[], count: number, seats: TableView["seats"] = { white: seat("ann"), black: null }) =>
    ({ seats, spectators, spectator_count: count }) as Pick<TableView, "seats" | "spectators" | "spectator_count">;

  it("names the spectators, and counts those not named", () => {
    expect(spectatorsText(view(["cy", "di"], 2))).toBe("table.spectators(names=cy, di)");
    expect(spectatorsText(view(["cy"], 4))).toBe("table.spectators(names=cy +3)");
  });

  it("leaves out a player who just sat down and is still named among them", () => {
    expect(spectatorsText(view(["ann", "cy"], 2))).toBe("table.spectators(names=cy)");
    expect(spectatorsText(view(["ann"], 1))).toBe("table.noSpectators");
  });

  it("says when nobody else watches", () => {
    expect(spectatorsText(view([], 0))).toBe("table.noSpectators");
  });
});
