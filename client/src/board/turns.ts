// The move list by turns (docs/notation.md, "Turns"): a turn is the longest run of
// actions of one player; turns are numbered across both players (odd White, even
// Black); the list shows one row per pair of turns, White's then Black's. Pure: no DOM.

import type { SeatColor } from "../protocol";

export interface Turn {
  /** Its number in the record (1, 2, …; odd numbers are White's in a normal game). */
  readonly number: number;
  readonly color: SeatColor;
  /** The index of its first action in the game's list (0-based). */
  readonly first: number;
  /** Its action tokens, in order. */
  readonly tokens: readonly string[];
}

/** The plies after the turn: the number of actions played once it is complete. */
export const turnEnd = (turn: Turn): number => turn.first + turn.tokens.length;

/** Cuts the actions into turns by who played them (`actors[i]` played `tokens[i]`). */
/** A game from a position where Black acts first numbers its first turn 2, as its record does. */
export function groupTurns(tokens: readonly string[], actors: readonly SeatColor[]): Turn[] {
  const turns: { number: number; color: SeatColor; first: number; tokens: string[] }[] = [];
  const first = actors[0] === "black" ? 2 : 1;
  tokens.forEach((token, i) => {
    const color = actors[i];
    const last = turns[turns.length - 1];
    if (last && last.color === color) last.tokens.push(token);
    else turns.push({ number: turns.length + first, color, first: i, tokens: [token] });
  });
  return turns;
}

/**
 * A turn as the record writes it: actions joined with `;`, a ring removal joined to
 * the row removal before it without separator (`c3-c8;xc3-c7xk10`).
 */
export function turnText(tokens: readonly string[]): string {
  let out = "";
  tokens.forEach((token, i) => {
    if (i > 0) out += isRingRemoval(token) && isRowRemoval(tokens[i - 1]) ? "" : ";";
    out += token;
  });
  return out;
}

/** The separator the record puts before action `i` of a turn ("" for the first). */
export function separatorBefore(tokens: readonly string[], i: number): string {
  if (i === 0) return "";
  return isRingRemoval(tokens[i]) && isRowRemoval(tokens[i - 1]) ? "" : ";";
}

const isRowRemoval = (token: string): boolean => /^x[a-k]\d+-[a-k]\d+$/i.test(token);
const isRingRemoval = (token: string): boolean => /^x[a-k]\d+$/i.test(token);

/** One row of the list: a number, White's turn and Black's (either may be missing). */
export interface TurnRow {
  readonly number: number;
  readonly white: Turn | null;
  readonly black: Turn | null;
}

/** Pairs the turns into rows: each White turn opens a row, Black's turn completes it. */
export function turnRows(turns: readonly Turn[]): TurnRow[] {
  const rows: { number: number; white: Turn | null; black: Turn | null }[] = [];
  for (const turn of turns) {
    const last = rows[rows.length - 1];
    if (turn.color === "black" && last && !last.black) last.black = turn;
    else rows.push({ number: rows.length + 1, white: turn.color === "white" ? turn : null, black: turn.color === "black" ? turn : null });
  }
  return rows;
}

/** The turn holding action number `ply` (1-based: the `ply`-th action); null for 0 or beyond. */
export function turnOfPly(turns: readonly Turn[], ply: number): Turn | null {
  if (ply < 1) return null;
  return turns.find((t) => ply > t.first && ply <= turnEnd(t)) ?? null;
}

/**
 * The turn to mark on the board: the last turn of the player who is not to act (so the
 * opponent's last turn stays marked while the player removes a row it made for them);
 * once the game is over, the last turn.
 */
export function markedTurn(turns: readonly Turn[], toMove: SeatColor | null): Turn | null {
  for (let i = turns.length - 1; i >= 0; i--) {
    if (toMove === null || turns[i].color !== toMove) return turns[i];
  }
  return null;
}
