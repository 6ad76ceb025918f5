import { describe, expect, it } from "vitest";
import { boardOfFen, readPosition } from "./fen";

describe("the pieces of a position string", () => {
  it("reads the empty board and the example of docs/notation.md", () => {
    expect(boardOfFen("4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0")).toEqual({
      rings: { white: [], black: [] },
      markers: { white: [], black: [] },
    });
    // After `c3 a2 k10 a5 i4 b7 j5 e10 g2 h11`: column a reads `B2B`.
    expect(boardOfFen("B2B/6B/2W5/9/9B/9/W9/8B/W7/W6/3W w move 0-0 3-3 0")).toEqual({
      rings: { white: ["c3", "g2", "i4", "j5", "k10"], black: ["a2", "a5", "b7", "e10", "h11"] },
      markers: { white: [], black: [] },
    });
    const board = boardOfFen("bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b move 1-0 3-3 9")!;
    expect(board.markers.black).toEqual(["a2", "a3", "b7", "e10"]);
    expect(board.rings.white).toEqual(["c8", "g2", "i4", "j5"]);
  });

  it("refuses strings that do not fill the board", () => {
    expect(boardOfFen("")).toBeNull();
    expect(boardOfFen("4/7/8")).toBeNull();
    expect(boardOfFen("5/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0")).toBeNull();
    expect(boardOfFen("3/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0")).toBeNull();
    expect(boardOfFen("4/7/8/9/10/9/10/9/8/7/3x w place 0-0 3-3 0")).toBeNull();
  });
});

describe("a position string read whole", () => {
  it("gives the turn, the stage, the score, the targets, the ring moves and the pool", () => {
    expect(readPosition("bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b ring-after 1-0 3-2 9/40")).toMatchObject({
      to_move: "black",
      stage: "remove_ring",
      removed: { white: 1, black: 0 },
      targets: { white: 3, black: 2 },
      ring_moves: 9,
      pool: 47,
    });
    expect(readPosition("4/7/8/9/10/9/10/9/8/7/4 w end 3-2 3-3 40")?.stage).toBe("over");
    expect(readPosition("4/7/8/9/10/9/10/9/8/7/4 w row-before 0-0 3-3 4")?.stage).toBe("remove_row");
  });

  it("refuses what is not one", () => {
    expect(readPosition("4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3")).toBeNull();
    expect(readPosition("4/7/8/9/10/9/10/9/8/7/4 x place 0-0 3-3 0")).toBeNull();
    expect(readPosition("4/7/8/9/10/9/10/9/8/7/4 w dance 0-0 3-3 0")).toBeNull();
    expect(readPosition("4/7/8/9/10/9/10/9/8/7/4 w place 0:0 3-3 0")).toBeNull();
  });
});
