// The table's seats and clocks: a bar per seat (swatch, name and its marks, "offline",
// the engine's dots and "thinking… 4 s · depth 9", rings removed, Join, the clock and,
// after a rated game, the rating change), the opponent's above the board and one's own
// below, following the flip. The clocks count down between the server's messages; the
// bars are drawn again only when what they show changes.

import "./seats.css";
import { formatClock, h, replace } from "../../dom";
import { t } from "../../i18n";
import type { ClockView, RatingDiff, SeatColor, TableView } from "../../protocol";
import { nameMarks } from "../guest";
import { barSides, removedSlots, thinkingDots } from "../player-bar";
import { nameOrLink, ratingChangeEl } from "../ratings";
import { play } from "../sound";
import { COLORS, gameRunning, vacationText } from "./state";

/** Under this a clock is low: drawn in the warning colour; one's own sounds once a game. */
export const LOW_MS = 10_000;

/** How deep the engine to act has searched, for the version of the table it is at. */
export interface Thought {
  version: number;
  color: SeatColor;
  depth: number;
}

/** A clock's time, `elapsedMs` after the clocks were received: the running one counts down, none while the game is paused. */
export function clockMs(clocks: ClockView, c: SeatColor, elapsedMs: number, paused: boolean): number {
  const base = c === "white" ? clocks.white_ms : clocks.black_ms;
  // The server leaves `running` absent while the game is paused; checked here too.
  return clocks.running === c && !paused ? base - elapsedMs : base;
}

/** What a seat's bar shows besides its name. */
export interface BarModel {
  /** The seat is to act in a running game. */
  toMove: boolean;
  /** The engine is to act (and the game not paused): its dots and seconds. */
  thinking: boolean;
  /** A person seated there has gone. */
  offline: boolean;
  /** The seat is free and the reader, seated nowhere, may take it between games. */
  join: boolean;
  /** After a rated game, the seat's rating change. */
  rating: RatingDiff | null;
}

/**
 * A clock as shown: `4:59` live; by correspondence the time left for the turn, `2 d 4 h`,
 * `5 h 12 min`, and `12:30` in its last hour.
 */
export function clockText(ms: number, clocks: Pick<ClockView, "days">): string {
  if (clocks.days === undefined || ms < HOUR_MS) return formatClock(ms);
  const hours = Math.floor(ms / HOUR_MS);
  if (hours >= 24) return t("clock.daysHours", { days: Math.floor(hours / 24), hours: hours % 24 });
  return t("clock.hoursMinutes", { hours, minutes: Math.floor((ms % HOUR_MS) / 60_000) });
}

const HOUR_MS = 3_600_000;

/**
 * What is left of a correspondence player's vacation this year, under their name
 * (none for a player without vacation, and in other games).
 */
function vacationEl(c: SeatColor, clocks: ClockView): HTMLElement | null {
  const left = clocks.vacation?.[c];
  if (left === undefined || left === null) return null;
  return h("span", { class: "vacation second-line", "data-testid": `vacation-${c}`, title: t("clock.vacationTitle") }, t("clock.vacation", { left: vacationText(left) }));
}

/** The bar of seat `c` for a reader in `seat` (none: a spectator). */
export function barModel(view: TableView, c: SeatColor, seat: SeatColor | null): BarModel {
  const p = view.seats[c];
  const game = view.game;
  const running = gameRunning(view);
  const toMove = running && game!.to_move === c;
  return {
    toMove,
    thinking: toMove && !!p?.bot && !game!.paused,
    offline: !!p && !p.bot && !p.online,
    join: !p && !seat && !running,
    rating: game?.result?.ratings?.[c] ?? null,
  };
}

/** The engine's thinking in words: its seconds, and how deep its search got once it says so. */
export function thinkingText(seconds: number, depth: number | null): string {
  return depth === null ? t("game.thinking", { seconds }) : t("game.thinkingDepth", { seconds, depth });
}

/** The depth `thought` tells of seat `c` at the table's `version`, else null. */
export function thoughtDepth(thought: Thought | null, c: SeatColor, version: number | undefined): number | null {
  return thought && thought.color === c && thought.version === version ? thought.depth : null;
}

/** What the seats read of the page. */
export interface SeatsContext {
  view(): TableView | null;
  /** The reader's seat, if any. */
  seat(): SeatColor | null;
  online(): boolean;
  nameOf(c: SeatColor): string;
  /** Sit down at a free seat. */
  join(c: SeatColor): void;
}

/** The two bars; `top` and `bottom` are the slots the page lays out around the board. */
export class Seats {
  readonly top = h("div", { class: "bar-slot bar-top" });
  readonly bottom = h("div", { class: "bar-slot bar-bottom" });
  private readonly bars: Record<SeatColor, HTMLElement> = {
    white: h("div", { class: "player-bar white", "data-testid": "seat-white" }),
    black: h("div", { class: "player-bar black", "data-testid": "seat-black" }),
  };
  /** The clock elements of the bars, updated between events by `tick`. */
  private readonly clockEls = new Map<SeatColor, HTMLElement>();
  private readonly thinkingEls = new Map<SeatColor, HTMLElement>();
  /** When the clocks in the game were received (for counting down between events). */
  private clocksAt = performance.now();
  /** When the player to act began to: for the engine's "thinking" seconds. */
  private turnKey = "";
  private turnSince = performance.now();
  private thought: Thought | null = null;
  /** Games whose low-time warning has sounded (once per game). */
  private lowWarned = "";
  /** What the bars were last drawn from. */
  private drawn = "";

  constructor(private readonly ctx: SeatsContext) {}

  /** The game's clocks were received now. */
  clocksReceived(): void {
    this.clocksAt = performance.now();
  }

  /** The engine's search reached a depth (the `thinking` message). */
  setThought(thought: Thought): void {
    this.thought = thought;
    this.tick();
  }

  /** Whether something counts while the game runs: a running clock or an engine's seconds. */
  get counting(): boolean {
    return !!this.ctx.view()?.game?.clocks?.running || this.thinkingEls.size > 0;
  }

  /** Places the bars by the flip and draws them if what they show changed, else just the clocks. */
  render(flipped: boolean): void {
    const view = this.ctx.view();
    if (!view) return;
    const game = view.game;
    if (game) {
      // The engine's seconds count from the moment its turn began.
      const key = `${game.id}|${game.moves.length}|${game.to_move}`;
      if (key !== this.turnKey) {
        this.turnKey = key;
        this.turnSince = performance.now();
      }
    }
    const sides = barSides(flipped);
    if (this.bottom.firstChild !== this.bars[sides.bottom]) {
      this.top.replaceChildren(this.bars[sides.top]);
      this.bottom.replaceChildren(this.bars[sides.bottom]);
    }
    const seat = this.ctx.seat();
    const running = gameRunning(view);
    const online = this.ctx.online();
    const key = JSON.stringify([
      view.seats,
      seat,
      running,
      online,
      game ? [game.removed, game.targets, game.to_move, !!game.clocks, game.paused, game.id, game.result?.ratings ?? null] : null,
    ]);
    if (key === this.drawn) {
      this.tick();
      return;
    }
    this.drawn = key;
    this.clockEls.clear();
    this.thinkingEls.clear();
    for (const c of COLORS) this.drawBar(view, c, seat, running, online);
    this.tick();
  }

  private drawBar(view: TableView, c: SeatColor, seat: SeatColor | null, running: boolean, online: boolean): void {
    const p = view.seats[c];
    const game = view.game;
    const bar = this.bars[c];
    const m = barModel(view, c, seat);
    const think = m.thinking ? h("span", { class: "thinking second-line", "data-testid": `thinking-${c}`, role: "status" }) : null;
    if (think) this.thinkingEls.set(c, think);
    const vacation = game?.clocks && running ? vacationEl(c, game.clocks) : null;
    bar.classList.toggle("to-move", m.toMove);
    const name = p ? nameOrLink(p.name, p, this.ctx.nameOf(c)) : t("seat.free");
    // A player in a game opens a page of names in another tab: the game stays on screen.
    if (name instanceof HTMLAnchorElement && seat && running) name.target = "_blank";
    // After a rated game, the rating change: a second line of the bar, under the name.
    bar.classList.toggle("rated-result", !!m.rating);
    replace(
      bar,
      h("span", { class: `swatch ${c}`, "aria-hidden": "true" }),
      h(
        "span",
        // The engine's "thinking…", or a correspondence player's vacation, goes on a
        // second line, under the name.
        { class: think || vacation ? "bar-who two-lines" : "bar-who" },
        // Cut short with "…" when the bar is full: the whole name on hover.
        h("span", { class: "seat-name", "data-testid": `seat-${c}-name`, title: p?.name ?? null }, name),
        nameMarks(p),
        m.offline ? h("span", { class: "offline" }, ` (${t("table.offline")})`) : null,

        think ? thinkingDots() : null,
        think ?? vacation,
      ),
      game ? removedSlots(game.removed[c], game.targets[c]) : null,
      m.join ? h("button", { type: "button", "data-testid": `join-${c}`, disabled: !online, onclick: () => this.ctx.join(c) }, t("table.join")) : null,
      game?.clocks ? this.clockEl(c, game.clocks) : null,
      m.rating ? ratingChangeEl(m.rating, `rating-${c}`) : null,
    );
  }

  private clockEl(c: SeatColor, clocks: ClockView): HTMLElement {
    const ms = this.clockNow(clocks, c);
    const el = h("span", { class: "clock", "data-testid": `clock-${c}` }, clockText(ms, clocks));
    if (clocks.days !== undefined) {
      el.title = t("clock.perTurn", { days: clocks.days });
      el.classList.add("days");
    }
    // As `tick` marks it, also when the clock stands still (a game lost on time).
    el.classList.toggle("low", ms < LOW_MS);
    this.clockEls.set(c, el);
    return el;
  }

  private clockNow(clocks: ClockView, c: SeatColor): number {
    return clockMs(clocks, c, performance.now() - this.clocksAt, !!this.ctx.view()?.game?.paused);
  }

  /** The clocks and the engine's seconds as they are now. */
  tick(): void {
    const view = this.ctx.view();
    const game = view?.game;
    const clocks = game?.clocks;
    if (clocks) {
      for (const [c, el] of this.clockEls) {
        const ms = this.clockNow(clocks, c);
        el.textContent = clockText(ms, clocks);
        el.classList.toggle("low", ms < LOW_MS);
        if (c === this.ctx.seat() && gameRunning(view!) && ms < LOW_MS && clocks.running === c && this.lowWarned !== `${game!.id}`) {
          this.lowWarned = `${game!.id}`;
          play("low");
        }
      }
    }
    for (const [c, el] of this.thinkingEls) {
      const seconds = Math.floor((performance.now() - this.turnSince) / 1000);
      el.textContent = thinkingText(seconds, thoughtDepth(this.thought, c, view?.version));
    }
  }
}
