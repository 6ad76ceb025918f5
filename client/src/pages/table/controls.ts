// The table's buttons for every table command that makes sense now: between games
// Start (Rematch after one), the engine at a level to the free seat, Leave; during a
// game an opponent's offer to accept or decline, one's own waiting, Claim victory and
// Claim draw, Offer draw, Take back, Abort and Resign (these two take a second click).
// They are drawn again only when what they depend on changes, so a click in progress
// is never lost to an unrelated event.

import "./controls.css";
import { h, replace } from "../../dom";
import { t, type Key } from "../../i18n";
import type { Command, SeatColor, TableView } from "../../protocol";
import { fillLevels } from "../engine-levels";
import { TAKEBACK_LIMIT, gameButtons, gameRunning, opponent } from "./state";

/** How long a button that ends the game (resign, abort) waits for the click that confirms. */
export const CONFIRM_MS = 4000;

/** What the buttons depend on. */
export interface ControlsContext {
  view: TableView;
  /** The reader's seat, if any. */
  seat: SeatColor | null;
  /** Whether the reader has made an action in the game (there is nothing to take back before). */
  acted: boolean;
  online: boolean;
  nameOf(c: SeatColor): string;
}

/** One thing in the row of controls. */
export type ControlItem =
  | { kind: "button"; testid: string; label: string; command: Command; title?: string; primary?: boolean }
  /** The engine's level and the button that seats it. */
  | { kind: "engine" }
  /** An opponent's offer (`offer`) or one's own waiting (`waiting`), in words. */
  | { kind: "note"; testid: "offer" | "waiting"; text: string }
  /** A button that asks for a second click within CONFIRM_MS. */
  | { kind: "confirm"; testid: string; label: Key; confirm: Key; command: Command };

/** The controls a reader has, in order (pure). */
export function controlItems(ctx: Omit<ControlsContext, "online">): ControlItem[] {
  const { view, seat } = ctx;
  const game = view.game;
  const items: ControlItem[] = [];
  const button = (label: string, testid: string, command: Command, title?: string, primary?: boolean) =>
    items.push({ kind: "button", testid, label, command, title, primary });
  if (seat && !gameRunning(view)) {
    // After a game the same button starts the next one: a rematch.
    if (view.seats.white && view.seats.black) button(t(game ? "game.rematch" : "game.startGame"), "start", { command: "start" }, undefined, true);
    if (!view.seats[opponent(seat)]) items.push({ kind: "engine" });
    button(t("table.leave"), "leave", { command: "leave" });
  }
  const playing = gameButtons(game, seat, seat ? ctx.acted : true);
  if (seat && playing) {
    const other = opponent(seat);
    if (playing.answer) {
      const what = playing.answer === "draw" ? "table.drawOffered" : "table.takebackRequested";
      items.push({ kind: "note", testid: "offer", text: t(what, { player: ctx.nameOf(other) }) });
      button(t("table.accept"), "accept", { command: "accept" }, undefined, true);
      button(t("table.decline"), "decline", { command: "decline" });
    }
    if (playing.waiting) {
      const what = playing.waiting === "draw" ? "game.drawWaiting" : "game.takebackWaiting";
      items.push({ kind: "note", testid: "waiting", text: t(what, { player: ctx.nameOf(other) }) });
    }
    if (playing.claim) {
      button(t("table.claimWin"), "claim-win", { command: "claim", draw: false });
      button(t("table.claimDraw"), "claim-draw", { command: "claim", draw: true });
    }
    if (playing.draw) button(t("table.draw"), "draw", { command: "draw" });
    if (playing.takeback) {
      const left = t("table.takebacksLeft", { left: playing.takebacksLeft, limit: TAKEBACK_LIMIT });
      button(t("table.takeback"), "takeback", { command: "takeback" }, left);
    }
    if (playing.berserk) button(t("table.berserk"), "berserk", { command: "berserk" }, t("table.berserkTitle"));
    if (playing.abort) items.push({ kind: "confirm", testid: "abort", label: "table.abort", confirm: "table.abortConfirm", command: { command: "abort" } });
    items.push({ kind: "confirm", testid: "resign", label: "table.resign", confirm: "table.resignConfirm", command: { command: "resign" } });
  }
  return items;
}

/** What the buttons were drawn from: they are drawn again only when it changes. */
export function controlsKey(ctx: ControlsContext): string {
  const { view, seat } = ctx;
  const game = view.game;
  return JSON.stringify([
    seat,
    gameRunning(view),
    ctx.online,
    !!view.seats.white,
    !!view.seats.black,
    !!game,
    game?.draw_offer,
    game?.takeback_request,
    gameButtons(game, seat, seat ? ctx.acted : true),
    seat ? ctx.nameOf(opponent(seat)) : null,
  ]);
}

export class Controls {
  readonly el = h("div", { class: "controls", "data-testid": "controls" });
  private drawn = "";

  /** `send` sends a table command. */
  constructor(private readonly send: (c: Command) => void) {}

  render(ctx: ControlsContext): void {
    const key = controlsKey(ctx);
    if (key === this.drawn) return;
    this.drawn = key;
    const disabled = !ctx.online;
    const els: HTMLElement[] = [];
    for (const item of controlItems(ctx)) {
      switch (item.kind) {
        case "button":
          els.push(
            h(
              "button",
              { type: "button", "data-testid": item.testid, title: item.title, class: item.primary ? "primary" : undefined, disabled, onclick: () => this.send(item.command) },
              item.label,
            ),
          );
          break;
        case "engine": {
          const level = h("select", { "data-testid": "bot-level", "aria-label": t("lobby.level") }) as HTMLSelectElement;
          fillLevels(level, 3);
          const engine = h(
            "button",
            { type: "button", "data-testid": "bot", disabled, onclick: () => this.send({ command: "bot", level: Number(level.value) }) },
            t("game.seatEngine", { level: level.value }),
          );
          level.addEventListener("change", () => {
            engine.textContent = t("game.seatEngine", { level: level.value });
          });
          els.push(level, engine);
          break;
        }
        case "note":
          els.push(h("span", { class: item.testid, "data-testid": item.testid }, item.text));
          break;
        case "confirm":
          els.push(this.confirmButton(item, disabled));
          break;
      }
    }
    replace(this.el, els);
  }

  /** Resigning and aborting take two clicks: the first asks for a second within a few seconds. */
  private confirmButton(item: Extract<ControlItem, { kind: "confirm" }>, disabled: boolean): HTMLElement {
    const b = h("button", { type: "button", "data-testid": item.testid, disabled }, t(item.label));
    let timer: number | undefined;
    b.onclick = () => {
      if (b.dataset.confirm) {
        window.clearTimeout(timer);
        this.send(item.command);
        return;
      }
      b.dataset.confirm = "true";
      b.classList.add("confirm");
      b.textContent = t(item.confirm);
      timer = window.setTimeout(() => {
        delete b.dataset.confirm;
        b.classList.remove("confirm");
        b.textContent = t(item.label);
      }, CONFIRM_MS);
    };
    return b;
  }
}
