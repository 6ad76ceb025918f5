// Ratings in words (categories, a rating with its "?", a change "1500 → 1662 (+162)")
// and registered players' names as links to their pages (`#/@/<name>`).

import "./ratings.css";
import { h } from "../dom";
import { t, type Key } from "../i18n";
import { RATING_CATEGORIES, TIME_CLASSES, type RatingCategory, type RatingDiff, type TableOptions, type TimeClass } from "../protocol";
import { speedOf } from "./meet";

/** The time classes of rated games, fastest first (defined by the server). */
export { TIME_CLASSES };
export type { TimeClass };

/** Every rating category, in the order pages show them (defined by the server). */
export const CATEGORIES: readonly string[] = RATING_CATEGORIES;

/** Items in the order of their categories (unknown categories last, by name). */
export function sortByCategory<T>(items: readonly T[], category: (item: T) => string): T[] {
  const rank = (c: string) => {
    const i = CATEGORIES.indexOf(c);
    return i < 0 ? CATEGORIES.length : i;
  };
  return [...items].sort((a, b) => rank(category(a)) - rank(category(b)) || category(a).localeCompare(category(b)));
}

/**
 * The category a game with these options is rated in (`standard-quick`,
 * `blitz-correspondence`), `null` when untimed or unlimited.
 */
export function categoryOf(o: Pick<TableOptions, "variant" | "time" | "correspondence">): RatingCategory | null {
  if (o.correspondence) return o.correspondence.days === undefined ? null : `${o.variant}-correspondence`;
  if (!o.time) return null;
  return `${o.variant}-${speedOf(o.time)}`;
}

/** A category in words: `Standard · Rapid`, `Blitz · Bullet`; an unknown one as it is. */
export function categoryLabel(category: string): string {
  const m = /^(standard|blitz)-(bullet|quick|rapid|classical|correspondence)$/.exec(category);
  if (!m) return category;
  return `${t(`variant.${m[1]}` as Key)} · ${t(`speed.${m[2]}` as Key)}`;
}

/** A rating as shown: `1662`, or `1662?` while it is provisional. */
export function ratingText(rating: number, provisional: boolean): string {
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}

/** A difference with its sign: `+162`, `−12` (a minus sign, not a hyphen), `±0`. */
export function signed(n: number): string {
  const r = Math.round(n);
  if (r === 0) return "±0";
  return r > 0 ? `+${r}` : `−${-r}`;
}

/** A rating change: `1500 → 1662 (+162)`, `1500 → 1338? (−162)` while provisional. */
export function ratingChange(d: RatingDiff): string {
  return `${Math.round(d.before)} → ${ratingText(d.after, d.provisional)} (${signed(d.after - d.before)})`;
}

/** `up`, `down` or `same`: for the colour (and arrow) of a change. */
export function changeDirection(d: RatingDiff): "up" | "down" | "same" {
  const diff = Math.round(d.after) - Math.round(d.before);
  return diff > 0 ? "up" : diff < 0 ? "down" : "same";
}

/** Whether a player has an account (and so a page): neither a guest nor the engine. */
export function isRegistered(p: { guest?: boolean; bot?: number; imported?: boolean } | null | undefined): boolean {
  // An imported game's names are its record's: nobody's account here.
  return !!p && !p.guest && p.bot === undefined && !p.imported;
}

/** The address of a player's page. */
export function profileHash(name: string): string {
  return `#/@/${encodeURIComponent(name)}`;
}

/** A registered player's name as a link to their page (the text is the name, never markup). */
export function playerLink(name: string, attrs: Record<string, string> = {}): HTMLAnchorElement {
  return h("a", { class: "player-link", href: profileHash(name), ...attrs }, name);
}

/**
 * A name as the pages show it: a link for a registered player, plain text for a guest
 * or the engine (`shown` is the engine's name in the reader's language).
 */
export function nameOrLink(name: string, who: { guest?: boolean; bot?: number; imported?: boolean }, shown: string = name): Node {
  return isRegistered(who) ? playerLink(name) : document.createTextNode(shown);
}

/** "Rated" or "Casual", as a small mark (the lobby's rows, the table's header). */
export function ratedMark(o: Pick<TableOptions, "rated" | "variant" | "time">): HTMLElement {
  const category = o.rated ? categoryOf(o) : null;
  return h(
    "span",
    {
      class: o.rated ? "rated-mark rated" : "rated-mark casual",
      "data-testid": "rated-mark",
      title: category ? categoryLabel(category) : null,
    },
    t(o.rated ? "rating.rated" : "rating.casual"),
  );
}

/** A rating change as an element (`1500 → 1662 (+162)`), marked up or down; a provisional one says so in its title. */
export function ratingChangeEl(d: RatingDiff, testid: string): HTMLElement {
  return h(
    "span",
    { class: `rating-change ${changeDirection(d)}`, "data-testid": testid, title: d.provisional ? t("rating.provisional") : null },
    ratingChange(d),
  );
}
