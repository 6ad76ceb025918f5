// What changed between two boards, for the view's animations. Pure: no DOM.

import type { BoardView, SeatColor } from "../protocol";
import { parseToken } from "./input";

export type PieceKind = "ring" | "marker";

export interface Piece {
  readonly kind: PieceKind;
  readonly color: SeatColor;
}

/** The pieces of a board by point. */
export function piecesOf(board: BoardView): Map<string, Piece> {
  const pieces = new Map<string, Piece>();
  for (const color of ["white", "black"] as const) {
    for (const p of board.markers[color]) pieces.set(p, { kind: "marker", color });
    for (const p of board.rings[color]) pieces.set(p, { kind: "ring", color });
  }
  return pieces;
}

export interface BoardChange {
  /** The ring that moved, when the last action is a ring move that the boards show. */
  readonly slide: { readonly from: string; readonly to: string } | null;
  /** Points whose marker turned over (M4). */
  readonly flipped: readonly string[];
  /** Pieces that are gone, by point (a piece replaced by another counts here too). */
  readonly removed: ReadonlyMap<string, Piece>;
  /** Points with a new piece, the moved ring not included. */
  readonly added: readonly string[];
}

/** How `after` differs from `before`; `lastAction` (a token) tells a ring move from a remove-and-add. */
export function diffBoards(before: BoardView, after: BoardView, lastAction?: string | null): BoardChange {
  const old = piecesOf(before);
  const now = piecesOf(after);
  let slide: BoardChange["slide"] = null;
  const action = lastAction ? parseToken(lastAction) : null;
  if (action?.kind === "move") {
    const ring = old.get(action.from);
    const landed = now.get(action.to);
    const shown =
      ring?.kind === "ring" &&
      landed?.kind === "ring" &&
      landed.color === ring.color &&
      now.get(action.from)?.kind !== "ring" &&
      !old.has(action.to);
    if (shown) {
      slide = { from: action.from, to: action.to };
    }
  }
  const flipped: string[] = [];
  const removed = new Map<string, Piece>();
  const added: string[] = [];
  for (const [point, piece] of old) {
    const next = now.get(point);
    if (next?.kind === "marker" && piece.kind === "marker") {
      if (next.color !== piece.color) flipped.push(point);
    } else if (next?.kind !== piece.kind || next.color !== piece.color) {
      if (point !== slide?.from) removed.set(point, piece); // the moved ring slides instead
      if (next) added.push(point);
    }
  }
  for (const point of now.keys()) {
    if (!old.has(point) && point !== slide?.to) added.push(point);
  }
  return { slide, flipped, removed, added };
}

/** Whether the diff shows no change at all. */
export function isUnchanged(change: BoardChange): boolean {
  return change.slide === null && change.flipped.length === 0 && change.removed.size === 0 && change.added.length === 0;
}
