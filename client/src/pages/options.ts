// Table options in words, for the lobby and the table.

import { h } from "../dom";
import { t, tn } from "../i18n";
import { DAYS_PER_TURN, type Correspondence, type Pair, type PlayerView, type TableOptions } from "../protocol";

/**
 * The pace of a game: live (`""`), or correspondence with days per turn (`"3"`) or
 * unlimited (`"unlimited"`), as a select's value.
 */
export function paceSelect(correspondence: Correspondence | undefined, testid: string): HTMLSelectElement {
  const select = h("select", { name: "days", "data-testid": testid, "aria-label": t("lobby.pace") }) as HTMLSelectElement;
  select.append(h("option", { value: "" }, t("lobby.live")));
  for (const d of DAYS_PER_TURN) select.append(h("option", { value: String(d) }, tn("lobby.daysPerTurn", d)));
  select.append(h("option", { value: "unlimited" }, t("lobby.unlimited")));
  select.value = correspondence ? String(correspondence.days ?? "unlimited") : "";
  return select;
}

/** `Correspondence, 3 days per turn`, or unlimited. */
export function paceWords(c: Correspondence): string {
  return c.days === undefined ? t("lobby.unlimited") : tn("lobby.daysPerTurn", c.days);
}

/** The correspondence a pace select's value asks for; none for live play. */
export function paceOf(value: string): Correspondence | undefined {
  if (value === "") return undefined;
  return value === "unlimited" ? {} : { days: Number(value) };
}

/**
 * `Standard · 10 min + 5 s · archived`, with a handicap and turn limit when set. Given
 * the seats, "engine at full strength" is said only when an engine sits there (without
 * one the option changes nothing).
 */
export function describeOptions(o: TableOptions, seats?: Pair<PlayerView | null>): string {
  const parts = [t(`variant.${o.variant}`)];
  if (o.correspondence) parts.push(paceWords(o.correspondence));
  else parts.push(o.time ? t("opt.time", { minutes: o.time.minutes, increment: o.time.increment }) : t("opt.untimed"));
  if (o.handicap) parts.push(t("opt.handicap", { white: o.handicap.white, black: o.handicap.black }));
  if (o.turn_limit) parts.push(t("opt.turns", { turns: o.turn_limit }));
  if (o.position) parts.push(t("opt.fromPosition"));
  const engineSeated = !seats || seats.white?.bot != null || seats.black?.bot != null;
  if (o.engine_full && engineSeated) parts.push(t("opt.engineFull"));
  parts.push(o.log ? t("opt.log") : t("opt.nolog"));
  return parts.join(" · ");
}
