// What the table page and the replay viewer share: the layout that fits the whole board
// on the screen, the player bars (name, clock, rings removed) and the move list by turns.

import { h, replace } from "../dom";
import { t } from "../i18n";
import type { SeatColor } from "../protocol";
import { separatorBefore, turnRows, type Turn } from "../board/turns";

/**
 * Keeps `--avail-h` of a game layout at the height left on the screen below its top (the
 * page opens at its top): the CSS sizes the board from it. Returns the function that stops.
 */
export function fitToScreen(layout: HTMLElement): () => void {
  const fit = () => {
    const top = layout.getBoundingClientRect().top + window.scrollY;
    layout.style.setProperty("--avail-h", `${Math.max(240, window.innerHeight - top - 8)}px`);
  };
  fit();
  const frame = requestAnimationFrame(fit); // once the fonts and the header are laid out
  window.addEventListener("resize", fit);
  return () => {
    cancelAnimationFrame(frame);
    window.removeEventListener("resize", fit);
  };
}

/** The rings a player has removed, as slots (filled ones removed), with a label that says it. */
export function removedSlots(removed: number, target: number): HTMLElement {
  const label = t("game.removedOf", { removed, target });
  const slots = Array.from({ length: Math.max(target, removed) }, (_, i) =>
    h("span", { class: `slot${i < removed ? " filled" : ""}`, "aria-hidden": "true" }),
  );
  return h("span", { class: "removed-slots", role: "img", "aria-label": label, title: label, "data-testid": "removed", "data-removed": removed }, slots);
}

/**
 * The move list: one row per pair of turns (number, White's turn, Black's), each action
 * a button that shows the position after it. `current` is the action shown (0: none).
 */
export function renderTurns(list: HTMLElement, turns: readonly Turn[], current: number): void {
  const rows = turnRows(turns);
  const cell = (turn: Turn | null, color: SeatColor) => {
    if (!turn) return h("div", { class: `turn-cell ${color} empty` });
    const parts: (Node | string)[] = [];
    turn.tokens.forEach((token, i) => {
      const sep = separatorBefore(turn.tokens, i);
      if (sep) parts.push(h("span", { class: "sep" }, sep));
      const ply = turn.first + i + 1;
      parts.push(
        h("button", { type: "button", class: `act${ply === current ? " current" : ""}`, "data-ply": ply, tabindex: -1, "aria-current": ply === current ? "step" : null }, token),
      );
    });
    const holds = current > turn.first && current <= turn.first + turn.tokens.length;
    return h("div", { class: `turn-cell ${color}${holds ? " current" : ""}`, "data-turn": turn.number, title: t("game.turn", { n: turn.number }) }, parts);
  };
  replace(
    list,
    rows.map((r) => h("li", { class: "turn-row", "data-row": r.number }, h("span", { class: "n" }, `${r.number}`), cell(r.white, "white"), cell(r.black, "black"))),
  );
}

/** Scrolls `list` (never the page) so that its item holding `selector` is in sight; to the end when there is none. */
export function scrollListTo(list: HTMLElement, selector: string): void {
  const item = list.querySelector<HTMLElement>(selector)?.closest<HTMLElement>("li");
  if (!item) {
    list.scrollTop = list.scrollHeight;
    return;
  }
  const top = item.offsetTop; // the list is the offset parent (positioned in the CSS)
  const bottom = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

/** Whether a key press belongs to a field that uses the key itself (text, menus, sliders). */
export function keyTakenBy(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT";
}

/** Small drawn icons (emoji fonts are missing on many systems). */
const ICONS = {
  sound: "M2 6h3l4-3v10L5 10H2zM11 5.5a3.5 3.5 0 0 1 0 5M12.5 3.5a6 6 0 0 1 0 9",
  mute: "M2 6h3l4-3v10L5 10H2zM11 6l4 4M15 6l-4 4",
  bell: "M8 2a4 4 0 0 0-4 4v3L2.5 11.5h11L12 9V6a4 4 0 0 0-4-4zM6.5 13a1.5 1.5 0 0 0 3 0",
} as const;

export function icon(name: keyof typeof ICONS): SVGSVGElement {
  return svgIcon(ICONS[name], "icon", { width: 1.5 });
}

/**
 * A 16×16 icon as an inline SVG of one path `d`: stroked with the text colour when
 * `stroke` says how wide, filled with it otherwise.
 */
export function svgIcon(d: string, className: string, stroke?: { width: number }): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", className);
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  if (stroke) {
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", String(stroke.width));
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
  } else {
    path.setAttribute("fill", "currentColor");
  }
  svg.append(path);
  return svg;
}
