// The shapes the board view draws (view.ts), as SVG elements, for points placed by `at`
// (a point's place as drawn: the flip applied): the lattice, the coordinates and the hit
// areas, the pieces, the last move's marks, the suggested action and the highlights.
// Sizes are in SVG user units, fractions of the distance between neighbouring points;
// colours are board.css's.

import { svgEl } from "../dom";
import type { SeatColor } from "../protocol";
import { COLUMNS, LINES, POINTS, parsePoint } from "./geometry";
import type { Highlights, Role } from "./input";
import type { Piece } from "./diff";
import { NO_MARKS, type Marks } from "./marks";
import { arrowShape, hintOf } from "./hint";

/** The distance between neighbouring points, in SVG user units; all sizes below are fractions of it. */
export const S = 100;
const RING_R = 0.36 * S;
const RING_BAND = 0.1 * S;
const RING_EDGE = 0.16 * S; // drawn under the band: a dark rim on both sides of it
const MARKER_R = 0.25 * S;
const MARKER_EDGE = 0.04 * S;
/** The invisible circle that takes clicks and taps around each point; big enough for fingers. */
export const HIT_R = 0.45 * S;
const LABEL_GAP = 0.66 * S;
export const ROLES: readonly Exclude<Role, "ghostMarker">[] = ["target", "selected", "candidate"];

/** Where a point is drawn. */
export type At = (point: string) => { x: number; y: number };

/** The lattice's lines. */
export function latticeShapes(at: At): SVGElement[] {
  return LINES.map((line) => {
    const a = at(line.points[0]);
    const b = at(line.points[line.points.length - 1]);
    return svgEl("line", { x1: a.x.toFixed(1), y1: a.y.toFixed(1), x2: b.x.toFixed(1), y2: b.y.toFixed(1) });
  });
}

/**
 * Letters below each column and numbers left of each row as seen, next to the end drawn
 * lowest or leftmost: from Black's side (`flipped`) that is the column's top, the row's
 * right end. Turned by 180°, columns stay vertical and rows still run down to the
 * right, so the offsets on the screen are the same.
 */
export function coordShapes(at: At, flipped: boolean): SVGElement[] {
  const out: SVGElement[] = [];
  const label = (text: string, point: string, dx: number, dy: number) => {
    const p = at(point);
    const el = svgEl("text", { x: (p.x + dx).toFixed(1), y: (p.y + dy).toFixed(1) });
    el.textContent = text;
    out.push(el);
  };
  for (const column of COLUMNS) {
    const points = POINTS.filter((p) => p[0] === column);
    label(column, flipped ? points[points.length - 1] : points[0], 0, LABEL_GAP);
  }
  for (let row = 1; row <= 11; row++) {
    const points = POINTS.filter((p) => parsePoint(p)?.r === row);
    // Step back along the row by LABEL_GAP.
    label(String(row), flipped ? points[points.length - 1] : points[0], -LABEL_GAP * Math.sqrt(3) / 2, -LABEL_GAP / 2);
  }
  return out;
}

/** The hit area of each point, by point. */
export function hitShapes(at: At): Map<string, SVGCircleElement> {
  const out = new Map<string, SVGCircleElement>();
  for (const point of POINTS) {
    const { x, y } = at(point);
    out.set(point, svgEl("circle", { class: "hit", "data-point": point, cx: x.toFixed(1), cy: y.toFixed(1), r: HIT_R }));
  }
  return out;
}

/** An element for a piece on a point, with the data attributes browser tests look for when `tagged`. */
export function pieceShape(at: At, point: string, piece: Piece, tagged: boolean): SVGElement {
  const { x, y } = at(point);
  const centre = { cx: x.toFixed(1), cy: y.toFixed(1) };
  let el: SVGElement;
  if (piece.kind === "marker") {
    el = svgEl("circle", { class: `marker ${piece.color}`, ...centre, r: MARKER_R, "stroke-width": MARKER_EDGE });
  } else {
    el = svgEl("g", { class: `ring ${piece.color}` });
    el.append(
      svgEl("circle", { class: "ring-edge", ...centre, r: RING_R, "stroke-width": RING_EDGE }),
      svgEl("circle", { class: "ring-band", ...centre, r: RING_R, "stroke-width": RING_BAND }),
    );
  }
  if (tagged) {
    el.dataset.piece = piece.kind;
    el.dataset.color = piece.color;
    el.dataset.at = point;
  }
  return el;
}

/** The last move's marks (see marks.ts): those under the pieces and those over them. */
export function markShapes(at: At, marks: Marks | null | undefined): { under: SVGElement[]; over: SVGElement[] } {
  const m = marks ?? NO_MARKS;
  const under: SVGElement[] = [];
  const over: SVGElement[] = [];
  const tag = (el: SVGElement, kind: string, point: string) => {
    el.dataset.mark = kind;
    el.dataset.at = point;
    return el;
  };
  const disc = (kind: string, point: string, r: number) => {
    const { x, y } = at(point);
    return tag(svgEl("circle", { class: `mark ${kind}`, cx: x.toFixed(1), cy: y.toFixed(1), r }), kind, point);
  };
  for (const row of m.rows) {
    const a = at(row[0]);
    const b = at(row[row.length - 1]);
    under.push(tag(svgEl("line", { class: "mark row", x1: a.x.toFixed(1), y1: a.y.toFixed(1), x2: b.x.toFixed(1), y2: b.y.toFixed(1), "stroke-width": 0.34 * S }), "row", `${row[0]}-${row[row.length - 1]}`));
    for (const p of row) {
      const { x, y } = at(p);
      over.push(tag(svgEl("circle", { class: "mark row-point", cx: x.toFixed(1), cy: y.toFixed(1), r: MARKER_R, "stroke-width": 0.035 * S, "stroke-dasharray": `${0.07 * S} ${0.05 * S}` }), "row-point", p));
    }
  }
  if (m.from) under.push(disc("from", m.from, 0.34 * S));
  if (m.to) {
    const el = disc("to", m.to, 0.44 * S);
    el.setAttribute("stroke-width", String(0.1 * S));
    under.push(el);
  }
  for (const p of m.flipped) {
    const { x, y } = at(p);
    over.push(tag(svgEl("circle", { class: "mark flipped", cx: x.toFixed(1), cy: y.toFixed(1), r: 0.11 * S, "stroke-width": 0.03 * S }), "flipped", p));
  }
  for (const p of m.rings) {
    const { x, y } = at(p);
    over.push(tag(svgEl("circle", { class: "mark ring-gone", cx: x.toFixed(1), cy: y.toFixed(1), r: RING_R, "stroke-width": 0.05 * S, "stroke-dasharray": `${0.12 * S} ${0.08 * S}` }), "ring", p));
  }
  return { under, over };
}

/** The suggested action (see hint.ts). */
export function hintShapes(at: At, token: string): SVGElement[] {
  const hint = hintOf(token);
  const shapes: SVGElement[] = [];
  const xy = (p: { x: number; y: number }) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`;
  switch (hint?.kind) {
    case "arrow": {
      const a = arrowShape(at(hint.from), at(hint.to), 0.42 * S, 0.24 * S);
      const el = svgEl("g", { class: "hint arrow", "data-hint": "arrow", "data-from": hint.from, "data-to": hint.to });
      el.append(
        svgEl("line", { x1: a.start.x.toFixed(1), y1: a.start.y.toFixed(1), x2: a.shaftEnd.x.toFixed(1), y2: a.shaftEnd.y.toFixed(1), "stroke-width": 0.15 * S }),
        svgEl("polygon", { points: [a.tip, a.left, a.right].map(xy).join(" ") }),
      );
      shapes.push(el);
      break;
    }
    case "place": {
      const { x, y } = at(hint.at);
      shapes.push(svgEl("circle", { class: "hint point", "data-hint": "place", "data-at": hint.at, cx: x.toFixed(1), cy: y.toFixed(1), r: 0.3 * S, "stroke-width": 0.08 * S }));
      break;
    }
    case "row": {
      const a = at(hint.points[0]);
      const b = at(hint.points[hint.points.length - 1]);
      const ends = `${hint.points[0]}-${hint.points[hint.points.length - 1]}`;
      shapes.push(svgEl("line", { class: "hint row", "data-hint": "row", "data-at": ends, x1: a.x.toFixed(1), y1: a.y.toFixed(1), x2: b.x.toFixed(1), y2: b.y.toFixed(1), "stroke-width": 0.3 * S }));
      break;
    }
    case "ring": {
      const { x, y } = at(hint.at);
      shapes.push(svgEl("circle", { class: "hint ring", "data-hint": "ring", "data-at": hint.at, cx: x.toFixed(1), cy: y.toFixed(1), r: 0.46 * S, "stroke-width": 0.09 * S }));
      break;
    }
  }
  return shapes;
}

/**
 * The highlights of the input's state: destinations and placements as dashed circles,
 * the selection a thick outline, candidates a thin one, sized by what stands on the
 * point; the ghost marker of the player to act (`toMove`, none without a state).
 */
export function highlightShapes(at: At, h: Highlights, pieces: ReadonlyMap<string, Piece>, toMove: SeatColor | null): SVGElement[] {
  const shapes: SVGElement[] = [];
  for (const role of ROLES) {
    for (const point of h[role]) {
      const { x, y } = at(point);
      const kind = pieces.get(point)?.kind;
      // Destinations and placements are dashed circles; selection a thick outline; candidates a thin one.
      const r = kind === "ring" ? 0.47 * S : kind === "marker" ? (role === "target" ? 0.4 : 0.33) * S : 0.28 * S;
      const width = role === "selected" ? 0.08 * S : role === "target" ? 0.055 * S : 0.035 * S;
      const el = svgEl("circle", { class: `highlight ${role}`, "data-at": point, cx: x.toFixed(1), cy: y.toFixed(1), r, "stroke-width": width });
      if (role === "target") el.setAttribute("stroke-dasharray", `${0.1 * S} ${0.07 * S}`);
      shapes.push(el);
    }
  }
  if (toMove) {
    for (const point of h.ghostMarker) {
      const ghost = pieceShape(at, point, { kind: "marker", color: toMove }, false);
      ghost.classList.add("ghost-marker");
      ghost.dataset.at = point;
      shapes.push(ghost);
    }
  }
  return shapes;
}
