import { describe, expect, it } from "vitest";
import type { SeatColor } from "../protocol";
import { groupTurns, markedTurn, separatorBefore, turnEnd, turnOfPly, turnRows, turnText } from "./turns";

const W: SeatColor = "white";
const B: SeatColor = "black";

// White moves and makes a row for Black; Black removes it (with a ring) before moving.
const tokens = ["e5", "f6", "e5-e9", "xd5-h9", "xi10", "h5-h4", "c1-c2", "xc1-g5", "xc2"];
const actors: SeatColor[] = [W, B, W, B, B, B, W, W, W];

describe("groupTurns", () => {
  it("cuts the actions into runs of one player, numbered across both", () => {
    const turns = groupTurns(tokens, actors);
    expect(turns.map((t) => [t.number, t.color, t.first, t.tokens])).toEqual([
      [1, W, 0, ["e5"]],
      [2, B, 1, ["f6"]],
      [3, W, 2, ["e5-e9"]],
      [4, B, 3, ["xd5-h9", "xi10", "h5-h4"]],
      [5, W, 6, ["c1-c2", "xc1-g5", "xc2"]],
    ]);
    expect(turnEnd(turns[3])).toBe(6);
  });

  it("numbers from 2 when Black acts first (a game from a position)", () => {
    const turns = groupTurns(tokens.slice(1), actors.slice(1));
    expect(turns.map((t) => [t.number, t.color])).toEqual([
      [2, B],
      [3, W],
      [4, B],
      [5, W],
    ]);
  });
});

describe("turnText", () => {
  it("joins a turn as the record does: `;` between actions, a ring removal joined to its row", () => {
    expect(turnText(["e3"])).toBe("e3");
    expect(turnText(["c3-c8", "xc3-c7", "xk10"])).toBe("c3-c8;xc3-c7xk10");
    expect(turnText(["xe7-i11", "xd9", "i7-i11", "xi6-i10", "xh4"])).toBe("xe7-i11xd9;i7-i11;xi6-i10xh4");
    expect([0, 1, 2].map((i) => separatorBefore(["c3-c8", "xc3-c7", "xk10"], i))).toEqual(["", ";", ""]);
  });
});

describe("turnRows", () => {
  it("puts White's turn and Black's side by side, one row per pair", () => {
    const rows = turnRows(groupTurns(tokens, actors));
    expect(rows.map((r) => [r.number, r.white?.number ?? null, r.black?.number ?? null])).toEqual([
      [1, 1, 2],
      [2, 3, 4],
      [3, 5, null],
    ]);
  });

  it("gives a Black turn without a White one before it a row of its own", () => {
    const rows = turnRows(groupTurns(["a", "b"], [B, W]));
    expect(rows.map((r) => [r.white?.tokens ?? null, r.black?.tokens ?? null])).toEqual([
      [null, ["a"]],
      [["b"], null],
    ]);
  });
});

describe("turnOfPly and markedTurn", () => {
  const turns = groupTurns(tokens, actors);
  it("finds the turn of an action", () => {
    expect(turnOfPly(turns, 0)).toBeNull();
    expect(turnOfPly(turns, 1)?.number).toBe(1);
    expect(turnOfPly(turns, 4)?.number).toBe(4);
    expect(turnOfPly(turns, 6)?.number).toBe(4);
    expect(turnOfPly(turns, 9)?.number).toBe(5);
    expect(turnOfPly(turns, 10)).toBeNull();
  });

  it("marks the last turn of the player not to act, the last turn once the game is over", () => {
    expect(markedTurn(turns, B)?.number).toBe(5);
    // White to act again (e.g. White removes a row Black's move made): Black's turn stays marked.
    expect(markedTurn(turns, W)?.number).toBe(4);
    expect(markedTurn(turns, null)?.number).toBe(5);
    expect(markedTurn([], W)).toBeNull();
  });
});
