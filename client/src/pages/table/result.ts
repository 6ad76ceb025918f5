// The table's result box, once a game is over: the score and how it ended, after a
// rated game each player's rating change, and the link to the game's replay when the
// game was archived. Empty (and not shown) otherwise.

import "./result.css";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import type { GameView, SeatColor } from "../../protocol";
import { ratingChangeEl } from "../ratings";
import { resultHeadline } from "../result-words";
import { COLORS } from "./state";

export class ResultBox {
  readonly el = h("div", { class: "result", "data-testid": "result" });

  /** Shows the result of `game` (nothing while it runs or without one); `archived`: the table keeps a record. */
  render(game: GameView | undefined, archived: boolean, nameOf: (c: SeatColor) => string): void {
    const r = game?.result;
    if (!game || !r) {
      replace(this.el);
      return;
    }
    const ratings = r.ratings;
    replace(
      this.el,
      h("strong", {}, resultHeadline(r, nameOf)),
      ratings
        ? h(
            "div",
            { class: "result-ratings", "data-testid": "result-ratings", title: t("rating.changes") },
            COLORS.map((c) => h("p", {}, h("span", { class: "who" }, nameOf(c)), " ", ratingChangeEl(ratings[c], `result-rating-${c}`))),
          )
        : null,
      archived ? h("a", { href: `#/replay/${game.id}`, "data-testid": "replay-link" }, t("table.replay")) : null,
    );
  }
}
