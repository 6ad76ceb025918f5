// Table options in words, for the lobby and the table.

import { t } from "../i18n";
import type { Pair, PlayerView, TableOptions } from "../protocol";

/**
 * `Standard · 10 min + 5 s · archived`, with a handicap and turn limit when set. Given
 * the seats, "engine at full strength" is said only when an engine sits there (without
 * one the option changes nothing).
 */
export function describeOptions(o: TableOptions, seats?: Pair<PlayerView | null>): string {
  const parts = [t(`variant.${o.variant}`)];
  parts.push(o.time ? t("opt.time", { minutes: o.time.minutes, increment: o.time.increment }) : t("opt.untimed"));
  if (o.handicap) parts.push(t("opt.handicap", { white: o.handicap.white, black: o.handicap.black }));
  if (o.turn_limit) parts.push(t("opt.turns", { turns: o.turn_limit }));
  if (o.position) parts.push(t("opt.fromPosition"));
  const engineSeated = !seats || seats.white?.bot != null || seats.black?.bot != null;
  if (o.engine_full && engineSeated) parts.push(t("opt.engineFull"));
  parts.push(o.log ? t("opt.log") : t("opt.nolog"));
  return parts.join(" · ");
}
