import { describe, expect, it } from "vitest";
import { pointXY } from "./geometry";
import { arrowShape, hintOf } from "./hint";

describe("hintOf", () => {
  it("draws a ring move as an arrow from the ring to its destination", () => {
    expect(hintOf("a2-a5")).toEqual({ kind: "arrow", from: "a2", to: "a5" });
    expect(hintOf("F5-H7")).toEqual({ kind: "arrow", from: "f5", to: "h7" });
  });

  it("draws a placement, a row and a ring to remove as points", () => {
    expect(hintOf("e5")).toEqual({ kind: "place", at: "e5" });
    expect(hintOf("xa2-e6")).toEqual({ kind: "row", points: ["a2", "b3", "c4", "d5", "e6"] });
    expect(hintOf("xk10")).toEqual({ kind: "ring", at: "k10" });
  });

  it("draws nothing for a pass, nothing, or a token of no known form", () => {
    expect(hintOf("pass")).toBeNull();
    expect(hintOf(null)).toBeNull();
    expect(hintOf("")).toBeNull();
    expect(hintOf("z9-a1")).toBeNull();
  });
});

describe("arrowShape", () => {
  const S = 100;
  it("starts on the ring, ends with its tip on the destination and its head along the line", () => {
    const from = pointXY("e3", S);
    const to = pointXY("e7", S); // four steps up the column: straight up on the screen
    const a = arrowShape(from, to, 42, 24);
    expect(a.start).toEqual(from);
    expect(a.tip).toEqual(to);
    expect(a.shaftEnd.x).toBeCloseTo(to.x);
    expect(a.shaftEnd.y).toBeCloseTo(to.y + 42);
    // The head's base is 2 × 24 wide, across the line.
    expect(a.left.y).toBeCloseTo(to.y + 42);
    expect(a.right.y).toBeCloseTo(to.y + 42);
    expect(Math.abs(a.left.x - a.right.x)).toBeCloseTo(48);
  });

  it("keeps the head on a diagonal move perpendicular to it", () => {
    const from = pointXY("c3", S);
    const to = pointXY("f6", S);
    const a = arrowShape(from, to, 40, 20);
    const along = { x: to.x - a.shaftEnd.x, y: to.y - a.shaftEnd.y };
    expect(Math.hypot(along.x, along.y)).toBeCloseTo(40);
    const across = { x: a.left.x - a.right.x, y: a.left.y - a.right.y };
    expect(along.x * across.x + along.y * across.y).toBeCloseTo(0);
    expect(Math.hypot(across.x, across.y)).toBeCloseTo(40);
  });

  it("shortens the head of a short arrow so that a stub of shaft is left", () => {
    const a = arrowShape({ x: 0, y: 0 }, { x: 50, y: 0 }, 42, 24);
    expect(a.shaftEnd.x).toBeCloseTo(20);
  });

  it("does not divide by zero for an arrow of no length", () => {
    const p = { x: 5, y: 5 };
    expect(arrowShape(p, p, 42, 24)).toEqual({ start: p, shaftEnd: p, tip: p, left: p, right: p });
  });
});
