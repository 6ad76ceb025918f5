import { describe, expect, it } from "vitest";
import type { ChallengeView, PlayerView, SeekView, ServerMessage, TableOptions } from "../protocol";
import {
  ChallengeList,
  GONE_MS,
  PRESETS,
  SeekTracker,
  challengeUrl,
  customTime,
  isMe,
  myColor,
  ratingLabel,
  sameGame,
  seekOptions,
  speedOf,
  timeLabel,
  updateSeeks,
  waited,
} from "./meet";

const ann: PlayerView = { id: 4, name: "Ann", online: true };
const bob: PlayerView = { id: 5, name: "Bob", online: true };
const guest: PlayerView = { id: 6, name: "SwiftOtter4821", online: true, guest: true };

function seek(id: string, player: PlayerView, options: TableOptions = seekOptions({ minutes: 5, increment: 0 }, "standard", false)): SeekView {
  return { id, player, options };
}

function challenge(id: string, from: PlayerView, to?: PlayerView, color?: "white" | "black"): ChallengeView {
  return { id, from, to, options: { variant: "standard", log: true, time: { minutes: 10, increment: 5 } }, color, created_at: 1 };
}

describe("the presets", () => {
  it("are the clocks lichess.org offers, fast to slow, each a valid clock", () => {
    expect(PRESETS.map(timeLabel)).toEqual(["1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0"]);
    for (const p of PRESETS) {
      expect(p.minutes).toBeGreaterThanOrEqual(1);
      expect(p.minutes).toBeLessThanOrEqual(180);
      expect(p.increment).toBeLessThanOrEqual(60);
    }
  });

  it("make seek options: the variant, the clock, archived, rated only when asked", () => {
    expect(seekOptions({ minutes: 3, increment: 2 }, "standard", false)).toEqual({
      variant: "standard",
      time: { minutes: 3, increment: 2 },
      log: true,
    });
    expect(seekOptions({ minutes: 10, increment: 5 }, "blitz", true)).toEqual({
      variant: "blitz",
      time: { minutes: 10, increment: 5 },
      log: true,
      rated: true,
    });
  });

  it("are named by the server's time classes (minutes × 60 + 30 × increment)", () => {
    expect(PRESETS.map(speedOf)).toEqual(["bullet", "quick", "quick", "quick", "quick", "rapid", "rapid", "rapid", "classical"]);
    // The edges: 180 s is quick, 480 s rapid, 1500 s classical.
    expect(speedOf({ minutes: 2, increment: 1 })).toBe("bullet"); // 150 s
    expect(speedOf({ minutes: 2, increment: 2 })).toBe("quick"); // 180 s
    expect(speedOf({ minutes: 7, increment: 2 })).toBe("rapid"); // 480 s
    expect(speedOf({ minutes: 20, increment: 10 })).toBe("classical"); // 1500 s
  });

  it("compare as the server pairs: variant, clock and rated", () => {
    const a = seekOptions({ minutes: 5, increment: 3 }, "standard", false);
    expect(sameGame(a, { ...a })).toBe(true);
    expect(sameGame(a, { ...a, rated: false })).toBe(true);
    expect(sameGame(a, { ...a, rated: true })).toBe(false);
    expect(sameGame(a, { ...a, variant: "blitz" })).toBe(false);
    expect(sameGame(a, { ...a, time: { minutes: 5, increment: 0 } })).toBe(false);
  });
});

describe("a custom clock", () => {
  it("takes whole minutes 1–180 and an increment 0–60 (empty: 0)", () => {
    expect(customTime("20", "10")).toEqual({ minutes: 20, increment: 10 });
    expect(customTime(" 7 ", "")).toEqual({ minutes: 7, increment: 0 });
    expect(customTime("180", "60")).toEqual({ minutes: 180, increment: 60 });
  });

  it("refuses what the server would", () => {
    for (const [m, i] of [["0", "0"], ["181", "0"], ["5", "61"], ["", "3"], ["2.5", "0"], ["5", "-1"], ["x", "0"]]) {
      expect(customTime(m, i), `${m}+${i}`).toBeNull();
    }
  });
});

describe("labels", () => {
  it("write waits as m:ss", () => {
    expect(waited(0)).toBe("0:00");
    expect(waited(9_999)).toBe("0:09");
    expect(waited(75_000)).toBe("1:15");
    expect(waited(-5)).toBe("0:00");
  });

  it("write a rating with ? while provisional, nothing for a guest", () => {
    expect(ratingLabel({ rating: 1500, provisional: true })).toBe("1500?");
    expect(ratingLabel({ rating: 1712, provisional: false })).toBe("1712");
    expect(ratingLabel({ rating: 1712 })).toBe("1712");
    expect(ratingLabel({})).toBe("");
  });

  it("give an open challenge's address on this site", () => {
    expect(challengeUrl("q8vd2mkz7t", { origin: "https://yinsh.example", pathname: "/" })).toBe("https://yinsh.example/#/challenge/q8vd2mkz7t");
  });
});

describe("the lobby's seeks", () => {
  it("follow lobby, lobby_seek and lobby_seek_removed", () => {
    const seeks = new Map<string, SeekView>();
    updateSeeks(seeks, { type: "lobby", tables: [], seeks: [seek("a", ann), seek("b", bob)] });
    expect([...seeks.keys()]).toEqual(["a", "b"]);
    updateSeeks(seeks, { type: "lobby_seek", seek: seek("c", guest) });
    updateSeeks(seeks, { type: "lobby_seek_removed", seek: "a" });
    expect([...seeks.keys()]).toEqual(["b", "c"]);
    // A seek told again replaces itself, in its place.
    updateSeeks(seeks, { type: "lobby_seek", seek: { ...seek("b", bob), rating: 1600 } });
    expect([...seeks.values()].map((s) => [s.id, s.rating])).toEqual([["b", 1600], ["c", undefined]]);
    // Removing one that is gone, or other messages: nothing changes.
    updateSeeks(seeks, { type: "lobby_seek_removed", seek: "zz" });
    updateSeeks(seeks, { type: "lobby_removed", table: "b" });
    expect([...seeks.keys()]).toEqual(["b", "c"]);
    // A fresh list replaces everything.
    updateSeeks(seeks, { type: "lobby", tables: [], seeks: [] });
    expect(seeks.size).toBe(0);
  });

  it("know whose they are by id", () => {
    expect(isMe(ann, ann)).toBe(true);
    expect(isMe({ ...ann, name: "Renamed" }, ann)).toBe(true);
    expect(isMe(bob, ann)).toBe(false);
    expect(isMe(ann, null)).toBe(false);
    expect(isMe({ name: "Engine (level 3)", bot: 3, online: true }, { name: "Engine (level 3)", online: true })).toBe(false);
  });
});

describe("the player's own seek", () => {
  const five = seekOptions({ minutes: 5, increment: 0 }, "standard", false);
  const three = seekOptions({ minutes: 3, increment: 2 }, "standard", false);
  const lobbySeek = (id: string, options = five): ServerMessage => ({ type: "lobby_seek", seek: seek(id, ann, options) });
  const removed = (id: string): ServerMessage => ({ type: "lobby_seek_removed", seek: id });

  it("shows while the request is out, keeps its start when the lobby names it, ends on cancel", () => {
    const t = new SeekTracker();
    expect(t.seeking()).toBeNull();
    t.sent(five, 1000);
    expect(t.seeking()).toEqual({ options: five, since: 1000 });
    t.receive(lobbySeek("s1"), ann, 1050);
    t.answered(true);
    expect(t.seeking()).toEqual({ id: "s1", options: five, since: 1000 });
    t.end();
    expect(t.seeking()).toBeNull();
  });

  it("ends when paired, or when the lobby says it was removed", () => {
    const t = new SeekTracker();
    t.sent(five, 0);
    t.answered(true);
    t.receive(lobbySeek("s1"), ann, 10);
    t.receive({ type: "paired", table: "p4xq7n", color: "black", my_turn: false }, ann, 20);
    expect(t.seeking()).toBeNull();

    t.sent(five, 30);
    t.receive(lobbySeek("s2"), ann, 31);
    t.answered(true);
    t.receive(removed("s2"), ann, 40);
    expect(t.seeking()).toBeNull();
  });

  it("is replaced by a new seek, whatever order the removal, the new seek and the reply come in", () => {
    const orders: string[][] = [
      ["removed", "added", "reply"],
      ["added", "removed", "reply"],
      ["reply", "removed", "added"],
      ["reply", "added", "removed"],
      ["removed", "reply", "added"],
      ["added", "reply", "removed"],
    ];
    for (const order of orders) {
      const t = new SeekTracker();
      t.sent(five, 0);
      t.receive(lobbySeek("old"), ann, 1);
      t.answered(true);
      t.sent(three, 100);
      for (const step of order) {
        if (step === "removed") t.receive(removed("old"), ann, 101);
        if (step === "added") t.receive(lobbySeek("new", three), ann, 102);
        if (step === "reply") t.answered(true);
        expect(t.seeking()?.options, `${order.join(",")} after ${step}`).toEqual(three);
      }
      expect(t.seeking(), order.join(",")).toEqual({ id: "new", options: three, since: 100 });
      // And it is that seek whose removal ends it.
      t.receive(removed("old"), ann, 200);
      expect(t.seeking()).not.toBeNull();
      t.receive(removed("new"), ann, 201);
      expect(t.seeking()).toBeNull();
    }
  });

  it("stays as it was when a new seek is refused", () => {
    const t = new SeekTracker();
    t.sent(five, 0);
    t.receive(lobbySeek("s1"), ann, 1);
    t.answered(true);
    t.sent(seekOptions({ minutes: 5, increment: 0 }, "standard", true), 50);
    t.answered(false);
    expect(t.seeking()).toEqual({ id: "s1", options: five, since: 0 });
    // Refused without one before: nothing.
    const u = new SeekTracker();
    u.sent(five, 0);
    u.answered(false);
    expect(u.seeking()).toBeNull();
  });

  it("ignores the others' seeks, and finds its own in a fresh lobby list", () => {
    const t = new SeekTracker();
    t.receive({ type: "lobby_seek", seek: seek("b1", bob) }, ann, 0);
    expect(t.seeking()).toBeNull();
    // Another tab of the same player seeks: this one shows it too.
    t.receive({ type: "lobby", tables: [], seeks: [seek("b1", bob), seek("a1", ann)] }, ann, 500);
    expect(t.seeking()).toEqual({ id: "a1", options: five, since: 500 });
    t.receive({ type: "lobby", tables: [], seeks: [seek("b1", bob)] }, ann, 600);
    expect(t.seeking()).toBeNull();
  });
});

describe("the challenges", () => {
  it("are kept once per id, though the server sends a standing one again", () => {
    const list = new ChallengeList();
    expect(list.receive({ type: "challenge", challenge: challenge("c1", bob, ann) }, 0)).toBe(true);
    expect(list.receive({ type: "challenge", challenge: challenge("c2", ann, bob) }, 0)).toBe(true);
    expect(list.receive({ type: "challenge", challenge: challenge("c1", bob, ann) }, 5)).toBe(true);
    expect(list.all().map((e) => e.challenge.id)).toEqual(["c1", "c2"]);
    expect(list.incoming(ann).map((e) => e.challenge.id)).toEqual(["c1"]);
    expect(list.outgoing(ann).map((e) => e.challenge.id)).toEqual(["c2"]);
    expect(list.incoming(bob).map((e) => e.challenge.id)).toEqual(["c2"]);
  });

  it("on a new connection forget the standing ones, which come again, once each", () => {
    const list = new ChallengeList();
    list.receive({ type: "challenge", challenge: challenge("c1", bob, ann) }, 0);
    list.receive({ type: "challenge", challenge: challenge("c2", ann) }, 0);
    list.receive({ type: "challenge", challenge: challenge("c3", ann, bob) }, 0);
    list.receive({ type: "challenge_gone", challenge: "c3", reason: "declined" }, 10);
    list.reset();
    // The one that ended still shows why; the standing ones are sent again.
    expect(list.all().map((e) => e.challenge.id)).toEqual(["c3"]);
    list.receive({ type: "challenge", challenge: challenge("c1", bob, ann) }, 20);
    list.receive({ type: "challenge", challenge: challenge("c2", ann) }, 20);
    expect(list.all().map((e) => e.challenge.id).sort()).toEqual(["c1", "c2", "c3"]);
    expect(list.outgoing(ann).map((e) => e.challenge.id).sort()).toEqual(["c2", "c3"]);
  });

  it("show why they ended for a moment, then go; an ended one does not come back", () => {
    const list = new ChallengeList();
    list.receive({ type: "challenge", challenge: challenge("c1", ann, bob) }, 0);
    expect(list.receive({ type: "challenge_gone", challenge: "c1", reason: "declined" }, 1000)).toBe(true);
    expect(list.get("c1")?.gone).toEqual({ reason: "declined", at: 1000 });
    // Told twice, or about one never seen: nothing changes.
    expect(list.receive({ type: "challenge_gone", challenge: "c1", reason: "canceled" }, 1001)).toBe(false);
    expect(list.receive({ type: "challenge_gone", challenge: "zz", reason: "accepted" }, 1001)).toBe(false);
    expect(list.receive({ type: "challenge", challenge: challenge("c1", ann, bob) }, 1002)).toBe(false);
    expect(list.get("c1")?.gone?.reason).toBe("declined");
    expect(list.prune(1000 + GONE_MS - 1)).toBe(false);
    expect(list.prune(1000 + GONE_MS)).toBe(true);
    expect(list.all()).toEqual([]);
  });

  it("say the colour each player plays", () => {
    expect(myColor(challenge("c", ann, bob, "white"), ann)).toBe("white");
    expect(myColor(challenge("c", ann, bob, "white"), bob)).toBe("black");
    expect(myColor(challenge("c", ann, undefined, "black"), guest)).toBe("white");
    expect(myColor(challenge("c", ann, bob), bob)).toBeNull();
  });
});
