import { describe, expect, it } from "vitest";
import {
  COLUMNS,
  DIRECTIONS,
  LINES,
  POINTS,
  between,
  isPoint,
  isValidCell,
  lineOf,
  nearestPoint,
  neighbours,
  parsePoint,
  pointName,
  pointXY,
} from "./geometry";

describe("points (G1, G2)", () => {
  it("has 85 distinct points", () => {
    expect(POINTS).toHaveLength(85);
    expect(new Set(POINTS).size).toBe(85);
  });

  it("lacks the six corners", () => {
    for (const corner of ["a1", "a6", "f1", "f11", "k6", "k11"]) {
      expect(isPoint(corner)).toBe(false);
      expect(POINTS).not.toContain(corner);
    }
  });

  it("holds the rows of the table in RULES.md G2", () => {
    const rows: Record<string, [number, number]> = {
      a: [2, 5], b: [1, 7], c: [1, 8], d: [1, 9], e: [1, 10], f: [2, 10],
      g: [2, 11], h: [3, 11], i: [4, 11], j: [5, 11], k: [7, 10],
    };
    for (const [col, [low, high]] of Object.entries(rows)) {
      const inColumn = POINTS.filter((p) => p[0] === col).map((p) => Number(p.slice(1)));
      expect(inColumn).toEqual(Array.from({ length: high - low + 1 }, (_, i) => low + i));
    }
  });

  it("parses names in either case and refuses others", () => {
    expect(parsePoint("e5")).toEqual({ c: 4, r: 5 });
    expect(parsePoint("K10")).toEqual({ c: 10, r: 10 });
    for (const bad of ["", "e", "l5", "e0", "e12", "e05x", "5e", "a1"]) expect(parsePoint(bad)).toBeNull();
    expect(pointName(4, 5)).toBe("e5");
    expect(isValidCell(0.5, 3)).toBe(false);
  });
});

describe("lines (G3)", () => {
  it("has 11 lines per direction with lengths 4,7,8,9,10,9,10,9,8,7,4", () => {
    for (const direction of DIRECTIONS) {
      const lengths = LINES.filter((l) => l.direction === direction).map((l) => l.points.length);
      expect(lengths).toEqual([4, 7, 8, 9, 10, 9, 10, 9, 8, 7, 4]);
    }
  });

  it("gives 123 windows of five points", () => {
    expect(LINES.reduce((n, l) => n + Math.max(0, l.points.length - 4), 0)).toBe(123);
  });

  it("orders columns, rows and diagonals as documented", () => {
    expect(LINES[0].points).toEqual(["a2", "a3", "a4", "a5"]);
    expect(LINES[11].points).toEqual(["b1", "c1", "d1", "e1"]);
    expect(LINES[22].points).toEqual(["g2", "h3", "i4", "j5"]);
    expect(LINES[32].points).toEqual(["b7", "c8", "d9", "e10"]);
  });

  it("every point lies on one line of each direction", () => {
    for (const direction of DIRECTIONS) {
      const covered = LINES.filter((l) => l.direction === direction).flatMap((l) => l.points);
      expect([...covered].sort()).toEqual([...POINTS].sort());
    }
  });

  // G4: a lone ring's moves are the points it can reach along the six senses.
  function loneRingMoves(point: string): number {
    return POINTS.filter((p) => lineOf(point, p) !== null).length;
  }

  it("reproduces the lone-ring check figures of G4", () => {
    expect(loneRingMoves("f6")).toBe(24);
    expect(loneRingMoves("e5")).toBe(26);
    expect(loneRingMoves("a2")).toBe(18);
    expect(POINTS.reduce((n, p) => n + loneRingMoves(p), 0)).toBe(1848);
  });
});

describe("neighbours, lineOf, between", () => {
  it("finds six neighbours inside and fewer at the edge", () => {
    expect(neighbours("f6").sort()).toEqual(["e5", "e6", "f5", "f7", "g6", "g7"]);
    expect(neighbours("a2").sort()).toEqual(["a3", "b2", "b3"]);
    // (1,−1) is not a line: b1 is not a neighbour of a2.
    expect(neighbours("a2")).not.toContain("b1");
  });

  it("walks a line in either order", () => {
    expect(lineOf("c3", "c7")).toEqual(["c3", "c4", "c5", "c6", "c7"]);
    expect(lineOf("g3", "c3")).toEqual(["g3", "f3", "e3", "d3", "c3"]);
    expect(lineOf("a2", "e6")).toEqual(["a2", "b3", "c4", "d5", "e6"]);
  });

  it("refuses points not on one line", () => {
    expect(lineOf("e5", "e5")).toBeNull();
    expect(lineOf("e5", "f4")).toBeNull(); // the (1,−1) step
    expect(lineOf("e5", "g6")).toBeNull();
    expect(lineOf("e5", "a1")).toBeNull();
    expect(between("e5", "g6")).toBeNull();
  });

  it("gives the points strictly between", () => {
    expect(between("e5", "e9")).toEqual(["e6", "e7", "e8"]);
    expect(between("e5", "e6")).toEqual([]);
  });
});

describe("drawing coordinates", () => {
  it("follows x = c·0.866·S, y = (c/2 − r)·S", () => {
    const { x, y } = pointXY("c3", 100);
    expect(x).toBeCloseTo(2 * 86.6, 1);
    expect(y).toBeCloseTo(-200, 6);
  });

  it("puts neighbours one step apart", () => {
    for (const p of POINTS) {
      const a = pointXY(p, 1);
      for (const n of neighbours(p)) {
        const b = pointXY(n, 1);
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeCloseTo(1, 9);
      }
    }
  });

  it("draws letters left to right and rows upward", () => {
    const columnX = [...COLUMNS].map((col) => pointXY(POINTS.find((p) => p[0] === col) ?? "", 1).x);
    expect([...columnX].sort((a, b) => a - b)).toEqual(columnX);
    for (const p of POINTS) expect(pointXY(p, 1).x).toBeCloseTo(columnX[COLUMNS.indexOf(p[0])], 9);
    expect(pointXY("e6", 1).y).toBeLessThan(pointXY("e5", 1).y);
  });

  it("finds the nearest point within reach", () => {
    for (const p of POINTS) {
      const { x, y } = pointXY(p, 60);
      expect(nearestPoint(x, y, 60, 1)).toBe(p);
      expect(nearestPoint(x + 20, y - 15, 60, 30)).toBe(p);
    }
    const e5 = pointXY("e5", 60);
    expect(nearestPoint(e5.x + 40, e5.y, 60, 30)).toBeNull();
    expect(nearestPoint(-500, -500, 60, 30)).toBeNull();
  });
});
