import { describe, expect, it } from "vitest";
import type { PlayerView, ResultView, TableSummary } from "../protocol";
import { ENGINE_CLOCKS, engineTime, pickColor, sectionOf, sections, tableState } from "./lobby-sections";

const person = (name: string, online = true): PlayerView => ({ id: name.length, name, online });
const engine: PlayerView = { name: "Engine (level 3)", bot: 3, online: true };
const win: ResultView = { winner: "white", score: "1-0", termination: "target reached" };

function table(id: string, white: PlayerView | null, black: PlayerView | null, more: Partial<TableSummary> = {}): TableSummary {
  return { id, options: { variant: "standard", log: true }, seats: { white, black }, spectators: 0, status: "waiting", ...more };
}

describe("where a table belongs", () => {
  it("a waiting table with a free seat is open, before a game and after one", () => {
    expect(tableState(table("a", null, null))).toBe("open");
    expect(tableState(table("b", person("Ann"), null))).toBe("open");
    expect(tableState(table("c", null, person("Bob"), { last_result: win }))).toBe("open");
    expect(sectionOf("open")).toBe("open");
  });

  it("both seats taken and waiting: about to start, or finished after a game", () => {
    expect(tableState(table("a", person("Ann"), person("Bob")))).toBe("ready");
    expect(tableState(table("b", person("Ann"), person("Bob"), { last_result: win }))).toBe("finished");
    expect(tableState(table("c", person("Ann"), engine, { last_result: win }))).toBe("finished");
    expect(sectionOf("ready")).toBe("games");
    expect(sectionOf("finished")).toBe("finished");
  });

  it("a running game is lively while a seated person is there, away when every person is gone", () => {
    const playing = { status: "playing" as const };
    expect(tableState(table("a", person("Ann"), person("Bob"), playing))).toBe("playing");
    expect(tableState(table("b", person("Ann", false), person("Bob"), playing))).toBe("playing");
    expect(tableState(table("c", person("Ann", false), person("Bob", false), playing))).toBe("away");
    // The engine is always online: its opponent's absence decides.
    expect(tableState(table("d", engine, person("Bob", false), playing))).toBe("away");
    expect(tableState(table("e", engine, person("Bob"), playing))).toBe("playing");
    expect(sectionOf("away")).toBe("games");
  });

  it("orders the sections: lively games first, finished ones newest first", () => {
    const by = sections([
      table("t1", person("A", false), person("B", false), { status: "playing" }),
      table("t2", person("C"), null),
      table("t3", person("D"), person("E"), { last_result: win }),
      table("t4", person("F"), person("G")),
      table("t5", person("H"), person("I"), { status: "playing" }),
      table("t6", person("J"), person("K"), { last_result: win }),
    ]);
    expect(by.open.map((x) => x.table.id)).toEqual(["t2"]);
    expect(by.games.map((x) => x.table.id)).toEqual(["t5", "t4", "t1"]);
    expect(by.games.map((x) => x.state)).toEqual(["playing", "ready", "away"]);
    expect(by.finished.map((x) => x.table.id)).toEqual(["t6", "t3"]);
  });

  it("leaves out a finished table both players left, not one a player stays at", () => {
    const by = sections([table("t1", null, null, { last_result: win }), table("t2", person("A"), null, { last_result: win }), table("t3", null, null)]);
    expect(by.open.map((x) => x.table.id)).toEqual(["t2", "t3"]);
    expect(by.finished).toEqual([]);
    expect(by.games).toEqual([]);
  });
});

describe("the colour against the engine", () => {
  it("keeps a chosen colour and tosses a coin for random", () => {
    expect(pickColor("white")).toBe("white");
    expect(pickColor("black")).toBe("black");
    expect(pickColor("random", () => 0.2)).toBe("white");
    expect(pickColor("random", () => 0.7)).toBe("black");
  });
});

describe("the clock against the engine", () => {
  it("reads the select's values, untimed without one", () => {
    expect(engineTime("10+5")).toEqual({ minutes: 10, increment: 5 });
    expect(engineTime("30+0")).toEqual({ minutes: 30, increment: 0 });
    expect(engineTime("untimed")).toBeUndefined();
    expect(ENGINE_CLOCKS.map(([m, i]) => engineTime(`${m}+${i}`))).toHaveLength(ENGINE_CLOCKS.length);
  });
});
