// The engine's level choices with each level's estimated rating (GET /api/engine),
// so that a player can pick a sensible opponent. The levels are listed at once; their
// ratings are added when the server's answer comes (asked once per page load).

import type { EngineLevel } from "../protocol";
import { t } from "../i18n";

let levels: Promise<EngineLevel[]> | null = null;

/** The levels and their estimated ratings (fetched once; empty if the server cannot say). */
export function engineLevels(): Promise<EngineLevel[]> {
  levels ??= fetch("/api/engine")
    .then((r) => (r.ok ? (r.json() as Promise<EngineLevel[]>) : []))
    .catch(() => []);
  return levels;
}

/** The label of a level: "Level 5 · ≈2200", or "Level 5" without a rating. */
export function levelLabel(level: number, rating: number | undefined): string {
  const name = `${t("lobby.level")} ${level}`;
  return rating === undefined ? name : `${name} · ≈${rating}`;
}

/** Fills `select` with the levels 1–10 (`chosen` selected) and adds their ratings. */
export function fillLevels(select: HTMLSelectElement, chosen: number): void {
  select.replaceChildren();
  for (let l = 1; l <= 10; l++) {
    const option = document.createElement("option");
    option.value = String(l);
    option.textContent = levelLabel(l, undefined);
    select.append(option);
  }
  select.value = String(chosen);
  select.title = t("engine.estimate");
  void engineLevels().then((list) => {
    for (const { level, rating } of list) {
      const option = select.querySelector<HTMLOptionElement>(`option[value="${level}"]`);
      if (option) option.textContent = levelLabel(level, rating);
    }
  });
}
