// The mark beside a guest's name (a player without an account), wherever names show.

import { h } from "../dom";
import { t } from "../i18n";

/** A small "guest" tag to put after a guest's name. */
export function guestMark(): HTMLElement {
  return h("span", { class: "guest-mark", title: t("guest.explain"), "data-testid": "guest-mark" }, t("guest.mark"));
}
