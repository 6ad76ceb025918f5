// What the tournament pages show, without the page: the countdowns, a clock's words,
// a sheet's games, the form that makes an arena. Pure, and tested.

import { t } from "../i18n";
import type { ArenaList, ArenaView } from "../protocol";

/** A countdown as a clock shows one: `1:02:03`, `12:05`, `0:09`. */
export function countdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours > 0 ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`;
}

/** An arena's clock: `3+2`. */
export function clockText(arena: Pick<ArenaView, "clock">): string {
  return `${arena.clock.limit / 60}+${arena.clock.increment}`;
}

/** The seconds to the arena's next moment (its start, or its end) as of `now`, given
 * that the view came at `receivedAt` (both ms); null once it is over. */
export function secondsLeft(arena: ArenaView, receivedAt: number, now: number): number | null {
  const passed = (now - receivedAt) / 1000;
  if (arena.secondsToStart !== undefined) return Math.max(0, arena.secondsToStart - passed);
  if (arena.secondsToFinish !== undefined) return Math.max(0, arena.secondsToFinish - passed);
  return null;
}

/** What the arena is about to do: "Starts in 4:59", "Ends in 12:00", "Finished". */
export function momentText(arena: ArenaView, left: number | null): string {
  if (left === null) return t("arena.over");
  return arena.isStarted ? t("arena.endsIn", { time: countdown(left) }) : t("arena.startsIn", { time: countdown(left) });
}

/** A sheet's games' points, oldest first (the API writes them newest first, a digit
 * a game: a game scores at most 5). */
export function sheetGames(scores: string): number[] {
  return [...scores].map(Number).filter((n) => !Number.isNaN(n)).reverse();
}

/** The arenas the lobby announces: those under way, then those coming, soonest first, at most `n`. */
export function nextArenas(list: ArenaList, n: number): ArenaView[] {
  const soon = [...list.created].sort((a, b) => a.startsAt - b.startsAt);
  return [...list.started, ...soon].slice(0, n);
}

/** The choices of the form that makes an arena. */
export interface ArenaChoice {
  name: string;
  minutes: number;
  clockMinutes: number;
  increment: number;
  /** Minutes from now until it begins. */
  wait: number;
  variant: "standard" | "blitz";
  rated: boolean;
  bots: boolean;
}

/** The form `POST /api/tournament` reads, with lichess's names. */
export function arenaForm(choice: ArenaChoice): URLSearchParams {
  const form = new URLSearchParams({
    minutes: String(choice.minutes),
    clockTime: String(choice.clockMinutes),
    clockIncrement: String(choice.increment),
    waitMinutes: String(choice.wait),
    variant: choice.variant,
    rated: String(choice.rated),
    bots: String(choice.bots),
  });
  const name = choice.name.trim();
  if (name) form.set("name", name);
  return form;
}
