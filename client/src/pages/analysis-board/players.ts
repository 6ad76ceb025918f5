// The analysis board's players: a bar for each side (its swatch, the name the game
// gives or the colour, the rings removed as slots), the side to act marked, following
// the flip; and over the board what is known of the game: players, date, result and the
// link to its replay when it is an archived one.

import "./players.css";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import type { BoardPosition, Pair, SeatColor } from "../../protocol";
import { resultHeadline } from "../result-words";
import { barSides, removedSlots } from "../player-bar";
import { playerNames, type GameInfo } from "./words";

const COLORS: SeatColor[] = ["white", "black"];

export class BoardPlayers {
  /** The slots the page lays out above and below the board. */
  readonly top = h("div", { class: "bar-slot bar-top" });
  readonly bottom = h("div", { class: "bar-slot bar-bottom" });
  /** What is known of the game, under the page's title. */
  readonly gameLine = h("p", { class: "ab-game", "data-testid": "board-game", hidden: true });
  private readonly nameBoxes: Pair<HTMLElement> = { white: h("span", { class: "seat-name" }), black: h("span", { class: "seat-name" }) };
  private readonly removedBoxes: Pair<HTMLElement> = { white: h("span"), black: h("span") };
  private readonly bars: Pair<HTMLElement> = {
    white: h("div", { class: "player-bar white", "data-testid": "board-bar-white" }),
    black: h("div", { class: "player-bar black", "data-testid": "board-bar-black" }),
  };
  private game: GameInfo | null = null;

  constructor() {
    for (const c of COLORS) {
      this.bars[c].append(h("span", { class: `swatch ${c}`, title: t(`color.${c}`) }), h("span", { class: "bar-who" }, this.nameBoxes[c]), this.removedBoxes[c]);
    }
    this.place(false);
  }

  /** The players' names, where the game on the board gives them. */
  get people(): Pair<string | null> {
    return this.game?.people ?? { white: null, black: null };
  }

  /** The players as the page names them: by name, else by colour. */
  get names(): Pair<string> {
    return playerNames(this.people);
  }

  /** Puts each bar beside its side of the board. */
  place(flipped: boolean): void {
    const sides = barSides(flipped);
    this.top.replaceChildren(this.bars[sides.top]);
    this.bottom.replaceChildren(this.bars[sides.bottom]);
  }

  /** The game on the board (none: a position of its own): the names and the game's line. */
  setGame(game: GameInfo | null): void {
    this.game = game;
    const n = this.names;
    for (const c of COLORS) this.nameBoxes[c].textContent = n[c];
    if (!game) {
      this.gameLine.hidden = true;
      replace(this.gameLine);
      return;
    }
    const parts: (Node | string)[] = [
      h("span", { class: "swatch white", "aria-hidden": "true" }),
      h("span", { "data-testid": "board-game-white" }, n.white),
      " – ",
      h("span", { class: "swatch black", "aria-hidden": "true" }),
      h("span", { "data-testid": "board-game-black" }, n.black),
    ];
    if (game.date) parts.push(` · ${game.date}`);
    if (game.result) parts.push(" · ", h("span", { "data-testid": "board-game-result" }, resultHeadline(game.result, n)));
    if (game.archived !== null) {
      parts.push(" · ", h("a", { href: `#/replay/${game.archived}`, "data-testid": "board-replay-link" }, t("replay.game", { id: game.archived })));
    }
    replace(this.gameLine, parts);
    this.gameLine.hidden = false;
  }

  /** The side to act in `position` (none once it is over) and the rings each side has removed. */
  render(position: BoardPosition): void {
    const over = position.stage === "over";
    for (const c of COLORS) {
      this.bars[c].classList.toggle("to-move", !over && position.to_move === c);
      replace(this.removedBoxes[c], removedSlots(position.removed[c], position.targets[c]));
    }
  }
}
