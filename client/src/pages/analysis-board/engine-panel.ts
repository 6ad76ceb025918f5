// The analysis board's live engine: a switch (remembered in this browser), the score
// for White, the depth and time, the line in turn notation, and the evaluation bar over
// the board. Each position on show is asked about a moment after the last step; the
// deepest line heard of each position is kept, so that going back to one shows it at
// once, and a finished search is not asked again.

import "./engine-panel.css";
import type { Connection, EngineLine, Refused } from "../../connection";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import type { EvalView, SeatColor } from "../../protocol";
import { favoured, formatEval } from "../analysis";
import { lineText } from "../move-tree";
import { thinkingDots } from "../player-bar";
import { scoreText } from "./words";

/** How long the position on show must stay before the engine is asked about it: holding → does not send a search per step. */
export const ASK_DELAY_MS = 150;
/** Where the engine switch is remembered. */
const ENGINE_KEY = "yinsh.engine";

/** Whether the engine switch is on (it is unless turned off in this browser). */
export function engineWanted(storage: Pick<Storage, "getItem"> | null = safeStorage()): boolean {
  try {
    return storage?.getItem(ENGINE_KEY) !== "off";
  } catch {
    return true;
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

function rememberEngine(on: boolean): void {
  try {
    localStorage.setItem(ENGINE_KEY, on ? "on" : "off");
  } catch {
    // Only for this page then.
  }
}

/** What the engine has said of each position: the deepest line, a refusal, a wait. */
export class EngineMemory {
  private readonly lines = new Map<string, EngineLine>();
  private readonly refusals = new Map<string, string>();
  /** Positions the server said must wait for the engine (others' searches first). */
  private readonly queued = new Set<string>();

  /** Keeps a line unless a deeper one of its position is known; says whether it was kept. */
  heard(line: EngineLine): boolean {
    const known = this.lines.get(line.position);
    if (known && line.depth < known.depth) return false;
    this.lines.set(line.position, line);
    return true;
  }

  line(position: string): EngineLine | undefined {
    return this.lines.get(position);
  }

  refused(position: string, text: string): void {
    this.refusals.set(position, text);
  }

  waits(position: string): void {
    this.queued.add(position);
  }

  /** The position is asked about again: its refusal and wait are forgotten, its lines kept. */
  asking(position: string): void {
    this.refusals.delete(position);
    this.queued.delete(position);
  }

  /** What the panel shows of a position. */
  state(position: string, on: boolean, online: boolean): EngineState {
    if (!on) return { kind: "off" };
    const line = this.lines.get(position);
    const refusal = this.refusals.get(position);
    if (refusal && !line) return { kind: "refused", text: refusal };
    if (!line) return online ? { kind: "thinking", queued: this.queued.has(position) } : { kind: "offline" };
    return { kind: line.done ? "done" : "searching", line };
  }
}

/** What the panel shows: its `data-state` is the kind. */
export type EngineState =
  | { kind: "off" }
  | { kind: "refused"; text: string }
  /** Asked and waiting (the search is asked again once the connection is back). */
  | { kind: "thinking"; queued: boolean }
  | { kind: "offline" }
  | { kind: "searching" | "done"; line: EngineLine };

/** The bar's white share: White's win chance, kept within the bar. */
export function whiteShare(view: EvalView): string {
  return `${(Math.min(1, Math.max(0, view.white_chance)) * 100).toFixed(1)}%`;
}

/** What the panel reads of the page. */
export interface EngineHooks {
  /** The node on show, or null before a position is loaded. */
  shown(): { position: string; turn: number; actor: SeatColor | null } | null;
  /** A line of the position on show came in, or the switch changed: its choice goes on the board. */
  changed(): void;
}

export class EnginePanel {
  private readonly toggle = h("input", { type: "checkbox", role: "switch", "data-testid": "engine-switch" }) as HTMLInputElement;
  private readonly score = h("span", { class: "engine-score", "data-testid": "engine-score" });
  private readonly depth = h("span", { class: "engine-depth", "data-testid": "engine-depth" });
  private readonly body = h("p", { class: "engine-line", "data-testid": "engine-line", "aria-live": "polite" });
  readonly el = h(
    "section",
    { class: "ab-engine", "data-testid": "board-engine" },
    h("div", { class: "engine-head" }, h("label", { class: "engine-toggle" }, this.toggle, h("span", {}, t("board.engine"))), this.score, this.depth),
    this.body,
  );
  /** The evaluation bar over the board. */
  readonly bar = h("div", { class: "eval-bar", "data-testid": "eval-bar", hidden: true });
  private on = engineWanted();
  private readonly memory = new EngineMemory();
  /** The position the engine was last asked about, and the search's stop. */
  private asked: string | null = null;
  private stopSearch: (() => void) | null = null;
  private askTimer: ReturnType<typeof setTimeout> | undefined;
  private destroyed = false;

  /** `layout` is the game layout, which leaves the bar room while the engine is on. */
  constructor(
    private readonly conn: Connection,
    private readonly layout: HTMLElement,
    private readonly hooks: EngineHooks,
  ) {
    this.toggle.checked = this.on;
    this.toggle.addEventListener("change", () => this.setOn(this.toggle.checked));
  }

  /** Asks about the position on show, a moment later (nothing when asked already or finished before). */
  ask(): void {
    const shown = this.hooks.shown();
    if (!this.on || !shown) return;
    const position = shown.position;
    if (position === this.asked) return;
    this.asked = position;
    clearTimeout(this.askTimer);
    this.memory.asking(position);
    if (this.memory.line(position)?.done) {
      // Finished before: nothing to search again; the engine is left to others.
      this.stop();
      return;
    }
    this.askTimer = setTimeout(() => {
      if (this.asked !== position || !this.on) return;
      this.stopSearch = this.conn.analyse(
        position,
        (line) => this.onLine(line),
        (err) => this.onRefused(position, err),
        () => this.onQueued(position),
      );
    }, ASK_DELAY_MS);
  }

  /** The engine's choice in the position on show, for the board. */
  hint(): string | null {
    const shown = this.hooks.shown();
    if (!this.on || !shown) return null;
    return this.memory.line(shown.position)?.line[0] ?? null;
  }

  private stop(): void {
    clearTimeout(this.askTimer);
    this.stopSearch?.();
    this.stopSearch = null;
  }

  private onLine(line: EngineLine): void {
    if (this.destroyed || !this.memory.heard(line)) return;
    if (line.position === this.hooks.shown()?.position) {
      this.render();
      this.hooks.changed();
    }
  }

  private onQueued(position: string): void {
    if (this.destroyed) return;
    this.memory.waits(position);
    if (position === this.hooks.shown()?.position) this.render();
  }

  private onRefused(position: string, err: Refused): void {
    if (this.destroyed) return;
    this.memory.refused(position, err.text);
    if (position === this.hooks.shown()?.position) this.render();
  }

  private setOn(next: boolean): void {
    this.on = next;
    rememberEngine(next);
    if (!next) {
      this.stop();
      this.asked = null;
    } else {
      this.ask();
    }
    this.render();
    this.hooks.changed();
  }

  render(): void {
    const shown = this.hooks.shown();
    if (!shown) return;
    const state = this.memory.state(shown.position, this.on, this.conn.state === "open");
    this.el.dataset.state = state.kind;
    this.layout.classList.toggle("has-eval", state.kind !== "off");
    switch (state.kind) {
      case "off":
        this.score.textContent = "";
        this.depth.textContent = "";
        this.body.textContent = t("board.engineOff");
        this.bar.hidden = true;
        return;
      case "refused":
        this.score.textContent = "";
        this.depth.textContent = "";
        replace(this.body, h("span", { class: "engine-refused", "data-testid": "engine-refused" }, state.text));
        this.drawBar(null);
        return;
      case "thinking":
      case "offline":
        this.score.textContent = "";
        this.depth.textContent = "";
        replace(
          this.body,
          state.kind === "thinking"
            ? h("span", { class: "engine-thinking", "data-testid": "engine-thinking" }, thinkingDots(), " ", state.queued ? t("analysis.queued") : t("board.thinking"))
            : h("span", { class: "engine-refused" }, t("conn.offline")),
        );
        this.drawBar(null);
        return;
    }
    const line = state.line;
    this.score.textContent = scoreText(line.eval);
    this.score.dataset.side = favoured(line.eval) ?? "even";
    replace(this.depth, t("board.depth", { depth: line.depth, seconds: (line.time_ms / 1000).toFixed(1) }), line.done ? null : thinkingDots());
    this.depth.dataset.depth = String(line.depth);
    const text = line.movers.length === line.line.length ? lineText(line.line, line.movers, shown) : line.line.join(" ");
    replace(this.body, line.line.length > 0 ? h("span", { "data-testid": "engine-moves", "data-best": line.line[0], title: t("analysis.line", { line: text }) }, text) : null);
    this.drawBar(line.eval);
  }

  /** The bar: White's win chance as the white share, the score on the side it favours; empty while unknown. */
  private drawBar(view: EvalView | null): void {
    const bar = this.bar;
    bar.hidden = false;
    bar.classList.toggle("eval-pending", !view);
    if (!view) {
      const even = h("span", { class: "eval-white" });
      even.style.width = "50%";
      replace(bar, even, h("span", { class: "eval-mid", "aria-hidden": "true" }));
      bar.removeAttribute("title");
      bar.removeAttribute("aria-label");
      return;
    }
    const text = formatEval(view);
    const white = h("span", { class: "eval-white" });
    white.style.width = whiteShare(view);
    replace(bar, white, h("span", { class: "eval-mid", "aria-hidden": "true" }), h("span", { class: `eval-text ${favoured(view) ?? "white"}`, "data-testid": "eval-text" }, text));
    bar.setAttribute("role", "img");
    bar.setAttribute("aria-label", t("analysis.eval", { eval: text }));
    bar.title = t("analysis.eval", { eval: text });
  }

  destroy(): void {
    this.destroyed = true;
    this.stop();
  }
}
