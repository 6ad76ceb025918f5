// The table's state as the page holds it, and its words, without the page: events and
// legal actions applied to the table's view, the buttons a seated player has, which
// replies are logged, the tab's title, the prompt and the `/option` changes of the
// options form. Pure: the table's parts (seats, moves, chat, result, controls) draw
// from it.

import { engineName, t, type Key } from "../../i18n";
import type { GameView, OptionChange, PlayerView, SeatColor, ServerMessage, TableEvent, TableOptions, TableView } from "../../protocol";
import { readPosition } from "../../board/fen";
import { describeOptions } from "../options";

export const COLORS: SeatColor[] = ["white", "black"];
/** Takebacks each player may be granted in one game (the server's limit). */
export const TAKEBACK_LIMIT = 3;

export type EventMessage = Extract<ServerMessage, { type: "event" }>;

export const opponent = (c: SeatColor): SeatColor => (c === "white" ? "black" : "white");

/** The name a seat goes by: its player's, the engine's by its level, else the colour. */
export function seatName(view: TableView | null, c: SeatColor): string {
  const p = view?.seats[c];
  if (!p) return t(`color.${c}`);
  return p.bot ? engineName(p.bot) : p.name;
}

/** The seat of the player `me` at the table, if any. */
export function seatOf(view: TableView | null, me: Pick<PlayerView, "id"> | null): SeatColor | null {
  if (!view || !me) return null;
  return COLORS.find((c) => view.seats[c]?.id === me.id) ?? null;
}

/** Whether a game runs at the table (begun, not over). */
export function gameRunning(view: TableView | null): boolean {
  return !!view?.game && !view.game.result;
}

/** The status line: the prompt of the player to act (`mine`), else who acts and what they do; nothing once over. */
export function turnLineText(game: GameView, mine: boolean, nameOf: (c: SeatColor) => string): string {
  if (game.stage === "over") return "";
  if (mine) return t(promptKey(game.stage, game.legal));
  return t(`turn.other.${game.stage}` as Key, { player: nameOf(game.to_move) });
}

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
  /** Berserk: in a tournament game, before an action of one's own, once. */
  berserk: boolean;
}

/** `acted`: whether the player has made an action in this game (there is nothing to take back before). */
export function gameButtons(game: GameView | undefined, seat: SeatColor | null, acted = true): GameButtons | null {
  if (!game || game.result || !seat) return null;
  const other = opponent(seat);
  const pending = !!game.draw_offer || !!game.takeback_request;
  const berserk = game.clocks?.berserk;
  return {
    // A tournament game: before one's first action, once.
    berserk: !!berserk && !berserk[seat] && !acted,
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

/** Vacation hours as shown: `9 d 23 h`, `5 h`. */
export function vacationText(hours: number): string {
  return hours >= 24 ? t("clock.daysHours", { days: Math.floor(hours / 24), hours: hours % 24 }) : t("clock.hoursOnly", { hours });
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
    case "vacation":
      return t("event.vacation", { player: nameOf(event.color), hours: event.hours, left: vacationText(event.left) });
    case "berserk":
      return t("event.berserk", { player: nameOf(event.color) });
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
  // A clock and days per turn replace each other (the server clears the other one):
  // switching between them is one change, so that a rated game is never left without.
  const timeChanged = JSON.stringify(next.time ?? null) !== JSON.stringify(old.time ?? null);
  const daysChanged = JSON.stringify(next.correspondence ?? null) !== JSON.stringify(old.correspondence ?? null);
  if (next.time) {
    if (timeChanged) changes.push({ option: "time", time: next.time });
  } else if (next.correspondence) {
    if (daysChanged) changes.push({ option: "correspondence", correspondence: next.correspondence });
  } else {
    if (timeChanged) changes.push({ option: "time", time: undefined });
    if (daysChanged) changes.push({ option: "correspondence", correspondence: undefined });
  }
  if ((next.turn_limit ?? null) !== (old.turn_limit ?? null)) changes.push({ option: "turns", limit: next.turn_limit });
  if (next.log !== old.log) changes.push({ option: "log", on: next.log });
  if (!!next.engine_full !== !!old.engine_full) changes.push({ option: "engine", full: !!next.engine_full });
  if (!old.rated && next.rated) changes.push({ option: "rated", on: true });
  return changes;
}

