// What the game pages' player bars share (the table, the replay viewer, the analysis
// board): the rings removed as slots and the engine's pulsing dots. Each page makes its
// bars (`.player-bar`: swatch, name, slots, clock) and places them above and below the
// board; player-bar.css draws them.

import "./player-bar.css";
import { h } from "../dom";
import { t } from "../i18n";
import type { SeatColor } from "../protocol";

/** Which side's bar goes above the board and which below: the side drawn at the bottom has its bar below it. */
export function barSides(flipped: boolean): { top: SeatColor; bottom: SeatColor } {
  const bottom: SeatColor = flipped ? "black" : "white";
  return { top: bottom === "white" ? "black" : "white", bottom };
}

/** The rings a player has removed, as slots (filled ones removed), with a label that says it. */
export function removedSlots(removed: number, target: number): HTMLElement {
  const label = t("game.removedOf", { removed, target });
  const slots = Array.from({ length: Math.max(target, removed) }, (_, i) =>
    h("span", { class: `slot${i < removed ? " filled" : ""}`, "aria-hidden": "true" }),
  );
  return h("span", { class: "removed-slots", role: "img", "aria-label": label, title: label, "data-testid": "removed", "data-removed": removed }, slots);
}

/** The engine thinks: three dots that pulse (still when the reader asks for less motion). */
export function thinkingDots(): HTMLElement {
  return h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i"));
}
