// "Invite a friend: <link> [Copy]": the address of a table, to send to someone. For the
// table page to mount (`tablePage.append(inviteBox(id))`) while a seat is free.

import "./invite.css";
import { h } from "../dom";
import { t } from "../i18n";

/** The address that opens a table: this page's origin and path, `#/table/<id>`. */
export function inviteUrl(table: string, here: { origin: string; pathname: string } = location): string {
  return `${here.origin}${here.pathname}#/table/${encodeURIComponent(table)}`;
}

/** Something that writes to the clipboard (`navigator.clipboard`), when there is one. */
export interface ClipboardLike {
  writeText(text: string): Promise<void>;
}

/**
 * Copies `text` with the clipboard; `true` when it is copied. Without a clipboard (an
 * address that is not https, an old browser) or when it refuses, `false`: the caller
 * selects the text for the user to copy.
 */
export async function copyText(text: string, clipboard: ClipboardLike | undefined = navigator.clipboard): Promise<boolean> {
  if (!clipboard) return false;
  try {
    await clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** How long "Copied" shows before the button reads "Copy" again. */
export const COPIED_MS = 2500;

/** The invitation: a label, the link in a read-only field (select it with a click) and Copy. */
export function inviteBox(table: string, clipboard?: ClipboardLike): HTMLElement {
  const url = inviteUrl(table);
  const field = h("input", {
    type: "text",
    readonly: true,
    value: url,
    class: "invite-link",
    "aria-label": t("invite.aria"),
    "data-testid": "invite-link",
    spellcheck: "false",
  }) as HTMLInputElement;
  const button = h("button", { type: "button", class: "invite-copy", "data-testid": "invite-copy" }, t("invite.copy"));
  const note = h("span", { class: "invite-note", role: "status", "data-testid": "invite-note" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  field.addEventListener("focus", () => field.select());
  button.addEventListener("click", async () => {
    const copied = await copyText(url, clipboard ?? (typeof navigator === "undefined" ? undefined : navigator.clipboard));
    clearTimeout(timer);
    if (copied) {
      button.textContent = t("invite.copied");
      note.textContent = "";
      timer = setTimeout(() => {
        button.textContent = t("invite.copy");
      }, COPIED_MS);
    } else {
      field.focus();
      field.select();
      note.textContent = t("invite.select");
    }
  });
  return h(
    "div",
    { class: "invite", "data-testid": "invite" },
    h("span", { class: "invite-label" }, t("invite.label")),
    h("span", { class: "invite-row" }, field, button),
    note,
  );
}
