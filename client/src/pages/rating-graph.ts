// A player's rating history as an inline SVG chart: one line per category, the date
// along x, the rating up y, a title on each point (its game opens on a click). The
// scaling and the paths are pure (`buildGraph`, tested); `ratingGraph` draws them at
// the width of its box and again when that changes. No chart library.

import { h, svgEl } from "../dom";
import { t } from "../i18n";
import type { RatingPointView } from "../protocol";
import { categoryLabel, sortByCategory } from "./ratings";

export interface Size {
  width: number;
  height: number;
}

/** Room around the plot for the axes' labels. */
export interface Margins {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const MARGINS: Margins = { left: 42, right: 14, top: 10, bottom: 24 };

export interface GraphPoint {
  x: number;
  y: number;
  point: RatingPointView;
}

export interface GraphLine {
  category: string;
  points: GraphPoint[];
  /** The line through the points, `M…L…` (empty for none). */
  path: string;
}

export interface GraphModel {
  width: number;
  height: number;
  /** The plot's edges, in pixels of the SVG. */
  plot: { left: number; right: number; top: number; bottom: number };
  lines: GraphLine[];
  /** The rating axis' round values, lowest first, each with the height it is drawn at. */
  yTicks: { y: number; value: number }[];
  /** Moments along the x axis; `anchor` keeps the first and last label inside. */
  xTicks: { x: number; at: number; anchor: "start" | "middle" | "end" }[];
  /** The time from the first point to the last, in ms (0 for one moment). */
  span: number;
}

const DAY = 86_400_000;

/** The step of round ticks covering `range` in at most `maxTicks` steps: 1, 2, 2.5 or 5 × 10ⁿ, at least 10. */
export function niceStep(range: number, maxTicks = 4): number {
  const raw = Math.max(range, 1) / Math.max(1, maxTicks);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    const step = m * magnitude;
    if (step >= raw) return Math.max(10, step);
  }
  return Math.max(10, 10 * magnitude);
}

/**
 * The rating axis: round bounds around every rating (at least 100 points tall, so one
 * game or a flat history does not fill the plot with a few points) and the ticks.
 */
export function ratingScale(ratings: number[], maxTicks = 4): { min: number; max: number; ticks: number[] } {
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [1400, 1600];
  if (hi - lo < 100) {
    const mid = (lo + hi) / 2;
    [lo, hi] = [mid - 50, mid + 50];
  }
  const step = niceStep(hi - lo, maxTicks);
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = min; v <= max + step / 1000; v += step) ticks.push(Math.round(v * 100) / 100);
  return { min, max, ticks };
}

/** `M x,y L x,y …` through the points, to one decimal. */
export function pathOf(points: readonly { x: number; y: number }[]): string {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${round(p.x)},${round(p.y)}`).join("");
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The categories of a history, in the server's order (unknown ones last, by name). */
export function categoriesOf(history: readonly RatingPointView[]): string[] {
  return sortByCategory([...new Set(history.map((p) => p.category))], (c) => c);
}

/** Scales a history into a `size` pixels large chart: the lines in the server's category order. */
export function buildGraph(history: readonly RatingPointView[], size: Size, margins: Margins = MARGINS): GraphModel {
  const plot = {
    left: margins.left,
    right: Math.max(margins.left + 1, size.width - margins.right),
    top: margins.top,
    bottom: Math.max(margins.top + 1, size.height - margins.bottom),
  };
  const times = history.map((p) => p.at);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const span = history.length > 0 ? last - first : 0;
  // One moment (a single game) sits in the middle, with a day on either side.
  const [t0, t1] = span > 0 ? [first, last] : [(first || 0) - DAY, (first || 0) + DAY];
  const scale = ratingScale(history.map((p) => p.rating));
  const x = (at: number) => plot.left + ((at - t0) / (t1 - t0)) * (plot.right - plot.left);
  const y = (r: number) => plot.bottom - ((r - scale.min) / (scale.max - scale.min)) * (plot.bottom - plot.top);

  const lines = categoriesOf(history).map((category) => {
    const points = history
      .filter((p) => p.category === category)
      .sort((a, b) => a.at - b.at || a.game - b.game)
      .map((p) => ({ x: x(p.at), y: y(p.rating), point: p }));
    return { category, points, path: pathOf(points) };
  });

  // About one date label per 110 px, the first and last at the ends.
  let xTicks: GraphModel["xTicks"] = [];
  if (history.length > 0) {
    if (span === 0) {
      xTicks = [{ x: x(first), at: first, anchor: "middle" }];
    } else {
      const n = Math.max(2, Math.min(6, Math.floor((plot.right - plot.left) / 110) + 1));
      xTicks = Array.from({ length: n }, (_, i) => {
        const at = first + (span * i) / (n - 1);
        return { x: x(at), at, anchor: i === 0 ? "start" : i === n - 1 ? "end" : "middle" };
      });
    }
  }
  return {
    width: size.width,
    height: size.height,
    plot,
    lines,
    yTicks: scale.ticks.map((value) => ({ y: y(value), value })),
    xTicks,
    span,
  };
}

/** How the x axis writes its moments: the time of day within a day and a half, else the day (with the year beyond ten months). */
export function tickFormat(span: number): Intl.DateTimeFormatOptions {
  if (span < 1.5 * DAY) return { hour: "2-digit", minute: "2-digit" };
  if (span < 300 * DAY) return { day: "numeric", month: "short" };
  return { month: "short", year: "numeric" };
}

/**
 * The axis labels without repeats (games minutes apart all read `14:05`): a label the
 * one before it already says is left out; one label left alone sits in the middle of
 * where they were.
 */
export function distinctLabels<T extends { x: number; label: string; anchor: "start" | "middle" | "end" }>(ticks: readonly T[]): T[] {
  const kept = ticks.filter((tick, i) => i === 0 || tick.label !== ticks[i - 1].label);
  if (kept.length === 1 && ticks.length > 1) {
    return [{ ...kept[0], x: (ticks[0].x + ticks[ticks.length - 1].x) / 2, anchor: "middle" }];
  }
  return kept;
}

/** The line style of a category: a colour by time class, dashed for the Blitz variant. */
export function lineStyle(category: string): { color: string; dash: string | null } {
  const colors: Record<string, string> = { bullet: "#b35900", quick: "#1f5fbf", rapid: "#2e7d32", classical: "#6a3d9a", correspondence: "#8d6e00" };
  const [variant, cls] = category.split("-");
  return { color: colors[cls] ?? "#5f6368", dash: variant === "blitz" ? "6 4" : null };
}

/** How the chart writes moments: a point's (in its title) and the x axis' (`tickFormat`'s options). */
export interface Formats {
  point: (ms: number) => string;
  tick: (ms: number, options: Intl.DateTimeFormatOptions) => string;
}

/**
 * The chart and its legend in a box of their own, drawn at the box's width (and again
 * when it changes). Returns the box and the function that stops watching its size.
 */
export function ratingGraph(history: readonly RatingPointView[], formats: Formats): { el: HTMLElement; stop: () => void } {
  const chart = h("div", { class: "rating-graph", "data-testid": "rating-graph" });
  const legend = h(
    "ul",
    { class: "graph-legend" },
    categoriesOf(history).map((c) => {
      const style = lineStyle(c);
      return h(
        "li",
        {},
        svgEl(
          "svg",
          { width: 28, height: 10, "aria-hidden": "true" },
          svgEl("line", { x1: 1, y1: 5, x2: 27, y2: 5, stroke: style.color, "stroke-width": 2.5, "stroke-dasharray": style.dash }),
        ),
        categoryLabel(c),
      );
    }),
  );
  const el = h("div", { class: "graph-box" }, chart, legend);
  let drawn = 0;
  const draw = () => {
    const width = Math.round(chart.clientWidth) || 600;
    if (width === drawn) return;
    drawn = width;
    chart.replaceChildren(drawSvg(buildGraph(history, { width, height: width < 500 ? 200 : 240 }), formats));
  };
  let observer: ResizeObserver | null = null;
  if (typeof ResizeObserver !== "undefined") {
    observer = new ResizeObserver(() => draw());
    observer.observe(chart);
  } else {
    requestAnimationFrame(draw);
  }
  return { el, stop: () => observer?.disconnect() };
}

function drawSvg(m: GraphModel, formats: Formats): SVGSVGElement {
  const grid = m.yTicks.map((tick) =>
    svgEl(
      "g",
      { class: "y-tick" },
      svgEl("line", { x1: m.plot.left, x2: m.plot.right, y1: round(tick.y), y2: round(tick.y) }),
      svgEl("text", { x: m.plot.left - 6, y: round(tick.y), "text-anchor": "end", "dominant-baseline": "middle" }, String(tick.value)),
    ),
  );
  const options = tickFormat(m.span);
  const xLabels = distinctLabels(m.xTicks.map((tick) => ({ ...tick, label: formats.tick(tick.at, options) }))).map((tick) =>
    svgEl("text", { class: "x-tick", x: round(tick.x), y: m.height - 6, "text-anchor": tick.anchor }, tick.label),
  );
  const lines = m.lines.map((line) => {
    const style = lineStyle(line.category);
    const label = categoryLabel(line.category);
    return svgEl(
      "g",
      { class: "graph-line", "data-category": line.category },
      line.points.length > 1
        ? svgEl("path", { d: line.path, fill: "none", stroke: style.color, "stroke-width": 2.5, "stroke-dasharray": style.dash, "stroke-linejoin": "round" })
        : null,
      line.points.map((p) =>
        svgEl(
          "a",
          { href: `#/replay/${p.point.game}`, class: "graph-point" },
          svgEl("title", {}, t("profile.graphPoint", { category: label, rating: p.point.rating, date: formats.point(p.point.at) })),
          svgEl("circle", { cx: round(p.x), cy: round(p.y), r: 9, class: "hit" }),
          svgEl("circle", { cx: round(p.x), cy: round(p.y), r: 3.5, fill: style.color }),
        ),
      ),
    );
  });
  return svgEl(
    "svg",
    {
      class: "graph",
      width: m.width,
      height: m.height,
      viewBox: `0 0 ${m.width} ${m.height}`,
      role: "img",
      "aria-label": t("profile.history"),
    },
    svgEl("g", { class: "grid" }, grid),
    svgEl("line", { class: "axis", x1: m.plot.left, x2: m.plot.right, y1: m.plot.bottom, y2: m.plot.bottom }),
    xLabels,
    lines,
  );
}
