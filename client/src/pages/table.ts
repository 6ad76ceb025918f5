// A table: the board, the seats with their clocks (and, after a rated game, the rating
// changes), every table command as a button, the move list, the chat (where slash
// commands work) and the spectators.

import { trustedHistory, type History } from "../board/history";
import { marksOf, type Marks } from "../board/marks";
import { groupTurns, markedTurn, turnEnd, turnOfPly, turnText, type Turn } from "../board/turns";
import { BoardView } from "../board/view";
import type { Connection, Refused } from "../connection";
import { formatClock, h, replace } from "../dom";
import { engineName, t, type Key } from "../i18n";
import type {
  ClockView,
  Command,
  GameView,
  OptionChange,
  PlayerView,
  SeatColor,
  ServerMessage,
  TableEvent,
  TableOptions,
  TableView,
} from "../protocol";
import { fitToScreen, icon, keyTakenBy, removedSlots, renderTurns, scrollListTo } from "./gamepage";
import { guestMark, nameMarks } from "./guest";
import { inviteBox } from "./invite";
import { fillLevels } from "./engine-levels";
import { optionsForm } from "./lobby";
import { describeOptions } from "./options";
import { boardOfFen, readPosition } from "../board/fen";
import { nameOrLink, ratedMark, ratingChangeEl } from "./ratings";
import { play, setSoundOn, soundOn, unlockSound } from "./sound";

const COLORS: SeatColor[] = ["white", "black"];
/** How long a button that ends the game (resign, abort) waits for the click that confirms. */
const CONFIRM_MS = 4000;
/** Takebacks each player may be granted in one game (the server's limit). */
export const TAKEBACK_LIMIT = 3;

type EventMessage = Extract<ServerMessage, { type: "event" }>;

const opponent = (c: SeatColor): SeatColor => (c === "white" ? "black" : "white");

/** What a seated player's buttons of a running game depend on; null when there are none. */
export interface GameButtons {
  /** The opponent's pending offer, to accept or decline. */
  answer: "draw" | "takeback" | null;
  /** The game may still be aborted (neither player has made two actions). */
  abort: boolean;
  /** This player may claim the game (the opponent is away). */
  claim: boolean;
  /** Takebacks this player may still be granted. */
  takebacksLeft: number;
  /** This player's own offer, waiting for the opponent's answer. */
  waiting: "draw" | "takeback" | null;
  /** Offer a draw: not while an offer or request of either player waits. */
  draw: boolean;
  /** Ask for a takeback: only after an action of one's own, not while an offer waits. */
  takeback: boolean;
}

/** `acted`: whether the player has made an action in this game (there is nothing to take back before). */
export function gameButtons(game: GameView | undefined, seat: SeatColor | null, acted = true): GameButtons | null {
  if (!game || game.result || !seat) return null;
  const other = opponent(seat);
  const pending = !!game.draw_offer || !!game.takeback_request;
  return {
    answer: game.draw_offer === other ? "draw" : game.takeback_request === other ? "takeback" : null,
    abort: game.abortable,
    claim: game.claimable === seat,
    takebacksLeft: Math.max(0, TAKEBACK_LIMIT - game.takebacks[seat]),
    waiting: game.draw_offer === seat ? "draw" : game.takeback_request === seat ? "takeback" : null,
    draw: !pending,
    takeback: acted && !pending,
  };
}

/**
 * Replies whose news an event tells too (that event's line is the one logged): a
 * command's reply goes to the log only when no event follows it (`/who`, `/help`, a
 * result held while the database is down, anything unknown); errors always do.
 */
const TOLD_BY_EVENT = new Set([
  "chat_sent",
  "played",
  "joined",
  "left",
  "started",
  "option_set",
  "bot_seated",
  "resigned",
  "draw_offered",
  "takeback_requested",
  "accepted",
  "declined",
  "claimed",
  "claimed_draw",
  "aborted",
]);

export function replyIsLogged(key: string): boolean {
  return !TOLD_BY_EVENT.has(key);
}

/**
 * The tab's title: "Your turn" with the opponent's last turn when the player is to act,
 * else the players and the table.
 */
export function tabTitle(o: { id: string; mine: boolean; last: string | null; white: string | null; black: string | null }): string {
  if (o.mine) return `${t("game.yourTurn")}${o.last ? ` — ${o.last}` : ""} · YINSH`;
  const players = o.white && o.black ? `${o.white} – ${o.black} · ` : "";
  return `${players}${t("table.title", { id: o.id })} · YINSH`;
}

/** The prompt of the player to act; a row removal says one click when only one row is offered. */
export function promptKey(stage: GameView["stage"], legal: readonly string[]): Key {
  if (legal.length === 1 && legal[0] === "pass") return "turn.you.pass";
  if (stage === "remove_row") {
    const rows = legal.filter((a) => /^x[a-k]\d+-[a-k]\d+$/i.test(a)).length;
    return rows === 1 ? "game.promptOneRow" : "turn.you.remove_row";
  }
  return `turn.you.${stage}` as Key;
}

/** Applies an event to the table as the page holds it (the log and redrawing aside). */
export function applyEvent(view: TableView, msg: EventMessage): void {
  const event = msg.event;
  view.version = msg.version;
  switch (event.kind) {
    case "joined":
      view.seats[event.color] = event.player;
      break;
    case "left":
      view.seats[event.color] = null;
      break;
    case "presence": {
      const p = view.seats[event.color];
      if (p) p.online = event.online;
      break;
    }
    case "spectators":
      view.spectators = event.names;
      view.spectator_count = event.count;
      break;
    case "options":
      view.options = event.options;
      break;
  }
  // An aborted game is gone (not archived): the table waits for a new one.
  if (event.kind === "aborted") view.game = undefined;
  else if (msg.game) view.game = msg.game;
  else if (event.kind === "acted" && view.game) applyAction(view.game, event);
  if (msg.clocks && view.game) view.game.clocks = msg.clocks;
}

/**
 * Applies an action to the game: the event carries the position after it, not the
 * game; the player to act is sent their legal actions next (`applyLegal`).
 */
export function applyAction(game: GameView, event: Extract<TableEvent, { kind: "acted" }>): void {
  const fields = readPosition(event.position);
  if (!fields) return;
  // A game view sent in the same moment may hold the action already: the ply says
  // where it goes.
  game.moves.length = Math.min(game.moves.length, event.ply - 1);
  game.moves.push(event.action);
  Object.assign(game, fields);
  game.position = event.position;
  game.legal = [];
  game.abortable = event.abortable ?? false;
}

/** The legal actions the player to act is given, if they belong to the version held. */
export function applyLegal(view: TableView, msg: Extract<ServerMessage, { type: "legal" }>): boolean {
  if (!view.game || msg.version !== view.version) return false;
  view.game.legal = msg.actions;
  return true;
}

/** The log line of an event, if it has one (`nameOf` names the player of a seat). */
export function describeEvent(event: TableEvent, nameOf: (c: SeatColor) => string): string | null {
  switch (event.kind) {
    case "joined":
      return t("event.joined", { player: event.player.bot ? engineName(event.player.bot) : event.player.name, color: t(`color.${event.color}`) });
    case "left":
      return t("event.left", { color: t(`color.${event.color}`) });
    case "presence":
      return t(event.online ? "event.online" : "event.offline", { player: nameOf(event.color) });
    case "options":
      return t("event.options", {
        player: event.by,
        // "Rated" when it is; a casual game is the ordinary case, not worth a word.
        options: event.options.rated ? `${t("rating.rated")} · ${describeOptions(event.options)}` : describeOptions(event.options),
      });
    case "started":
      return t("event.started");
    case "took_back":
      return t("event.tookBack", { count: event.actions });
    case "draw_offered":
      return t("event.drawOffered", { player: nameOf(event.by) });
    case "takeback_requested":
      return t("event.takebackRequested", { player: nameOf(event.by) });
    case "declined":
      return t("event.declined", { player: nameOf(event.by) });
    case "aborted":
      return event.by ? t("event.aborted", { player: nameOf(event.by) }) : t("event.abortedByServer");
    case "claimable":
      return t("event.claimable", { player: nameOf(event.by) });
    case "interrupted":
      return t("event.interrupted");
    case "resumed":
      return t("event.resumed");
    default:
      return null;
  }
}

/**
 * The `/option` changes that turn the options `old` into `next`, in an order the server
 * accepts: a rated game made casual first and made rated last (it needs the archive and
 * no handicap or turn limit before); the variant before a handicap (it clears one, so
 * choosing the same variant again is how a handicap is taken away).
 */
export function optionChanges(old: TableOptions, next: TableOptions): OptionChange[] {
  const changes: OptionChange[] = [];
  if (old.rated && !next.rated) changes.push({ option: "rated", on: false });
  const clearHandicap = !!old.handicap && !next.handicap;
  if (next.variant !== old.variant || clearHandicap) changes.push({ option: "variant", variant: next.variant });
  const handicapChanged = JSON.stringify(next.handicap ?? null) !== JSON.stringify(old.handicap ?? null);
  if (next.handicap && (handicapChanged || next.variant !== old.variant)) {
    changes.push({ option: "handicap", white: next.handicap.white, black: next.handicap.black });
  }
  if (JSON.stringify(next.time ?? null) !== JSON.stringify(old.time ?? null)) changes.push({ option: "time", time: next.time });
  if ((next.turn_limit ?? null) !== (old.turn_limit ?? null)) changes.push({ option: "turns", limit: next.turn_limit });
  if (next.log !== old.log) changes.push({ option: "log", on: next.log });
  if (!!next.engine_full !== !!old.engine_full) changes.push({ option: "engine", full: !!next.engine_full });
  if (!old.rated && next.rated) changes.push({ option: "rated", on: true });
  return changes;
}

export function mountTable(root: HTMLElement, conn: Connection, id: string): () => void {
  let view: TableView | null = null;
  /** When the clocks in `view.game` were received (for counting down between events). */
  let clocksAt = performance.now();
  let lastAction: string | null = null;
  const savedTitle = document.title;

  // ---- Elements ----
  const title = h("h1", {}, t("table.title", { id }));
  const optionsLine = h("p", { class: "options-line", "data-testid": "table-options" });
  const boardBox = h("div", { class: "board-box" });
  const board = new BoardView(boardBox, { onAction: (token) => void act(token), onMiss: (why) => showMiss(why) });
  const offlineNote = h("p", { class: "board-note", "data-testid": "board-offline", hidden: true }, t("conn.offline"));
  boardBox.append(offlineNote);
  const turnLine = h("p", { class: "turn", "data-testid": "turn", role: "status" });
  const missLine = h("p", { class: "miss", "data-testid": "miss", role: "status", hidden: true });
  const resultBox = h("div", { class: "result", "data-testid": "result" });
  const reviewText = h("span", { "data-testid": "review-text" });
  const reviewBar = h(
    "div",
    { class: "review-bar", "data-testid": "review", hidden: true },
    reviewText,
    h("button", { type: "button", class: "primary", "data-testid": "back-to-live", onclick: () => goLive() }, t("game.backToLive")),
  );
  const passButton = h("button", { type: "button", class: "primary", "data-testid": "pass", hidden: true, onclick: () => void act("pass") }, t("table.pass"));
  const showPass = (on: boolean): void => {
    passButton.hidden = !on;
  };
  const moveInput = h("input", {
    type: "text",
    class: "move-input",
    "data-testid": "move-input",
    placeholder: t("game.moveField"),
    "aria-label": t("table.typeMove"),
    title: t("table.typeMove"),
    autocomplete: "off",
    spellcheck: "false",
  }) as HTMLInputElement;
  const pausedLine = h("p", { class: "paused-notice", "data-testid": "paused", role: "status", hidden: true }, t("table.paused"));
  const controls = h("div", { class: "controls", "data-testid": "controls" });
  const optionsBox = h("div", { class: "table-options" });
  /** The invitation link, while this player waits at the table for an opponent. */
  const inviteSlot = h("div", { class: "invite-slot", "data-testid": "invite-slot" });
  let inviteShown = false;
  const poolLine = h("p", { class: "pool", "data-testid": "pool" });
  const moveList = h("ol", { class: "turns", "data-testid": "moves", "aria-label": t("table.moves") });
  const spectatorsLine = h("p", { class: "spectators", "data-testid": "spectators" });
  const chatLog = h("div", { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite" });
  const chatInput = h("input", {
    type: "text",
    "data-testid": "chat-input",
    placeholder: t("table.chatPlaceholder"),
    "aria-label": t("table.chat"),
    maxlength: 500,
  }) as HTMLInputElement;
  const chatForm = h(
    "form",
    { class: "chat-form" },
    chatInput,
    h("button", { type: "submit", "data-testid": "chat-send" }, t("table.send")),
  );
  let flipped = false;
  /** The flip the player chose with the button; null: the seat's own side (Black sees Black below). */
  let flipChoice: boolean | null = null;
  const flipButton = h("button", { type: "button", class: "flip", "data-testid": "flip", title: t("table.flip"), onclick: () => setFlip(!flipped) }, t("table.flip"));
  const soundButton = h("button", { type: "button", class: "toggle", "data-testid": "sound", onclick: () => toggleSound() });
  const notifyButton = h("button", { type: "button", class: "toggle", "data-testid": "notify", onclick: () => void toggleNotify() });
  /** The player bars: the one of the side drawn at the top of the board, and at the bottom. */
  const bars: Record<SeatColor, HTMLElement> = {
    white: h("div", { class: "player-bar white", "data-testid": "seat-white" }),
    black: h("div", { class: "player-bar black", "data-testid": "seat-black" }),
  };
  const topSlot = h("div", { class: "bar-slot bar-top" });
  const bottomSlot = h("div", { class: "bar-slot bar-bottom" });

  const layout = h(
    "div",
    { class: "game" },
    h(
      "div",
      { class: "game-extra" },
      h(
        "div",
        { class: "table-head" },
        title,
        optionsLine,
        h("p", { class: "table-links" }, h("a", { href: "#/" }, t("table.back")), " · ", h("a", { href: "#/rules", "data-testid": "rules-link" }, t("nav.rules"))),
      ),
      inviteSlot,
      optionsBox,
      h("h2", {}, t("table.chat")),
      chatLog,
      chatForm,
      spectatorsLine,
    ),
    h("div", { class: "game-board" }, boardBox),
    h(
      "div",
      { class: "game-side" },
      topSlot,
      h("div", { class: "game-status" }, resultBox, turnLine, missLine, pausedLine, reviewBar),
      h("div", { class: "game-moves" }, moveList, poolLine),
      h(
        "div",
        { class: "game-controls" },
        h("div", { class: "controls-row" }, passButton, controls),
        h("div", { class: "controls-row" }, moveInput),
        h("div", { class: "controls-row below-board" }, flipButton, soundButton, notifyButton),
      ),
      bottomSlot,
    ),
  );
  root.append(h("section", { class: "table-page game-page" }, layout));
  const stopFit = fitToScreen(layout);

  // ---- Helpers ----
  const me = (): PlayerView | null => conn.player;
  const mySeat = (): SeatColor | null => {
    const p = me();
    if (!view || !p) return null;
    return COLORS.find((c) => view!.seats[c]?.id === p.id) ?? null;
  };
  const nameOf = (c: SeatColor): string => {
    const p = view?.seats[c];
    if (!p) return t(`color.${c}`);
    return p.bot ? engineName(p.bot) : p.name;
  };
  const running = (): boolean => !!view?.game && !view.game.result;
  const online = (): boolean => conn.state === "open";

  function log(text: string, kind: "chat" | "event" | "reply" | "error" = "event", from?: string, guest = false): void {
    const line = h("div", { class: `line ${kind}` }, from ? h("b", {}, from, guest ? guestMark() : null, ": ") : null, text);
    chatLog.append(line);
    while (chatLog.childElementCount > 200) chatLog.firstElementChild?.remove();
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  async function request(run: () => Promise<{ key: string; text: string }>, quiet = false): Promise<boolean> {
    try {
      const answer = await run();
      // The event that follows tells the same (one line per event); see replyIsLogged.
      if (!quiet && replyIsLogged(answer.key)) log(answer.text, "reply");
      return true;
    } catch (e) {
      log((e as Refused).text, "error");
      return false;
    }
  }

  const command = (c: Command, quiet = false) =>
    request(() => conn.request({ type: "command", table: id, ...c }), quiet);

  async function act(token: string): Promise<void> {
    const game = view?.game;
    hideMiss();
    const ok = await request(
      () => conn.request({ type: "act", table: id, action: token, ply: game ? game.moves.length : undefined }),
      true,
    );
    // A refused action unlocks the board again (an accepted one re-renders with its event).
    if (!ok) renderGame();
  }

  // ---- A dragged ring that went back: say why, briefly ----
  let missTimer: number | undefined;
  function showMiss(why: "off" | "illegal"): void {
    missLine.textContent = t(why === "off" ? "game.missOff" : "game.missIllegal");
    missLine.hidden = false;
    window.clearTimeout(missTimer);
    missTimer = window.setTimeout(hideMiss, 4000);
  }
  function hideMiss(): void {
    window.clearTimeout(missTimer);
    missLine.hidden = true;
  }

  // ---- Sound and notifications ----
  function drawToggles(): void {
    const on = soundOn();
    replace(soundButton, icon(on ? "sound" : "mute"));
    soundButton.setAttribute("aria-label", t("game.sound"));
    soundButton.setAttribute("aria-pressed", String(on));
    soundButton.title = on ? t("game.soundOn") : t("game.soundOff");
    const can = typeof Notification !== "undefined";
    notifyButton.hidden = !can;
    replace(notifyButton, icon("bell"), h("span", { class: "toggle-label" }, t("game.notify")));
    notifyButton.setAttribute("aria-pressed", String(notifyOn && can && Notification.permission === "granted"));
    notifyButton.title = can && Notification.permission === "denied" ? t("game.notifyDenied") : t("game.notifyExplain");
  }
  function toggleSound(): void {
    setSoundOn(!soundOn());
    unlockSound();
    drawToggles();
  }
  let notifyOn = (() => {
    try {
      return localStorage.getItem("yinsh.notify") === "on";
    } catch {
      return false;
    }
  })();
  async function toggleNotify(): Promise<void> {
    if (typeof Notification === "undefined") return;
    let next = !notifyOn;
    // Permission is asked for only here, on the player's click.
    if (next && Notification.permission === "default") {
      try {
        next = (await Notification.requestPermission()) === "granted";
      } catch {
        next = false;
      }
    }
    if (next && Notification.permission !== "granted") {
      next = false;
      showNote(t("game.notifyDenied"));
    }
    notifyOn = next;
    try {
      localStorage.setItem("yinsh.notify", next ? "on" : "off");
    } catch {
      // Only for this page then.
    }
    drawToggles();
  }
  function showNote(text: string): void {
    missLine.textContent = text;
    missLine.hidden = false;
    window.clearTimeout(missTimer);
    missTimer = window.setTimeout(hideMiss, 4000);
  }
  function notifyTurn(last: string | null): void {
    if (!notifyOn || !document.hidden || typeof Notification === "undefined" || Notification.permission !== "granted") return;
    try {
      const n = new Notification(t("game.notifyTitle", { id }), { body: last ? t("game.notifyBody", { move: last }) : undefined, tag: `yinsh-${id}` });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker.
    }
  }
  const onGesture = () => unlockSound();
  document.addEventListener("pointerdown", onGesture);
  document.addEventListener("keydown", onGesture);

  // ---- The game's history: past boards, turns, marks ----
  let historyKey = "";
  let history: History | null = null;
  let turns: Turn[] = [];
  /** The position looked back at (the number of actions played on it), or null: the live one. */
  let reviewPly: number | null = null;

  function refreshHistory(game: GameView): void {
    const key = `${game.id}|${game.moves.join(" ")}`;
    if (key === historyKey) return;
    historyKey = key;
    history = trustedHistory(game.moves, game.board);
    // Without a history (it should not happen) each action is a turn of its own, by alternation.
    const actors = history?.actors ?? game.moves.map((_, i) => (i % 2 === 0 ? "white" : "black"));
    turns = groupTurns(game.moves, actors);
  }

  /** The marks of the turn that leads to the position on show. */
  function marksNow(game: GameView): Marks | null {
    if (reviewPly !== null && history) {
      const turn = turnOfPly(turns, reviewPly);
      if (!turn) return null;
      return marksOf(turn.tokens.slice(0, reviewPly - turn.first), history.boards[reviewPly]);
    }
    const turn = markedTurn(turns, game.result || game.stage === "over" ? null : game.to_move);
    if (!turn) return null;
    if (history) return marksOf(turn.tokens, history.boards[turnEnd(turn)]);
    return turnEnd(turn) === game.moves.length ? marksOf(turn.tokens, game.board) : null;
  }

  /** The opponent's last turn as the record writes it, for the title and notifications. */
  function lastOpponentTurn(seat: SeatColor): string | null {
    for (let i = turns.length - 1; i >= 0; i--) if (turns[i].color !== seat) return turnText(turns[i].tokens);
    return null;
  }

  function review(ply: number | null): void {
    const game = view?.game;
    if (!game || !history) return;
    const previous = reviewPly ?? game.moves.length;
    let next = ply === null ? null : Math.max(0, Math.min(ply, game.moves.length));
    if (next === game.moves.length) next = null;
    if (next === reviewPly) return;
    reviewPly = next;
    const shown = next ?? game.moves.length;
    lastAction = shown === previous + 1 ? game.moves[previous] : null;
    renderGame();
  }
  const goLive = () => review(null);

  // ---- Rendering ----
  function clockMs(clocks: ClockView, c: SeatColor): number {
    const base = c === "white" ? clocks.white_ms : clocks.black_ms;
    // The server leaves `running` absent while the game is paused; checked here too.
    return clocks.running === c && !view?.game?.paused ? base - (performance.now() - clocksAt) : base;
  }

  /** The clock elements of the seats, updated between events by `tick`. */
  const clockEls = new Map<SeatColor, HTMLElement>();
  const thinkingEls = new Map<SeatColor, HTMLElement>();
  /** When the player to act began to: for the engine's "thinking" seconds. */
  let turnKey = "";
  let turnSince = performance.now();
  /** How deep the engine to act has searched, for the version of the table it is at. */
  let thought: { version: number; color: SeatColor; depth: number } | null = null;
  /** Games whose low-time warning has sounded (once per game). */
  let lowWarned = "";

  function renderClocks(): void {
    const game = view?.game;
    const clocks = game?.clocks;
    if (clocks) {
      for (const [c, el] of clockEls) {
        const ms = clockMs(clocks, c);
        el.textContent = formatClock(ms);
        el.classList.toggle("low", ms < 10_000);
        const seat = mySeat();
        if (c === seat && running() && ms < 10_000 && clocks.running === c && lowWarned !== `${game!.id}`) {
          lowWarned = `${game!.id}`;
          play("low");
        }
      }
    }
    for (const [c, el] of thinkingEls) {
      const seconds = Math.floor((performance.now() - turnSince) / 1000);
      // How deep its search got, once the engine says so for the position it is in.
      const depth = thought && thought.color === c && thought.version === view?.version ? thought.depth : null;
      el.textContent = depth === null ? t("game.thinking", { seconds }) : t("game.thinkingDepth", { seconds, depth });
    }
  }

  let barsDrawn = "";
  function renderBars(): void {
    if (!view) return;
    const game = view.game;
    pausedLine.hidden = !game?.paused;
    // The side drawn at the bottom of the board has its bar below it.
    const bottom: SeatColor = flipped ? "black" : "white";
    if (bottomSlot.firstChild !== bars[bottom]) {
      topSlot.replaceChildren(bars[opponent(bottom)]);
      bottomSlot.replaceChildren(bars[bottom]);
    }
    const key = JSON.stringify([
      view.seats,
      mySeat(),
      running(),
      online(),
      game ? [game.removed, game.targets, game.to_move, !!game.clocks, game.paused, game.id, game.result?.ratings ?? null] : null,
    ]);
    if (key === barsDrawn) {
      renderClocks();
      return;
    }
    barsDrawn = key;
    clockEls.clear();
    thinkingEls.clear();
    const seat = mySeat();
    for (const c of COLORS) {
      const p = view.seats[c];
      const clocks = game?.clocks;
      const toMove = running() && game!.to_move === c;
      const thinking = toMove && !!p?.bot && !game!.paused;
      const think = thinking ? h("span", { class: "thinking", "data-testid": `thinking-${c}`, role: "status" }) : null;
      if (think) thinkingEls.set(c, think);
      bars[c].classList.toggle("to-move", toMove);
      const name = p ? nameOrLink(p.name, p, nameOf(c)) : t("seat.free");
      // A player in a game opens a page of names in another tab: the game stays on screen.
      if (name instanceof HTMLAnchorElement && seat && running()) name.target = "_blank";
      // After a rated game, the rating change: a second line of the bar, under the name.
      const diff = game?.result?.ratings?.[c];
      bars[c].classList.toggle("rated-result", !!diff);
      replace(
        bars[c],
        h("span", { class: `swatch ${c}`, "aria-hidden": "true" }),
        h(
          "span",
          // The engine's "thinking…" goes on a second line, under the name.
          { class: think ? "bar-who with-thinking" : "bar-who" },
          h("span", { class: "seat-name", "data-testid": `seat-${c}-name` }, name),
          nameMarks(p),
          p && !p.bot && !p.online ? h("span", { class: "offline" }, ` (${t("table.offline")})`) : null,
          think ? h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")) : null,
          think,
        ),
        game ? removedSlots(game.removed[c], game.targets[c]) : null,
        !p && !seat && !running()
          ? h("button", { type: "button", "data-testid": `join-${c}`, disabled: !online(), onclick: () => void command({ command: "join", color: c }) }, t("table.join"))
          : null,
        clocks ? clockEl(c, clocks) : null,
        diff ? ratingChangeEl(diff, `rating-${c}`) : null,
      );
    }
    renderClocks();
  }

  function clockEl(c: SeatColor, clocks: ClockView): HTMLElement {
    const ms = clockMs(clocks, c);
    const el = h("span", { class: "clock", "data-testid": `clock-${c}` }, formatClock(ms));
    // As `renderClocks` marks it, also when the clock stands still (a game lost on time).
    el.classList.toggle("low", ms < 10_000);
    clockEls.set(c, el);
    return el;
  }

  // What the buttons and the options form were last drawn from: they are drawn again
  // only when that changes, so a click or an edit in progress is never lost to an
  // unrelated event (a chat line, a spectator).
  let controlsDrawn = "";
  let optionsDrawn = "";

  /** Whether the player in `seat` has made an action in this game. */
  function hasActed(seat: SeatColor): boolean {
    const game = view?.game;
    if (!game) return false;
    if (history) return history.actors.includes(seat);
    return game.moves.length >= (seat === "white" ? 1 : 2);
  }

  function renderControls(): void {
    if (!view) return;
    const seat = mySeat();
    const game = view.game;
    const other = seat === "white" ? "black" : "white";
    const controlsKey = JSON.stringify([
      seat,
      running(),
      online(),
      !!view.seats.white,
      !!view.seats.black,
      !!game,
      game?.draw_offer,
      game?.takeback_request,
      gameButtons(game, seat, seat ? hasActed(seat) : true),
      seat ? nameOf(other) : null,
    ]);
    const optionsKey = JSON.stringify([seat && !running(), view.options, me()?.guest ?? true]);
    if (controlsKey !== controlsDrawn) {
      controlsDrawn = controlsKey;
      drawControls();
    }
    if (optionsKey !== optionsDrawn) {
      optionsDrawn = optionsKey;
      drawOptions();
    }
  }

  function drawControls(): void {
    if (!view) return;
    const seat = mySeat();
    const game = view.game;
    const buttons: HTMLElement[] = [];
    const button = (label: string, testid: string, run: () => void, title?: string, cls?: string) =>
      buttons.push(h("button", { type: "button", "data-testid": testid, title, class: cls, disabled: !online(), onclick: run }, label));
    if (seat && !running()) {
      // After a game the same button starts the next one: a rematch.
      if (view.seats.white && view.seats.black) button(t(game ? "game.rematch" : "game.startGame"), "start", () => void command({ command: "start" }), undefined, "primary");
      if (!view.seats[seat === "white" ? "black" : "white"]) {
        const level = h("select", { "data-testid": "bot-level", "aria-label": t("lobby.level") }) as HTMLSelectElement;
        fillLevels(level, 3);
        buttons.push(level);
        button(t("game.seatEngine", { level: level.value }), "bot", () => void command({ command: "bot", level: Number(level.value) }));
        const engine = buttons[buttons.length - 1];
        level.addEventListener("change", () => {
          engine.textContent = t("game.seatEngine", { level: level.value });
        });
      }
      button(t("table.leave"), "leave", () => void command({ command: "leave" }));
    }
    const playing = gameButtons(game, seat, seat ? hasActed(seat) : true);
    if (seat && playing) {
      const other = opponent(seat);
      if (playing.answer) {
        const what = playing.answer === "draw" ? "table.drawOffered" : "table.takebackRequested";
        buttons.push(h("span", { class: "offer", "data-testid": "offer" }, t(what, { player: nameOf(other) })));
        button(t("table.accept"), "accept", () => void command({ command: "accept" }), undefined, "primary");
        button(t("table.decline"), "decline", () => void command({ command: "decline" }));
      }
      if (playing.waiting) {
        buttons.push(h("span", { class: "waiting", "data-testid": "waiting" }, t(playing.waiting === "draw" ? "game.drawWaiting" : "game.takebackWaiting", { player: nameOf(other) })));
      }
      if (playing.claim) {
        button(t("table.claimWin"), "claim-win", () => void command({ command: "claim", draw: false }));
        button(t("table.claimDraw"), "claim-draw", () => void command({ command: "claim", draw: true }));
      }
      if (playing.draw) button(t("table.draw"), "draw", () => void command({ command: "draw" }));
      if (playing.takeback) {
        const left = t("table.takebacksLeft", { left: playing.takebacksLeft, limit: TAKEBACK_LIMIT });
        button(t("table.takeback"), "takeback", () => void command({ command: "takeback" }), left);
      }
      if (playing.abort) buttons.push(confirmButton("table.abort", "table.abortConfirm", "abort", { command: "abort" }));
      buttons.push(confirmButton("table.resign", "table.resignConfirm", "resign", { command: "resign" }));
    }
    replace(controls, buttons);
  }

  /** Resigning and aborting take two clicks: the first asks for a second within a few seconds. */
  function confirmButton(key: Key, confirmKey: Key, testid: string, c: Command): HTMLElement {
    const b = h("button", { type: "button", "data-testid": testid, disabled: !online() }, t(key));
    let timer: number | undefined;
    b.onclick = () => {
      if (b.dataset.confirm) {
        window.clearTimeout(timer);
        void command(c);
        return;
      }
      b.dataset.confirm = "true";
      b.classList.add("confirm");
      b.textContent = t(confirmKey);
      timer = window.setTimeout(() => {
        delete b.dataset.confirm;
        b.classList.remove("confirm");
        b.textContent = t(key);
      }, CONFIRM_MS);
    };
    return b;
  }

  /** The options form: seated players change the options between games. */
  function drawOptions(): void {
    if (!view) return;
    if (mySeat() && !running()) {
      const wasOpen = optionsBox.querySelector("details")?.open ?? false;
      const form = optionsForm(view.options, me()?.guest ?? true);
      const apply = h("button", { type: "submit", "data-testid": "apply-options" }, t("table.apply"));
      form.el.append(apply);
      form.el.addEventListener("submit", (e) => {
        e.preventDefault();
        void applyOptions(view!.options, form.read());
      });
      replace(optionsBox, h("details", { open: wasOpen }, h("summary", {}, t("table.options")), form.el));
    } else {
      replace(optionsBox);
    }
  }

  /** Sends one `/option` per changed setting (`optionChanges`), stopping at a refusal. */
  async function applyOptions(old: TableOptions, next: TableOptions): Promise<void> {
    for (const change of optionChanges(old, next)) {
      if (!(await command({ command: "option", change }))) break;
    }
  }

  function setFlip(on: boolean): void {
    flipChoice = on;
    flipped = on;
    board.setFlipped(flipped);
    renderBars();
  }

  function renderGame(): void {
    if (!view) return;
    const game = view.game;
    const seat = mySeat();
    flipped = flipChoice ?? seat === "black";
    board.setFlipped(flipped);
    layout.classList.toggle("offline", !online());
    offlineNote.hidden = online();
    moveInput.disabled = !online();
    if (!game) {
      reviewPly = null;
      // A table that begins from a position shows it before its first game.
      const start = view.options.position ? boardOfFen(view.options.position) : null;
      board.update({
        board: start ?? { rings: { white: [], black: [] }, markers: { white: [], black: [] } },
        toMove: "white",
        stage: "place",
        legal: [],
        myColor: null,
        marks: null,
      });
      turnLine.textContent = t("table.waiting");
      showPass(false);
      replace(moveList);
      poolLine.textContent = "";
      replace(resultBox);
      reviewBar.hidden = true;
      document.title = tabTitle({ id, mine: false, last: null, white: view.seats.white ? nameOf("white") : null, black: view.seats.black ? nameOf("black") : null });
      return;
    }
    refreshHistory(game);
    if (!history || (reviewPly !== null && reviewPly >= game.moves.length)) reviewPly = null;
    const mine = running() && seat === game.to_move;
    const live = reviewPly === null;
    const marks = marksNow(game);
    if (live) {
      board.update({
        board: game.board,
        toMove: game.to_move,
        stage: game.stage,
        legal: mine && online() ? game.legal : [],
        myColor: seat,
        lastAction,
        marks,
      });
    } else {
      board.update({ board: history!.boards[reviewPly!], toMove: history!.actors[reviewPly!] ?? game.to_move, stage: game.stage, legal: [], myColor: null, lastAction, marks });
    }
    lastAction = null;
    showPass(live && mine && online() && game.legal.includes("pass"));
    turnLine.textContent = turnLineText(game, mine);
    poolLine.textContent = t("table.pool", { count: game.pool });
    const shown = reviewPly ?? game.moves.length;
    renderTurns(moveList, turns, shown);
    scrollListTo(moveList, ".act.current");
    moveList.classList.toggle("reviewable", !!history);
    reviewBar.hidden = live;
    if (!live) {
      const turn = turnOfPly(turns, reviewPly!);
      reviewText.textContent = turn
        ? t("game.reviewing", { turn: turn.number, move: turnText(turn.tokens.slice(0, reviewPly! - turn.first)) })
        : t("game.reviewingStart");
    }
    if (game.result) {
      const r = game.result;
      const reason = t(`reason.${r.termination}` as Key);
      const text = r.winner ? t("result.win", { player: nameOf(r.winner), reason }) : t("result.draw", { reason });
      const ratings = r.ratings;
      replace(
        resultBox,
        h("strong", {}, `${r.score} — ${text}`),
        ratings
          ? h(
              "div",
              { class: "result-ratings", "data-testid": "result-ratings", title: t("rating.changes") },
              COLORS.map((c) => h("p", {}, h("span", { class: "who" }, nameOf(c)), " ", ratingChangeEl(ratings[c], `result-rating-${c}`))),
            )
          : null,
        view.options.log ? h("a", { href: `#/replay/${game.id}`, "data-testid": "replay-link" }, t("table.replay")) : null,
      );
    } else {
      replace(resultBox);
    }
    const last = seat ? lastOpponentTurn(seat) : null;
    document.title = tabTitle({ id, mine, last, white: view.seats.white ? nameOf("white") : null, black: view.seats.black ? nameOf("black") : null });
    // The engine's seconds count from the moment its turn began.
    const key = `${game.id}|${game.moves.length}|${game.to_move}`;
    if (key !== turnKey) {
      turnKey = key;
      turnSince = performance.now();
    }
  }

  function turnLineText(game: GameView, mine: boolean): string {
    if (game.stage === "over") return "";
    if (mine) return t(promptKey(game.stage, game.legal));
    return t(`turn.other.${game.stage}` as Key, { player: nameOf(game.to_move) });
  }

  function renderInvite(): void {
    const want = !!view && !running() && !!mySeat() && COLORS.some((c) => !view!.seats[c]);
    if (want === inviteShown) return;
    inviteShown = want;
    replace(inviteSlot, want ? inviteBox(id) : null);
  }

  function renderAll(): void {
    if (!view) return;
    replace(optionsLine, ratedMark(view.options), " ", describeOptions(view.options, view.seats));
    // The server names the spectators once a second at most: a player who just sat
    // down may still be among them for that moment, and is left out here.
    const seated = new Set(COLORS.map((c) => view!.seats[c]?.name));
    const names = view.spectators.filter((n) => !seated.has(n));
    const count = view.spectator_count - (view.spectators.length - names.length);
    const more = count - names.length;
    spectatorsLine.textContent = count > 0
      ? t("table.spectators", { names: names.join(", ") + (more > 0 ? ` +${more}` : "") })
      : t("table.noSpectators");
    renderGame();
    renderBars();
    renderControls();
    renderInvite();
  }

  // ---- Events ----
  function onMessage(msg: ServerMessage): void {
    if (msg.type === "error") {
      replace(root, h("p", { class: "message" }, msg.text), h("a", { href: "#/" }, t("table.back")));
      return;
    }
    if (msg.type === "snapshot") {
      view = msg.table;
      clocksAt = performance.now();
      replace(chatLog);
      for (const line of view.chat) log(line.text, "chat", line.from, line.guest);
      renderAll();
      return;
    }
    if (msg.type === "legal" && view) {
      if (applyLegal(view, msg)) renderAll();
      return;
    }
    if (msg.type === "thinking" && view) {
      // Progress of the engine's search of the position it is to act in now.
      if (msg.version === view.version) {
        thought = { version: msg.version, color: msg.color, depth: msg.depth };
        renderClocks();
      }
      return;
    }
    if (msg.type === "clocks" && view?.game) {
      view.game.clocks = msg.clocks;
      clocksAt = performance.now();
      renderClocks();
      return;
    }
    if (msg.type !== "event" || !view) return;
    const event = msg.event;
    const wasMine = running() && mySeat() === view.game?.to_move;
    applyEvent(view, msg);
    if (event.kind === "acted") lastAction = event.action;
    if (event.kind === "aborted") lastAction = null;
    // A change of the game brings the board back to the live position.
    if (event.kind === "acted" || event.kind === "took_back" || event.kind === "aborted" || event.kind === "started" || event.kind === "game_over") reviewPly = null;
    if (event.kind === "chat") log(event.line.text, "chat", event.line.from, event.line.guest);
    if (msg.game || msg.clocks) clocksAt = performance.now();
    const text = describeEvent(event, nameOf);
    if (text) log(text);
    if (event.kind === "game_over" && view.game?.result) {
      const r = view.game.result;
      const reason = t(`reason.${r.termination}` as Key);
      log(r.winner ? t("result.win", { player: nameOf(r.winner), reason }) : t("result.draw", { reason }));
    }
    if (event.kind === "acted") play(/^x[a-k]\d+-/.test(event.action) ? "capture" : "move");
    if (event.kind === "game_over") play("end");
    renderAll();
    const seat = mySeat();
    if (!wasMine && seat && running() && view.game?.to_move === seat && event.kind === "acted") {
      notifyTurn(lastOpponentTurn(seat));
    }
  }

  // ---- Input ----
  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    chatInput.value = "";
    // Slash commands answer in the log; plain chat shows up as its event.
    void request(() => conn.request({ type: "chat", table: id, text }), !text.startsWith("/"));
  });
  moveInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const token = moveInput.value.trim().toLowerCase();
      moveInput.value = "";
      if (token) void act(token);
    }
  });
  moveList.addEventListener("click", (e) => {
    const item = (e.target as Element).closest<HTMLElement>("[data-ply]");
    if (item && history) review(Number(item.dataset.ply));
  });
  /** Typing a move anywhere on the page goes to the move field; the arrows look back. */
  const onKey = (e: KeyboardEvent) => {
    if (keyTakenBy(e.target)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const game = view?.game;
    if (game && history && ["ArrowLeft", "ArrowRight", "End", "Home"].includes(e.key)) {
      e.preventDefault();
      const at = reviewPly ?? game.moves.length;
      if (e.key === "ArrowLeft") review(at - 1);
      else if (e.key === "ArrowRight") review(at + 1);
      else if (e.key === "Home") review(0);
      else goLive();
      return;
    }
    if (/^[a-kpx]$/i.test(e.key) && running() && mySeat() === view?.game?.to_move && reviewPly === null) {
      moveInput.focus();
    }
  };
  document.addEventListener("keydown", onKey);
  const tick = setInterval(() => {
    if (running() && (view?.game?.clocks?.running || thinkingEls.size > 0)) renderClocks();
  }, 100);

  drawToggles();
  const stopWatching = conn.watchTable(id, onMessage);
  const stopPlayer = conn.onPlayer(() => renderAll());
  const stopState = conn.onState(() => renderAll());
  return () => {
    stopWatching();
    stopPlayer();
    stopState();
    stopFit();
    clearInterval(tick);
    window.clearTimeout(missTimer);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("pointerdown", onGesture);
    document.removeEventListener("keydown", onGesture);
    board.destroy();
    document.title = savedTitle;
  };
}
