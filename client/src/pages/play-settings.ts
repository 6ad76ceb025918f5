// The account page's "Playing" section: "Confirm turn" for correspondence and for live
// games, the same switches a table has below its board, remembered in this browser.

import { h } from "../dom";
import { t } from "../i18n";
import { confirmWanted, setConfirmWanted, type Pace } from "./table/toggles";

/** The section. */
export function playSettingsPanel(): HTMLElement {
  const row = (pace: Pace): HTMLElement => {
    const box = h("input", { type: "checkbox", "data-testid": `confirm-${pace}` }) as HTMLInputElement;
    box.checked = confirmWanted(pace);
    box.addEventListener("change", () => setConfirmWanted(pace, box.checked));
    return h("label", { class: "notify-kind" }, box, h("span", {}, t(`settings.confirm.${pace}`)));
  };
  return h(
    "div",
    { class: "account-form play-settings", "data-testid": "play-settings" },
    h("h2", {}, t("settings.playTitle")),
    h("p", { class: "hint" }, t("settings.playHint")),
    h("fieldset", {}, row("correspondence"), row("live")),
  );
}
