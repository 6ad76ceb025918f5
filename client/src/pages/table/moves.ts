// The table's move list: the game's actions by turns (move-list.ts), the game's past
// boards rebuilt from them (board/history.ts) for looking back at an earlier position
// during the game, the marks of the turn that led to the position on show, and the bar
// that says which position that is with its way back to the live one.

import "./moves.css";
import { trustedHistory, type History } from "../../board/history";
import { marksOf, type Marks } from "../../board/marks";
import { groupTurns, markedTurn, turnEnd, turnOfPly, turnText, type Turn } from "../../board/turns";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import type { GameView, SeatColor } from "../../protocol";
import { renderTurns, scrollListTo } from "../move-list";

/** The game's history as the move list and the board need it: past boards, turns, who acted. */
export class GameRecord {
  private key = "";
  history: History | null = null;
  turns: Turn[] = [];

  /** Rebuilds the history when the game's actions changed. */
  refresh(game: GameView): void {
    const key = `${game.id}|${game.moves.join(" ")}`;
    if (key === this.key) return;
    this.key = key;
    this.history = trustedHistory(game.moves, game.board);
    // Without a history (it should not happen) each action is a turn of its own, by alternation.
    const actors = this.history?.actors ?? game.moves.map((_, i) => (i % 2 === 0 ? "white" : "black"));
    this.turns = groupTurns(game.moves, actors);
  }

  /** The marks of the turn that leads to the position on show: after `reviewPly` actions, or the live one (null). */
  marks(game: GameView, reviewPly: number | null): Marks | null {
    const history = this.history;
    if (reviewPly !== null && history) {
      const turn = turnOfPly(this.turns, reviewPly);
      if (!turn) return null;
      return marksOf(turn.tokens.slice(0, reviewPly - turn.first), history.boards[reviewPly]);
    }
    const turn = markedTurn(this.turns, game.result || game.stage === "over" ? null : game.to_move);
    if (!turn) return null;
    if (history) return marksOf(turn.tokens, history.boards[turnEnd(turn)]);
    return turnEnd(turn) === game.moves.length ? marksOf(turn.tokens, game.board) : null;
  }

  /** The last turn of the player not in `seat`, as the record writes it (for the title and notifications). */
  lastOpponentTurn(seat: SeatColor): string | null {
    for (let i = this.turns.length - 1; i >= 0; i--) if (this.turns[i].color !== seat) return turnText(this.turns[i].tokens);
    return null;
  }

  /** Whether the player in `seat` has made an action in `game`. */
  hasActed(game: GameView | undefined, seat: SeatColor): boolean {
    if (!game) return false;
    if (this.history) return this.history.actors.includes(seat);
    return game.moves.length >= (seat === "white" ? 1 : 2);
  }
}

/**
 * Where looking back goes: to `ply` actions (kept within the game), null for the live
 * position (the last action is live); undefined when it stays where it is.
 */
export function reviewTarget(ply: number | null, reviewPly: number | null, total: number): number | null | undefined {
  let next = ply === null ? null : Math.max(0, Math.min(ply, total));
  if (next === total) next = null;
  return next === reviewPly ? undefined : next;
}

/** The review bar's words: the turn and the actions of it up to the position on show. */
export function reviewText(turns: readonly Turn[], ply: number): string {
  const turn = turnOfPly(turns, ply);
  return turn
    ? t("game.reviewing", { turn: turn.number, move: turnText(turn.tokens.slice(0, ply - turn.first)) })
    : t("game.reviewingStart");
}

/** The move list, the pool under it and the review bar, with the position looked back at. */
export class TableMoves {
  readonly list = h("ol", { class: "turns", "data-testid": "moves", "aria-label": t("table.moves") });
  readonly pool = h("p", { class: "pool", "data-testid": "pool" });
  private readonly reviewWords = h("span", { "data-testid": "review-text" });
  readonly reviewBar: HTMLElement;
  readonly record = new GameRecord();
  /** The position looked back at (the number of actions played on it), or null: the live one. */
  reviewPly: number | null = null;

  /** `review` is asked to show the position after a number of actions (null: the live one). */
  constructor(review: (ply: number | null) => void) {
    this.reviewBar = h(
      "div",
      { class: "review-bar", "data-testid": "review", hidden: true },
      this.reviewWords,
      h("button", { type: "button", class: "primary", "data-testid": "back-to-live", onclick: () => review(null) }, t("game.backToLive")),
    );
    this.list.addEventListener("click", (e) => {
      const item = (e.target as Element).closest<HTMLElement>("[data-ply]");
      if (item && this.record.history) review(Number(item.dataset.ply));
    });
    // The list changes height under it (the result box appears at a game's end, the
    // window is resized): the current action stays in sight.
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(() => scrollListTo(this.list, ".act.current")).observe(this.list);
    }
  }

  /** Takes the game in (none: the table waits); a position looked back at that the game no longer has is left. */
  sync(game: GameView | undefined): void {
    if (!game) {
      this.reviewPly = null;
      return;
    }
    this.record.refresh(game);
    if (!this.record.history || (this.reviewPly !== null && this.reviewPly >= game.moves.length)) this.reviewPly = null;
  }

  /**
   * Looks back at the position after `ply` actions (null: the live one). Gives the action
   * to animate (one step forward), or undefined when nothing changes.
   */
  review(game: GameView | undefined, ply: number | null): string | null | undefined {
    if (!game || !this.record.history) return undefined;
    const previous = this.reviewPly ?? game.moves.length;
    const next = reviewTarget(ply, this.reviewPly, game.moves.length);
    if (next === undefined) return undefined;
    this.reviewPly = next;
    const shown = next ?? game.moves.length;
    return shown === previous + 1 ? game.moves[previous] : null;
  }

  /** Draws the list, the pool and the review bar (after `sync`). */
  render(game: GameView | undefined): void {
    if (!game) {
      replace(this.list);
      this.pool.textContent = "";
      this.reviewBar.hidden = true;
      return;
    }
    this.pool.textContent = t("table.pool", { count: game.pool });
    renderTurns(this.list, this.record.turns, this.reviewPly ?? game.moves.length);
    scrollListTo(this.list, ".act.current");
    this.list.classList.toggle("reviewable", !!this.record.history);
    this.reviewBar.hidden = this.reviewPly === null;
    if (this.reviewPly !== null) this.reviewWords.textContent = reviewText(this.record.turns, this.reviewPly);
  }
}
