// The board as an SVG that scales with its container: lattice, coordinates, pieces,
// highlights, and the input of the player to act (click or tap, or drag a ring), with
// short animations of each change. The rules are the server's: the view only offers
// the legal tokens it is given (see input.ts).
//
// The same class shows boards without input (spectators, the replay viewer): call
// `update` with `myColor: null` (or `legal: []`). The shapes it draws are shapes.ts's.

import "./board.css";
import type { BoardView as Board, SeatColor, StageName } from "../protocol";
import { CENTRE, POINTS, nearestPoint, pointXY } from "./geometry";
import { BoardInput, type Highlights, type Step } from "./input";
import { diffBoards, isUnchanged, piecesOf, type BoardChange, type Piece } from "./diff";
import { NO_MARKS, type Marks } from "./marks";
import { HIT_R, ROLES, S, coordShapes, highlightShapes, hintShapes, hitShapes, latticeShapes, markShapes, pieceShape, type At } from "./shapes";
import { svgEl } from "../dom";

/** What the board shows. */
export interface BoardState {
  /** The pieces. */
  board: Board;
  /** The player to act (the colour of the ghost marker). */
  toMove: SeatColor;
  stage: StageName;
  /** The legal tokens of the player to act. */
  legal: readonly string[];
  /** The viewer's seat; null for a spectator or a replay. Input is on only when it is `toMove` and `legal` is not empty. */
  myColor: SeatColor | null;
  /** The action that led from the board of the previous `update` to this one: a ring move slides its ring. */
  lastAction?: string | null;
  /** The turn to mark (the last move): see marks.ts. */
  marks?: Marks | null;
  /** An action to suggest (the engine's choice in a replay): an arrow for a ring move, a highlighted point otherwise; see hint.ts. */
  hint?: string | null;
}

export interface BoardOptions {
  /** Called with the token of each action the player chose. */
  onAction: (token: string) => void;
  /** Whether to draw the column letters and row numbers (default true). */
  labels?: boolean;
  /** Called when a dragged ring is dropped where it cannot go (it goes back): off the board, or on a point that is not one of its destinations. */
  onMiss?: (why: "off" | "illegal") => void;
}

const ANIMATION_MS = 220;
/** How far (in CSS pixels) a pressed ring must travel before it is dragged rather than clicked. */
const DRAG_THRESHOLD_PX = 5;

/** A press on the board, from pointerdown to pointerup. */
interface Press {
  readonly pointerId: number;
  readonly point: string;
  readonly clientX: number;
  readonly clientY: number;
  /** Whether the press is on a ring that can move: it may become a drag. */
  readonly movable: boolean;
  /** Whether that ring was selected before the press (a click on it then deselects it). */
  readonly wasSelected: boolean;
  /** The ring's element while it is dragged. */
  dragged: SVGElement | null;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The board view: see the file comment. */
export class BoardView {
  private readonly svg: SVGSVGElement;
  private readonly layers: {
    readonly lattice: SVGGElement;
    readonly coords: SVGGElement;
    /** The last move's marks under the pieces (its ends, removed rows). */
    readonly marks: SVGGElement;
    readonly pieces: SVGGElement;
    /** The last move's marks over the pieces (turned markers, removed rings). */
    readonly marksOver: SVGGElement;
    /** The suggested action (`hint`), over the pieces. */
    readonly hint: SVGGElement;
    /** Copies of pieces that fade out or turn over. */
    readonly fx: SVGGElement;
    readonly highlights: SVGGElement;
    readonly drag: SVGGElement;
    readonly hits: SVGGElement;
  };
  private readonly onAction: (token: string) => void;
  private readonly onMiss: (why: "off" | "illegal") => void;
  private marksKey = "";
  private hintKey = "";
  private readonly labels: boolean;
  private flipped = false;
  private state: BoardState | null = null;
  private input = new BoardInput([]);
  /** What the input was made from; an update with the same keeps the selection. */
  private inputKey = "";
  private readonly pieceEls = new Map<string, SVGElement>();
  private readonly hitEls = new Map<string, SVGCircleElement>();
  private press: Press | null = null;
  /** The move token of a ring dropped by dragging, whose ring already stands on its destination. */
  private dropped: string | null = null;

  constructor(container: HTMLElement, options: BoardOptions) {
    this.onAction = options.onAction;
    this.onMiss = options.onMiss ?? (() => {});
    this.labels = options.labels ?? true;
    const margin = (this.labels ? 0.9 : 0.6) * S;
    const xs = POINTS.map((p) => pointXY(p, S).x);
    const ys = POINTS.map((p) => pointXY(p, S).y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // The box is symmetric about the centre, so flipping the board keeps it.
    this.svg = svgEl("svg", {
      class: "yinsh-board",
      viewBox: [minX - margin, minY - margin, maxX - minX + 2 * margin, maxY - minY + 2 * margin].map((v) => v.toFixed(1)).join(" "),
      "data-interactive": "false",
    });
    const layer = (name: string) => this.svg.appendChild(svgEl("g", { class: name }));
    this.layers = {
      lattice: layer("lattice"),
      coords: layer("coords"),
      marks: layer("marks"),
      pieces: layer("pieces"),
      marksOver: layer("marks-over"),
      hint: layer("hint"),
      fx: layer("fx"),
      highlights: layer("highlights"),
      drag: layer("drag"),
      hits: layer("hits"),
    };
    this.svg.addEventListener("pointerdown", this.onPointerDown);
    this.svg.addEventListener("pointermove", this.onPointerMove);
    this.svg.addEventListener("pointerup", this.onPointerUp);
    this.svg.addEventListener("pointercancel", this.onPointerCancel);
    document.addEventListener("keydown", this.onKeyDown);
    this.drawFrame();
    container.appendChild(this.svg);
  }

  /** Whether `pass` is among the tokens the player may send now. */
  get canPass(): boolean {
    return this.input.canPass;
  }

  /**
   * Shows a new state. Calling it again with the same state keeps the selection, except
   * that input locked after an action was sent opens again (call it after the server
   * refused an action). A changed board is animated from the previous one.
   */
  update(state: BoardState): void {
    const previous = this.state;
    this.state = state;
    const interactive = state.myColor !== null && state.myColor === state.toMove && state.legal.length > 0;
    const key = JSON.stringify([interactive, state.stage, state.toMove, state.legal]);
    const sent = this.input.state.kind === "sent";
    const change = previous && diffBoards(previous.board, state.board, state.lastAction);
    const boardChanged = !change || !isUnchanged(change);
    if (boardChanged || sent || key !== this.inputKey) this.endPress(false);
    if (key !== this.inputKey || sent) {
      this.input = new BoardInput(interactive ? state.legal : []);
      this.inputKey = key;
    }
    if (boardChanged || sent) {
      this.drawPieces();
      if (previous && change && boardChanged) this.animate(change, previous.board, state.lastAction ?? null);
    }
    this.dropped = null;
    this.drawMarks(false);
    this.drawHint(false);
    this.svg.dataset.stage = state.stage;
    this.svg.dataset.interactive = String(interactive);
    this.showHighlights(this.input.highlights());
  }

  /** Shows the board from Black's side (turned 180°; the coordinates stay upright) or from White's. */
  setFlipped(flipped: boolean): void {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.endPress(false);
    this.dropped = null; // the dropped ring is drawn back on its start: let it slide
    this.drawFrame();
    this.drawPieces();
    this.drawMarks(true);
    this.drawHint(true);
    this.showHighlights(this.input.highlights());
  }

  /** Removes the board and its listeners. */
  destroy(): void {
    this.endPress(false);
    document.removeEventListener("keydown", this.onKeyDown);
    this.svg.remove();
  }

  // ---- Drawing ----

  /** Turns coordinates of `pointXY` by 180° about the centre when the board is flipped (and back: it is its own inverse). */
  private flip(p: { x: number; y: number }): { x: number; y: number } {
    if (!this.flipped) return p;
    const c = pointXY(CENTRE, S);
    return { x: 2 * c.x - p.x, y: 2 * c.y - p.y };
  }

  /** Where a point is drawn. */
  private at(point: string): { x: number; y: number } {
    return this.flip(pointXY(point, S));
  }

  /** Where a point is drawn, for the shapes. */
  private readonly place: At = (point) => this.at(point);

  /** The lattice, the coordinates and the hit areas, which change only with the flip. */
  private drawFrame(): void {
    this.svg.dataset.flipped = String(this.flipped);
    const { lattice, coords, hits } = this.layers;
    lattice.replaceChildren(...latticeShapes(this.place));
    coords.replaceChildren(...(this.labels ? coordShapes(this.place, this.flipped) : []));
    this.hitEls.clear();
    for (const [point, el] of hitShapes(this.place)) this.hitEls.set(point, el);
    hits.replaceChildren(...this.hitEls.values());
  }

  /** An element for a piece on a point, with the data attributes browser tests look for when `tagged`. */
  private pieceElement(point: string, piece: Piece, tagged: boolean): SVGElement {
    return pieceShape(this.place, point, piece, tagged);
  }

  private drawPieces(): void {
    this.pieceEls.clear();
    this.layers.fx.replaceChildren();
    this.layers.drag.replaceChildren();
    const pieces = this.state ? piecesOf(this.state.board) : new Map<string, Piece>();
    // Rings above markers: a sliding ring passes over them.
    const sorted = [...pieces].sort(([, a], [, b]) => (a.kind === b.kind ? 0 : a.kind === "marker" ? -1 : 1));
    this.layers.pieces.replaceChildren(
      ...sorted.map(([point, piece]) => {
        const el = this.pieceElement(point, piece, true);
        this.pieceEls.set(point, el);
        return el;
      }),
    );
  }

  /** The last move's marks (see marks.ts); drawn again only when they or the flip change. */
  private drawMarks(force: boolean): void {
    const m = this.state?.marks ?? NO_MARKS;
    const key = JSON.stringify(m);
    if (!force && key === this.marksKey) return;
    this.marksKey = key;
    const { under, over } = markShapes(this.place, m);
    this.layers.marks.replaceChildren(...under);
    this.layers.marksOver.replaceChildren(...over);
  }

  /** The suggested action (see hint.ts); drawn again only when it or the flip changes. */
  private drawHint(force: boolean): void {
    const token = this.state?.hint ?? "";
    if (!force && token === this.hintKey) return;
    this.hintKey = token;
    const shapes = hintShapes(this.place, token);
    this.layers.hint.replaceChildren(...shapes);
  }

  private showHighlights(h: Highlights): void {
    const pieces = this.state ? piecesOf(this.state.board) : new Map<string, Piece>();
    const shapes = highlightShapes(this.place, h, pieces, this.state?.toMove ?? null);
    this.layers.highlights.replaceChildren(...shapes);
    for (const [point, el] of this.hitEls) {
      for (const role of ROLES) el.classList.toggle(role, h[role].has(point));
    }
  }

  // ---- Animation ----

  /** Animates the change from the board `before` to the one on show; never holds input back. */
  private animate(change: BoardChange, before: Board, lastAction: string | null): void {
    if (prefersReducedMotion()) return;
    const old = piecesOf(before);
    const timing = { duration: ANIMATION_MS, easing: "ease-out" };
    // A ring dropped by dragging already stands where it went.
    if (change.slide && lastAction !== this.dropped) {
      const from = this.at(change.slide.from);
      const to = this.at(change.slide.to);
      this.pieceEls.get(change.slide.to)?.animate(
        [{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px)` }, { transform: "translate(0px, 0px)" }],
        timing,
      );
    }
    // A marker turns over: the old face shrinks to a line, then the new face grows.
    const half = { duration: ANIMATION_MS / 2 };
    for (const point of change.flipped) {
      const piece = old.get(point);
      if (!piece) continue;
      const face = this.layers.fx.appendChild(this.pieceElement(point, piece, false));
      face.animate([{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }], { ...half, easing: "ease-in", fill: "forwards" }).onfinish = () => face.remove();
      this.pieceEls.get(point)?.animate([{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }], { ...half, delay: half.duration, easing: "ease-out", fill: "backwards" });
    }
    for (const [point, piece] of change.removed) {
      const ghost = this.layers.fx.appendChild(this.pieceElement(point, piece, false));
      ghost.animate([{ opacity: 1 }, { opacity: 0 }], { ...timing, fill: "forwards" }).onfinish = () => ghost.remove();
    }
    for (const point of change.added) {
      this.pieceEls.get(point)?.animate([{ opacity: 0 }, { opacity: 1 }], timing);
    }
  }

  // ---- Input ----

  /** Applies the result of an input: sends its token, shows its highlights. */
  private apply(step: Step): void {
    this.showHighlights(step.highlights);
    if (step.token !== null) this.onAction(step.token);
  }

  /** The point whose hit area an event's target is, if any. */
  private static pointOf(e: Event): string | null {
    return e.target instanceof Element ? (e.target.closest("[data-point]")?.getAttribute("data-point") ?? null) : null;
  }

  /** The pointer's position in the board's user units, as drawn (the flip applied). */
  private pointerXY(e: PointerEvent): { x: number; y: number } | null {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return { x: p.x, y: p.y };
  }

  private readonly onPointerDown = (e: PointerEvent): void => {
    if (this.press?.dragged || !e.isPrimary || e.button !== 0 || this.svg.dataset.interactive !== "true") return;
    const point = BoardView.pointOf(e);
    if (!point) return;
    // A press whose release went unseen (it ended outside the board) is forgotten.
    this.endPress(false);
    const movable = this.input.isMovable(point);
    const state = this.input.state;
    const wasSelected = state.kind === "selected" && state.from === point;
    this.press = { pointerId: e.pointerId, point, clientX: e.clientX, clientY: e.clientY, movable, wasSelected, dragged: null };
    if (movable) {
      // Pressing a ring picks it up at once; it follows the pointer once it is dragged.
      e.preventDefault();
      this.svg.setPointerCapture(e.pointerId);
      if (!wasSelected) this.apply(this.input.select(point));
    }
  };

  private readonly onPointerMove = (e: PointerEvent): void => {
    const press = this.press;
    if (!press || e.pointerId !== press.pointerId || !press.movable) return;
    if (!press.dragged) {
      if (Math.hypot(e.clientX - press.clientX, e.clientY - press.clientY) < DRAG_THRESHOLD_PX) return;
      const ring = this.pieceEls.get(press.point);
      if (!ring) return;
      for (const animation of ring.getAnimations()) animation.finish();
      press.dragged = ring;
      ring.classList.add("dragging");
      this.layers.drag.appendChild(ring);
    }
    const p = this.pointerXY(e);
    if (!p) return;
    const origin = this.at(press.point);
    press.dragged.setAttribute("transform", `translate(${(p.x - origin.x).toFixed(1)} ${(p.y - origin.y).toFixed(1)})`);
  };

  private readonly onPointerUp = (e: PointerEvent): void => {
    const press = this.press;
    if (!press || e.pointerId !== press.pointerId) return;
    if (press.dragged) {
      const p = this.pointerXY(e);
      const origin = this.at(press.point);
      const unflipped = p && this.flip(p);
      const drop = unflipped && nearestPoint(unflipped.x, unflipped.y, S, HIT_R);
      const step = drop ? this.input.chooseDestination(drop) : null;
      if (drop && step?.token) {
        // The ring stays on its destination until the server's answer redraws the board.
        const to = this.at(drop);
        press.dragged.setAttribute("transform", `translate(${(to.x - origin.x).toFixed(1)} ${(to.y - origin.y).toFixed(1)})`);
        this.press = null;
        this.dropped = step.token;
        this.apply(step);
        return;
      }
      this.endPress(false);
      // Dropped back where it stood: no more than a click on it.
      if (drop !== press.point) this.onMiss(drop ? "illegal" : "off");
      return;
    }
    this.press = null;
    if (press.movable) {
      // A click on a ring: the press selected it; a click on the selected ring deselects it.
      if (press.wasSelected) this.apply(this.input.click(press.point));
    } else if (BoardView.pointOf(e) === press.point) {
      this.apply(this.input.click(press.point));
    }
  };

  private readonly onPointerCancel = (e: PointerEvent): void => {
    if (this.press?.pointerId === e.pointerId) this.endPress(false);
  };

  private readonly onKeyDown = (e: KeyboardEvent): void => {
    if (e.key !== "Escape") return;
    const kind = this.input.state.kind;
    if (kind !== "selected" && kind !== "rowEnd") return;
    this.endPress(true);
  };

  /**
   * Ends a press; a dragged ring goes back where it stood. With `cancel` the selection
   * is dropped too (Escape); otherwise it stays.
   */
  private endPress(cancel: boolean): void {
    const press = this.press;
    this.press = null;
    if (press?.dragged) {
      press.dragged.removeAttribute("transform");
      press.dragged.classList.remove("dragging");
      this.layers.pieces.appendChild(press.dragged);
    }
    if (press && this.svg.hasPointerCapture(press.pointerId)) this.svg.releasePointerCapture(press.pointerId);
    if (cancel) this.apply(this.input.cancel());
  }
}
