import { describe, expect, it, vi } from "vitest";

// `t` returns the key and its arguments.
vi.mock("../../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
}));

import type { GameView, PlayerView, SeatColor, TableView } from "../../protocol";
import { controlItems, controlsKey, type ControlItem } from "./controls";

const ann = { id: 1, name: "ann", online: true } as PlayerView;
const bob = { id: 2, name: "bob", online: true } as PlayerView;
const nameOf = (c: SeatColor) => (c === "white" ? "ann" : "bob");

function game(over: Partial<GameView> = {}): GameView {
  return {
    id: 7,
    to_move: "white",
    moves: ["e5", "f6"],
    takebacks: { white: 0, black: 1 },
    abortable: false,
    ...over,
  } as GameView;
}

function table(g?: GameView, seats: TableView["seats"] = { white: ann, black: bob }): TableView {
  return { id: "t1", seats, game: g } as TableView;
}

/** The controls by test id (a note as `note:<id>`, the engine's level and button as `engine`). */
const ids = (items: ControlItem[]) => items.map((i) => (i.kind === "engine" ? "engine" : i.kind === "note" ? `note:${i.testid}` : i.testid));

describe("the controls", () => {
  it("are none for a spectator", () => {
    expect(controlItems({ view: table(game()), seat: null, acted: true, nameOf })).toEqual([]);
    expect(controlItems({ view: table(), seat: null, acted: true, nameOf })).toEqual([]);
  });

  it("start a game between games once both seats are taken; after one, a rematch", () => {
    const before = controlItems({ view: table(), seat: "white", acted: false, nameOf });
    expect(ids(before)).toEqual(["start", "leave"]);
    expect(before[0]).toMatchObject({ label: "game.startGame", primary: true, command: { command: "start" } });
    const over = game({ result: { winner: "white", score: "1-0", termination: "resignation" } as GameView["result"] });
    expect(controlItems({ view: table(over), seat: "white", acted: true, nameOf })[0]).toMatchObject({ label: "game.rematch" });
  });

  it("offer the engine for the free seat instead of a start", () => {
    expect(ids(controlItems({ view: table(undefined, { white: ann, black: null }), seat: "white", acted: false, nameOf }))).toEqual(["engine", "leave"]);
  });

  it("give a seated player of a running game a draw offer, a takeback and a resignation that asks twice", () => {
    const items = controlItems({ view: table(game()), seat: "white", acted: true, nameOf });
    expect(ids(items)).toEqual(["draw", "takeback", "resign"]);
    expect(items[1]).toMatchObject({ title: "table.takebacksLeft(left=3,limit=3)" });
    expect(items[2]).toMatchObject({ kind: "confirm", label: "table.resign", confirm: "table.resignConfirm", command: { command: "resign" } });
  });

  it("take nothing back before the player's first action; abort while the game may be aborted", () => {
    expect(ids(controlItems({ view: table(game({ abortable: true })), seat: "black", acted: false, nameOf }))).toEqual(["draw", "abort", "resign"]);
  });

  it("answer the opponent's offer, and show one's own waiting", () => {
    const offered = controlItems({ view: table(game({ draw_offer: "black" })), seat: "white", acted: true, nameOf });
    expect(ids(offered)).toEqual(["note:offer", "accept", "decline", "resign"]);
    expect(offered[0]).toMatchObject({ text: "table.drawOffered(player=bob)" });
    const waiting = controlItems({ view: table(game({ takeback_request: "white" })), seat: "white", acted: true, nameOf });
    expect(ids(waiting)).toEqual(["note:waiting", "resign"]);
    expect(waiting[0]).toMatchObject({ text: "game.takebackWaiting(player=bob)" });
  });

  it("claim the game when the opponent has been away long enough", () => {
    const items = controlItems({ view: table(game({ claimable: "white" })), seat: "white", acted: true, nameOf });
    expect(ids(items)).toEqual(["claim-win", "claim-draw", "draw", "takeback", "resign"]);
    expect(items[1]).toMatchObject({ command: { command: "claim", draw: true } });
  });

  it("are drawn again only when what they depend on changes", () => {
    const ctx = { view: table(game()), seat: "white" as const, acted: true, online: true, nameOf };
    const key = controlsKey(ctx);
    expect(controlsKey({ ...ctx, view: table(game({ moves: ["e5", "f6", "g7"] })) })).toBe(key);
    expect(controlsKey({ ...ctx, online: false })).not.toBe(key);
    expect(controlsKey({ ...ctx, view: table(game({ draw_offer: "black" })) })).not.toBe(key);
  });
});
