// The analysis board's move tree, as lichess keeps one: the start, every action played
// from a node as a child of it, the first child the main continuation and the others
// variations. Each node holds the server's position after its action (docs/protocol.md,
// "POST /api/position"), so moving about the tree asks the server nothing and the tree
// is also the cache of what the server said. Pure: no DOM.
//
// Who played a node's action is who was to act in its parent (the server says so), so
// the turns (docs/notation.md, "Turns") follow without knowing any rules: a turn goes
// on while the same player acts.

import type { BoardPosition, SeatColor } from "../protocol";
import { separatorBefore } from "../board/turns";

export interface TreeNode {
  readonly id: number;
  readonly parent: number | null;
  /** The action that led here; null for the start. */
  readonly token: string | null;
  /** Who played it (the player to act in the parent); null for the start. */
  readonly actor: SeatColor | null;
  /**
   * The number of the turn it belongs to (odd White, even Black). The start has the
   * number before the first turn, so that a game that begins with Black has Black's
   * turns even.
   */
  readonly turn: number;
  /** The server's position after the action. */
  readonly position: BoardPosition;
  /** The children, the main continuation first. */
  readonly children: readonly number[];
  /** Played by hand on this page (not loaded from a game): Undo takes it back while it is a leaf. */
  readonly played: boolean;
}

type MutableNode = Omit<TreeNode, "children"> & { children: number[] };

/** Whether two tokens are the same action (the notation reads either case). */
const sameToken = (a: string | null, b: string): boolean => a !== null && a.toLowerCase() === b.toLowerCase();

export class MoveTree {
  private readonly nodes = new Map<number, MutableNode>();
  private nextId = 1;
  readonly root: number = 0;

  constructor(start: BoardPosition) {
    const turn = start.to_move === "white" ? 0 : 1;
    this.nodes.set(0, { id: 0, parent: null, token: null, actor: null, turn, position: start, children: [], played: false });
  }

  /** A tree of one line: `positions[0]` the start, then the position after each of `tokens`. */
  static fromLine(positions: readonly BoardPosition[], tokens: readonly string[]): { tree: MoveTree; line: number[] } {
    const tree = new MoveTree(positions[0]);
    const line = [tree.root];
    let at = tree.root;
    tokens.forEach((token, i) => {
      const position = positions[i + 1];
      if (!position) return;
      at = tree.add(at, token, position, false).id;
      line.push(at);
    });
    return { tree, line };
  }

  has(id: number): boolean {
    return this.nodes.has(id);
  }

  /** The node `id`; throws for one that is not (or no longer) in the tree. */
  get(id: number): TreeNode {
    const node = this.nodes.get(id);
    if (!node) throw new Error(`no node ${id} in the move tree`);
    return node;
  }

  /** The child of `id` reached by `token`, if it was played already. */
  child(id: number, token: string): TreeNode | null {
    for (const c of this.get(id).children) {
      const node = this.get(c);
      if (sameToken(node.token, token)) return node;
    }
    return null;
  }

  /**
   * Adds the action `token` from `parent`, leading to `position`: a new last child (the
   * main continuation when it is the first). An action already there is returned as it is.
   */
  add(parent: number, token: string, position: BoardPosition, played: boolean): TreeNode {
    const existing = this.child(parent, token);
    if (existing) return existing;
    const from = this.nodes.get(parent);
    if (!from) throw new Error(`no node ${parent} in the move tree`);
    const actor = from.position.to_move;
    const continues = from.actor === actor;
    const node: MutableNode = {
      id: this.nextId++,
      parent,
      token,
      actor,
      turn: continues ? from.turn : from.turn + 1,
      position,
      children: [],
      played,
    };
    this.nodes.set(node.id, node);
    from.children.push(node.id);
    return node;
  }

  /** The nodes from the start to `id`, both included. */
  path(id: number): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n: TreeNode | null = this.get(id); n; n = n.parent === null ? null : this.get(n.parent)) out.push(n);
    return out.reverse();
  }

  /** The number of actions from the start to `id`. */
  ply(id: number): number {
    return this.path(id).length - 1;
  }

  /** Whether `ancestor` is `id` or lies on the way from the start to it. */
  isAncestor(ancestor: number, id: number): boolean {
    for (let n: number | null = id; n !== null; n = this.get(n).parent) if (n === ancestor) return true;
    return false;
  }

  /** Whether `id` is on the main line: every node on its way is its parent's first child. */
  isMainLine(id: number): boolean {
    return this.path(id).every((n) => n.parent === null || this.get(n.parent).children[0] === n.id);
  }

  /** The main line: the start, then the first child of each node to the end. */
  mainLine(): number[] {
    return this.lineFrom(this.root);
  }

  /** `id`, then the first child of each node after it, to the end. */
  lineFrom(id: number): number[] {
    const out = [id];
    for (let n = this.get(id); n.children.length > 0; n = this.get(n.children[0])) out.push(n.children[0]);
    return out;
  }

  /**
   * The node after `id` on the line being looked at: toward `tip` when `id` lies on the
   * way to it (stepping back along a variation and forward again stays in it), else
   * the main continuation; null at the end of the line.
   */
  forward(id: number, tip: number | null = null): number | null {
    const node = this.get(id);
    if (tip !== null && tip !== id && this.has(tip) && this.isAncestor(id, tip)) {
      let n = this.get(tip);
      while (n.parent !== id) n = this.get(n.parent!);
      return n.id;
    }
    return node.children[0] ?? null;
  }

  /** The last node of the line being looked at (see `forward`). */
  end(id: number, tip: number | null = null): number {
    let at = id;
    for (let next = this.forward(at, tip); next !== null; next = this.forward(at, tip)) at = next;
    return at;
  }

  /** Removes `id` and everything after it; gives its parent. The start stays. */
  remove(id: number): number {
    const node = this.get(id);
    if (node.parent === null) return id;
    const parent = this.nodes.get(node.parent)!;
    parent.children = parent.children.filter((c) => c !== id);
    const drop = [id];
    while (drop.length > 0) {
      const n = this.nodes.get(drop.pop()!)!;
      drop.push(...n.children);
      this.nodes.delete(n.id);
    }
    return parent.id;
  }

  /** Makes the way to `id` the main line: each node on it becomes its parent's first child. */
  promote(id: number): void {
    for (const n of this.path(id)) {
      if (n.parent === null) continue;
      const parent = this.nodes.get(n.parent)!;
      parent.children = [n.id, ...parent.children.filter((c) => c !== n.id)];
    }
  }

  /** The actions of `id`'s turn up to and including its own (none for the start). */
  turnTokens(id: number): string[] {
    const out: string[] = [];
    const node = this.get(id);
    for (let n: TreeNode = node; n.token !== null && n.turn === node.turn && n.actor === node.actor; n = this.get(n.parent!)) out.push(n.token);
    return out.reverse();
  }
}

// ---- The tree as the page lists it ----

/** One entry of the listed tree. */
export type TreeItem =
  | {
      readonly kind: "move";
      readonly id: number;
      readonly token: string;
      /** `12.` before the first action of a turn, `12…` before one inside a turn that opens a line; null otherwise. */
      readonly number: string | null;
      /** What joins it to the action before it in the same turn (`;` or nothing, docs/notation.md). */
      readonly sep: string;
    }
  | { readonly kind: "variation"; readonly items: readonly TreeItem[] };

/**
 * The tree as lichess lists it: the main line, and after each of its actions the
 * alternatives to it, each a variation (nested the same way) that the page sets apart
 * in parentheses; after variations the main line says its turn number again.
 */
export function treeItems(tree: MoveTree): TreeItem[] {
  return lineItems(tree, tree.root, true);
}

function lineItems(tree: MoveTree, from: number, fresh: boolean): TreeItem[] {
  const items: TreeItem[] = [];
  let node = tree.get(from);
  let opens = fresh;
  while (node.children.length > 0) {
    const [main, ...others] = node.children;
    items.push(moveItem(tree, tree.get(main), opens));
    for (const v of others) items.push({ kind: "variation", items: [moveItem(tree, tree.get(v), true), ...lineItems(tree, v, false)] });
    opens = others.length > 0;
    node = tree.get(main);
  }
  return items;
}

function moveItem(tree: MoveTree, node: TreeNode, opens: boolean): TreeItem {
  const parent = tree.get(node.parent!);
  const first = parent.actor !== node.actor || parent.turn !== node.turn;
  const number = first ? `${node.turn}.` : opens ? `${node.turn}…` : null;
  const sep = number !== null ? "" : separatorBefore([parent.token ?? "", node.token!], 1);
  return { kind: "move", id: node.id, token: node.token!, number, sep };
}

/**
 * A line of actions from `node` (the engine's) in the record's turn notation:
 * `12.f6-f8 13.xc3-c7xk10;b4-b3`, a turn that goes on from `node` written `11…xa1-a5`.
 * `actors[i]` played `tokens[i]` (the server's positions along the line say who); a
 * missing actor ends the text there.
 */
export function lineText(tokens: readonly string[], actors: readonly SeatColor[], node: Pick<TreeNode, "turn" | "actor">): string {
  const turns: { number: number; continued: boolean; tokens: string[] }[] = [];
  let turn = node.turn;
  let actor = node.actor;
  for (let i = 0; i < tokens.length && actors[i]; i++) {
    const last = turns[turns.length - 1];
    if (actors[i] === actor) {
      // The same player acts on: the turn goes on (the node's own turn when none is listed yet).
      if (last) last.tokens.push(tokens[i]);
      else turns.push({ number: turn, continued: true, tokens: [tokens[i]] });
    } else {
      actor = actors[i];
      turn += 1;
      turns.push({ number: turn, continued: false, tokens: [tokens[i]] });
    }
  }
  return turns
    .map((t) => `${t.number}${t.continued ? "…" : "."}${t.tokens.map((token, i) => separatorBefore(t.tokens, i) + token).join("")}`)
    .join(" ");
}
