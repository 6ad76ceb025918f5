// Computer analysis of an archived game (docs/protocol.md, "POST /api/archive/{id}/analysis"),
// read for the replay viewer: the evaluation at each frame in words, the marks as
// symbols, the engine's choice at each frame. Pure: no DOM, no words of a language.
//
// Frame p is the position after p actions (frame 0 the start). `result.actions[i]`
// judges action i: its `best` and `line` are the engine's choice in the position before
// it (frame i), its `eval` the position after it (frame i + 1).

import type { ActionAnalysis, AnalysisResult, EvalView } from "../protocol";

/** The marks, from the mildest. */
export const MARKS = ["inaccuracy", "mistake", "blunder"] as const;
export type Mark = (typeof MARKS)[number];

/** Whether a server's `mark` is one we know. */
export function isMark(mark: string | undefined | null): mark is Mark {
  return (MARKS as readonly string[]).includes(mark ?? "");
}

/** A mark as the chess symbols write it: `?!` an inaccuracy, `?` a mistake, `??` a blunder. */
export function markSymbol(mark: string | undefined | null): string {
  switch (mark) {
    case "inaccuracy":
      return "?!";
    case "mistake":
      return "?";
    case "blunder":
      return "??";
    default:
      return "";
  }
}

/**
 * An evaluation as the bar and lists write it, for White: `+0.35` (rings, two decimals),
 * `−1.20`, `0.00`; a forced win `#3` for White, `#-3` for Black; a finished game its
 * score (`1-0`, `0-1`, `½-½`).
 */
export function formatEval(view: EvalView): string {
  if (view.over !== undefined) return view.over === "white" ? "1-0" : view.over === "black" ? "0-1" : "½-½";
  if (view.win !== undefined) return view.win > 0 ? `#${view.win}` : `#-${Math.abs(view.win)}`;
  const cp = view.cp ?? 0;
  const rings = (Math.abs(cp) / 100).toFixed(2);
  if (rings === "0.00") return "0.00";
  return `${cp > 0 ? "+" : "-"}${rings}`;
}

/** Who an evaluation favours (`null`: nobody, or a draw): the side its number is written on. */
export function favoured(view: EvalView): "white" | "black" | null {
  if (view.over !== undefined) return view.over === "white" || view.over === "black" ? view.over : null;
  if (view.win !== undefined) return view.win > 0 ? "white" : "black";
  const cp = view.cp ?? 0;
  return cp > 0 ? "white" : cp < 0 ? "black" : null;
}

/** The number of frames the analysis covers beyond the start: its actions, at most `total`. */
export function analysedActions(result: AnalysisResult, total: number): number {
  return Math.max(0, Math.min(result.actions.length, total));
}

/** The evaluation of frame `ply`: the start's at 0, else that of the action that led to it. */
export function evalAt(result: AnalysisResult, ply: number): EvalView | null {
  if (ply <= 0) return result.start;
  return result.actions[ply - 1]?.eval ?? null;
}

/** White's win chance at every frame: the start, then after each action (at most `total`). */
export function winChances(result: AnalysisResult, total: number): number[] {
  const n = analysedActions(result, total);
  return [result.start, ...result.actions.slice(0, n).map((a) => a.eval)].map((v) => clamp01(v.white_chance));
}

/** The engine's choice in frame `ply` (none at the end of the game or where there was no choice). */
export function bestAt(result: AnalysisResult, ply: number): string | null {
  return result.actions[ply]?.best ?? null;
}

/** The engine's line in frame `ply`, starting with its choice (empty when none). */
export function lineAt(result: AnalysisResult, ply: number): string[] {
  const a = result.actions[ply];
  if (!a?.best) return [];
  return a.line && a.line.length > 0 ? a.line : [a.best];
}

/** The judgement of the action that led to frame `ply` (none for the start). */
export function judgedAt(result: AnalysisResult, ply: number): ActionAnalysis | null {
  return ply >= 1 ? (result.actions[ply - 1] ?? null) : null;
}

/** The mark of the action that led to frame `ply`, when it has one. */
export function markAt(result: AnalysisResult, ply: number): Mark | null {
  const mark = judgedAt(result, ply)?.mark;
  return isMark(mark) ? mark : null;
}

/**
 * The action the engine preferred to a marked one: the `best` of its position, when it
 * differs from what was played.
 */
export function betterThan(action: ActionAnalysis): string | null {
  if (!isMark(action.mark) || !action.best) return null;
  return action.best.toLowerCase() === action.action.toLowerCase() ? null : action.best;
}

/**
 * The engine's settings read: a node budget a position (`1000000 nodes`, today's
 * analyses) or a depth (`depth 6`, those of before); `null` for any other form.
 */
export function settingsOf(settings: string): { nodes: number } | { depth: number } | null {
  const nodes = /^(\d+) nodes$/.exec(settings.trim());
  if (nodes) return { nodes: Number(nodes[1]) };
  const depth = /^depth (\d+)$/.exec(settings.trim());
  return depth ? { depth: Number(depth[1]) } : null;
}

/** How far a job is, 0 to 1, `null` while not known (queued, or no total yet). */
export function progressOf(state: { state: string; done: number; total: number }): number | null {
  if (state.state === "done") return 1;
  if (state.total <= 0) return null;
  return clamp01(state.done / state.total);
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0.5;
}
