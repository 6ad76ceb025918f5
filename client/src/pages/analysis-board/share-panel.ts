// Sharing the analysis board's position: the address of the position on show with
// "Copy link" (or the link selected for the reader to copy), and the position string in
// a field of its own, where another can be typed and set up.

import "./share-panel.css";
import { h } from "../../dom";
import { t } from "../../i18n";
import { COPIED_MS, copyText } from "../invite";
import { message } from "./words";

/** A typed position string to set up, if there is one. */
export function typedPosition(raw: string): string | null {
  const text = raw.trim();
  return text ? text : null;
}

export class SharePanel {
  private readonly link = h("input", { type: "text", readonly: true, class: "ab-link", "aria-label": t("board.link"), "data-testid": "board-link", spellcheck: "false" }) as HTMLInputElement;
  private readonly copy = h("button", { type: "button", "data-testid": "board-copy" }, t("board.copyLink"));
  private readonly copyNote = h("span", { class: "ab-copy-note", role: "status" });
  private readonly position = h("input", { type: "text", class: "ab-position", "aria-label": t("board.positionField"), "data-testid": "board-position", spellcheck: "false", autocomplete: "off" }) as HTMLInputElement;
  private readonly setUpButton = h("button", { type: "button", "data-testid": "board-set-up" }, t("board.setUp"));
  private readonly setUpNote = h("p", { class: "ab-error", role: "status", "data-testid": "board-set-up-error", hidden: true });
  readonly el = h(
    "section",
    { class: "ab-share" },
    h("label", { class: "ab-field" }, h("span", {}, t("board.link")), h("span", { class: "ab-row" }, this.link, this.copy)),
    this.copyNote,
    h("label", { class: "ab-field" }, h("span", {}, t("board.positionField")), h("span", { class: "ab-row" }, this.position, this.setUpButton)),
    this.setUpNote,
  );
  private copiedTimer: ReturnType<typeof setTimeout> | undefined;

  /** `setUp` opens a typed position (it throws the server's reason when it cannot); `signal` ends the page. */
  constructor(
    private readonly signal: AbortSignal,
    private readonly setUp: (position: string) => Promise<void>,
  ) {
    const on = { signal };
    this.copy.addEventListener("click", () => void this.copyLink(), on);
    this.link.addEventListener("focus", () => this.link.select(), on);
    this.setUpButton.addEventListener("click", () => void this.setUpTyped(), on);
    this.position.addEventListener(
      "keydown",
      (ev) => {
        if (ev.key === "Enter") void this.setUpTyped();
      },
      on,
    );
  }

  /** Says the position on show: its address (`href`) and its string, unless the reader is typing one. */
  show(href: string, position: string): void {
    this.link.value = href;
    if (document.activeElement !== this.position) this.position.value = position;
  }

  private async setUpTyped(): Promise<void> {
    const text = typedPosition(this.position.value);
    if (!text) return;
    try {
      await this.setUp(text);
      this.setUpNote.hidden = true;
    } catch (err) {
      if (this.signal.aborted) return;
      this.setUpNote.textContent = t("board.openError", { error: message(err) });
      this.setUpNote.hidden = false;
    }
  }

  private async copyLink(): Promise<void> {
    const copied = await copyText(location.href, typeof navigator === "undefined" ? undefined : navigator.clipboard);
    clearTimeout(this.copiedTimer);
    if (copied) {
      this.copy.textContent = t("invite.copied");
      this.copyNote.textContent = "";
      this.copiedTimer = setTimeout(() => {
        this.copy.textContent = t("board.copyLink");
      }, COPIED_MS);
    } else {
      this.link.focus();
      this.link.select();
      this.copyNote.textContent = t("invite.select");
    }
  }

  destroy(): void {
    clearTimeout(this.copiedTimer);
  }
}
