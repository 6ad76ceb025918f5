// The move list of the table and the replay viewer: one row per pair of turns (number,
// White's turn, Black's), each action a button that shows the position after it;
// scrolled on its own (move-list.css).

import "./move-list.css";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { SeatColor } from "../protocol";
import { separatorBefore, turnRows, type Turn } from "../board/turns";

/**
 * Draws the move list into `list`: one row per pair of turns, each action a button that
 * shows the position after it. `current` is the action shown (0: none).
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
