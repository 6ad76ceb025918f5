import { describe, expect, it, vi } from "vitest";

vi.mock("../i18n", () => ({
  t: (key: string, args: Record<string, unknown> = {}) => `${key}${Object.keys(args).length ? JSON.stringify(args) : ""}`,
}));

import type { ArenaList, ArenaView } from "../protocol";
import { arenaForm, clockText, countdown, momentText, nextArenas, secondsLeft, sheetGames } from "./tournament-model";

function arena(over: Partial<ArenaView>): ArenaView {
  return {
    id: "a1",
    system: "arena",
    fullName: "Evening Arena",
    createdBy: "Ann",
    minutes: 30,
    clock: { limit: 180, increment: 2 },
    variant: { key: "standard", name: "Standard" },
    rated: true,
    bots: false,
    nbPlayers: 3,
    startsAt: 1000,
    finishesAt: 2000,
    status: 10,
    isStarted: false,
    isFinished: false,
    ...over,
  };
}

describe("the tournament pages' words", () => {
  it("counts down as a clock does", () => {
    expect(countdown(9)).toBe("0:09");
    expect(countdown(725)).toBe("12:05");
    expect(countdown(3723)).toBe("1:02:03");
    expect(countdown(-4)).toBe("0:00");
  });

  it("writes a clock and a sheet", () => {
    expect(clockText(arena({}))).toBe("3+2");
    expect(sheetGames("4220")).toEqual([0, 2, 2, 4]);
    expect(sheetGames("")).toEqual([]);
  });

  it("counts to the start, then to the end, and nothing once over", () => {
    const coming = arena({ secondsToStart: 300 });
    expect(secondsLeft(coming, 0, 10_000)).toBe(290);
    expect(momentText(coming, 290)).toBe('arena.startsIn{"time":"4:50"}');
    const running = arena({ status: 20, isStarted: true, secondsToFinish: 60 });
    expect(secondsLeft(running, 0, 61_000)).toBe(0);
    expect(momentText(running, 0)).toBe('arena.endsIn{"time":"0:00"}');
    const over = arena({ status: 30, isFinished: true });
    expect(secondsLeft(over, 0, 0)).toBeNull();
    expect(momentText(over, null)).toBe("arena.over");
  });

  it("announces the arenas under way first, then the soonest", () => {
    const list: ArenaList = {
      created: [arena({ id: "late", startsAt: 9000 }), arena({ id: "soon", startsAt: 5000 })],
      started: [arena({ id: "now", status: 20, isStarted: true })],
      finished: [arena({ id: "old", status: 30, isFinished: true })],
    };
    expect(nextArenas(list, 2).map((a) => a.id)).toEqual(["now", "soon"]);
    expect(nextArenas(list, 5).map((a) => a.id)).toEqual(["now", "soon", "late"]);
  });

  it("fills the form with lichess's names, and a name only when given", () => {
    const form = arenaForm({ name: "  ", minutes: 45, clockMinutes: 3, increment: 2, wait: 0, variant: "blitz", rated: false, bots: true });
    expect(form.toString()).toBe("minutes=45&clockTime=3&clockIncrement=2&waitMinutes=0&variant=blitz&rated=false&bots=true");
    expect(arenaForm({ name: "Evening", minutes: 20, clockMinutes: 1, increment: 0, wait: 5, variant: "standard", rated: true, bots: false }).get("name")).toBe("Evening");
  });
});
