// What the board marks of a turn (the last move, as on lichess): where the ring came
// from and went to (or where it was placed), the markers it turned over, the rows and
// the rings removed. Derived from the turn's tokens and the board after the turn;
// pure: no DOM.

import type { BoardView } from "../protocol";
import { between } from "./geometry";
import { parseToken } from "./input";

export interface Marks {
  /** The start of the ring move. */
  readonly from: string | null;
  /** The end of the ring move, or the point of a placement. */
  readonly to: string | null;
  /** Markers the ring move turned over. */
  readonly flipped: readonly string[];
  /** Removed rows, each as its five points. */
  readonly rows: readonly (readonly string[])[];
  /** Points whose ring was removed. */
  readonly rings: readonly string[];
}

export const NO_MARKS: Marks = { from: null, to: null, flipped: [], rows: [], rings: [] };

/**
 * The marks of a turn's `tokens`, `after` being the board once they are played. The
 * markers a ring move turns over are the points strictly between its start and end that
 * hold a marker right after it: on `after`, or in a row removed later in the turn.
 */
export function marksOf(tokens: readonly string[], after: BoardView): Marks {
  let from: string | null = null;
  let to: string | null = null;
  const flipped: string[] = [];
  const rows: string[][] = [];
  const rings: string[] = [];
  const markers = new Set([...after.markers.white, ...after.markers.black]);
  const actions = tokens.map(parseToken);
  actions.forEach((action, i) => {
    if (!action) return;
    switch (action.kind) {
      case "place":
        to = action.at;
        break;
      case "move": {
        from = action.from;
        to = action.to;
        const removedLater = new Set(
          actions.slice(i + 1).flatMap((a) => (a?.kind === "row" ? a.points : [])),
        );
        for (const p of between(action.from, action.to) ?? []) {
          if (markers.has(p) || removedLater.has(p)) flipped.push(p);
        }
        break;
      }
      case "row":
        rows.push([...action.points]);
        break;
      case "ring":
        rings.push(action.at);
        break;
    }
  });
  return { from, to, flipped, rows, rings };
}

/** Whether there is nothing to mark. */
export function isEmpty(m: Marks): boolean {
  return !m.from && !m.to && m.flipped.length === 0 && m.rows.length === 0 && m.rings.length === 0;
}
