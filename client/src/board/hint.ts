// The engine's choice drawn on the board (the replay viewer's computer analysis): an
// arrow from a ring to its destination for a ring move (`a1-b2`), a highlighted point
// for a placement (`e5`), a band along a row to remove (`xa1-e5`), a circled ring to
// remove (`xk10`). Pure: the shapes in the board's coordinates, no DOM.

import { parseToken } from "./input";

export interface XY {
  readonly x: number;
  readonly y: number;
}

/** What to draw for one action token. */
export type Hint =
  | { readonly kind: "arrow"; readonly from: string; readonly to: string }
  | { readonly kind: "place"; readonly at: string }
  | { readonly kind: "row"; readonly points: readonly string[] }
  | { readonly kind: "ring"; readonly at: string };

/** The hint of a token, or null (a pass, or a token of no known form). */
export function hintOf(token: string | null | undefined): Hint | null {
  if (!token) return null;
  const action = parseToken(token);
  switch (action?.kind) {
    case "move":
      return { kind: "arrow", from: action.from, to: action.to };
    case "place":
      return { kind: "place", at: action.at };
    case "row":
      return { kind: "row", points: action.points };
    case "ring":
      return { kind: "ring", at: action.at };
    default:
      return null;
  }
}

/** An arrow's outline: the shaft from the start to the head's base, and the head. */
export interface ArrowShape {
  /** Where the shaft starts (the ring's centre). */
  readonly start: XY;
  /** Where the shaft ends: the base of the head. */
  readonly shaftEnd: XY;
  /** The head's tip (the destination's centre) and the two corners of its base. */
  readonly tip: XY;
  readonly left: XY;
  readonly right: XY;
}

/**
 * The arrow from `from` to `to` (points as drawn): its tip on the destination, its head
 * `head` long and `2 × halfWidth` wide, no longer than the arrow (a short arrow keeps a
 * stub of shaft).
 */
export function arrowShape(from: XY, to: XY, head: number, halfWidth: number): ArrowShape {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  if (length === 0) return { start: from, shaftEnd: to, tip: to, left: to, right: to };
  const ux = dx / length;
  const uy = dy / length;
  const h = Math.min(head, length * 0.6);
  const base = { x: to.x - ux * h, y: to.y - uy * h };
  // The normal, to the left of the direction of travel as drawn.
  const nx = -uy;
  const ny = ux;
  return {
    start: from,
    shaftEnd: base,
    tip: to,
    left: { x: base.x + nx * halfWidth, y: base.y + ny * halfWidth },
    right: { x: base.x - nx * halfWidth, y: base.y - ny * halfWidth },
  };
}
