// The player's news in words and numbers, pure (no page): a notification's sentence and
// the page it leads to, how long ago it came, the inbox kept from the server's messages,
// the tab title's "(n) " while games wait for the player, and for the My games page the
// time left to move, the pace, the opponent and the two sections.

import { engineName, t, tn } from "../i18n";
import type { NoticeMessage } from "../connection";
import type { Notice, NoticeKind, NotificationView, NowPlaying, Opponent } from "../protocol";
import { ratingText } from "./ratings";

/** How many notifications the bell's panel lists (the newest). */
export const SHOWN = 20;

/** The kinds of notification, in the order the settings list them. */
export const NOTICE_KINDS: readonly NoticeKind[] = ["your_turn", "challenge", "game_over", "deadline", "analysis_ready", "tournament"];

// ---- A notification ----

/** An opponent's name as a notice gives it: the engine (`Engine 3`) in the reader's language. */
export function opponentName(name: string): string {
  const engine = /^Engine (\d+)$/.exec(name);
  return engine ? engineName(Number(engine[1])) : name;
}

/** What a notification says: `Your turn against Ann`, `You won against Bob`, … */
export function noticeSentence(notice: Notice): string {
  switch (notice.kind) {
    case "your_turn":
      return t("notify.yourTurn", { name: opponentName(notice.opponent) });
    case "challenge":
      return t("notify.challenge", { name: notice.from });
    case "game_over": {
      const key = notice.outcome === "win" ? "notify.won" : notice.outcome === "loss" ? "notify.lost" : "notify.drew";
      return t(key, { name: opponentName(notice.opponent) });
    }
    case "deadline":
      return tn("notify.deadline", notice.hours, { name: opponentName(notice.opponent) });
    case "analysis_ready":
      return t("notify.analysis", { game: notice.game });
    case "tournament":
      return t("notify.tournament", { name: notice.name });
  }
}

/** The page a notification leads to: the table, the lobby (where the challenge shows),
 * the replay of an archived game (a finished game's, when it was archived). */
export function noticeHref(notice: Notice): string {
  switch (notice.kind) {
    case "your_turn":
    case "deadline":
      return `#/table/${encodeURIComponent(notice.table)}`;
    case "challenge":
      return "#/";
    case "game_over":
      return notice.game > 0 ? `#/replay/${notice.game}` : `#/table/${encodeURIComponent(notice.table)}`;
    case "analysis_ready":
      return `#/replay/${notice.game}`;
    case "tournament":
      return `#/tournament/${encodeURIComponent(notice.tournament)}`;
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago `at` was at `now`, in `language`: `just now`, `5 minutes ago`, `yesterday`,
 * and the date after a week. */
export function relativeTime(at: number, now: number, language: string): string {
  const ago = Math.max(0, now - at);
  if (ago < MINUTE) return t("notify.justNow");
  const words = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  if (ago < HOUR) return words.format(-Math.floor(ago / MINUTE), "minute");
  if (ago < DAY) return words.format(-Math.floor(ago / HOUR), "hour");
  if (ago < 7 * DAY) return words.format(-Math.floor(ago / DAY), "day");
  return new Intl.DateTimeFormat(language, { day: "numeric", month: "short" }).format(at);
}

// ---- The inbox ----

/** What the header shows: the unread notifications, the games waiting for the player,
 * and the newest notifications as last heard. */
export interface Inbox {
  unread: number;
  myTurn: number;
  notifications: NotificationView[];
  /** Whether the list may be out of date (read or kept elsewhere): asked for again when shown. */
  stale: boolean;
}

export const EMPTY_INBOX: Inbox = { unread: 0, myTurn: 0, notifications: [], stale: true };

/** The inbox after a message of the server's. */
export function applyNotice(inbox: Inbox, msg: NoticeMessage): Inbox {
  switch (msg.type) {
    case "notified": {
      const others = inbox.notifications.filter((n) => n.id !== msg.notification.id);
      return { ...inbox, unread: msg.unread, notifications: [msg.notification, ...others].slice(0, SHOWN) };
    }
    case "unread":
      // Read on another page, or acted on: which ones is not said, unless none is left.
      return {
        ...inbox,
        unread: msg.unread,
        notifications: msg.unread === 0 ? inbox.notifications.map((n) => (n.read ? n : { ...n, read: true })) : inbox.notifications,
        stale: inbox.stale || msg.unread !== 0,
      };
    case "my_turn":
      return { ...inbox, myTurn: msg.count };
  }
}

/** The inbox with notifications `ids` (all without) read, before the server answers. */
export function markedRead(inbox: Inbox, ids?: readonly number[]): Inbox {
  const read = (n: NotificationView) => n.read || !ids || ids.includes(n.id);
  const newlyRead = inbox.notifications.filter((n) => !n.read && read(n)).length;
  return {
    ...inbox,
    unread: ids ? Math.max(0, inbox.unread - newlyRead) : 0,
    notifications: inbox.notifications.map((n) => (read(n) && !n.read ? { ...n, read: true } : n)),
  };
}

/** The tab's title with `(n) ` before it while `n` games wait for the player (as on
 * lichess), whatever title the page set; a count put there before is replaced. */
export function titleWithCount(title: string, count: number): string {
  const bare = title.replace(/^\(\d+\) /, "");
  return count > 0 ? `(${count}) ${bare}` : bare;
}

// ---- My games ----

/** Time left to move: `2 d 4 h`, `3 h 12 min`, `12 min`, `45 s`. */
export function timeLeftText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86_400) return t("clock.daysHours", { days: Math.floor(s / 86_400), hours: Math.floor((s % 86_400) / 3600) });
  if (s >= 3600) return t("clock.hoursMinutes", { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60) });
  if (s >= 60) return t("clock.minutes", { minutes: Math.floor(s / 60) });
  return t("clock.seconds", { seconds: s });
}

/** How fast a game is: `2 days per turn`, `Correspondence, unlimited`, `Rapid`, `Untimed`. */
export function paceText(g: Pick<NowPlaying, "speed" | "daysPerTurn">): string {
  if (g.daysPerTurn !== undefined) return tn("games.daysPerTurn", g.daysPerTurn);
  switch (g.speed) {
    case "correspondence":
      return t("lobby.unlimited");
    case "unlimited":
      return t("lobby.untimed");
    case "bullet":
    case "quick":
    case "rapid":
    case "classical":
      return t(`speed.${g.speed}`);
    default:
      return g.speed;
  }
}

/** The opponent's rating as shown beside the name: `1612`, `1500?` while provisional,
 * the engine's level; none for a guest. */
export function opponentRating(o: Opponent): string | null {
  if (o.ai !== undefined) return null;
  return o.rating === undefined ? null : ratingText(o.rating, !!o.provisional);
}

/** The opponent's name as shown: the engine by its level, in the reader's language. */
export function opponentShown(o: Opponent): string {
  return o.ai !== undefined ? engineName(o.ai) : o.username;
}

/** The games in the page's two sections: those waiting for the player (the least time
 * left first, untimed ones after) and those waiting for the opponent (in the server's order). */
export function gameSections(games: readonly NowPlaying[]): { myTurn: NowPlaying[]; waiting: NowPlaying[] } {
  const left = (g: NowPlaying) => g.secondsLeft ?? Number.POSITIVE_INFINITY;
  const myTurn = games.filter((g) => g.isMyTurn).sort((a, b) => left(a) - left(b));
  return { myTurn, waiting: games.filter((g) => !g.isMyTurn) };
}
