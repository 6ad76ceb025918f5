// The lines under the player bar at the top: who acts and what they do (the prompt
// when it is the reader's turn), a brief note (a dragged ring that went back, a refused
// permission) and, while the database is down, that the clocks stand still.

import "./status.css";
import { h } from "../../dom";
import { t } from "../../i18n";
import type { GameView, SeatColor } from "../../protocol";
import { turnLineText } from "./state";

/** How long a note stays. */
export const NOTE_MS = 4000;

export class TableStatus {
  readonly turn = h("p", { class: "turn", "data-testid": "turn", role: "status" });
  readonly miss = h("p", { class: "miss", "data-testid": "miss", role: "status", hidden: true });
  readonly paused = h("p", { class: "paused-notice", "data-testid": "paused", role: "status", hidden: true }, t("table.paused"));
  private timer: number | undefined;

  /** Who acts in `game` (none: the table waits for a game); `mine`: the reader is to act. */
  render(game: GameView | undefined, mine: boolean, nameOf: (c: SeatColor) => string): void {
    this.turn.textContent = game ? turnLineText(game, mine, nameOf) : t("table.waiting");
  }

  setPaused(paused: boolean): void {
    this.paused.hidden = !paused;
  }

  /** A dragged ring went back: off the board, or to a point that is not one of its destinations. */
  showMiss(why: "off" | "illegal"): void {
    this.note(t(why === "off" ? "game.missOff" : "game.missIllegal"));
  }

  /** Says something briefly in the note's line. */
  note(text: string): void {
    this.miss.textContent = text;
    this.miss.hidden = false;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.hideMiss(), NOTE_MS);
  }

  hideMiss(): void {
    window.clearTimeout(this.timer);
    this.miss.hidden = true;
  }

  destroy(): void {
    window.clearTimeout(this.timer);
  }
}
