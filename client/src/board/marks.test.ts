import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BoardView, SeatColor } from "../protocol";
import { replayActions } from "./history";
import { NO_MARKS, isEmpty, marksOf } from "./marks";
import { groupTurns, turnEnd } from "./turns";

const fixture = JSON.parse(readFileSync(new URL("../../e2e/fixtures/opponent-row.json", import.meta.url), "utf8")) as {
  actions: { token: string; color: SeatColor; board: BoardView }[];
};

const board = (rings: [string[], string[]], markers: [string[], string[]] = [[], []]): BoardView => ({
  rings: { white: rings[0], black: rings[1] },
  markers: { white: markers[0], black: markers[1] },
});

describe("marksOf", () => {
  it("marks a placement's point", () => {
    expect(marksOf(["e5"], board([["e5"], []]))).toEqual({ ...NO_MARKS, to: "e5" });
  });

  it("marks a ring move's ends and the jumped markers, not the empty points passed", () => {
    // b4-f4 passes c4 (a marker, turned over), d4 (a marker), e4 (empty).
    const after = board([["f4"], []], [["b4", "c4"], ["d4"]]);
    expect(marksOf(["b4-f4"], after)).toEqual({ ...NO_MARKS, from: "b4", to: "f4", flipped: ["c4", "d4"] });
  });

  it("counts jumped markers that a row removal of the same turn took away as turned over", () => {
    const after = board([["c8"], []], [[], []]);
    const m = marksOf(["c3-c8", "xc3-c7", "xk10"], after);
    expect(m.from).toBe("c3");
    expect(m.to).toBe("c8");
    expect(m.flipped).toEqual(["c4", "c5", "c6", "c7"]);
    expect(m.rows).toEqual([["c3", "c4", "c5", "c6", "c7"]]);
    expect(m.rings).toEqual(["k10"]);
  });

  it("marks the fixture's turn 66: Black removes the row White made, a ring, then moves", () => {
    const tokens = fixture.actions.map((a) => a.token);
    const history = replayActions(tokens)!;
    const turns = groupTurns(tokens, history.actors);
    const turn = turns.find((t) => t.number === 66)!;
    expect(turn.tokens).toEqual(["xd5-h9", "xi10", "h5-h4"]);
    const m = marksOf(turn.tokens, history.boards[turnEnd(turn)]);
    expect(m).toEqual({ from: "h5", to: "h4", flipped: [], rows: [["d5", "e6", "f7", "g8", "h9"]], rings: ["i10"] });
    // White's turn 65 before it: the move g5-c5 jumped markers, all of them turned over.
    const white = turns.find((t) => t.number === 65)!;
    const wm = marksOf(white.tokens, history.boards[turnEnd(white)]);
    expect(wm.from).toBe("g5");
    expect(wm.to).toBe("c5");
    const after = history.boards[turnEnd(white)];
    const before = history.boards[white.first];
    for (const p of wm.flipped) {
      const was = before.markers.white.includes(p) ? "white" : "black";
      const now = after.markers.white.includes(p) ? "white" : "black";
      expect(now, `${p} turned over`).not.toBe(was);
    }
    expect(wm.flipped.length).toBeGreaterThan(0);
  });

  it("has nothing to mark for no tokens or a pass", () => {
    expect(isEmpty(marksOf([], board([[], []])))).toBe(true);
    expect(isEmpty(marksOf(["pass"], board([[], []])))).toBe(true);
  });
});
