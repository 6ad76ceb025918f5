import { describe, expect, it, vi } from "vitest";

// The English catalogue itself (the real `./index` touches the browser when loaded).
vi.mock("../i18n", async () => {
  const { en } = await import("../i18n/en");
  const words = en as Record<string, string>;
  const t = (key: string, args: Record<string, string | number> = {}) =>
    words[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
  return {
    t,
    tn: (base: string, count: number, args: Record<string, string | number> = {}) => t(`${base}.${new Intl.PluralRules("en").select(count)}`, { count, ...args }),
    engineName: (level: number) => t("engine.name", { level }),
    lang: () => "en",
  };
});

import type { Notice, NotificationView, NowPlaying } from "../protocol";
import {
  EMPTY_INBOX,
  SHOWN,
  applyNotice,
  gameSections,
  markedRead,
  noticeHref,
  noticeSentence,
  opponentRating,
  opponentShown,
  paceText,
  relativeTime,
  timeLeftText,
  titleWithCount,
  type Inbox,
} from "./notify-model";

describe("a notification in words", () => {
  it("says each kind in a sentence", () => {
    const said = (notice: Notice) => noticeSentence(notice);
    expect(said({ kind: "your_turn", table: "t1", opponent: "Ann" })).toBe("Your turn against Ann");
    expect(said({ kind: "challenge", challenge: "c1", from: "Ann" })).toBe("Ann challenged you");
    expect(said({ kind: "game_over", table: "t1", game: 7, opponent: "Bob", outcome: "win" })).toBe("You won against Bob");
    expect(said({ kind: "game_over", table: "t1", game: 7, opponent: "Bob", outcome: "loss" })).toBe("You lost against Bob");
    expect(said({ kind: "game_over", table: "t1", game: 7, opponent: "Bob", outcome: "draw" })).toBe("You drew against Bob");
    expect(said({ kind: "deadline", table: "t1", opponent: "Ann", hours: 1 })).toBe("1 hour left to move against Ann");
    expect(said({ kind: "deadline", table: "t1", opponent: "Ann", hours: 24 })).toBe("24 hours left to move against Ann");
    expect(said({ kind: "analysis_ready", game: 12 })).toBe("The analysis of game 12 is ready");
    expect(said({ kind: "tournament", tournament: "k3v9q2mz", name: "Evening Arena" })).toBe("Evening Arena has begun");
  });

  it("names the engine in the reader's language, not the server's English", () => {
    expect(noticeSentence({ kind: "your_turn", table: "t1", opponent: "Engine 3" })).toBe("Your turn against Engine (level 3)");
  });

  it("leads to the table, the lobby or the replay", () => {
    expect(noticeHref({ kind: "your_turn", table: "a b", opponent: "Ann" })).toBe("#/table/a%20b");
    expect(noticeHref({ kind: "deadline", table: "t1", opponent: "Ann", hours: 1 })).toBe("#/table/t1");
    expect(noticeHref({ kind: "challenge", challenge: "c1", from: "Ann" })).toBe("#/");
    expect(noticeHref({ kind: "game_over", table: "t1", game: 7, opponent: "Bob", outcome: "win" })).toBe("#/replay/7");
    expect(noticeHref({ kind: "game_over", table: "t1", game: 0, opponent: "Bob", outcome: "win" })).toBe("#/table/t1");
    expect(noticeHref({ kind: "analysis_ready", game: 12 })).toBe("#/replay/12");
    expect(noticeHref({ kind: "tournament", tournament: "k3v9q2mz", name: "Evening Arena" })).toBe("#/tournament/k3v9q2mz");
  });

  it("says how long ago it came", () => {
    const now = Date.UTC(2025, 5, 20, 12, 0, 0);
    expect(relativeTime(now - 20_000, now, "en")).toBe("just now");
    expect(relativeTime(now + 5_000, now, "en")).toBe("just now"); // a clock a little ahead
    expect(relativeTime(now - 60_000, now, "en")).toBe("1 minute ago");
    expect(relativeTime(now - 59 * 60_000, now, "en")).toBe("59 minutes ago");
    expect(relativeTime(now - 3 * 3_600_000, now, "en")).toBe("3 hours ago");
    expect(relativeTime(now - 26 * 3_600_000, now, "en")).toBe("yesterday");
    expect(relativeTime(now - 3 * 86_400_000, now, "en")).toBe("3 days ago");
    expect(relativeTime(now - 20 * 86_400_000, now, "en-GB")).toBe("31 May");
    expect(relativeTime(now - 2 * 3_600_000, now, "de")).toBe("vor 2 Stunden");
  });
});

const note = (id: number, read = false): NotificationView => ({ id, at: id * 1000, read, notice: { kind: "challenge", challenge: `c${id}`, from: "Ann" } });

describe("the inbox", () => {
  const inbox: Inbox = { unread: 2, myTurn: 1, notifications: [note(3), note(2), note(1, true)], stale: false };

  it("puts a new notification first, once, with the server's count", () => {
    const after = applyNotice(inbox, { type: "notified", notification: note(4), unread: 3 });
    expect(after.notifications.map((n) => n.id)).toEqual([4, 3, 2, 1]);
    expect(after.unread).toBe(3);
    expect(applyNotice(after, { type: "notified", notification: note(4), unread: 3 }).notifications).toHaveLength(4);
  });

  it("keeps the newest it shows", () => {
    let many: Inbox = EMPTY_INBOX;
    for (let id = 1; id <= SHOWN + 5; id++) many = applyNotice(many, { type: "notified", notification: note(id), unread: id });
    expect(many.notifications).toHaveLength(SHOWN);
    expect(many.notifications[0].id).toBe(SHOWN + 5);
  });

  it("takes the unread count from elsewhere, knowing the list may be out of date", () => {
    const after = applyNotice(inbox, { type: "unread", unread: 1 });
    expect(after).toMatchObject({ unread: 1, stale: true });
    const none = applyNotice(inbox, { type: "unread", unread: 0 });
    expect(none.notifications.every((n) => n.read)).toBe(true);
    expect(none.stale).toBe(false);
  });

  it("counts the games waiting for the player", () => {
    expect(applyNotice(inbox, { type: "my_turn", count: 4 })).toMatchObject({ myTurn: 4, unread: 2 });
  });

  it("marks some or all read before the server answers", () => {
    const one = markedRead(inbox, [3]);
    expect(one.unread).toBe(1);
    expect(one.notifications.map((n) => n.read)).toEqual([true, false, true]);
    expect(markedRead(inbox, [1]).unread).toBe(2); // read already
    const all = markedRead(inbox);
    expect(all.unread).toBe(0);
    expect(all.notifications.every((n) => n.read)).toBe(true);
  });

  it("puts the count of games before the tab's title, whatever the page set", () => {
    expect(titleWithCount("YINSH", 2)).toBe("(2) YINSH");
    expect(titleWithCount("(2) YINSH", 3)).toBe("(3) YINSH");
    expect(titleWithCount("(2) Your turn — e5 · YINSH", 0)).toBe("Your turn — e5 · YINSH");
    expect(titleWithCount("YINSH", 0)).toBe("YINSH");
  });
});

function game(over: Partial<NowPlaying>): NowPlaying {
  return {
    gameId: "t1",
    fullId: "t1",
    color: "white",
    isMyTurn: true,
    hasMoved: true,
    speed: "correspondence",
    perf: "standard-correspondence",
    rated: false,
    variant: { key: "standard", name: "Standard" },
    lastMove: "e5",
    actions: 3,
    opponent: { id: "ann", username: "Ann", rating: 1612, provisional: false },
    ...over,
  };
}

describe("my games", () => {
  it("write the time left to move", () => {
    expect(timeLeftText(2 * 86_400 + 4 * 3600 + 59)).toBe("2 d 4 h");
    expect(timeLeftText(3 * 3600 + 12 * 60 + 30)).toBe("3 h 12 min");
    expect(timeLeftText(12 * 60 + 59)).toBe("12 min");
    expect(timeLeftText(45.7)).toBe("45 s");
    expect(timeLeftText(-3)).toBe("0 s");
  });

  it("say the pace", () => {
    expect(paceText({ speed: "correspondence", daysPerTurn: 2 })).toBe("2 days per turn");
    expect(paceText({ speed: "correspondence", daysPerTurn: 1 })).toBe("1 day per turn");
    expect(paceText({ speed: "correspondence" })).toBe("Correspondence, unlimited");
    expect(paceText({ speed: "rapid" })).toBe("Rapid");
    expect(paceText({ speed: "unlimited" })).toBe("Untimed");
  });

  it("show the opponent's rating with its ? and the engine by its level", () => {
    expect(opponentRating({ username: "Ann", rating: 1612.4, provisional: false })).toBe("1612");
    expect(opponentRating({ username: "Ann", rating: 1500, provisional: true })).toBe("1500?");
    expect(opponentRating({ username: "SwiftOtter12" })).toBeNull();
    expect(opponentRating({ username: "Engine 4", ai: 4 })).toBeNull();
    expect(opponentShown({ username: "Engine 4", ai: 4 })).toBe("Engine (level 4)");
    expect(opponentShown({ username: "Ann" })).toBe("Ann");
  });

  it("sort the games into the player's turn (the most urgent first) and the opponent's", () => {
    const games = [
      game({ gameId: "a", isMyTurn: false, secondsLeft: 1 }),
      game({ gameId: "b", isMyTurn: true }),
      game({ gameId: "c", isMyTurn: true, secondsLeft: 50 }),
      game({ gameId: "d", isMyTurn: true, secondsLeft: 5 }),
      game({ gameId: "e", isMyTurn: false }),
    ];
    const { myTurn, waiting } = gameSections(games);
    expect(myTurn.map((g) => g.gameId)).toEqual(["d", "c", "b"]);
    expect(waiting.map((g) => g.gameId)).toEqual(["a", "e"]);
    expect(gameSections([])).toEqual({ myTurn: [], waiting: [] });
  });
});
