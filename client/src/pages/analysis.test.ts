import { describe, expect, it } from "vitest";
import type { AnalysisResult } from "../protocol";
import {
  analysedActions,
  bestAt,
  betterThan,
  settingsOf,
  evalAt,
  favoured,
  formatEval,
  isMark,
  judgedAt,
  lineAt,
  markAt,
  markSymbol,
  progressOf,
  winChances,
} from "./analysis";

/** The example of docs/protocol.md, shortened: three actions, the last one ending the game. */
const result: AnalysisResult = {
  engine: "yinsh-engine 0.1.0",
  settings: "depth 6",
  outdated: true,
  start: { cp: 0, white_chance: 0.5 },
  actions: [
    { action: "e3", best: "f6", line: ["f6", "e5"], eval: { cp: -4, white_chance: 0.459 }, loss: 0.04 },
    { action: "h5-h3", best: "f5-h7", line: ["f5-h7", "g4"], eval: { win: -3, white_chance: 0 }, loss: 0.371, mark: "blunder" },
    { action: "xa2-e6", eval: { over: "black", white_chance: 0 }, loss: 0 },
  ],
  summary: {
    white: { inaccuracies: 3, mistakes: 1, blunders: 4, accuracy: 83.1 },
    black: { inaccuracies: 5, mistakes: 0, blunders: 2, accuracy: 88.4 },
  },
};

describe("evaluations in words", () => {
  it("writes hundredths of a ring as rings with two decimals and a sign", () => {
    expect(formatEval({ cp: 35, white_chance: 0.67 })).toBe("+0.35");
    expect(formatEval({ cp: -120, white_chance: 0.08 })).toBe("-1.20");
    expect(formatEval({ cp: 1234, white_chance: 1 })).toBe("+12.34");
    expect(formatEval({ cp: 0, white_chance: 0.5 })).toBe("0.00");
  });

  it("writes a forced win with #, negative for Black", () => {
    expect(formatEval({ win: 3, white_chance: 1 })).toBe("#3");
    expect(formatEval({ win: -3, white_chance: 0 })).toBe("#-3");
  });

  it("writes a finished game as its score", () => {
    expect(formatEval({ over: "white", white_chance: 1 })).toBe("1-0");
    expect(formatEval({ over: "black", white_chance: 0 })).toBe("0-1");
    expect(formatEval({ over: "draw", white_chance: 0.5 })).toBe("½-½");
  });

  it("says whom it favours", () => {
    expect(favoured({ cp: 35, white_chance: 0.67 })).toBe("white");
    expect(favoured({ cp: -1, white_chance: 0.49 })).toBe("black");
    expect(favoured({ cp: 0, white_chance: 0.5 })).toBeNull();
    expect(favoured({ win: -2, white_chance: 0 })).toBe("black");
    expect(favoured({ over: "white", white_chance: 1 })).toBe("white");
    expect(favoured({ over: "draw", white_chance: 0.5 })).toBeNull();
  });
});

describe("marks", () => {
  it("have the chess symbols", () => {
    expect(markSymbol("inaccuracy")).toBe("?!");
    expect(markSymbol("mistake")).toBe("?");
    expect(markSymbol("blunder")).toBe("??");
    expect(markSymbol(undefined)).toBe("");
    expect(markSymbol("brilliant")).toBe("");
  });

  it("are only the three known ones", () => {
    expect(isMark("mistake")).toBe(true);
    expect(isMark("great")).toBe(false);
    expect(isMark(undefined)).toBe(false);
  });

  it("name the better action only when it differs from the one played", () => {
    expect(betterThan(result.actions[1])).toBe("f5-h7");
    expect(betterThan(result.actions[0])).toBeNull(); // not marked
    expect(betterThan({ action: "F5-h7", best: "f5-h7", eval: { cp: 0, white_chance: 0.5 }, loss: 0.2, mark: "blunder" })).toBeNull();
    expect(betterThan({ action: "e5", eval: { cp: 0, white_chance: 0.5 }, loss: 0.2, mark: "mistake" })).toBeNull();
  });
});

describe("frames", () => {
  it("evaluate the start at 0 and each action's position after it", () => {
    expect(evalAt(result, 0)).toBe(result.start);
    expect(evalAt(result, 1)).toBe(result.actions[0].eval);
    expect(evalAt(result, 3)).toBe(result.actions[2].eval);
    expect(evalAt(result, 4)).toBeNull();
  });

  it("take the engine's choice from the position before the next action", () => {
    expect(bestAt(result, 0)).toBe("f6");
    expect(bestAt(result, 1)).toBe("f5-h7");
    expect(bestAt(result, 2)).toBeNull(); // no choice there
    expect(bestAt(result, 3)).toBeNull(); // the end of the game
    expect(lineAt(result, 1)).toEqual(["f5-h7", "g4"]);
    expect(lineAt(result, 2)).toEqual([]);
    expect(lineAt({ ...result, actions: [{ ...result.actions[0], line: [] }] }, 0)).toEqual(["f6"]);
  });

  it("judge the action that led to them", () => {
    expect(judgedAt(result, 0)).toBeNull();
    expect(judgedAt(result, 2)).toBe(result.actions[1]);
    expect(markAt(result, 2)).toBe("blunder");
    expect(markAt(result, 1)).toBeNull();
    expect(markAt(result, 0)).toBeNull();
  });

  it("give White's chance at the start and after each action, as far as the viewer goes", () => {
    expect(winChances(result, 3)).toEqual([0.5, 0.459, 0, 0]);
    expect(winChances(result, 1)).toEqual([0.5, 0.459]);
    expect(analysedActions(result, 10)).toBe(3);
  });
});

describe("the rest", () => {
  it("reads the settings: a node budget or a depth", () => {
    expect(settingsOf("1000000 nodes")).toEqual({ nodes: 1000000 });
    expect(settingsOf("depth 6")).toEqual({ depth: 6 });
    expect(settingsOf("movetime 300")).toBeNull();
    expect(settingsOf("nodes")).toBeNull();
  });

  it("measures progress once the total is known", () => {
    expect(progressOf({ state: "queued", done: 0, total: 0 })).toBeNull();
    expect(progressOf({ state: "running", done: 31, total: 82 })).toBeCloseTo(31 / 82);
    expect(progressOf({ state: "done", done: 82, total: 82 })).toBe(1);
  });
});
