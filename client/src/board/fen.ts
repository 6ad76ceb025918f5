// The pieces of a position string (docs/notation.md, "Position string"), read for
// display only: a table that begins from a position shows it before its first game
// starts. Reading notation is not playing by the rules; the server checked the string.

import type { BoardView } from "../protocol";
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
