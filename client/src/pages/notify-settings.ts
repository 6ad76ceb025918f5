// The account page's "Notifications" section: a box per kind of notification, loaded
// from and saved to `/api/notifications/settings` (the kinds switched off), saved on
// each change with a small "Saved".

import { api } from "../api";
import { h } from "../dom";
import { t } from "../i18n";
import type { NoticeKind, NotifySettings } from "../protocol";
import { NOTICE_KINDS } from "./notify-model";

/** The section; `alive` says whether the page is still shown. */
export function notifySettingsPanel(alive: () => boolean): HTMLElement {
  const status = h("p", { class: "notify-status", role: "status", "data-testid": "notify-status" });
  const boxes = new Map<NoticeKind, HTMLInputElement>();
  const rows = NOTICE_KINDS.map((kind) => {
    const box = h("input", { type: "checkbox", disabled: true, "data-testid": `notify-${kind}` }) as HTMLInputElement;
    boxes.set(kind, box);
    box.addEventListener("change", () => void save());
    return h("label", { class: "notify-kind" }, box, h("span", {}, t(`notify.kind.${kind}`)));
  });
  const panel = h(
    "div",
    { class: "account-form notify-settings", "data-testid": "notify-settings" },
    h("h2", {}, t("notify.settingsTitle")),
    h("fieldset", {}, h("legend", {}, t("notify.settingsHint")), rows),
    status,
  );

  function show(settings: NotifySettings): void {
    for (const [kind, box] of boxes) {
      box.checked = !settings.off.includes(kind);
      box.disabled = false;
    }
  }

  function say(text: string, state: "" | "saved" | "failed"): void {
    status.textContent = text;
    status.dataset.state = state;
  }

  /** The last save asked: an older answer that comes later is not shown. */
  let saving = 0;
  async function save(): Promise<void> {
    const mine = ++saving;
    const off = NOTICE_KINDS.filter((kind) => !boxes.get(kind)!.checked);
    say(t("notify.saving"), "");
    const answer = await api<NotifySettings>("POST", "/api/notifications/settings", { off });
    if (!alive() || mine !== saving) return;
    if (answer.ok && answer.body) {
      show(answer.body);
      say(t("notify.saved"), "saved");
    } else {
      say(t("notify.saveFailed", { status: answer.status }), "failed");
    }
  }

  void (async () => {
    const answer = await api<NotifySettings>("GET", "/api/notifications/settings");
    if (!alive()) return;
    if (answer.ok && answer.body) show(answer.body);
    else say(t("notify.saveFailed", { status: answer.status }), "failed");
  })();
  return panel;
}
