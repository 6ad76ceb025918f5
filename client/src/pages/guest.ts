// The marks beside a name, wherever names show: a guest's (a player without an
// account), a bot account's (a program playing through the bot API).

import "./guest.css";
import { h } from "../dom";
import { t } from "../i18n";

/** A small "guest" tag to put after a guest's name. */
export function guestMark(): HTMLElement {
  return h("span", { class: "guest-mark", title: t("guest.explain"), "data-testid": "guest-mark" }, t("guest.mark"));
}

/** The marks a player's name carries: "guest", or "BOT" for a bot account. */
export function nameMarks(p: { guest?: boolean; title?: string } | null | undefined): HTMLElement | null {
  if (!p) return null;
  if (p.title === "BOT") return h("span", { class: "guest-mark bot-mark", title: t("bot.explain"), "data-testid": "bot-mark" }, "BOT");
  return p.guest ? guestMark() : null;
}
