import { describe, expect, it, vi } from "vitest";

// The page's modules touch `document` when loaded; only pure functions are tested here.
vi.mock("../i18n", () => ({ t: (key: string) => key }));
vi.mock("../board/view", () => ({ BoardView: class {} }));

import type { ArchivedAction } from "../protocol";
import { readFileSync } from "node:fs";
import type { BoardView, Frame, SeatColor } from "../protocol";
import {
  archivedTurns,
  replayMarks,
  targetsOf,
  animatedAction,
  clampPly,
  clocksAt,
  playableActions,
  plyForKey,
  plyFromHash,
  replayHash,
} from "./replay-frames";

const moves: ArchivedAction[] = [
  { action: "e5", white_ms: 299_000, black_ms: 300_000, at: 1 },
  { action: "f6", white_ms: 299_000, black_ms: 297_500, at: 2 },
  { action: "g7", white_ms: 290_000, black_ms: 297_500, at: 3 },
];

describe("frames", () => {
  it("clamps to 0..total", () => {
    expect(clampPly(-1, 3)).toBe(0);
    expect(clampPly(4, 3)).toBe(3);
    expect(clampPly(2, 3)).toBe(2);
    expect(clampPly(Number.NaN, 3)).toBe(0);
    expect(clampPly(1.7, 3)).toBe(1);
    expect(clampPly(2, 0)).toBe(0);
  });

  it("counts only actions that have a frame after them", () => {
    expect(playableActions({ moves, frames: new Array(4) })).toBe(3);
    expect(playableActions({ moves, frames: new Array(3) })).toBe(2);
    expect(playableActions({ moves: [], frames: [] })).toBe(0);
  });
});

describe("keys", () => {
  it("steps and jumps", () => {
    expect(plyForKey("ArrowRight", 1, 3)).toBe(2);
    expect(plyForKey("ArrowLeft", 1, 3)).toBe(0);
    expect(plyForKey("Home", 2, 3)).toBe(0);
    expect(plyForKey("End", 0, 3)).toBe(3);
  });

  it("stays within the game", () => {
    expect(plyForKey("ArrowRight", 3, 3)).toBe(3);
    expect(plyForKey("ArrowLeft", 0, 3)).toBe(0);
  });

  it("ignores other keys", () => {
    expect(plyForKey("a", 1, 3)).toBeNull();
    expect(plyForKey(" ", 1, 3)).toBeNull();
  });
});

describe("animation", () => {
  it("animates a single step forward with its action", () => {
    expect(animatedAction(0, 1, moves)).toBe("e5");
    expect(animatedAction(2, 3, moves)).toBe("g7");
  });

  it("draws jumps and steps back at once", () => {
    expect(animatedAction(0, 2, moves)).toBeNull();
    expect(animatedAction(2, 1, moves)).toBeNull();
    expect(animatedAction(1, 1, moves)).toBeNull();
    expect(animatedAction(3, 4, moves)).toBeNull();
  });
});

describe("clocks", () => {
  const timed = { time: { minutes: 5, increment: 2 } };

  it("has none for an untimed game", () => {
    expect(clocksAt(moves, {}, 2)).toBeNull();
  });

  it("starts with the initial time", () => {
    expect(clocksAt(moves, timed, 0)).toEqual({ white: 300_000, black: 300_000 });
  });

  it("shows the times recorded with the current action", () => {
    expect(clocksAt(moves, timed, 1)).toEqual({ white: 299_000, black: 300_000 });
    expect(clocksAt(moves, timed, 3)).toEqual({ white: 290_000, black: 297_500 });
  });

  it("falls back to earlier times where some are missing", () => {
    const gappy: ArchivedAction[] = [moves[0], { action: "f6", at: 2 }, { action: "g7", black_ms: 1000, at: 3 }];
    expect(clocksAt(gappy, timed, 2)).toEqual({ white: 299_000, black: 300_000 });
    expect(clocksAt(gappy, timed, 3)).toEqual({ white: 299_000, black: 1000 });
  });
});

describe("address", () => {
  it("reads the frame from the hash", () => {
    expect(plyFromHash("#/replay/12?ply=7")).toBe(7);
    expect(plyFromHash("#/replay/12")).toBeNull();
    expect(plyFromHash("#/replay/12?ply=x")).toBeNull();
    expect(plyFromHash("#/replay/12?ply=-2")).toBeNull();
  });

  it("writes the frame into the hash", () => {
    expect(replayHash("12", 0)).toBe("#/replay/12");
    expect(replayHash("12", 7)).toBe("#/replay/12?ply=7");
    expect(plyFromHash(replayHash("12", 41))).toBe(41);
  });
});

describe("the replay's turns and marks", () => {
  const fixture = JSON.parse(readFileSync(new URL("../../e2e/fixtures/opponent-row.json", import.meta.url), "utf8")) as {
    actions: { token: string; color: SeatColor; board: BoardView }[];
  };
  const empty: BoardView = { rings: { white: [], black: [] }, markers: { white: [], black: [] } };
  // As the server sends them: frame i is the position before action i (who is to act), then the last one.
  const frames: Frame[] = [empty, ...fixture.actions.map((a) => a.board)].map((board, i) => ({
    position: "",
    board,
    to_move: fixture.actions[i]?.color ?? "white",
    stage: "move",
    pool: 0,
    removed: { white: 0, black: 0 },
  }));
  const moves: ArchivedAction[] = fixture.actions.map((a) => ({ action: a.token, at: 0 }));

  it("groups the actions into turns by who was to act", () => {
    const turns = archivedTurns(moves, frames, moves.length);
    expect(turns.find((t) => t.number === 66)?.tokens).toEqual(["xd5-h9", "xi10", "h5-h4"]);
    expect(turns.find((t) => t.number === 50)?.tokens).toEqual(["h5-i5", "xh3-h7", "xi4"]);
  });

  it("marks the turn of the frame's last action, up to it", () => {
    const turns = archivedTurns(moves, frames, moves.length);
    expect(replayMarks(turns, frames, 0)).toBeNull();
    const turn50 = turns.find((t) => t.number === 50)!;
    // After h5-i5 and the row, before the ring: the move and the row are marked, no ring yet.
    const m = replayMarks(turns, frames, turn50.first + 2)!;
    expect(m.from).toBe("h5");
    expect(m.to).toBe("i5");
    expect(m.rows).toEqual([["h3", "h4", "h5", "h6", "h7"]]);
    expect(m.rings).toEqual([]);
  });

  it("knows the rings each player needs", () => {
    expect(targetsOf({ variant: "standard" })).toEqual({ white: 3, black: 3 });
    expect(targetsOf({ variant: "blitz" })).toEqual({ white: 1, black: 1 });
    expect(targetsOf({ variant: "standard", handicap: { white: 2, black: 3 } })).toEqual({ white: 2, black: 3 });
  });
});
