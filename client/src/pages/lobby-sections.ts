// Where a table belongs in the lobby: open for a player to sit down, a game to watch,
// or a finished game whose players have not moved on (one both left is not shown).
// Also the clock of a game against the engine. Pure: the lobby page draws it.

import type { PlayerView, TableOptions, TableSummary } from "../protocol";

/** The lobby's sections, in the order they are shown. */
export type Section = "open" | "games" | "finished";

/**
 * What a table is doing, in more detail than its section:
 * - `open`: waiting, with a free seat (after a game too: a player left);
 * - `ready`: both seats taken, waiting, no game played yet (about to start);
 * - `playing`: a game runs and a seated person is at the table;
 * - `away`: a game runs but every person seated at it is away (the server ends such a
 *   game after five minutes; it is no lively game to watch);
 * - `finished`: both seats taken, waiting after a game (`last_result`).
 */
export type TableState = "open" | "ready" | "playing" | "away" | "finished";

const isPerson = (p: PlayerView | null | undefined): p is PlayerView => !!p && p.bot === undefined;

export function tableState(s: TableSummary): TableState {
  const seats = [s.seats.white, s.seats.black];
  if (s.status === "playing") {
    const people = seats.filter(isPerson);
    return people.length > 0 && people.every((p) => !p.online) ? "away" : "playing";
  }
  if (seats.some((p) => !p)) return "open";
  return s.last_result ? "finished" : "ready";
}

/** A table after a game, both of whose seats are empty. */
export function deserted(s: TableSummary): boolean {
  return s.status !== "playing" && !!s.last_result && !s.seats.white && !s.seats.black;
}

export function sectionOf(state: TableState): Section {
  switch (state) {
    case "open":
      return "open";
    case "finished":
      return "finished";
    default:
      return "games";
  }
}

/**
 * The tables of each section, in order: open tables oldest first (the longest wait at
 * the top), games with lively ones before those whose players are away, finished ones
 * newest first (the server lists oldest first).
 */
export function sections(tables: Iterable<TableSummary>): Record<Section, { table: TableSummary; state: TableState }[]> {
  const out: Record<Section, { table: TableSummary; state: TableState }[]> = { open: [], games: [], finished: [] };
  for (const table of tables) {
    // A finished game that both players left: they moved on, its game is in the
    // archive, and sitting down there would seat a player alone at a dead table.
    if (deserted(table)) continue;
    const state = tableState(table);
    out[sectionOf(state)].push({ table, state });
  }
  const rank: Record<TableState, number> = { open: 0, playing: 0, ready: 1, away: 2, finished: 0 };
  // Array.prototype.sort is stable: within a rank the server's order stays.
  out.games.sort((a, b) => rank[a.state] - rank[b.state]);
  out.finished.reverse();
  return out;
}

/** Picks the colour for "play the engine": the chosen one, or a coin toss for `random`. */
export function pickColor(choice: "white" | "black" | "random", random: () => number = Math.random): "white" | "black" {
  if (choice !== "random") return choice;
  return random() < 0.5 ? "white" : "black";
}

/** The clocks offered for a game against the engine (minutes, increment), and untimed. */
export const ENGINE_CLOCKS: readonly (readonly [number, number])[] = [
  [3, 2],
  [5, 3],
  [10, 5],
  [15, 10],
  [30, 0],
];

/** The engine game's clock from its select's value (`10+5`, or `untimed`). */
export function engineTime(value: string): TableOptions["time"] {
  const m = /^(\d+)\+(\d+)$/.exec(value);
  return m ? { minutes: Number(m[1]), increment: Number(m[2]) } : undefined;
}
