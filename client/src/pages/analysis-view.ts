// The computer analysis in the replay viewer, as lichess.org shows it: asked for with a
// button, followed over the WebSocket while it runs ("Analysing… 31/82"), then an
// evaluation bar above the board, the evaluation graph under it (a click picks a frame),
// the marks in the move list with the better action, the engine's choice on the board
// and a summary per player. The replay page owns the frame on show; this module draws
// what the analysis says about it (`show`, `hint`, `annotate`).

import "./analysis.css";
import type { Connection } from "../connection";
import { h, replace } from "../dom";
import { lang, t, type Key } from "../i18n";
import type { AnalysisResult, AnalysisState, Pair, SeatColor } from "../protocol";
import {
  betterThan,
  bestAt,
  settingsOf,
  evalAt,
  favoured,
  formatEval,
  isMark,
  judgedAt,
  lineAt,
  markAt,
  markSymbol,
  progressOf,
  winChances,
  type Mark,
} from "./analysis";
import { errorText } from "./archive";
import { evalGraph, type EvalGraph } from "./analysis-graph";

/** What the analysis needs from the replay page. */
export interface AnalysisHost {
  conn: Connection;
  /** The game's archive id. */
  game: number;
  /** The actions the viewer shows. */
  total: number;
  names: Pair<string>;
  /** The tokens of the actions, in order. */
  actions: readonly string[];
  /** Shows frame `ply` (a jump by hand: the autoplay stops). */
  goTo(ply: number): void;
  /** The result arrived: draw the frame on show again (its hint, the marks in the list). */
  changed(): void;
}

const COLORS: SeatColor[] = ["white", "black"];
const MARK_KEYS: Record<Mark, Key> = { inaccuracy: "analysis.inaccuracy", mistake: "analysis.mistake", blunder: "analysis.blunder" };
/** Moves of the engine's line shown under the board's status. */
const LINE_SHOWN = 6;

/** A mark's symbol in its colour (`??` in red), named for screen readers and a mouse. */
export function markBadge(mark: Mark): HTMLElement {
  return h("span", { class: `nag ${mark}`, title: t(MARK_KEYS[mark]), "aria-label": t(MARK_KEYS[mark]), "data-testid": "move-mark", "data-mark": mark }, markSymbol(mark));
}

export class ReplayAnalysis {
  /** Asking, progress, the summary: beside the game's details. */
  readonly panel: HTMLElement;
  /** The evaluation bar, above the board (empty until there is a result). */
  readonly bar: HTMLElement;
  /** Where the graph goes, under the board. */
  readonly graphSlot: HTMLElement;
  /** What the analysis says of the frame on show, under who acts. */
  readonly comment: HTMLElement;
  result: AnalysisResult | null = null;

  private readonly body: HTMLElement;
  private readonly life = new AbortController();
  private unwatch: (() => void) | null = null;
  private graph: EvalGraph | null = null;
  /** A GET of the result is on its way (a `done` can come more than once). */
  private fetching = false;

  constructor(private readonly host: AnalysisHost) {
    this.body = h("div", { class: "analysis-body", "aria-live": "polite" });
    this.panel = h("section", { class: "analysis-panel", "data-testid": "analysis" }, h("h2", {}, t("analysis.title")), this.body);
    this.bar = h("div", { class: "eval-bar", "data-testid": "eval-bar", hidden: true });
    this.graphSlot = h("div", { class: "eval-graph-slot", hidden: true });
    this.comment = h("div", { class: "analysis-comment", "data-testid": "analysis-comment" });
  }

  /** Looks whether the game has an analysis, and shows what there is. */
  start(): void {
    replace(this.body, h("p", { class: "analysis-note" }, t("archive.loading")));
    void this.load();
  }

  destroy(): void {
    this.life.abort();
    this.unwatch?.();
    this.unwatch = null;
    this.graph?.stop();
  }

  private url(): string {
    return `/api/archive/${encodeURIComponent(String(this.host.game))}/analysis`;
  }

  /** `GET`: 404 means nobody asked yet. */
  private async load(): Promise<void> {
    try {
      const response = await fetch(this.url(), { signal: this.life.signal });
      if (response.status === 404) {
        if (!this.life.signal.aborted) this.showRequest();
        return;
      }
      if (!response.ok) throw new Error(await errorText(response));
      const state = (await response.json()) as AnalysisState;
      if (!this.life.signal.aborted) this.onState(state, true);
    } catch (err) {
      if (!this.life.signal.aborted) this.showError(err);
    }
  }

  /** `POST`: answered at once with where the job is (202 waiting or running, 200 done or failed). */
  private async request(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    button.textContent = t("analysis.requesting");
    try {
      const response = await fetch(this.url(), { method: "POST", signal: this.life.signal });
      if (!response.ok) throw new Error(await errorText(response));
      const state = (await response.json()) as AnalysisState;
      if (!this.life.signal.aborted) this.onState(state, true);
    } catch (err) {
      if (!this.life.signal.aborted) this.showError(err);
    }
  }

  /** A state from the server (an HTTP answer, or a step pushed over the WebSocket). */
  private onState(state: AnalysisState, fromHttp: boolean): void {
    if (this.result) return;
    switch (state.state) {
      case "done":
        this.stopFollowing();
        if (state.result) this.showResult(state.result);
        else void this.fetchResult();
        return;
      case "failed":
        this.stopFollowing();
        replace(this.body, h("p", { class: "analysis-note error", "data-testid": "analysis-failed" }, t("analysis.failed")));
        return;
      default:
        this.showProgress(state);
        if (fromHttp) this.follow();
    }
  }

  private follow(): void {
    if (this.unwatch) return;
    this.unwatch = this.host.conn.watchAnalysis(this.host.game, (state) => {
      if (!this.life.signal.aborted) this.onState(state, false);
    });
  }

  private stopFollowing(): void {
    this.unwatch?.();
    this.unwatch = null;
  }

  /** The result, once the job is done (the WebSocket says so without it). */
  private async fetchResult(): Promise<void> {
    if (this.fetching) return;
    this.fetching = true;
    try {
      const response = await fetch(this.url(), { signal: this.life.signal });
      if (!response.ok) throw new Error(await errorText(response));
      const state = (await response.json()) as AnalysisState;
      if (this.life.signal.aborted) return;
      if (!state.result) throw new Error(`HTTP ${response.status}`);
      this.showResult(state.result);
    } catch (err) {
      if (!this.life.signal.aborted) this.showError(err);
    } finally {
      this.fetching = false;
    }
  }

  // ---- The panel's states ----

  private showRequest(): void {
    const button = h("button", { type: "button", class: "analysis-request", "data-testid": "analysis-request" }, t("analysis.request"));
    button.addEventListener("click", () => void this.request(button), { signal: this.life.signal });
    replace(this.body, button);
  }

  private showProgress(state: AnalysisState): void {
    const share = progressOf(state);
    const text = share === null ? t("analysis.queued") : t("analysis.running", { done: state.done, total: state.total });
    // Without a value the bar moves to and fro: the share is not known yet.
    const bar = h("progress", { max: 1, ...(share === null ? {} : { value: share }) });
    replace(this.body, h("div", { class: "analysis-progress", "data-testid": "analysis-progress", "data-state": state.state }, h("p", { class: "analysis-note" }, text), bar));
  }

  private showError(err: unknown): void {
    const retry = h("button", { type: "button", class: "analysis-retry" }, t("analysis.retry"));
    retry.addEventListener("click", () => this.start(), { signal: this.life.signal });
    replace(
      this.body,
      h("p", { class: "analysis-note error", "data-testid": "analysis-error" }, t("analysis.error", { error: err instanceof Error ? err.message : String(err) })),
      retry,
    );
  }

  private showResult(result: AnalysisResult): void {
    this.result = result;
    replace(this.body, this.summary(result));
    const chances = winChances(result, this.host.total);
    const marks = chances.map((_, p) => markAt(result, p));
    this.graph?.stop();
    this.graph = evalGraph({
      chances,
      marks,
      label: t("analysis.graph"),
      dotTitle: (p, mark) => t("analysis.dot", { n: p, action: `${this.host.actions[p - 1] ?? ""}${markSymbol(mark)}`, mark: t(MARK_KEYS[mark]) }),
      onPick: (p) => this.host.goTo(p),
    });
    replace(this.graphSlot, this.graph.el);
    this.graphSlot.hidden = false;
    this.bar.hidden = false;
    this.host.changed();
  }

  /** The players' inaccuracies, mistakes, blunders and accuracy, and the engine in small print. */
  private summary(result: AnalysisResult): HTMLElement[] {
    const percent = new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 });
    // Columns: the mark's symbol, its name, White's count, Black's.
    const row = (mark: Mark | null, label: string, cells: (c: SeatColor) => string, testid: string) =>
      h(
        "tr",
        { "data-testid": testid },
        h("td", { class: "summary-sym" }, mark ? markBadge(mark) : null),
        h("th", { scope: "row" }, label),
        COLORS.map((c) => h("td", { "data-color": c }, cells(c))),
      );
    const count = (mark: Mark, key: "inaccuracies" | "mistakes" | "blunders") =>
      row(mark, t(`analysis.${key}`), (c) => String(result.summary[c][key]), `summary-${key}`);
    const table = h(
      "table",
      { class: "analysis-summary", "data-testid": "analysis-summary" },
      h("colgroup", {}, h("col", { class: "summary-sym" }), h("col", {}), h("col", { class: "summary-player" }), h("col", { class: "summary-player" })),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("td", { colspan: 2 }),
          // Each player by the colour's swatch (named in full around the board and in the
          // page's header): the names of the marks need the room.
          COLORS.map((c) =>
            h("th", { scope: "col", title: this.host.names[c], "data-color": c }, h("span", { class: `swatch ${c}`, "aria-hidden": "true" }), h("span", { class: "summary-name" }, this.host.names[c])),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        count("inaccuracy", "inaccuracies"),
        count("mistake", "mistakes"),
        count("blunder", "blunders"),
        row(null, t("analysis.accuracy"), (c) => percent.format(result.summary[c].accuracy / 100), "summary-accuracy"),
      ),
    );
    const read = settingsOf(result.settings);
    const settings =
      read === null
        ? result.settings
        : "nodes" in read
          ? t("analysis.nodes", { nodes: new Intl.NumberFormat(lang()).format(read.nodes) })
          : t("analysis.depth", { depth: read.depth });
    const engine = h("p", { class: "analysis-engine", "data-testid": "analysis-engine" }, t("analysis.engine", { engine: result.engine, settings }));
    if (!result.outdated) return [table, engine];
    // Made by an older engine or with other settings than the server's: it can be made anew.
    const again = h("button", { type: "button", class: "analysis-again", "data-testid": "analysis-again" }, t("analysis.again"));
    again.addEventListener("click", () => this.again(again), { signal: this.life.signal });
    return [table, engine, h("p", { class: "analysis-note", "data-testid": "analysis-outdated" }, t("analysis.outdated"), " ", again)];
  }

  /** Asks for the analysis anew: the old result goes, the new one's progress follows. */
  private again(button: HTMLButtonElement): void {
    this.result = null;
    this.graph?.stop();
    this.graph = null;
    replace(this.graphSlot);
    this.graphSlot.hidden = true;
    this.bar.hidden = true;
    this.host.changed();
    void this.request(button);
  }

  // ---- The frame on show ----

  /** The engine's choice in frame `ply`, to draw on the board (none without a result). */
  hint(ply: number): string | null {
    return this.result ? bestAt(this.result, ply) : null;
  }

  /** Draws the bar, the graph's cursor and the comment for frame `ply`. */
  show(ply: number): void {
    const result = this.result;
    if (!result) {
      this.comment.replaceChildren();
      return;
    }
    this.graph?.setPly(ply);
    const view = evalAt(result, ply);
    if (view) {
      const text = formatEval(view);
      const side = favoured(view) ?? "white";
      const share = Math.min(1, Math.max(0, view.white_chance));
      const white = h("span", { class: "eval-white" });
      white.style.width = `${(share * 100).toFixed(1)}%`;
      replace(
        this.bar,
        white,
        h("span", { class: "eval-mid", "aria-hidden": "true" }),
        h("span", { class: `eval-text ${side}`, "data-testid": "eval-text" }, text),
      );
      this.bar.setAttribute("role", "img");
      this.bar.setAttribute("aria-label", t("analysis.eval", { eval: text }));
      this.bar.title = t("analysis.eval", { eval: text });
      this.bar.dataset.ply = String(ply);
    }
    const parts: HTMLElement[] = [];
    const judged = judgedAt(result, ply);
    if (judged && isMark(judged.mark)) {
      const better = betterThan(judged);
      parts.push(
        h(
          "p",
          { class: `analysis-verdict ${judged.mark}`, "data-testid": "analysis-verdict" },
          h("span", { class: "verdict-action" }, judged.action),
          markBadge(judged.mark),
          " ",
          t(MARK_KEYS[judged.mark]),
          better ? h("span", { class: "verdict-better" }, ` · ${t("analysis.better", { action: better })}`) : null,
        ),
      );
    }
    const line = lineAt(result, ply);
    if (line.length > 0) {
      const shown = line.slice(0, LINE_SHOWN).join(" ") + (line.length > LINE_SHOWN ? " …" : "");
      parts.push(h("p", { class: "analysis-line", "data-testid": "analysis-line" }, t("analysis.line", { line: shown })));
    }
    this.comment.replaceChildren(...parts);
  }

  /**
   * Adds the marks to a move list drawn by `renderTurns`: the symbol after each marked
   * action and, at the end of its turn, the action the engine preferred.
   */
  annotate(list: HTMLElement): void {
    const result = this.result;
    if (!result) return;
    for (const button of list.querySelectorAll<HTMLElement>(".act[data-ply]")) {
      const ply = Number(button.dataset.ply);
      const judged = result.actions[ply - 1];
      if (!judged || !isMark(judged.mark)) continue;
      button.classList.add("marked", judged.mark);
      button.after(markBadge(judged.mark));
      const better = betterThan(judged);
      if (better) {
        // A click shows the position before the marked action, where the board draws the better one.
        button.closest(".turn-cell")?.append(
          h("button", { type: "button", class: `better ${judged.mark}`, tabindex: -1, "data-testid": "move-better", "data-ply": ply - 1 }, t("analysis.better", { action: better })),
        );
      }
    }
  }

}
