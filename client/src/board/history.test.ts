import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BoardView, SeatColor } from "../protocol";
import { replayActions, sameBoard, trustedHistory } from "./history";

// The browser tests' game: every action with who played it and the server's board after it.
const fixture = JSON.parse(readFileSync(new URL("../../e2e/fixtures/opponent-row.json", import.meta.url), "utf8")) as {
  actions: { token: string; color: SeatColor; board: BoardView }[];
};
const tokens = fixture.actions.map((a) => a.token);

describe("replayActions", () => {
  it("rebuilds every board of the fixture game exactly as the server had it, and who played each action", () => {
    const history = replayActions(tokens)!;
    expect(history).not.toBeNull();
    expect(history.boards).toHaveLength(tokens.length + 1);
    expect(sameBoard(history.boards[0], { rings: { white: [], black: [] }, markers: { white: [], black: [] } })).toBe(true);
    fixture.actions.forEach((a, i) => {
      expect(sameBoard(history.boards[i + 1], a.board), `board after action ${i + 1} (${a.token})`).toBe(true);
      expect(history.actors[i], `who played action ${i + 1} (${a.token})`).toBe(a.color);
    });
  });

  it("moves a ring, leaves a marker on its start and turns over the markers it jumps", () => {
    // White's ring b4 jumps Black's marker on c4 (left there by c4-c3) and lands on d4.
    const h = replayActions(["b3", "c4", "b3-b4", "c4-c3", "b4-d4"])!;
    expect(h.actors).toEqual(["white", "black", "white", "black", "white"]);
    expect(h.boards[4]).toEqual({ rings: { white: ["b4"], black: ["c3"] }, markers: { white: ["b3"], black: ["c4"] } });
    expect(h.boards[5]).toEqual({ rings: { white: ["d4"], black: ["c3"] }, markers: { white: ["b3", "b4", "c4"], black: [] } });
  });

  it("returns null for tokens that do not fit the board", () => {
    expect(replayActions(["e5", "e5"])).toBeNull(); // placed twice on one point
    expect(replayActions(["e5-e7"])).toBeNull(); // no ring to move
    expect(replayActions(["xe5"])).toBeNull(); // no ring to remove
    expect(replayActions(["xc3-c7"])).toBeNull(); // no row there
    expect(replayActions(["nonsense"])).toBeNull();
  });
});

describe("trustedHistory", () => {
  it("is the history when its last board is the server's, null otherwise", () => {
    const last = fixture.actions[fixture.actions.length - 1].board;
    expect(trustedHistory(tokens, last)).not.toBeNull();
    expect(trustedHistory(tokens.slice(0, -1), last)).toBeNull();
  });
});
