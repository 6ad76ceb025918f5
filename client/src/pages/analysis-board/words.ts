// The analysis board's words and what it knows of the game on the board, without the
// page: the engine's score, who acts and what they do, an imported record's game.

import { t, tn, type Key } from "../../i18n";
import type { BoardPosition, EvalView, Pair, ParsedRecord, ResultView } from "../../protocol";
import { formatEval } from "../analysis";

/**
 * The engine's evaluation for the panel: `+0.35` (rings, for White), `White wins in 3
 * actions` for a forced win, the score once the game is over.
 */
export function scoreText(view: EvalView): string {
  if (view.over === undefined && view.win !== undefined) {
    return tn("board.winsIn", Math.abs(view.win), { player: t(view.win > 0 ? "color.white" : "color.black") });
  }
  return formatEval(view);
}

/**
 * What the player to act must do, or that they must pass: by their name when the game
 * on the board names them (`Ann places a ring.`, the table's words), else by their
 * colour (`White places a ring.`, in a form of its own: Polish says it otherwise).
 */
export function promptText(position: Pick<BoardPosition, "stage" | "to_move" | "legal">, people: Pair<string | null>): string {
  const player = people[position.to_move];
  const side = t(`board.side.${position.to_move}`);
  const pass = position.legal.length === 1 && position.legal[0].toLowerCase() === "pass";
  if (pass) return player ? t("board.mustPass", { player }) : t("board.to.pass", { side });
  if (position.stage === "over") return "";
  return player ? t(`turn.other.${position.stage}` as Key, { player }) : t(`board.to.${position.stage}` as Key, { side });
}

/** `2026.03.21` as the record writes it, none when wholly unknown (`????.??.??`). */
export function knownDate(date: string): string | null {
  return /\d/.test(date) ? date : null;
}

/** What is known of the game on the board (an archived or imported one). */
export interface GameInfo {
  /** The players' names, where the game gives them. */
  readonly people: Pair<string | null>;
  readonly date: string | null;
  readonly result: ResultView | null;
  /** The archived game, for a link to its replay. */
  readonly archived: number | null;
}

/** The game an imported record tells of: its players (`?` is nobody), date and result. */
export function gameOfRecord(parsed: Pick<ParsedRecord, "white" | "black" | "date" | "result">): GameInfo {
  const known = (name: string) => (name && name !== "?" ? name : null);
  return {
    people: { white: known(parsed.white), black: known(parsed.black) },
    date: knownDate(parsed.date),
    result: parsed.result ?? null,
    archived: null,
  };
}

/** The players as the page names them: by name, else by colour. */
export function playerNames(people: Pair<string | null>): Pair<string> {
  return { white: people.white ?? t("color.white"), black: people.black ?? t("color.black") };
}

/** What went wrong, in words. */
export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
