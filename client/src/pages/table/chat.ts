// The table's chat: the log (chat lines, one line per event, the replies to typed
// commands, errors), the field where chat and slash commands are typed, and who else
// is watching.

import "./chat.css";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import type { ChatLine, TableView } from "../../protocol";
import { guestMark } from "../guest";
import { COLORS } from "./state";

/** The most lines the log keeps (the oldest go). */
export const MAX_LINES = 200;

export type LineKind = "chat" | "event" | "reply" | "error";

/**
 * What a typed line sends, if anything: slash commands answer in the log; plain chat
 * shows up as its event, so its reply is not logged (`quiet`).
 */
export function typedLine(raw: string): { text: string; quiet: boolean } | null {
  const text = raw.trim();
  if (!text) return null;
  return { text, quiet: !text.startsWith("/") };
}

/**
 * Who else is watching, in words. The server names the spectators once a second at
 * most: a player who just sat down may still be among them for that moment, and is
 * left out here.
 */
export function spectatorsText(view: Pick<TableView, "seats" | "spectators" | "spectator_count">): string {
  const seated = new Set(COLORS.map((c) => view.seats[c]?.name));
  const names = view.spectators.filter((n) => !seated.has(n));
  const count = view.spectator_count - (view.spectators.length - names.length);
  const more = count - names.length;
  return count > 0 ? t("table.spectators", { names: names.join(", ") + (more > 0 ? ` +${more}` : "") }) : t("table.noSpectators");
}

export class Chat {
  readonly log = h("div", { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite" });
  private readonly input = h("input", {
    type: "text",
    "data-testid": "chat-input",
    placeholder: t("table.chatPlaceholder"),
    "aria-label": t("table.chat"),
    maxlength: 500,
  }) as HTMLInputElement;
  readonly form = h("form", { class: "chat-form" }, this.input, h("button", { type: "submit", "data-testid": "chat-send" }, t("table.send")));
  readonly spectators = h("p", { class: "spectators", "data-testid": "spectators" });

  /** `send` gets each line typed (see `typedLine`). */
  constructor(send: (text: string, quiet: boolean) => void) {
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const line = typedLine(this.input.value);
      if (!line) return;
      this.input.value = "";
      send(line.text, line.quiet);
    });
  }

  /** Adds a line to the log (`from`: a chat line's writer) and scrolls to it. */
  add(text: string, kind: LineKind = "event", from?: string, guest = false): void {
    const line = h("div", { class: `line ${kind}` }, from ? h("b", {}, from, guest ? guestMark() : null, ": ") : null, text);
    this.log.append(line);
    while (this.log.childElementCount > MAX_LINES) this.log.firstElementChild?.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** Starts the log again from the table's chat (a snapshot). */
  reset(lines: readonly ChatLine[]): void {
    replace(this.log);
    for (const line of lines) this.add(line.text, "chat", line.from, line.guest);
  }

  renderSpectators(view: TableView): void {
    this.spectators.textContent = spectatorsText(view);
  }
}
