// Beside the board between games, for a seated player: the table's options form (the
// lobby's, folded; each change goes as one `/option`, in an order the server accepts)
// and, while a seat is free, the invitation link.

import "./options-panel.css";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import type { Command, SeatColor, TableOptions, TableView } from "../../protocol";
import { inviteBox } from "../invite";
import { optionsForm } from "../lobby";
import { COLORS, gameRunning, optionChanges } from "./state";

/** What the panel reads of the page. */
export interface OptionsContext {
  view: TableView;
  seat: SeatColor | null;
  /** The reader is a guest (a guest cannot make a game rated). */
  guest: boolean;
}

/** Whether the invitation shows: the reader waits at the table, between games, for someone to take the free seat. */
export function wantsInvite(view: TableView, seat: SeatColor | null): boolean {
  return !gameRunning(view) && !!seat && COLORS.some((c) => !view.seats[c]);
}

export class OptionsPanel {
  readonly el = h("div", { class: "table-options" });
  /** The invitation link, while this player waits at the table for an opponent. */
  readonly invite = h("div", { class: "invite-slot", "data-testid": "invite-slot" });
  private inviteShown = false;
  /** What the form was last drawn from: an edit in progress is not lost to an unrelated event. */
  private drawn = "";
  /** The table as last drawn: the form sends the changes from its options. */
  private view: TableView | null = null;

  /** `command` sends a table command and says whether the server took it. */
  constructor(
    private readonly table: string,
    private readonly command: (c: Command) => Promise<boolean>,
  ) {}

  render(ctx: OptionsContext): void {
    this.view = ctx.view;
    const key = JSON.stringify([ctx.seat && !gameRunning(ctx.view), ctx.view.options, ctx.guest]);
    if (key !== this.drawn) {
      this.drawn = key;
      this.drawForm(ctx);
    }
    const want = wantsInvite(ctx.view, ctx.seat);
    if (want !== this.inviteShown) {
      this.inviteShown = want;
      replace(this.invite, want ? inviteBox(this.table) : null);
    }
  }

  /** The options form: seated players change the options between games. */
  private drawForm(ctx: OptionsContext): void {
    if (!ctx.seat || gameRunning(ctx.view)) {
      replace(this.el);
      return;
    }
    const wasOpen = this.el.querySelector("details")?.open ?? false;
    const form = optionsForm(ctx.view.options, ctx.guest);
    const apply = h("button", { type: "submit", "data-testid": "apply-options" }, t("table.apply"));
    form.el.append(apply);
    form.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.apply(this.view!.options, form.read());
    });
    replace(this.el, h("details", { open: wasOpen }, h("summary", {}, t("table.options")), form.el));
  }

  /** Sends one `/option` per changed setting (`optionChanges`), stopping at a refusal. */
  private async apply(old: TableOptions, next: TableOptions): Promise<void> {
    for (const change of optionChanges(old, next)) {
      if (!(await this.command({ command: "option", change }))) break;
    }
  }
}
