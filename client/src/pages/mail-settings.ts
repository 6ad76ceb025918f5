// The account page's "Email" section (`/api/account/mail`): the account's address and
// whether it is verified (the link mailed to it), sending the link again, removing the
// address, and what is mailed — a box per kind of notification and the daily digest
// instead of a mail each turn, saved on each change. On a server that sends no mail it
// says so. Also the log-in form's "Forgot your password?" (`/api/account/password/forgot`).

import { api } from "../api";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { MailView, NoticeKind } from "../protocol";
import { NOTICE_KINDS } from "./notify-model";

/** The section; `alive` says whether the page is still shown. */
export function mailSettingsPanel(alive: () => boolean): HTMLElement {
  const body = h("div", { class: "mail-body" });
  const status = h("p", { class: "notify-status", role: "status", "data-testid": "mail-status" });
  const panel = h("div", { class: "account-form mail-settings", "data-testid": "mail-settings" }, h("h2", {}, t("mail.title")), body, status);

  function say(text: string, state: "" | "saved" | "failed"): void {
    status.textContent = text;
    status.dataset.state = state;
  }

  function refused(answer: { status: number; error?: string }): string {
    if (answer.status === 429) return t("mail.tooMany");
    if (answer.status === 400) return t("mail.badAddress");
    return t("notify.saveFailed", { status: answer.status });
  }

  function draw(view: MailView): void {
    if (!view.enabled) {
      replace(body, h("p", { class: "hint", "data-testid": "mail-off" }, t("mail.off")));
      return;
    }
    const address = h("input", {
      type: "email",
      autocomplete: "email",
      value: view.address ?? "",
      "aria-label": t("mail.address"),
      "data-testid": "mail-address",
    }) as HTMLInputElement;
    const save = h("button", { type: "submit", class: "primary", "data-testid": "mail-save" }, view.address ? t("mail.change") : t("mail.add"));
    const form = h("form", { class: "mail-address-form", novalidate: true }, h("label", {}, t("mail.address"), address), save);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void setAddress(address.value, save);
    });
    const parts: (HTMLElement | null)[] = [form];
    if (view.address) {
      const again = h("button", { type: "button", "data-testid": "mail-again" }, t("mail.sendAgain"));
      again.addEventListener("click", () => void setAddress(view.address!, again));
      const remove = h("button", { type: "button", "data-testid": "mail-remove" }, t("mail.remove"));
      remove.addEventListener("click", () => void removeAddress(remove));
      parts.push(
        h(
          "p",
          { class: view.verified ? "mail-state verified" : "mail-state", "data-testid": "mail-state", "data-verified": String(view.verified) },
          view.verified ? t("mail.verified") : t("mail.unverified", { address: view.address }),
        ),
        h("div", { class: "mail-actions" }, view.verified ? null : again, remove),
        kindsFieldset(view),
      );
    } else {
      parts.push(h("p", { class: "hint" }, t("mail.why")));
    }
    replace(body, parts);
  }

  function kindsFieldset(view: MailView): HTMLElement {
    const boxes = new Map<NoticeKind, HTMLInputElement>();
    const rows = NOTICE_KINDS.map((kind) => {
      const box = h("input", { type: "checkbox", "data-testid": `mail-${kind}` }) as HTMLInputElement;
      box.checked = view.kinds.includes(kind);
      boxes.set(kind, box);
      return h("label", { class: "notify-kind" }, box, h("span", {}, t(`notify.kind.${kind}`)));
    });
    const digest = h("input", { type: "checkbox", "data-testid": "mail-digest" }) as HTMLInputElement;
    digest.checked = view.digest;
    const changed = () => void saveSettings(NOTICE_KINDS.filter((k) => boxes.get(k)!.checked), digest.checked);
    for (const box of boxes.values()) box.addEventListener("change", changed);
    digest.addEventListener("change", changed);
    return h(
      "fieldset",
      {},
      h("legend", {}, view.verified ? t("mail.kindsHint") : t("mail.kindsUnverified")),
      rows,
      h("label", { class: "notify-kind mail-digest" }, digest, h("span", {}, t("mail.digest"))),
    );
  }

  async function setAddress(value: string, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    say(t("notify.saving"), "");
    const answer = await api<MailView>("POST", "/api/account/mail", { address: value.trim() });
    if (!alive()) return;
    button.disabled = false;
    if (answer.ok && answer.body) {
      draw(answer.body);
      say(answer.body.verified ? t("notify.saved") : t("mail.linkSent", { address: answer.body.address ?? "" }), "saved");
    } else {
      say(refused(answer), "failed");
    }
  }

  async function removeAddress(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const answer = await api<null>("DELETE", "/api/account/mail");
    if (!alive()) return;
    button.disabled = false;
    if (answer.ok) {
      say(t("mail.removed"), "saved");
      void load();
    } else {
      say(refused(answer), "failed");
    }
  }

  /** The last save asked: an older answer that comes later is not shown. */
  let saving = 0;
  async function saveSettings(kinds: NoticeKind[], digest: boolean): Promise<void> {
    const mine = ++saving;
    say(t("notify.saving"), "");
    const answer = await api<MailView>("POST", "/api/account/mail/settings", { kinds, digest });
    if (!alive() || mine !== saving) return;
    if (answer.ok && answer.body) say(t("notify.saved"), "saved");
    else say(refused(answer), "failed");
  }

  async function load(): Promise<void> {
    const answer = await api<MailView>("GET", "/api/account/mail");
    if (!alive()) return;
    if (answer.ok && answer.body) draw(answer.body);
    else say(refused(answer), "failed");
  }

  void load();
  return panel;
}

/** The log-in form's "Forgot your password?": an address, and a link mailed to it. */
export function forgotPassword(): HTMLElement {
  const address = h("input", { type: "email", autocomplete: "email", "aria-label": t("mail.address"), "data-testid": "forgot-address" }) as HTMLInputElement;
  const send = h("button", { type: "submit", class: "primary", "data-testid": "forgot-send" }, t("mail.forgotSend"));
  const message = h("p", { class: "hint", role: "status", "data-testid": "forgot-message" });
  const form = h("form", { class: "forgot-form", novalidate: true, hidden: true }, h("label", {}, t("mail.address"), address), send, message);
  const open = h("button", { type: "button", class: "link-button", "data-testid": "forgot-open", "aria-expanded": "false" }, t("mail.forgot"));
  open.addEventListener("click", () => {
    form.hidden = !form.hidden;
    open.setAttribute("aria-expanded", String(!form.hidden));
    if (!form.hidden) address.focus();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!address.value.includes("@")) {
      message.textContent = t("mail.badAddress");
      return;
    }
    send.disabled = true;
    const answer = await api<{ ok: boolean }>("POST", "/api/account/password/forgot", { address: address.value.trim() });
    send.disabled = false;
    message.textContent = answer.ok
      ? t("mail.forgotSent")
      : answer.status === 503
        ? t("mail.forgotOff")
        : answer.status === 429
          ? t("mail.tooMany")
          : t("notify.saveFailed", { status: answer.status });
  });
  return h("div", { class: "forgot" }, open, form);
}
