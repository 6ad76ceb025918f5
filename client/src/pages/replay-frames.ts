// The replay viewer's frames, without the page: frame n is the position after n actions
// (frame 0 the start); which frame an address or a key asks for, the action to animate
// between two frames, the clocks, turns and marks at a frame, and the rings to remove.

import { marksOf, type Marks } from "../board/marks";
import { groupTurns, turnOfPly, type Turn } from "../board/turns";
import type { ArchivedAction, ArchivedGame, Frame, Pair, SeatColor, TableOptions } from "../protocol";

const COLORS: SeatColor[] = ["white", "black"];

/** `n` kept within 0..total (a whole number; anything unreadable is 0). */
export function clampPly(n: number, total: number): number {
  if (!Number.isFinite(n)) return 0;
  return Math.min(Math.max(0, Math.trunc(n)), Math.max(0, total));
}

/** The frame an address asks for (`…?ply=12`), `null` when it names none. */
export function plyFromHash(hash: string): number | null {
  const at = hash.indexOf("?");
  if (at < 0) return null;
  const text = new URLSearchParams(hash.slice(at + 1)).get("ply");
  if (text === null || !/^\d+$/.test(text)) return null;
  return Number(text);
}

/** The address of frame `ply` of game `id` (frame 0 has no `ply`). */
export function replayHash(id: string, ply: number): string {
  const base = `#/replay/${encodeURIComponent(id)}`;
  return ply > 0 ? `${base}?ply=${ply}` : base;
}

/**
 * The frame a key leads to from `ply`, or `null` when the key is not one of ours
 * (ArrowLeft/ArrowRight step, Home/End jump; Space is handled apart, as a toggle).
 */
export function plyForKey(key: string, ply: number, total: number): number | null {
  switch (key) {
    case "ArrowLeft":
      return clampPly(ply - 1, total);
    case "ArrowRight":
      return clampPly(ply + 1, total);
    case "Home":
      return 0;
    case "End":
      return total;
    default:
      return null;
  }
}

/**
 * The action to animate when going from frame `from` to frame `to`: the one
 * action played in between when stepping forward by one, otherwise none (a jump
 * or a step back is drawn at once).
 */
export function animatedAction(from: number, to: number, moves: ArchivedAction[]): string | null {
  return to === from + 1 ? (moves[from]?.action ?? null) : null;
}

/**
 * The clocks as they stood at frame `ply`: after its action, the times recorded
 * with it; at frame 0 the initial time. `null` for an untimed game. An action
 * recorded without times (should not happen) takes the last times known before it.
 */
export function clocksAt(
  moves: ArchivedAction[],
  options: Pick<TableOptions, "time">,
  ply: number,
): Pair<number> | null {
  if (!options.time) return null;
  const initial = options.time.minutes * 60_000;
  const clocks: Pair<number> = { white: initial, black: initial };
  for (const color of COLORS) {
    const key = color === "white" ? "white_ms" : "black_ms";
    for (let i = Math.min(ply, moves.length) - 1; i >= 0; i--) {
      const ms = moves[i][key];
      if (typeof ms === "number") {
        clocks[color] = ms;
        break;
      }
    }
  }
  return clocks;
}

/** The number of actions that can be shown: frames beyond the moves (or missing) are ignored. */
export function playableActions(game: Pick<ArchivedGame, "moves" | "frames">): number {
  return Math.max(0, Math.min(game.moves.length, game.frames.length - 1));
}

/** The turns of an archived game: who played each action is who was to act before it (its frame). */
export function archivedTurns(moves: readonly ArchivedAction[], frames: readonly Frame[], total: number): Turn[] {
  return groupTurns(
    moves.slice(0, total).map((m) => m.action),
    frames.slice(0, total).map((f) => f.to_move),
  );
}

/** The marks on frame `ply`: the turn of its last action, up to that action. */
export function replayMarks(turns: readonly Turn[], frames: readonly Frame[], ply: number): Marks | null {
  const turn = turnOfPly(turns, ply);
  if (!turn || !frames[ply]) return null;
  return marksOf(turn.tokens.slice(0, ply - turn.first), frames[ply].board);
}

/** Rings each player must remove to win (the handicap, else the variant's). */
export function targetsOf(options: Pick<TableOptions, "variant" | "handicap">): Pair<number> {
  if (options.handicap) return { white: options.handicap.white, black: options.handicap.black };
  const n = options.variant === "blitz" ? 1 : 3;
  return { white: n, black: n };
}

