import { describe, expect, it, vi } from "vitest";

vi.mock("../i18n", () => ({ t: (key: string) => key }));

import type { RatingCategory, RatingPointView } from "../protocol";
import { buildGraph, categoriesOf, distinctLabels, lineStyle, niceStep, pathOf, ratingScale, tickFormat } from "./rating-graph";

const DAY = 86_400_000;
const point = (game: number, category: RatingCategory, at: number, rating: number): RatingPointView => ({ game, category, at, rating });

describe("the rating axis", () => {
  it("takes round steps", () => {
    expect(niceStep(100, 4)).toBe(25);
    expect(niceStep(400, 4)).toBe(100);
    expect(niceStep(330, 4)).toBe(100);
    expect(niceStep(180, 4)).toBe(50);
    expect(niceStep(1000, 4)).toBe(250);
    expect(niceStep(3, 4)).toBe(10);
  });

  it("spans every rating with round bounds, at least 100 points", () => {
    expect(ratingScale([1500])).toEqual({ min: 1450, max: 1550, ticks: [1450, 1475, 1500, 1525, 1550] });
    const s = ratingScale([1338, 1662]);
    expect(s.min).toBeLessThanOrEqual(1338);
    expect(s.max).toBeGreaterThanOrEqual(1662);
    expect(s.ticks[0]).toBe(s.min);
    expect(s.ticks[s.ticks.length - 1]).toBe(s.max);
    expect(s.ticks.length).toBeLessThanOrEqual(6);
    expect(s).toEqual({ min: 1300, max: 1700, ticks: [1300, 1400, 1500, 1600, 1700] });
  });
});

describe("paths", () => {
  it("moves to the first point and draws lines to the others, to a tenth", () => {
    expect(pathOf([])).toBe("");
    expect(pathOf([{ x: 1, y: 2 }])).toBe("M1,2");
    expect(pathOf([{ x: 1.04, y: 2.06 }, { x: 10, y: 20.55 }])).toBe("M1,2.1L10,20.6");
  });
});

describe("buildGraph", () => {
  const size = { width: 600, height: 240 };
  const margins = { left: 40, right: 10, top: 10, bottom: 30 };

  it("puts the first moment at the left, the last at the right, higher ratings higher", () => {
    const m = buildGraph([point(1, "standard-rapid", 0, 1500), point(2, "standard-rapid", 10 * DAY, 1600)], size, margins);
    expect(m.plot).toEqual({ left: 40, right: 590, top: 10, bottom: 210 });
    const [line] = m.lines;
    expect(line.category).toBe("standard-rapid");
    expect(line.points.map((p) => p.x)).toEqual([40, 590]);
    expect(line.points[0].y).toBeGreaterThan(line.points[1].y);
    for (const p of line.points) {
      expect(p.y).toBeGreaterThanOrEqual(10);
      expect(p.y).toBeLessThanOrEqual(210);
    }
    expect(line.path).toBe(pathOf(line.points));
    expect(line.path.startsWith("M40,")).toBe(true);
    // The ticks lie on the plot, the lowest at its bottom.
    const ys = m.yTicks.map((tick) => tick.y);
    expect(Math.max(...ys)).toBe(210);
    expect(Math.min(...ys)).toBe(10);
    expect(m.span).toBe(10 * DAY);
  });

  it("places one game in the middle, with one date below it", () => {
    const m = buildGraph([point(7, "standard-quick", 5 * DAY, 1662)], size, margins);
    expect(m.lines[0].points[0].x).toBe(315);
    const y = m.lines[0].points[0].y;
    expect(y).toBeGreaterThan(10);
    expect(y).toBeLessThan(210);
    expect(m.xTicks).toEqual([{ x: 315, at: 5 * DAY, anchor: "middle" }]);
    expect(m.span).toBe(0);
  });

  it("draws one line per category, in the server's order, each in time order", () => {
    const history = [
      point(1, "blitz-bullet", 1 * DAY, 1480),
      point(2, "standard-rapid", 2 * DAY, 1550),
      point(4, "standard-rapid", 4 * DAY, 1590),
      point(3, "blitz-bullet", 3 * DAY, 1460),
    ];
    const m = buildGraph(history, size, margins);
    expect(m.lines.map((l) => l.category)).toEqual(["standard-rapid", "blitz-bullet"]);
    expect(m.lines[1].points.map((p) => p.point.game)).toEqual([1, 3]);
    expect(m.lines[0].points[0].x).toBeLessThan(m.lines[0].points[1].x);
    expect(categoriesOf(history)).toEqual(["standard-rapid", "blitz-bullet"]);
  });

  it("spreads date labels over the width, the end ones kept inside", () => {
    const m = buildGraph([point(1, "standard-rapid", 0, 1500), point(2, "standard-rapid", 30 * DAY, 1600)], size, margins);
    expect(m.xTicks.length).toBeGreaterThanOrEqual(2);
    expect(m.xTicks[0]).toMatchObject({ x: 40, at: 0, anchor: "start" });
    expect(m.xTicks[m.xTicks.length - 1]).toMatchObject({ x: 590, at: 30 * DAY, anchor: "end" });
    // A narrow chart (a phone) has fewer labels.
    const narrow = buildGraph([point(1, "standard-rapid", 0, 1500), point(2, "standard-rapid", 30 * DAY, 1600)], { width: 300, height: 200 }, margins);
    expect(narrow.xTicks.length).toBeLessThan(m.xTicks.length);
  });

  it("draws nothing for no history", () => {
    const m = buildGraph([], size, margins);
    expect(m.lines).toEqual([]);
    expect(m.xTicks).toEqual([]);
  });
});

describe("axis labels and line styles", () => {
  it("writes times within a day and a half, days within ten months, months beyond", () => {
    expect(tickFormat(0)).toEqual({ hour: "2-digit", minute: "2-digit" });
    expect(tickFormat(3 * DAY)).toEqual({ day: "numeric", month: "short" });
    expect(tickFormat(400 * DAY)).toEqual({ month: "short", year: "numeric" });
  });

  it("leaves out repeated labels, a single one in the middle", () => {
    const tick = (x: number, label: string, anchor: "start" | "middle" | "end" = "middle") => ({ x, label, anchor });
    expect(distinctLabels([tick(0, "a", "start"), tick(50, "a"), tick(100, "b", "end")])).toEqual([tick(0, "a", "start"), tick(100, "b", "end")]);
    expect(distinctLabels([tick(0, "a", "start"), tick(50, "a"), tick(100, "a", "end")])).toEqual([tick(50, "a")]);
    expect(distinctLabels([tick(40, "a")])).toEqual([tick(40, "a")]);
    expect(distinctLabels([])).toEqual([]);
  });

  it("colours by time class and dashes the Blitz variant", () => {
    expect(lineStyle("standard-rapid")).toEqual({ color: "#2e7d32", dash: null });
    expect(lineStyle("blitz-rapid")).toEqual({ color: "#2e7d32", dash: "6 4" });
    expect(lineStyle("standard-bullet").color).not.toBe(lineStyle("standard-quick").color);
  });
});
