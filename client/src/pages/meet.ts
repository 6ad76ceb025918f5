// Meeting people, the pure part: the quick pairing presets and their labels, the lobby's
// list of seeks kept up to date from the server's messages, the player's own seek, and
// the challenges to and from the player. No DOM and no words here (the pages translate
// the keys), so that all of it is tested in Node.

import {
  EXPECTED_TURNS,
  TIME_CLASS_BELOW,
  TIME_CLASSES,
  type ChallengeView,
  type PlayerView,
  type SeekView,
  type ServerMessage,
  type TableOptions,
  type TimeClass,
  type TimeSetting,
  type VariantName,
} from "../protocol";

// ---- Presets and time controls ----

/** A quick pairing button: minutes and increment. */
export type Preset = TimeSetting;

/** The preset grid, as lichess.org lays its own out: fast to slow. */
export const PRESETS: readonly Preset[] = [
  { minutes: 1, increment: 0 },
  { minutes: 3, increment: 0 },
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 0 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 0 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
  { minutes: 30, increment: 0 },
];

/** The seek's limits: the server's limits of a clock. */
export const MINUTES = { min: 1, max: 180 } as const;
export const INCREMENT = { min: 0, max: 60 } as const;

/**
 * The options of a seek: the variant, the clock, rated or casual, archived (the server
 * keeps nothing else of a seek, and pairs seeks whose options are equal).
 */
export function seekOptions(time: TimeSetting, variant: VariantName, rated: boolean): TableOptions {
  const options: TableOptions = { variant, time: { minutes: time.minutes, increment: time.increment }, log: true };
  if (rated) options.rated = true;
  return options;
}

/** A custom clock from what was typed: whole numbers within the limits, or null. */
export function customTime(minutes: string, increment: string): TimeSetting | null {
  const m = Number(minutes.trim());
  const i = Number(increment.trim() === "" ? "0" : increment.trim());
  if (minutes.trim() === "" || !Number.isInteger(m) || !Number.isInteger(i)) return null;
  if (m < MINUTES.min || m > MINUTES.max || i < INCREMENT.min || i > INCREMENT.max) return null;
  return { minutes: m, increment: i };
}

/** `5+3`: minutes and increment, as players say it. */
export function timeLabel(time: TimeSetting): string {
  return `${time.minutes}+${time.increment}`;
}

export type Speed = TimeClass;

/**
 * The time class of a clock, as the server rates games (docs/protocol.md "Rated
 * games"): by its expected length, minutes × 60 + EXPECTED_TURNS × increment seconds,
 * against the limits the server defines (`TIME_CLASS_BELOW`).
 */
export function speedOf(time: TimeSetting): Speed {
  const secs = time.minutes * 60 + EXPECTED_TURNS * time.increment;
  return TIME_CLASSES.find((c) => c === "classical" || (c !== "correspondence" && secs < TIME_CLASS_BELOW[c])) ?? "classical";
}

/** Whether two options ask for the same game (what the server pairs). */
export function sameGame(a: TableOptions, b: TableOptions): boolean {
  return (
    a.variant === b.variant &&
    !!a.rated === !!b.rated &&
    a.time?.minutes === b.time?.minutes &&
    a.time?.increment === b.time?.increment
  );
}

/** How long a seek has waited: `m:ss`. */
export function waited(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A rating as a list shows it: `1500`, `1500?` while provisional, `` for a guest. */
export function ratingLabel(seek: Pick<SeekView, "rating" | "provisional">): string {
  if (seek.rating === undefined) return "";
  return seek.provisional ? `${seek.rating}?` : String(seek.rating);
}

// ---- The lobby's seeks ----

type SeekMessage = Extract<ServerMessage, { type: "lobby" | "lobby_seek" | "lobby_seek_removed" }>;

/** Applies a lobby message to the seeks (oldest first, by id); other messages change nothing. */
export function updateSeeks(seeks: Map<string, SeekView>, msg: ServerMessage): void {
  const m = msg as SeekMessage;
  switch (m.type) {
    case "lobby":
      seeks.clear();
      for (const s of m.seeks ?? []) seeks.set(s.id, s);
      return;
    case "lobby_seek":
      seeks.set(m.seek.id, m.seek);
      return;
    case "lobby_seek_removed":
      seeks.delete(m.seek);
      return;
  }
}

/** Whether a player is `me`: by id (names of guests change when they register). */
export function isMe(p: PlayerView | undefined, me: PlayerView | null): boolean {
  return !!p && !!me && p.id !== undefined && p.id === me.id;
}

// ---- The player's own seek ----

/** What the player seeks, and since when (ms, by the page's clock). */
export interface Seeking {
  options: TableOptions;
  since: number;
}

/**
 * The player's own seek, from the requests sent and the lobby's messages. The server
 * answers `seek` with a reply that has no id; the seek's id comes with its `lobby_seek`,
 * which may come before or after that reply, and a seek that replaces another removes
 * the old one (`lobby_seek_removed`) around the same time. So:
 * - while a `seek` is unanswered, that seek is shown (`pending`);
 * - the seek in the lobby whose player is `me` is ours (`mine`, with its id); its removal
 *   ends it, unless another of ours came since;
 * - `paired`, `cancel`, and the connection going down end it (a seek lives only as long as
 *   its connection).
 */
export class SeekTracker {
  private pending: Seeking | null = null;
  /** What stood before the unanswered request: a refused seek changes nothing. */
  private before: (Seeking & { id?: string }) | null = null;
  private mine: (Seeking & { id?: string }) | null = null;

  /** The seek to show, if any. */
  seeking(): Seeking | null {
    return this.pending ?? this.mine;
  }

  /** A `seek` request is sent. */
  sent(options: TableOptions, now: number): void {
    this.pending = { options, since: now };
    this.before = this.mine;
    this.mine = null;
  }

  /** Its answer: accepted (`seeking`) or refused. */
  answered(ok: boolean): void {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    if (ok) this.mine ??= pending;
    else this.mine ??= this.before;
    this.before = null;
  }

  /** The player cancels, is paired, or the connection is down: nothing stands. */
  end(): void {
    this.pending = this.before = this.mine = null;
  }

  /** A message from the server; `me` is the player. */
  receive(msg: ServerMessage, me: PlayerView | null, now: number): void {
    switch (msg.type) {
      case "paired":
        this.end();
        return;
      case "lobby_seek":
        if (isMe(msg.seek.player, me)) this.own(msg.seek, now);
        return;
      case "lobby_seek_removed":
        if (this.mine?.id === msg.seek) this.mine = null;
        if (this.before?.id === msg.seek) this.before = null;
        return;
      case "lobby": {
        const own = (msg.seeks ?? []).filter((s) => isMe(s.player, me)).pop();
        if (own) this.own(own, now);
        else this.mine = null;
        return;
      }
    }
  }

  private own(seek: SeekView, now: number): void {
    if (this.mine?.id === seek.id) return;
    const since = this.pending?.since ?? (this.mine && sameGame(this.mine.options, seek.options) ? this.mine.since : now);
    this.mine = { id: seek.id, options: seek.options, since };
  }
}

// ---- Challenges ----

/** Why a challenge ended, as `challenge_gone` says. */
export type GoneReason = "accepted" | "declined" | "canceled";

export interface ChallengeEntry {
  challenge: ChallengeView;
  /** Set once it ended: why and when (it is shown a moment longer). */
  gone?: { reason: string; at: number };
}

/** How long an ended challenge still shows why it ended. */
export const GONE_MS = 6000;

/**
 * The challenges to and from the player, by id, in the order they came. The server
 * sends every standing challenge again when a connection opens: the same id is the
 * same challenge, kept once. `reset` (at `welcome`) forgets the standing ones, which the
 * server is about to send again (those that ended while the connection was down are not).
 */
export class ChallengeList {
  private entries = new Map<string, ChallengeEntry>();

  /** Applies `challenge` or `challenge_gone`; true when the list changed. */
  receive(msg: ServerMessage, now: number): boolean {
    if (msg.type === "challenge") {
      const entry = this.entries.get(msg.challenge.id);
      if (entry?.gone) return false;
      this.entries.set(msg.challenge.id, { challenge: msg.challenge });
      return true;
    }
    if (msg.type === "challenge_gone") {
      const entry = this.entries.get(msg.challenge);
      if (!entry || entry.gone) return false;
      entry.gone = { reason: msg.reason, at: now };
      return true;
    }
    return false;
  }

  /** A new connection: the standing challenges come again. */
  reset(): void {
    for (const [id, e] of this.entries) if (!e.gone) this.entries.delete(id);
  }

  /** Forgets challenges that ended more than `GONE_MS` ago; true when any went. */
  prune(now: number): boolean {
    let changed = false;
    for (const [id, e] of this.entries) {
      if (e.gone && now - e.gone.at >= GONE_MS) {
        this.entries.delete(id);
        changed = true;
      }
    }
    return changed;
  }

  get(id: string): ChallengeEntry | undefined {
    return this.entries.get(id);
  }

  /** Every challenge, in the order they came. */
  all(): ChallengeEntry[] {
    return [...this.entries.values()];
  }

  /** Challenges made to `me`. */
  incoming(me: PlayerView | null): ChallengeEntry[] {
    return this.all().filter((e) => isMe(e.challenge.to, me) && !isMe(e.challenge.from, me));
  }

  /** Challenges `me` made (to a player, or open). */
  outgoing(me: PlayerView | null): ChallengeEntry[] {
    return this.all().filter((e) => isMe(e.challenge.from, me));
  }
}

/** The address of an open challenge: `#/challenge/<id>` of this site. */
export function challengeUrl(id: string, here: { origin: string; pathname: string }): string {
  return `${here.origin}${here.pathname}#/challenge/${encodeURIComponent(id)}`;
}

/** The colour `me` plays in a challenge, or null when it is drawn at random. */
export function myColor(c: Pick<ChallengeView, "from" | "color">, me: PlayerView | null): "white" | "black" | null {
  if (!c.color) return null;
  if (isMe(c.from, me)) return c.color;
  return c.color === "white" ? "black" : "white";
}
