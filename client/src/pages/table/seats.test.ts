import { describe, expect, it, vi } from "vitest";

// `t` returns the key and its arguments.
vi.mock("../../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
  engineName: (level: number) => `engine ${level}`,
}));

import type { ClockView, GameView, PlayerView, TableView } from "../../protocol";
import { barSides } from "../player-bar";
import { barModel, clockMs, clockText, thinkingText, thoughtDepth } from "./seats";

const ann: PlayerView = { id: 1, name: "ann", online: true } as PlayerView;
const bob: PlayerView = { id: 2, name: "bob", online: false } as PlayerView;
const engine: PlayerView = { name: "Engine", bot: 3, online: true } as PlayerView;

function table(over: Partial<TableView> = {}, game?: Partial<GameView>): TableView {
  return {
    id: "t1",
    seats: { white: ann, black: bob },
    spectators: [],
    spectator_count: 0,
    chat: [],
    version: 4,
    game: game ? ({ id: 7, to_move: "black", paused: false, moves: ["e5"], ...game } as GameView) : undefined,
    ...over,
  } as TableView;
}

describe("the clocks", () => {
  const clocks: ClockView = { white_ms: 60_000, black_ms: 30_000, running: "black", increment: 0 };

  it("count down only the running clock, from when they were received", () => {
    expect(clockMs(clocks, "black", 1_500, false)).toBe(28_500);
    expect(clockMs(clocks, "white", 1_500, false)).toBe(60_000);
  });

  it("stand still while the game is paused", () => {
    expect(clockMs(clocks, "black", 1_500, true)).toBe(30_000);
  });
});

describe("the bars", () => {
  it("put the side drawn at the bottom below the board", () => {
    expect(barSides(false)).toEqual({ top: "black", bottom: "white" });
    expect(barSides(true)).toEqual({ top: "white", bottom: "black" });
  });

  it("mark the seat to act in a running game, and no one once it is over", () => {
    expect(barModel(table({}, {}), "black", "white").toMove).toBe(true);
    expect(barModel(table({}, {}), "white", "white").toMove).toBe(false);
    const over = table({}, { result: { winner: "white", score: "1-0", termination: "resignation" } as GameView["result"] });
    expect(barModel(over, "black", "white").toMove).toBe(false);
  });

  it("show the engine thinking only while it is to act and the game is not paused", () => {
    const view = table({ seats: { white: ann, black: engine } }, {});
    expect(barModel(view, "black", "white").thinking).toBe(true);
    expect(barModel(view, "white", "white").thinking).toBe(false);
    expect(barModel(table({ seats: { white: ann, black: engine } }, { paused: true }), "black", "white").thinking).toBe(false);
    // A person to act does not "think".
    expect(barModel(table({}, {}), "black", "white").thinking).toBe(false);
  });

  it("say that a person has gone, never the engine", () => {
    expect(barModel(table(), "black", null).offline).toBe(true);
    expect(barModel(table(), "white", null).offline).toBe(false);
    expect(barModel(table({ seats: { white: ann, black: { ...engine, online: false } } }), "black", null).offline).toBe(false);
  });

  it("offer a free seat to a reader seated nowhere, between games", () => {
    const free = table({ seats: { white: ann, black: null } });
    expect(barModel(free, "black", null).join).toBe(true);
    expect(barModel(free, "black", "white").join).toBe(false);
    expect(barModel(free, "white", null).join).toBe(false);
    expect(barModel(table({ seats: { white: ann, black: null } }, {}), "black", null).join).toBe(false);
  });

  it("carry the rating change of a rated game once it is over", () => {
    const diff = { before: 1500, after: 1520, provisional: false };
    const view = table({}, { result: { winner: "white", score: "1-0", termination: "resignation", ratings: { white: diff, black: diff } } as GameView["result"] });
    expect(barModel(view, "white", null).rating).toEqual(diff);
    expect(barModel(table({}, {}), "white", null).rating).toBeNull();
  });
});

describe("the engine's thinking", () => {
  it("says its seconds, and its depth once it tells it for the version on show", () => {
    expect(thinkingText(4, null)).toBe("game.thinking(seconds=4)");
    expect(thinkingText(4, 9)).toBe("game.thinkingDepth(seconds=4,depth=9)");
    const thought = { version: 4, color: "black" as const, depth: 9 };
    expect(thoughtDepth(thought, "black", 4)).toBe(9);
    expect(thoughtDepth(thought, "black", 5)).toBeNull();
    expect(thoughtDepth(thought, "white", 4)).toBeNull();
    expect(thoughtDepth(null, "black", 4)).toBeNull();
  });
});

describe("a correspondence clock", () => {
  it("says days and hours, then hours and minutes, then the last hour as a live clock", () => {
    const h = 3_600_000;
    expect(clockText(2 * 24 * h + 4 * h + 59_000, { days: 3 })).toBe("clock.daysHours(days=2,hours=4)");
    expect(clockText(5 * h + 12 * 60_000, { days: 1 })).toBe("clock.hoursMinutes(hours=5,minutes=12)");
    expect(clockText(h - 1000, { days: 1 })).toBe("59:59");
    // A live clock of over an hour stays minutes and seconds.
    expect(clockText(2 * h, {})).toBe("120:00");
  });
});
