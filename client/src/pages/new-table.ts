// Starting a table from the page: the lobby's "New table" and "Play the engine", and
// "Play on from here" in the replay viewer and on the analysis board.

import type { Connection } from "../connection";
import type { SeatColor, TableOptions } from "../protocol";

/** Who sits down at once: the player at `color`, and the engine opposite when `engine` is a level. */
export interface Seating {
  color: SeatColor;
  engine: number | null;
}

/**
 * Creates a table with `options` and gives its id. With `seating`, the player sits at
 * its colour first; with an engine level, the engine takes the other seat (it sits
 * opposite the sender) and the game starts. Refusals are thrown as `Refused`.
 */
export async function newTable(conn: Connection, options: TableOptions, seating: Seating | null): Promise<string> {
  const created = await conn.request({ type: "create_table", options });
  const table = created.table!;
  if (seating !== null) {
    // Open first: the table's commands need it; the table page opens it again.
    await conn.request({ type: "open", table });
    await conn.request({ type: "command", table, command: "join", color: seating.color });
    if (seating.engine !== null) {
      await conn.request({ type: "command", table, command: "bot", level: seating.engine });
      await conn.request({ type: "command", table, command: "start" });
    }
  }
  return table;
}

/** The address of a table's page. */
export function tableHash(table: string): string {
  return `#/table/${encodeURIComponent(table)}`;
}
