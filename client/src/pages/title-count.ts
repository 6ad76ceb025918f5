// What the tab's title counts ("(n) " before it, as on lichess): the games waiting for
// the player's move (notify.ts, not at a table) and the challenges to the player that
// stand (challenges.ts). Each part sets its own count; notify.ts writes the title.

export type TitleSource = "turns" | "challenges";

const counts = new Map<TitleSource, number>();
const listeners = new Set<() => void>();

/** `source`'s count is `n` now. */
export function setTitleCount(source: TitleSource, n: number): void {
  if ((counts.get(source) ?? 0) === n) return;
  counts.set(source, n);
  listeners.forEach((l) => l());
}

/** Everything the title counts. */
export function titleCount(): number {
  let sum = 0;
  for (const n of counts.values()) sum += n;
  return sum;
}

/** Calls `listener` after each change of a count, until the returned function is called. */
export function onTitleCount(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
