// A position string (docs/notation.md, "Position string"), read: a table that begins
// from a position shows it before its first game starts, and a game follows the
// `acted` events, which carry the position after the action instead of the whole game.
// Reading notation is not playing by the rules; the server wrote the string.

import type { BoardView, Pair, SeatColor, StageName } from "../protocol";
import { COLUMNS, isValidCell, pointName } from "./geometry";

/** The pieces of `fen`'s first field, or `null` when it does not describe the 85 points. */
export function boardOfFen(fen: string): BoardView | null {
  const columns = fen.trim().split(/\s+/)[0]?.split("/") ?? [];
  if (columns.length !== COLUMNS.length) return null;
  const board: BoardView = { rings: { white: [], black: [] }, markers: { white: [], black: [] } };
  for (let c = 0; c < COLUMNS.length; c++) {
    const rows: number[] = [];
    for (let r = 1; r <= 11; r++) if (isValidCell(c, r)) rows.push(r);
    let i = 0;
    for (const m of columns[c].matchAll(/(\d+)|([WBwb])|(.)/g)) {
      if (m[3] !== undefined) return null;
      if (m[1] !== undefined) {
        i += Number(m[1]);
        continue;
      }
      if (i >= rows.length) return null;
      const point = pointName(c, rows[i++]);
      const piece = m[2];
      const color = piece.toLowerCase() === "w" ? "white" : "black";
      (piece === piece.toUpperCase() ? board.rings : board.markers)[color].push(point);
    }
    if (i !== rows.length) return null;
  }
  return board;
}

/** What a position string says besides the pieces: whose turn, what they must do, the score. */
export interface PositionFields {
  board: BoardView;
  to_move: SeatColor;
  stage: StageName;
  removed: Pair<number>;
  targets: Pair<number>;
  ring_moves: number;
  /** Markers left in the pool: 51 less those on the board. */
  pool: number;
}

const STAGES: Record<string, StageName> = {
  place: "place",
  move: "move",
  "row-before": "remove_row",
  "row-after": "remove_row",
  "ring-before": "remove_ring",
  "ring-after": "remove_ring",
  end: "over",
};

/** Every field of `fen`, or `null` when it is not a position string of six fields. */
export function readPosition(fen: string): PositionFields | null {
  const fields = fen.trim().split(/\s+/);
  if (fields.length !== 6) return null;
  const board = boardOfFen(fen);
  const stage = STAGES[fields[2]];
  const pair = (text: string): Pair<number> | null => {
    const m = /^(\d+)-(\d+)$/.exec(text);
    return m ? { white: Number(m[1]), black: Number(m[2]) } : null;
  };
  const removed = pair(fields[3]);
  const targets = pair(fields[4]);
  const ringMoves = /^(\d+)(\/\d+)?$/.exec(fields[5]);
  if (!board || !stage || !removed || !targets || !ringMoves || (fields[1] !== "w" && fields[1] !== "b")) return null;
  const markers = board.markers.white.length + board.markers.black.length;
  return {
    board,
    to_move: fields[1] === "w" ? "white" : "black",
    stage,
    removed,
    targets,
    ring_moves: Number(ringMoves[1]),
    pool: 51 - markers,
  };
}
