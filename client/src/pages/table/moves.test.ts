import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";

// `t` returns the key and its arguments.
vi.mock("../../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
}));

import type { BoardView, GameView, SeatColor } from "../../protocol";
import { GameRecord, reviewTarget, reviewText } from "./moves";

// The browser tests' game: every action with who played it and the server's board after it.
const fixture = JSON.parse(readFileSync(new URL("../../../e2e/fixtures/opponent-row.json", import.meta.url), "utf8")) as {
  actions: { token: string; color: SeatColor; board: BoardView }[];
};

/** The fixture game after its first `n` actions, `to_move` the player of the next. */
function gameAfter(n: number, over: Partial<GameView> = {}): GameView {
  const actions = fixture.actions.slice(0, n);
  return {
    id: 7,
    moves: actions.map((a) => a.token),
    board: n > 0 ? actions[n - 1].board : { rings: { white: [], black: [] }, markers: { white: [], black: [] } },
    to_move: fixture.actions[n]?.color ?? "white",
    stage: n < 10 ? "place" : "move",
    legal: [],
    ...over,
  } as GameView;
}

describe("the game's record", () => {
  it("rebuilds the past boards and the turns from the actions, once per change", () => {
    const record = new GameRecord();
    const game = gameAfter(12);
    record.refresh(game);
    expect(record.history?.boards).toHaveLength(13);
    expect(record.turns.map((t) => t.tokens.join(";"))).toEqual(game.moves);
    const history = record.history;
    record.refresh(gameAfter(12));
    expect(record.history).toBe(history);
    record.refresh(gameAfter(13));
    expect(record.history).not.toBe(history);
  });

  it("has no history when the actions do not end on the game's board, and turns by alternation", () => {
    const record = new GameRecord();
    record.refresh(gameAfter(4, { board: fixture.actions[1].board }));
    expect(record.history).toBeNull();
    expect(record.turns.map((t) => t.color)).toEqual(["white", "black", "white", "black"]);
  });

  it("marks the last turn of the player not to act, or the turn that led to a position looked back at", () => {
    const record = new GameRecord();
    const game = gameAfter(12);
    record.refresh(game);
    // White is to act: Black's last turn (a ring move) is marked.
    const [from, to] = fixture.actions[11].token.split("-");
    expect(game.to_move).toBe("white");
    expect(record.marks(game, null)).toMatchObject({ from, to });
    // Looking back at the position after 11 actions: White's turn that led there.
    const [from11, to11] = fixture.actions[10].token.split("-");
    expect(record.marks(game, 11)).toMatchObject({ from: from11, to: to11 });
    // The empty board has no marks.
    expect(record.marks(game, 0)).toBeNull();
  });

  it("knows the opponent's last turn and whether a player has acted", () => {
    const record = new GameRecord();
    const game = gameAfter(12);
    record.refresh(game);
    expect(record.lastOpponentTurn("black")).toBe(fixture.actions[10].token);
    expect(record.lastOpponentTurn("white")).toBe(fixture.actions[11].token);
    const first = gameAfter(1);
    const fresh = new GameRecord();
    fresh.refresh(first);
    expect(fresh.hasActed(first, "white")).toBe(true);
    expect(fresh.hasActed(first, "black")).toBe(false);
    expect(fresh.hasActed(undefined, "white")).toBe(false);
  });
});

describe("looking back", () => {
  it("goes to a position within the game; the last one is the live one", () => {
    expect(reviewTarget(3, null, 12)).toBe(3);
    expect(reviewTarget(-1, 0, 12)).toBeUndefined(); // already at the start
    expect(reviewTarget(-1, 3, 12)).toBe(0);
    expect(reviewTarget(12, 3, 12)).toBeNull();
    expect(reviewTarget(40, 3, 12)).toBeNull();
    expect(reviewTarget(null, 3, 12)).toBeNull();
    expect(reviewTarget(null, null, 12)).toBeUndefined();
  });

  it("says which turn is on show, and up to which action", () => {
    const record = new GameRecord();
    record.refresh(gameAfter(12));
    expect(reviewText(record.turns, 3)).toBe(`game.reviewing(turn=3,move=${fixture.actions[2].token})`);
    expect(reviewText(record.turns, 0)).toBe("game.reviewingStart");
  });
});
