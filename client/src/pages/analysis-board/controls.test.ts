import { describe, expect, it, vi } from "vitest";

vi.mock("../../i18n", () => ({ t: (key: string) => key }));

import type { BoardPosition, SeatColor } from "../../protocol";
import { MoveTree } from "../move-tree";
import { controlStates } from "./controls";

/** A position as the server would send it; only who acts matters to the tree. */
function pos(toMove: SeatColor, name: string): BoardPosition {
  return {
    position: name,
    board: { rings: { white: [], black: [] }, markers: { white: [], black: [] } },
    to_move: toMove,
    stage: "move",
    pool: 51,
    removed: { white: 0, black: 0 },
    targets: { white: 3, black: 3 },
    ring_moves: 0,
    legal: [],
  };
}

describe("the controls", () => {
  const made = MoveTree.fromLine([pos("white", "0"), pos("black", "1"), pos("white", "2")], ["a1-a2", "b1-b2"]);
  const tree = made.tree;
  const [start, first, second] = made.line;

  it("go back only after an action, forward only where the line goes on", () => {
    expect(controlStates(tree, start, start)).toEqual({ back: false, forward: true, promote: false });
    expect(controlStates(tree, first, first)).toEqual({ back: true, forward: true, promote: false });
    expect(controlStates(tree, second, second)).toEqual({ back: true, forward: false, promote: false });
  });

  it("make a variation the main line, and follow it forward from where it began", () => {
    const variation = tree.add(start, "c1-c2", pos("black", "1b"), true);
    expect(controlStates(tree, variation.id, variation.id)).toEqual({ back: true, forward: false, promote: true });
    const next = tree.add(variation.id, "d1-d2", pos("white", "2b"), true);
    // Back at the start, → follows the variation one came from.
    expect(tree.forward(start, next.id)).toBe(variation.id);
    expect(controlStates(tree, start, next.id).forward).toBe(true);
  });
});
