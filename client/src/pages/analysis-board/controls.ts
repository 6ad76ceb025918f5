// The analysis board's controls: start, back, forward and end along the line on show
// (→ and End follow the line one came from back into a variation), Undo, Flip board,
// Delete from here and Make main line; each disabled where it would do nothing.

import "./controls.css";
import { h } from "../../dom";
import { t } from "../../i18n";
import type { MoveTree } from "../move-tree";
import { controlIcon, type ControlIconName } from "../control-icons";

/** What each control would do from node `current` of `tree` (`tip`: the end of the line looked at). */
export function controlStates(tree: MoveTree, current: number, tip: number): { back: boolean; forward: boolean; promote: boolean } {
  return {
    /** Start, back, Undo and Delete: there is an action before. */
    back: tree.get(current).parent !== null,
    /** Forward and end: the line goes on. */
    forward: tree.forward(current, tip) !== null,
    /** Make main line: the node is off it. */
    promote: !tree.isMainLine(current),
  };
}

/** What the controls do. */
export interface BoardActions {
  toStart(): void;
  back(): void;
  forward(): void;
  toEnd(): void;
  undo(): void;
  flip(): void;
  deleteHere(): void;
  promote(): void;
}

export class BoardControls {
  private readonly startButton: HTMLButtonElement;
  private readonly backButton: HTMLButtonElement;
  private readonly forwardButton: HTMLButtonElement;
  private readonly endButton: HTMLButtonElement;
  private readonly undoButton = h("button", { type: "button", "data-testid": "board-undo", title: t("board.undoTitle") }, t("board.undo"));
  private readonly flipButton = h("button", { type: "button", "data-testid": "board-flip" }, t("table.flip"));
  private readonly deleteButton = h("button", { type: "button", "data-testid": "board-delete", title: t("board.deleteTitle") }, t("board.delete"));
  private readonly promoteButton = h("button", { type: "button", "data-testid": "board-promote", title: t("board.promoteTitle") }, t("board.promote"));
  /** The steps along the line, and the row of the other controls. */
  readonly nav: HTMLElement;
  readonly row: HTMLElement;

  constructor(actions: BoardActions, signal: AbortSignal) {
    const iconButton = (testid: string, name: ControlIconName, label: string): HTMLButtonElement =>
      h("button", { type: "button", "data-testid": testid, title: label, "aria-label": label }, controlIcon(name));
    this.startButton = iconButton("board-start", "start", t("replay.start"));
    this.backButton = iconButton("board-back", "back", t("replay.back"));
    this.forwardButton = iconButton("board-forward", "forward", t("replay.forward"));
    this.endButton = iconButton("board-end", "end", t("replay.end"));
    this.nav = h("div", { class: "ab-nav" }, this.startButton, this.backButton, this.forwardButton, this.endButton);
    this.row = h("div", { class: "controls-row" }, this.undoButton, this.flipButton, this.deleteButton, this.promoteButton);
    const on = (el: HTMLElement, run: () => void) => el.addEventListener("click", run, { signal });
    on(this.startButton, actions.toStart);
    on(this.backButton, actions.back);
    on(this.forwardButton, actions.forward);
    on(this.endButton, actions.toEnd);
    on(this.undoButton, actions.undo);
    on(this.deleteButton, actions.deleteHere);
    on(this.promoteButton, actions.promote);
    on(this.flipButton, actions.flip);
  }

  render(tree: MoveTree, current: number, tip: number): void {
    const can = controlStates(tree, current, tip);
    this.startButton.disabled = this.backButton.disabled = this.undoButton.disabled = this.deleteButton.disabled = !can.back;
    this.forwardButton.disabled = this.endButton.disabled = !can.forward;
    this.promoteButton.disabled = !can.promote;
  }
}
