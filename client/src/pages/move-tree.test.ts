import { describe, expect, it } from "vitest";
import type { BoardPosition, SeatColor, StageName } from "../protocol";
import { MoveTree, lineText, treeItems, type TreeItem } from "./move-tree";

/** A position as the server would send it; only who acts matters to the tree. */
function pos(toMove: SeatColor, stage: StageName = "move", name = `${toMove} ${stage}`): BoardPosition {
  return {
    position: name,
    board: { rings: { white: [], black: [] }, markers: { white: [], black: [] } },
    to_move: toMove,
    stage,
    pool: 51,
    removed: { white: 0, black: 0 },
    targets: { white: 3, black: 3 },
    ring_moves: 0,
    legal: [],
  };
}

const other = (c: SeatColor): SeatColor => (c === "white" ? "black" : "white");

/** Ring moves alternate; `positions[i]` is before `tokens[i]`. */
function alternating(tokens: string[], first: SeatColor = "white"): BoardPosition[] {
  const out = [pos(first)];
  let c = first;
  for (const token of tokens) out.push(pos((c = other(c)), "move", `after ${token}`));
  return out;
}

/** The items as text: numbers, separators, moves; variations in parentheses. */
function listed(items: readonly TreeItem[]): string {
  let out = "";
  for (const item of items) {
    if (item.kind === "variation") out += ` (${listed(item.items)})`;
    else out += item.number !== null ? ` ${item.number}${item.token}` : `${item.sep}${item.token}`;
  }
  return out.trim();
}

describe("the move tree", () => {
  it("holds a line with the turns of who acts", () => {
    const { tree, line } = MoveTree.fromLine(alternating(["e5", "f6", "g7"]), ["e5", "f6", "g7"]);
    expect(line).toHaveLength(4);
    expect(tree.mainLine()).toEqual(line);
    expect(line.map((id) => tree.get(id).turn)).toEqual([0, 1, 2, 3]);
    expect(line.slice(1).map((id) => tree.get(id).actor)).toEqual(["white", "black", "white"]);
    expect(tree.ply(line[3])).toBe(3);
    expect(tree.get(line[2]).position.position).toBe("after f6");
  });

  it("keeps a player's row and ring removal in the turn of their move", () => {
    const tree = new MoveTree(pos("white"));
    const move = tree.add(tree.root, "c3-c8", pos("white", "remove_row"), true);
    const row = tree.add(move.id, "xc3-c7", pos("white", "remove_ring"), true);
    const ring = tree.add(row.id, "xk10", pos("black"), true);
    const reply = tree.add(ring.id, "b4-b3", pos("white"), true);
    expect([move, row, ring, reply].map((n) => n.turn)).toEqual([1, 1, 1, 2]);
    expect(tree.turnTokens(ring.id)).toEqual(["c3-c8", "xc3-c7", "xk10"]);
    expect(tree.turnTokens(row.id)).toEqual(["c3-c8", "xc3-c7"]);
    expect(tree.turnTokens(reply.id)).toEqual(["b4-b3"]);
    expect(tree.turnTokens(tree.root)).toEqual([]);
    expect(listed(treeItems(tree))).toBe("1.c3-c8;xc3-c7xk10 2.b4-b3");
  });

  it("numbers Black's turns even when Black begins", () => {
    const { tree, line } = MoveTree.fromLine(alternating(["a2-a3", "b2-b3"], "black"), ["a2-a3", "b2-b3"]);
    expect(line.map((id) => tree.get(id).turn)).toEqual([1, 2, 3]);
    expect(listed(treeItems(tree))).toBe("2.a2-a3 3.b2-b3");
  });

  it("gives back an action already played instead of adding it twice, in either case", () => {
    const tree = new MoveTree(pos("white"));
    const a = tree.add(tree.root, "e5", pos("black"), true);
    expect(tree.add(tree.root, "E5", pos("black"), true)).toBe(a);
    expect(tree.child(tree.root, "e5")).toBe(a);
    expect(tree.child(tree.root, "f6")).toBeNull();
    expect(tree.get(tree.root).children).toEqual([a.id]);
  });

  it("starts a variation where a different action is played, listed after the move it replaces", () => {
    const tokens = ["e5", "f6", "g7", "h8"];
    const { tree, line } = MoveTree.fromLine(alternating(tokens), tokens);
    // At the position after e5, Black plays d4 instead of f6, then White c3.
    const d4 = tree.add(line[1], "d4", pos("white"), true);
    const c3 = tree.add(d4.id, "c3", pos("black"), true);
    // And a second alternative to f6, and one to h8 inside nothing.
    tree.add(line[1], "a2", pos("white"), true);
    expect(tree.get(line[1]).children).toEqual([line[2], d4.id, c3.id + 1]);
    expect(listed(treeItems(tree))).toBe("1.e5 2.f6 (2.d4 3.c3) (2.a2) 3.g7 4.h8");
    expect(tree.isMainLine(line[4])).toBe(true);
    expect(tree.isMainLine(c3.id)).toBe(false);
  });

  it("writes `12…` where a line opens inside a turn", () => {
    const tree = new MoveTree(pos("white"));
    const move = tree.add(tree.root, "c3-c8", pos("white", "remove_row"), true);
    tree.add(move.id, "xc3-c7", pos("white", "remove_ring"), true);
    tree.add(move.id, "xd3-d7", pos("white", "remove_ring"), true);
    expect(listed(treeItems(tree))).toBe("1.c3-c8;xc3-c7 (1…xd3-d7)");
    const variation = treeItems(tree)[2];
    expect(variation.kind === "variation" && variation.items[0]).toMatchObject({ kind: "move", number: "1…", sep: "" });
  });

  it("nests variations of variations", () => {
    const tokens = ["e5", "f6", "g7"];
    const { tree, line } = MoveTree.fromLine(alternating(tokens), tokens);
    const d4 = tree.add(line[1], "d4", pos("white"), true);
    const c3 = tree.add(d4.id, "c3", pos("black"), true);
    tree.add(d4.id, "b2", pos("black"), true);
    tree.add(c3.id, "a1", pos("white"), true);
    expect(listed(treeItems(tree))).toBe("1.e5 2.f6 (2.d4 3.c3 (3.b2) 4.a1) 3.g7");
  });

  it("steps forward along the line being looked at, else the main line", () => {
    const tokens = ["e5", "f6", "g7"];
    const { tree, line } = MoveTree.fromLine(alternating(tokens), tokens);
    const d4 = tree.add(line[1], "d4", pos("white"), true);
    const c3 = tree.add(d4.id, "c3", pos("black"), true);
    expect(tree.forward(tree.root)).toBe(line[1]);
    expect(tree.forward(line[1])).toBe(line[2]);
    // Back from c3 to the start and forward again: through d4.
    expect(tree.forward(tree.root, c3.id)).toBe(line[1]);
    expect(tree.forward(line[1], c3.id)).toBe(d4.id);
    expect(tree.forward(c3.id, c3.id)).toBeNull();
    expect(tree.end(tree.root, c3.id)).toBe(c3.id);
    expect(tree.end(tree.root)).toBe(line[3]);
    // A tip elsewhere (not after the node) leaves the main continuation.
    expect(tree.forward(line[2], c3.id)).toBe(line[3]);
    expect(tree.lineFrom(d4.id)).toEqual([d4.id, c3.id]);
    expect(tree.isAncestor(line[1], c3.id)).toBe(true);
    expect(tree.isAncestor(line[2], c3.id)).toBe(false);
  });

  it("removes a node with everything after it, never the start", () => {
    const tokens = ["e5", "f6", "g7"];
    const { tree, line } = MoveTree.fromLine(alternating(tokens), tokens);
    const d4 = tree.add(line[1], "d4", pos("white"), true);
    expect(tree.remove(line[2])).toBe(line[1]);
    expect(tree.has(line[2])).toBe(false);
    expect(tree.has(line[3])).toBe(false);
    // The variation is now the main continuation.
    expect(tree.get(line[1]).children).toEqual([d4.id]);
    expect(tree.mainLine()).toEqual([tree.root, line[1], d4.id]);
    expect(tree.remove(tree.root)).toBe(tree.root);
    expect(() => tree.get(line[3])).toThrow();
  });

  it("makes a variation the main line", () => {
    const tokens = ["e5", "f6", "g7"];
    const { tree, line } = MoveTree.fromLine(alternating(tokens), tokens);
    const d4 = tree.add(line[1], "d4", pos("white"), true);
    const c3 = tree.add(d4.id, "c3", pos("black"), true);
    const b2 = tree.add(d4.id, "b2", pos("black"), true);
    tree.promote(b2.id);
    expect(tree.mainLine()).toEqual([tree.root, line[1], d4.id, b2.id]);
    expect(tree.isMainLine(b2.id)).toBe(true);
    expect(tree.isMainLine(c3.id)).toBe(false);
    expect(listed(treeItems(tree))).toBe("1.e5 2.d4 (2.f6 3.g7) 3.b2 (3.c3)");
  });
});

describe("a line in turn notation", () => {
  const node = (turn: number, actor: SeatColor | null) => ({ turn, actor });

  it("numbers the turns after the node", () => {
    expect(lineText(["f6", "e5", "g7"], ["black", "white", "black"], node(1, "white"))).toBe("2.f6 3.e5 4.g7");
    expect(lineText(["f6"], ["white"], node(0, null))).toBe("1.f6");
  });

  it("joins a player's actions into one turn, a removed ring onto its row", () => {
    expect(lineText(["c3-c8", "xc3-c7", "xk10", "b4-b3"], ["white", "white", "white", "black"], node(18, "black"))).toBe("19.c3-c8;xc3-c7xk10 20.b4-b3");
  });

  it("writes a turn that goes on from the node with `…`", () => {
    expect(lineText(["xc3-c7", "xk10", "b4-b3"], ["white", "white", "black"], node(19, "white"))).toBe("19…xc3-c7xk10 20.b4-b3");
  });

  it("stops where it does not know who acts", () => {
    expect(lineText(["f6", "e5", "g7"], ["black"], node(1, "white"))).toBe("2.f6");
    expect(lineText([], [], node(1, "white"))).toBe("");
  });
});
