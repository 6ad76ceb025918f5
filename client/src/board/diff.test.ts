import { describe, expect, it } from "vitest";
import type { BoardView } from "../protocol";
import { diffBoards, isUnchanged, piecesOf } from "./diff";

function board(rings: [string[], string[]], markers: [string[], string[]] = [[], []]): BoardView {
  return { rings: { white: rings[0], black: rings[1] }, markers: { white: markers[0], black: markers[1] } };
}

describe("piecesOf", () => {
  it("lists every piece by point", () => {
    const pieces = piecesOf(board([["c3"], ["a2"]], [["c4"], []]));
    expect(pieces.get("c3")).toEqual({ kind: "ring", color: "white" });
    expect(pieces.get("a2")).toEqual({ kind: "ring", color: "black" });
    expect(pieces.get("c4")).toEqual({ kind: "marker", color: "white" });
    expect(pieces.size).toBe(3);
  });
});

describe("diffBoards", () => {
  it("finds nothing between equal boards", () => {
    const b = board([["c3"], ["a2"]], [["c4"], ["c5"]]);
    expect(isUnchanged(diffBoards(b, b, "c3-c4"))).toBe(true);
  });

  it("sees a placement as an added ring", () => {
    const change = diffBoards(board([[], []]), board([["e5"], []]), "e5");
    expect(change).toEqual({ slide: null, flipped: [], removed: new Map(), added: ["e5"] });
  });

  it("slides the ring of a move, drops its marker and flips the jumped markers", () => {
    // White ring c3 jumps the markers c4 (white) and c5 (black) to c6.
    const before = board([["c3"], ["a2"]], [["c4"], ["c5"]]);
    const after = board([["c6"], ["a2"]], [["c3", "c5"], ["c4"]]);
    const change = diffBoards(before, after, "c3-c6");
    expect(change.slide).toEqual({ from: "c3", to: "c6" });
    expect([...change.flipped].sort()).toEqual(["c4", "c5"]);
    expect(change.removed.size).toBe(0);
    expect(change.added).toEqual(["c3"]);
  });

  it("fades a ring that moved without a move token (a takeback or a jump in a replay)", () => {
    const change = diffBoards(board([["c6"], []], [["c3"], []]), board([["c3"], []]), null);
    expect(change.slide).toBeNull();
    expect([...change.removed.keys()].sort()).toEqual(["c3", "c6"]);
    expect(change.added).toEqual(["c3"]);
  });

  it("ignores a move token the boards do not show", () => {
    const change = diffBoards(board([["c3"], []]), board([["c3"], []], [["e5"], []]), "c3-c6");
    expect(change.slide).toBeNull();
    expect(change.added).toEqual(["e5"]);
  });

  it("removes a row and a ring", () => {
    const row = ["c3", "c4", "c5", "c6", "c7"];
    const before = board([["c8", "k10"], ["a2"]], [row, []]);
    const afterRow = board([["c8", "k10"], ["a2"]]);
    expect([...diffBoards(before, afterRow, "xc3-c7").removed.keys()].sort()).toEqual(row);
    const afterRing = board([["c8"], ["a2"]]);
    const change = diffBoards(afterRow, afterRing, "xk10");
    expect(change.removed).toEqual(new Map([["k10", { kind: "ring", color: "white" }]]));
    expect(change.added).toEqual([]);
  });
});
