// The evaluation graph of the replay viewer, as lichess.org draws it: White's win
// chance at every frame (the start, then after each action) from 0 at the bottom to 1
// at the top, White's share filled in white over Black's dark, a line at 50 %, the
// marked actions as coloured dots and the frame on show as a vertical line. A click or
// a tap (or a drag along it) picks the frame under the pointer. The scaling and the
// paths are pure (`buildEvalGraph`, `plyAtX`, tested); `evalGraph` draws them at the
// size of its box and again when that changes. No chart library.

import { h, svgEl } from "../dom";
import type { Mark } from "./analysis";

export interface Size {
  width: number;
  height: number;
}

export interface EvalDot {
  /** The frame after the marked action. */
  ply: number;
  x: number;
  y: number;
  mark: Mark;
}

export interface EvalGraphModel {
  width: number;
  height: number;
  /** Where each frame is drawn along x, and its win chance along y. */
  xs: number[];
  ys: number[];
  /** The y of the 50 % line. */
  mid: number;
  /** White's share: from the bottom up to the curve, closed (`M…Z`). */
  area: string;
  /** The curve itself (`M…L…`). */
  line: string;
  dots: EvalDot[];
}

const round = (v: number): number => Math.round(v * 10) / 10;

/** The x of frame `ply` of `frames` (an only frame stands in the middle). */
export function xOfPly(ply: number, frames: number, width: number): number {
  if (frames <= 1) return width / 2;
  return (ply / (frames - 1)) * width;
}

/** The y of a win chance (1 at the top, 0 at the bottom). */
export function yOfChance(chance: number, height: number): number {
  const c = Number.isFinite(chance) ? Math.min(1, Math.max(0, chance)) : 0.5;
  return (1 - c) * height;
}

/** The frame nearest to `x` (pixels from the graph's left edge), within 0..frames − 1. */
export function plyAtX(x: number, width: number, frames: number): number {
  if (frames <= 1 || width <= 0 || !Number.isFinite(x)) return 0;
  const ply = Math.round((x / width) * (frames - 1));
  return Math.min(frames - 1, Math.max(0, ply));
}

/**
 * The graph of `chances` (White's win chance at each frame, the start first) at `size`;
 * `marks[p]` is the mark of the action that led to frame p (`null` for none; index 0,
 * the start, is never marked).
 */
export function buildEvalGraph(chances: readonly number[], marks: readonly (Mark | null)[], size: Size): EvalGraphModel {
  const { width, height } = size;
  const frames = chances.length;
  const xs = chances.map((_, i) => round(xOfPly(i, frames, width)));
  const ys = chances.map((c) => round(yOfChance(c, height)));
  // A single frame is drawn as a level line across the whole width.
  const px = frames === 1 ? [0, round(width)] : xs;
  const py = frames === 1 ? [ys[0], ys[0]] : ys;
  const line = px.map((x, i) => `${i === 0 ? "M" : "L"}${x},${py[i]}`).join("");
  const area = px.length > 0 ? `M${px[0]},${round(height)}${px.map((x, i) => `L${x},${py[i]}`).join("")}L${px[px.length - 1]},${round(height)}Z` : "";
  const dots: EvalDot[] = [];
  marks.forEach((mark, ply) => {
    if (mark && ply > 0 && ply < frames) dots.push({ ply, x: xs[ply], y: ys[ply], mark });
  });
  return { width, height, xs, ys, mid: round(height / 2), area, line, dots };
}

/** What `evalGraph` shows and says. */
export interface EvalGraphOptions {
  /** White's win chance at each frame, the start first. */
  chances: readonly number[];
  /** The mark of the action that led to each frame (index 0: the start, none). */
  marks: readonly (Mark | null)[];
  /** The name of the graph for screen readers. */
  label: string;
  /** The title of a marked action's dot (`23. h5-h3?? Blunder`). */
  dotTitle: (ply: number, mark: Mark) => string;
  /** Called with the frame picked by a click, a tap or a drag. */
  onPick: (ply: number) => void;
}

export interface EvalGraph {
  el: HTMLElement;
  /** Shows frame `ply` as the current one. */
  setPly(ply: number): void;
  /** Stops following the box's size. */
  stop(): void;
}

/** The graph in a box of its own (its height set by the CSS, its width the page's). */
export function evalGraph(options: EvalGraphOptions): EvalGraph {
  const frames = options.chances.length;
  const box = h("div", { class: "eval-graph", "data-testid": "analysis-graph", role: "img", "aria-label": options.label });
  let model: EvalGraphModel | null = null;
  let cursor: SVGLineElement | null = null;
  let hover: SVGLineElement | null = null;
  let dotEls = new Map<number, SVGCircleElement>();
  let ply = 0;
  let drawn = "";

  const place = (line: SVGLineElement | null, at: number | null) => {
    if (!line || !model) return;
    if (at === null) {
      line.setAttribute("visibility", "hidden");
      return;
    }
    const x = model.xs[Math.min(Math.max(0, at), frames - 1)] ?? 0;
    line.setAttribute("x1", String(x));
    line.setAttribute("x2", String(x));
    line.setAttribute("visibility", "visible");
  };

  const draw = () => {
    const width = Math.round(box.clientWidth) || 600;
    const height = Math.round(box.clientHeight) || 96;
    const key = `${width}x${height}`;
    if (key === drawn) return;
    drawn = key;
    const m = buildEvalGraph(options.chances, options.marks, { width, height });
    model = m;
    cursor = svgEl("line", { class: "eval-cursor", x1: 0, x2: 0, y1: 0, y2: height });
    hover = svgEl("line", { class: "eval-hover", x1: 0, x2: 0, y1: 0, y2: height, visibility: "hidden" });
    dotEls = new Map();
    const dots = m.dots.map((d) => {
      const el = svgEl("circle", { class: `eval-dot ${d.mark}`, cx: d.x, cy: d.y, r: 4, "data-ply": d.ply, "data-mark": d.mark }, svgEl("title", {}, options.dotTitle(d.ply, d.mark)));
      dotEls.set(d.ply, el);
      return el;
    });
    box.replaceChildren(
      svgEl(
        "svg",
        { width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" },
        svgEl("rect", { class: "eval-black", x: 0, y: 0, width, height }),
        svgEl("path", { class: "eval-area", d: m.area }),
        svgEl("line", { class: "eval-mid", x1: 0, x2: width, y1: m.mid, y2: m.mid }),
        svgEl("path", { class: "eval-line", d: m.line }),
        hover,
        cursor,
        dots,
      ),
    );
    setPly(ply);
  };

  function setPly(next: number): void {
    ply = next;
    box.dataset.ply = String(next);
    place(cursor, next);
    for (const [p, el] of dotEls) el.classList.toggle("current", p === next);
  }

  const plyOf = (e: PointerEvent): number => {
    const rect = box.getBoundingClientRect();
    return plyAtX(e.clientX - rect.left, rect.width, frames);
  };
  /** Picks the frame under the pointer, unless it is on show already (a drag moves a pixel at a time). */
  const pick = (e: PointerEvent) => {
    const next = plyOf(e);
    if (next !== ply) options.onPick(next);
  };
  let pressed: number | null = null;
  box.addEventListener("pointerdown", (e) => {
    if (!e.isPrimary || e.button !== 0) return;
    pressed = e.pointerId;
    box.setPointerCapture?.(e.pointerId);
    pick(e);
  });
  box.addEventListener("pointermove", (e) => {
    if (pressed === e.pointerId) pick(e);
    else if (e.pointerType === "mouse") place(hover, plyOf(e));
  });
  const release = (e: PointerEvent) => {
    if (pressed !== e.pointerId) return;
    pressed = null;
    if (box.hasPointerCapture?.(e.pointerId)) box.releasePointerCapture(e.pointerId);
  };
  box.addEventListener("pointerup", release);
  box.addEventListener("pointercancel", release);
  box.addEventListener("pointerleave", () => place(hover, null));

  let observer: ResizeObserver | null = null;
  if (typeof ResizeObserver !== "undefined") {
    observer = new ResizeObserver(() => draw());
    observer.observe(box);
  } else {
    requestAnimationFrame(draw);
  }
  return { el: box, setPly, stop: () => observer?.disconnect() };
}
