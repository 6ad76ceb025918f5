import { describe, expect, it } from "vitest";
import { buildEvalGraph, plyAtX, xOfPly, yOfChance } from "./analysis-graph";

describe("the evaluation graph's scales", () => {
  it("spreads the frames over the width, the start at the left edge and the end at the right", () => {
    expect(xOfPly(0, 5, 400)).toBe(0);
    expect(xOfPly(2, 5, 400)).toBe(200);
    expect(xOfPly(4, 5, 400)).toBe(400);
    expect(xOfPly(0, 1, 400)).toBe(200);
  });

  it("puts a win chance of 1 at the top, 0 at the bottom and 50 % in the middle", () => {
    expect(yOfChance(1, 100)).toBe(0);
    expect(yOfChance(0, 100)).toBe(100);
    expect(yOfChance(0.5, 100)).toBe(50);
    expect(yOfChance(1.5, 100)).toBe(0);
    expect(yOfChance(Number.NaN, 100)).toBe(50);
  });

  it("finds the frame nearest to a point along the width", () => {
    expect(plyAtX(0, 400, 5)).toBe(0);
    expect(plyAtX(149, 400, 5)).toBe(1);
    expect(plyAtX(151, 400, 5)).toBe(2);
    expect(plyAtX(400, 400, 5)).toBe(4);
    expect(plyAtX(-20, 400, 5)).toBe(0);
    expect(plyAtX(999, 400, 5)).toBe(4);
    expect(plyAtX(50, 400, 1)).toBe(0);
  });
});

describe("buildEvalGraph", () => {
  const m = buildEvalGraph([0.5, 0.75, 0.25, 0], [null, "inaccuracy", null, "blunder"], { width: 300, height: 100 });

  it("draws the curve through every frame", () => {
    expect(m.xs).toEqual([0, 100, 200, 300]);
    expect(m.ys).toEqual([50, 25, 75, 100]);
    expect(m.line).toBe("M0,50L100,25L200,75L300,100");
    expect(m.mid).toBe(50);
  });

  it("fills White's share from the bottom up to the curve", () => {
    expect(m.area).toBe("M0,100L0,50L100,25L200,75L300,100L300,100Z");
  });

  it("puts a dot on each marked action's frame", () => {
    expect(m.dots).toEqual([
      { ply: 1, x: 100, y: 25, mark: "inaccuracy" },
      { ply: 3, x: 300, y: 100, mark: "blunder" },
    ]);
  });

  it("draws a game without actions as a level line", () => {
    const one = buildEvalGraph([0.5], [null], { width: 200, height: 80 });
    expect(one.line).toBe("M0,40L200,40");
    expect(one.area).toBe("M0,80L0,40L200,40L200,80Z");
    expect(one.dots).toEqual([]);
  });

  it("rounds to tenths of a pixel", () => {
    const r = buildEvalGraph([0.333, 0.5, 0.5], [null, null, null], { width: 100, height: 70 });
    expect(r.ys[0]).toBe(46.7);
    expect(r.xs).toEqual([0, 50, 100]);
  });
});
