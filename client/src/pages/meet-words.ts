// Seeks and challenges in words: the game asked for (`Standard · 5+3 Quick · Casual`),
// the colours, and a player's name with the guest mark.

import { h } from "../dom";
import { t } from "../i18n";
import type { PlayerView, SeatColor, TableOptions, TimeSetting } from "../protocol";
import { nameMarks } from "./guest";
import { speedOf, timeLabel } from "./meet";
import { paceWords } from "./options";

/** `5+3 Quick`: the clock as players say it, and its class. */
export function clockWords(time: TimeSetting): string {
  return `${timeLabel(time)} ${t(`meet.speed.${speedOf(time)}`)}`;
}

/** `Standard · 5+3 Quick · Casual`, with a handicap and a turn limit when set. */
export function gameLabel(o: TableOptions): string {
  const pace = o.correspondence ? paceWords(o.correspondence) : o.time ? clockWords(o.time) : t("opt.untimed");
  const parts = [t(`variant.${o.variant}`), pace];
  if (o.handicap) parts.push(t("opt.handicap", { white: o.handicap.white, black: o.handicap.black }));
  if (o.turn_limit) parts.push(t("opt.turns", { turns: o.turn_limit }));
  parts.push(o.rated ? t("meet.rated") : t("meet.casual"));
  return parts.join(" · ");
}

/** `you play White`, or `colours at random`. */
export function colorWords(mine: SeatColor | null): string {
  return mine === "white" ? t("meet.youPlayWhite") : mine === "black" ? t("meet.youPlayBlack") : t("meet.colorsRandom");
}

/** A player's name, with the guest mark for a guest. */
export function nameEl(p: PlayerView, cls = "meet-name"): HTMLElement {
  return h("span", { class: cls }, h("bdi", {}, p.name), nameMarks(p));
}
