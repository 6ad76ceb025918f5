// A finished game's result in words, said here once for every page that shows one:
// the table (its result box and its chat log), the replay, the archive and the lobby,
// and the analysis board.

import { t } from "../i18n";
import { en } from "../i18n/en";
import type { ResultView, SeatColor } from "../protocol";

/** The players' names: by colour, or a function of the colour. */
export type ResultNames = Record<SeatColor, string> | ((c: SeatColor) => string);

/** The words of a termination (`target reached` → its translation), the raw text if unknown. */
export function reasonWords(termination: string): string {
  const key = `reason.${termination}`;
  return key in en ? t(key as keyof typeof en) : termination;
}

/** `1-0 · target reached`. */
export function resultSummary(result: ResultView): string {
  return `${result.score} · ${reasonWords(result.termination)}`;
}

/** `bob wins (resignation).` with the winner's name, or `Draw (agreement).`. */
export function resultSentence(result: ResultView, names: ResultNames): string {
  const reason = reasonWords(result.termination);
  if (!result.winner) return t("result.draw", { reason });
  const player = typeof names === "function" ? names(result.winner) : names[result.winner];
  return t("result.win", { player, reason });
}

/** The score, then the sentence: `0-1 — bob wins (resignation).` */
export function resultHeadline(result: ResultView, names: ResultNames): string {
  return `${result.score} — ${resultSentence(result, names)}`;
}
