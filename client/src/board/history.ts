// Past boards of a game, rebuilt from its action tokens for display (the move list's
// look-back, the last-move marks). The server stays the rules authority: this applies
// only the mechanical effect of each token, which is fully determined by the token and
// the board before it, and checks nothing else:
//   placement `e5`: a ring of the player to place (White first, then alternately);
//   ring move `e5-e9`: the ring leaves a marker of its colour on its start, every marker
//     strictly between start and end turns over, the ring stands on the end;
//   row removal `xc3-c7`: its five markers go; ring removal `xk10`: that ring goes;
//   pass: nothing.
// A token that does not fit the board (no ring to move, a row of mixed markers, …)
// means the list is not the game the caller thinks it is: the result is then null,
// and callers compare the last board with the server's before trusting any of it.
// Pure: no DOM.

import type { BoardView, SeatColor } from "../protocol";
import { between } from "./geometry";
import { parseToken } from "./input";

export interface History {
  /** The board before the first action and after each one (one more than the actions). */
  readonly boards: readonly BoardView[];
  /** Who played each action. */
  readonly actors: readonly SeatColor[];
}

const other = (c: SeatColor): SeatColor => (c === "white" ? "black" : "white");

/** The empty board. */
export function emptyBoard(): BoardView {
  return { rings: { white: [], black: [] }, markers: { white: [], black: [] } };
}

type Cell = { kind: "ring" | "marker"; color: SeatColor };

function toBoard(cells: Map<string, Cell>): BoardView {
  const board = emptyBoard();
  for (const [point, cell] of [...cells].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    (cell.kind === "ring" ? board.rings : board.markers)[cell.color].push(point);
  }
  return board;
}

/** Replays `tokens` from the empty board; null when a token does not fit (see the file comment). */
export function replayActions(tokens: readonly string[]): History | null {
  const cells = new Map<string, Cell>();
  const boards: BoardView[] = [toBoard(cells)];
  const actors: SeatColor[] = [];
  // Placements, ring moves and passes alternate between the players, White first.
  let nextMain: SeatColor = "white";
  for (const token of tokens) {
    const action = parseToken(token);
    if (!action) return null;
    let actor: SeatColor;
    switch (action.kind) {
      case "place": {
        if (cells.has(action.at)) return null;
        actor = nextMain;
        cells.set(action.at, { kind: "ring", color: actor });
        nextMain = other(actor);
        break;
      }
      case "move": {
        const ring = cells.get(action.from);
        const path = between(action.from, action.to);
        if (ring?.kind !== "ring" || !path || cells.has(action.to)) return null;
        actor = ring.color;
        cells.set(action.from, { kind: "marker", color: actor });
        for (const p of path) {
          const cell = cells.get(p);
          if (cell?.kind === "ring") return null;
          if (cell) cells.set(p, { kind: "marker", color: other(cell.color) });
        }
        cells.set(action.to, ring);
        nextMain = other(actor);
        break;
      }
      case "pass": {
        actor = nextMain;
        nextMain = other(actor);
        break;
      }
      case "row": {
        const first = cells.get(action.points[0]);
        if (action.points.length !== 5 || first?.kind !== "marker") return null;
        for (const p of action.points) {
          const cell = cells.get(p);
          if (cell?.kind !== "marker" || cell.color !== first.color) return null;
        }
        actor = first.color;
        for (const p of action.points) cells.delete(p);
        break;
      }
      case "ring": {
        const cell = cells.get(action.at);
        if (cell?.kind !== "ring") return null;
        actor = cell.color;
        cells.delete(action.at);
        break;
      }
    }
    actors.push(actor);
    boards.push(toBoard(cells));
  }
  return { boards, actors };
}

/** Whether two boards hold the same pieces (in any order). */
export function sameBoard(a: BoardView, b: BoardView): boolean {
  const key = (x: BoardView) =>
    JSON.stringify([x.rings.white, x.rings.black, x.markers.white, x.markers.black].map((l) => [...l].sort()));
  return key(a) === key(b);
}

/**
 * The history of a live game, when it is exactly the server's: replayed from `tokens`
 * and ending on `board`; otherwise null (and the page shows only the current board).
 */
export function trustedHistory(tokens: readonly string[], board: BoardView): History | null {
  const history = replayActions(tokens);
  return history && sameBoard(history.boards[history.boards.length - 1], board) ? history : null;
}
