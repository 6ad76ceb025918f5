// Turns clicks on board points into action tokens (docs/notation.md), knowing no rules:
// everything comes from the list of legal tokens the server sends. Pure: no DOM.
//
// The token's form says what it does, so the stage is not needed:
//   place `e5` · move `e5-e9` · remove a row `xc3-c7` (ends in either order)
//   remove a ring `xk10` · `pass`

import { isPoint, lineOf } from "./geometry";

/** A legal token, read. `token` is the server's own text, sent back unchanged. */
export type LegalAction =
  | { readonly kind: "place"; readonly token: string; readonly at: string }
  | { readonly kind: "move"; readonly token: string; readonly from: string; readonly to: string }
  | { readonly kind: "row"; readonly token: string; readonly ends: readonly [string, string]; readonly points: readonly string[] }
  | { readonly kind: "ring"; readonly token: string; readonly at: string }
  | { readonly kind: "pass"; readonly token: string };

/** Reads one token (either case); null for a token of no known form. */
export function parseToken(token: string): LegalAction | null {
  const t = token.toLowerCase();
  if (t === "pass") return { kind: "pass", token };
  if (isPoint(t)) return { kind: "place", token, at: t };
  let m = /^([a-k]\d+)-([a-k]\d+)$/.exec(t);
  if (m && isPoint(m[1]) && isPoint(m[2])) return { kind: "move", token, from: m[1], to: m[2] };
  m = /^x([a-k]\d+)-([a-k]\d+)$/.exec(t);
  if (m) {
    const points = lineOf(m[1], m[2]);
    return points ? { kind: "row", token, ends: [m[1], m[2]], points } : null;
  }
  m = /^x([a-k]\d+)$/.exec(t);
  if (m && isPoint(m[1])) return { kind: "ring", token, at: m[1] };
  return null;
}

/** Where the input stands. */
export type InputState =
  /** Nothing chosen yet. */
  | { readonly kind: "idle" }
  /** Move stage: the ring on `from` is picked up; its destinations are targets. */
  | { readonly kind: "selected"; readonly from: string }
  /** Row removal with several legal rows: one end is chosen, the other is next. */
  | { readonly kind: "rowEnd"; readonly end: string }
  /** A token was given; clicks do nothing until new legal tokens arrive. */
  | { readonly kind: "sent"; readonly token: string };

/** A role a point plays in what is drawn. */
export type Role = "target" | "selected" | "candidate" | "ghostMarker";

/**
 * The points to highlight, by role:
 * - `target`: clicking the point completes an action (a placement point, a destination
 *   of the selected ring, the other end of a row), or, with several legal rows and none
 *   chosen, a row end to click first;
 * - `selected`: the selected ring or row end;
 * - `candidate`: a piece that can be chosen (a movable ring, a ring that may be removed,
 *   a marker of a row that may be removed);
 * - `ghostMarker`: the selected ring, where a marker of the mover's colour is drawn.
 */
export type Highlights = { readonly [R in Role]: ReadonlySet<string> };

/** What a click (or any other input) led to. */
export interface Step {
  /** The token to send to the server, or null. */
  readonly token: string | null;
  /** What to highlight now. */
  readonly highlights: Highlights;
}

/**
 * The input state machine of one position. Make a new one for each new list of legal
 * tokens (an empty list when the player may not act).
 */
export class BoardInput {
  private readonly actions: readonly LegalAction[];
  private current: InputState = { kind: "idle" };

  constructor(legal: readonly string[]) {
    this.actions = legal.map(parseToken).filter((a): a is LegalAction => a !== null);
  }

  get state(): InputState {
    return this.current;
  }

  /** Whether `pass` is legal now (and nothing has been sent). */
  get canPass(): boolean {
    return this.current.kind !== "sent" && this.actions.some((a) => a.kind === "pass");
  }

  /** Whether the point holds a ring that can be picked up to move (M3). */
  isMovable(point: string): boolean {
    return this.current.kind !== "sent" && this.moves().some((m) => m.from === point);
  }

  /**
   * A click or tap on a point:
   * - a legal placement or ring removal gives its token;
   * - a movable ring is selected, or deselected when it was selected already;
   * - a destination of the selected ring gives the move;
   * - a marker of the only legal row gives that row; with several rows, a row end is
   *   selected (again: deselected), then a matching other end gives the row.
   * Any other click keeps the state as it is.
   */
  click(point: string): Step {
    const state = this.current;
    if (state.kind === "sent") return this.step();
    if (state.kind === "selected" && point === state.from) return this.cancel();
    if (state.kind === "rowEnd" && point === state.end) return this.cancel();
    if (state.kind === "selected") {
      const move = this.moves().find((m) => m.from === state.from && m.to === point);
      if (move) return this.send(move.token);
    }
    if (state.kind === "rowEnd") {
      const row = this.rows().find((r) => hasEnds(r, state.end, point));
      if (row) return this.send(row.token);
    }
    const direct = this.actions.find((a) => (a.kind === "place" || a.kind === "ring") && a.at === point);
    if (direct) return this.send(direct.token);
    if (this.isMovable(point)) return this.select(point);
    const rows = this.rows();
    if (rows.length === 1 && rows[0].points.includes(point)) return this.send(rows[0].token);
    if (rows.length > 1 && rows.some((r) => r.ends.includes(point))) {
      this.current = { kind: "rowEnd", end: point };
    }
    return this.step();
  }

  /**
   * Selects a movable ring without toggling (a drag starts from it); nothing happens on
   * another point.
   */
  select(point: string): Step {
    if (this.isMovable(point)) this.current = { kind: "selected", from: point };
    return this.step();
  }

  /**
   * The selected ring is dropped on a point: gives the move when the point is one of its
   * destinations; otherwise the selection stays.
   */
  chooseDestination(point: string): Step {
    const state = this.current;
    if (state.kind !== "selected") return this.step();
    const move = this.moves().find((m) => m.from === state.from && m.to === point);
    return move ? this.send(move.token) : this.step();
  }

  /** Drops the selection of a ring or a row end (Escape). */
  cancel(): Step {
    if (this.current.kind === "selected" || this.current.kind === "rowEnd") this.current = { kind: "idle" };
    return this.step();
  }

  /** What to highlight in the current state. */
  highlights(): Highlights {
    const h = { target: new Set<string>(), selected: new Set<string>(), candidate: new Set<string>(), ghostMarker: new Set<string>() };
    const state = this.current;
    if (state.kind === "sent") return h;
    for (const a of this.actions) {
      if (a.kind === "place") h.target.add(a.at);
      if (a.kind === "ring") h.candidate.add(a.at);
    }
    for (const m of this.moves()) {
      if (state.kind === "selected" && m.from === state.from) h.target.add(m.to);
      else h.candidate.add(m.from);
    }
    if (state.kind === "selected") {
      h.selected.add(state.from);
      h.ghostMarker.add(state.from);
      h.candidate.delete(state.from);
    }
    const rows = this.rows();
    for (const row of rows) {
      if (state.kind === "rowEnd") {
        if (!row.ends.includes(state.end)) continue;
        for (const end of row.ends) if (end !== state.end) h.target.add(end);
      } else if (rows.length > 1) {
        for (const end of row.ends) h.target.add(end);
      }
      for (const p of row.points) h.candidate.add(p);
    }
    if (state.kind === "rowEnd") {
      h.selected.add(state.end);
      h.candidate.delete(state.end);
    }
    return h;
  }

  private moves() {
    return this.actions.filter((a) => a.kind === "move");
  }

  private rows() {
    return this.actions.filter((a) => a.kind === "row");
  }

  private send(token: string): Step {
    this.current = { kind: "sent", token };
    return this.step(token);
  }

  private step(token: string | null = null): Step {
    return { token, highlights: this.highlights() };
  }
}

function hasEnds(row: { readonly ends: readonly [string, string] }, a: string, b: string): boolean {
  return (row.ends[0] === a && row.ends[1] === b) || (row.ends[0] === b && row.ends[1] === a);
}
