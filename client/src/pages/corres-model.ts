// What the lobby's correspondence seeks (corres-seeks.ts) compute without the page: the
// body of a new seek, the pace in words, the order of the list.

import { t, tn } from "../i18n";
import type { PlayerView, SeekView, VariantName } from "../protocol";
import { isMe } from "./meet";

/** What the form asks for: days per turn, or `"unlimited"`. */
export interface CorresChoice {
  variant: VariantName;
  days: number | "unlimited";
  rated: boolean;
  bots: boolean;
}

/** The body of `POST /api/seeks/correspondence` for a choice (an unlimited game is never rated). */
export function corresSeekBody(c: CorresChoice): { variant: VariantName; days?: number; rated: boolean; bots: boolean } {
  return c.days === "unlimited" ? { variant: c.variant, rated: false, bots: c.bots } : { variant: c.variant, days: c.days, rated: c.rated, bots: c.bots };
}

/** `3 days per turn`, or unlimited. */
export function corresPace(days: number | undefined): string {
  return days === undefined ? t("lobby.unlimited") : tn("games.daysPerTurn", days);
}

/** The seeks shown: one's own first, then the others oldest first (as the server lists them). */
export function corresOrder(seeks: readonly SeekView[], me: PlayerView | null): SeekView[] {
  return [...seeks.filter((s) => isMe(s.player, me)), ...seeks.filter((s) => !isMe(s.player, me))];
}
