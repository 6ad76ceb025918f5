// The analysis board (`#/analysis`): both sides play by hand from any position — the
// empty board, a position string, an action of an archived game, an imported record or
// boardspace SGF file — the actions kept as a tree of variations (move-tree.ts), with
// the live engine's view of the position on show.
//
// The server is the rules authority: each new action goes to `POST /api/position` from
// the position it is played in, and its answer (the next position with its legal
// actions) becomes a node of the tree; the page works nothing out itself. The address
// names the position on show (`?position=…`, or `?record=<id>&ply=<n>` along an archived
// game's own actions), replaced in place, so a copied link opens the same position.
//
// This module wires the board's parts (analysis-board/*.ts, each with its CSS): the
// players, the engine, the move tree, the controls, sharing and importing.

import "./analysis.css";
import "./analysis-board.css";
import { marksOf } from "../board/marks";
import { BoardView } from "../board/view";
import type { Connection } from "../connection";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { BoardPosition } from "../protocol";
import { playerName } from "./archive";
import { resultHeadline } from "./result-words";
import { playOnPanel } from "./play-on";
import { fitToScreen, keyTakenBy } from "./gamepage";
import { positionHash, recordHash, sourceFromHash, type BoardSource } from "./board-address";
import { MoveTree } from "./move-tree";
import { BoardControls } from "./analysis-board/controls";
import { EnginePanel } from "./analysis-board/engine-panel";
import { ImportPanel } from "./analysis-board/import-panel";
import { BoardPlayers } from "./analysis-board/players";
import { archivedGame, positionsAlong, postPosition } from "./analysis-board/server";
import { SharePanel } from "./analysis-board/share-panel";
import { TreePanel } from "./analysis-board/tree-panel";
import { gameOfRecord, message, promptText, type GameInfo } from "./analysis-board/words";

export function mountAnalysisBoard(root: HTMLElement, conn: Connection): () => void {
  /** Removes every listener this page added, and cancels the requests in flight. */
  const life = new AbortController();

  let tree: MoveTree | null = null;
  let current = 0;
  /** The last node of the line being looked at: → and End follow it back into a variation. */
  let tip = 0;
  /** The archived game whose own actions are on the board, and their nodes (node → ply). */
  let record: { id: string; plies: Map<number, number> } | null = null;
  /** The node an action was played from while its answer is awaited (the board takes no input). */
  let pending: number | null = null;
  let flipped = false;
  let board: BoardView | null = null;

  // ---- The parts ----
  const notice = h("p", { class: "ab-notice", role: "status", "data-testid": "board-notice", hidden: true });
  const players = new BoardPlayers();
  const share = new SharePanel(life.signal, async (position) => {
    await openPosition(position);
    hideNotice();
  });
  const importPanel = new ImportPanel(life.signal, (parsed) => {
    load(parsed.positions, parsed.actions, gameOfRecord(parsed));
    hideNotice();
    goTo(tree!.root, null);
  });
  const treePanel = new TreePanel((id) => step(id));
  const controls = new BoardControls({ toStart, back, forward, toEnd, undo, deleteHere, promote, flip }, life.signal);
  // A new game from the position on show (kept current by `render`).
  const playOn = playOnPanel(conn);

  const boardBox = h("div", { class: "board-box", "data-testid": "board-board" });
  const turnLine = h("p", { class: "turn", "data-testid": "board-turn", role: "status" });
  const passButton = h("button", { type: "button", class: "primary", "data-testid": "board-pass", hidden: true }, t("table.pass"));
  const actionNote = h("p", { class: "miss", role: "status", "data-testid": "board-action-error", hidden: true });
  const poolLine = h("p", { class: "pool", "data-testid": "board-pool" });

  const layout = h("div", { class: "game" });
  const engine = new EnginePanel(conn, layout, {
    shown: () => (tree ? { position: shown().position, turn: tree.get(current).turn, actor: tree.get(current).actor } : null),
    changed: () => renderBoard(null),
  });
  layout.append(
    h("div", { class: "game-extra" }, h("div", { class: "ab-head" }, h("h1", {}, t("board.title")), players.gameLine), notice, share.el, playOn.el, importPanel.el),
    h("div", { class: "game-board" }, engine.bar, boardBox),
    h(
      "div",
      { class: "game-side" },
      players.top,
      engine.el,
      h("div", { class: "game-status" }, turnLine, h("div", { class: "controls-row" }, passButton), actionNote),
      h("div", { class: "game-moves" }, treePanel.el, poolLine),
      h("div", { class: "game-controls" }, controls.nav, controls.row),
      players.bottom,
    ),
  );
  const page = h("section", { class: "ab-page game-page", "data-testid": "board-page" }, layout);
  replace(root, page);
  const stopFit = fitToScreen(layout);
  // Made once the box is in the page, so that it can measure it.
  board = new BoardView(boardBox, { onAction: (token) => void act(token), onMiss: (why) => showActionNote(t(why === "off" ? "game.missOff" : "game.missIllegal")) });
  turnLine.textContent = t("archive.loading");

  // ---- Loading what the address names ----

  void open(sourceFromHash(location.hash));

  async function open(source: BoardSource): Promise<void> {
    try {
      if (source.kind === "record") await openRecord(source.id, source.ply);
      else await openPosition(source.kind === "position" ? source.position : undefined);
    } catch (err) {
      if (life.signal.aborted) return;
      // The page stays usable: the empty board, with what went wrong above it.
      showNotice(t("board.openFallback", { error: message(err) }));
      try {
        await openPosition(undefined);
      } catch (again) {
        if (!life.signal.aborted) turnLine.textContent = t("board.openError", { error: message(again) });
      }
    }
  }

  async function openRecord(id: string, ply: number): Promise<void> {
    const archived = await archivedGame(id, life.signal);
    const actions = archived.moves.map((m) => m.action);
    const positions = await positionsAlong(archived.options.position, actions, life.signal);
    if (life.signal.aborted) return;
    const line = load(positions, actions, {
      people: { white: playerName(archived.white, archived.white_bot), black: playerName(archived.black, archived.black_bot) },
      date: null,
      result: archived.result,
      archived: archived.id,
    });
    record = { id, plies: new Map(line.map((node, i) => [node, i])) };
    goTo(line[Math.min(ply, line.length - 1)], null);
  }

  /** A position string (the empty board when none), as a tree of its own. */
  async function openPosition(position: string | undefined): Promise<void> {
    const positions = await postPosition({ position, actions: [] }, life.signal);
    if (life.signal.aborted) return;
    load(positions, [], null);
    goTo(tree!.root, null);
  }

  /** Makes a new tree of one line and puts the page on it; gives the line's nodes. */
  function load(positions: BoardPosition[], actions: readonly string[], info: GameInfo | null): number[] {
    const made = MoveTree.fromLine(positions, actions);
    tree = made.tree;
    record = null;
    pending = null;
    current = tip = tree.root;
    players.setGame(info);
    return made.line;
  }

  // ---- Moving about the tree ----

  /** Shows node `id`; `lastAction` animates the one action that led there from the node on show. */
  function goTo(id: number, lastAction: string | null): void {
    if (!tree || !tree.has(id)) return;
    current = id;
    if (!tree.has(tip) || !tree.isAncestor(id, tip)) tip = id;
    hideActionNote();
    render(lastAction);
  }

  /** A step or jump by hand: animated only when it goes one action forward. */
  function step(id: number | null): void {
    if (!tree || id === null) return;
    const node = tree.get(id);
    goTo(id, node.parent === current ? node.token : null);
  }

  function back(): void {
    step(tree?.get(current).parent ?? null);
  }
  function forward(): void {
    step(tree?.forward(current, tip) ?? null);
  }
  function toStart(): void {
    step(tree?.root ?? null);
  }
  function toEnd(): void {
    step(tree ? tree.end(current, tip) : null);
  }

  /** Back one action; an action played by hand that nothing follows is taken away. */
  function undo(): void {
    if (!tree) return;
    const node = tree.get(current);
    if (node.parent === null) return;
    if (node.played && node.children.length === 0) tree.remove(node.id);
    goTo(node.parent, null);
  }

  function deleteHere(): void {
    if (!tree || current === tree.root) return;
    goTo(tree.remove(current), null);
  }

  function promote(): void {
    if (!tree) return;
    tree.promote(current);
    render(null);
  }

  function flip(): void {
    board?.setFlipped((flipped = !flipped));
    players.place(flipped);
  }

  // ---- Playing ----

  /** The action chosen on the board (or Pass): the server gives the position after it, once; then it is in the tree. */
  async function act(token: string): Promise<void> {
    if (!tree || pending !== null) return;
    const at = tree;
    const from = current;
    const known = tree.child(from, token);
    if (known) {
      goTo(known.id, known.token);
      return;
    }
    pending = from;
    hideActionNote();
    renderBoard(null);
    try {
      const positions = await postPosition({ position: at.get(from).position.position, actions: [token] }, life.signal);
      const next = positions[1];
      if (!next) throw new Error("HTTP 200 without a position");
      if (tree !== at) return; // another game loaded meanwhile: the answer has no place
      pending = null;
      if (!at.has(from)) {
        render(null); // the node was taken away meanwhile
        return;
      }
      const node = at.add(from, token, next, true);
      if (current === from) goTo(node.id, token);
      else render(null);
    } catch (err) {
      if (life.signal.aborted || tree !== at) return;
      pending = null;
      showActionNote(t("board.actionError", { error: message(err) }));
      renderBoard(null); // the board takes input again
    }
  }

  // ---- Drawing ----

  function render(lastAction: string | null): void {
    if (!tree) return;
    renderBoard(lastAction);
    renderStatus();
    treePanel.render(tree, current);
    controls.render(tree, current, tip);
    keepAddress();
    engine.ask();
    engine.render();
    playOn.setPosition(shown().position);
  }

  function shown(): BoardPosition {
    return tree!.get(current).position;
  }

  function renderBoard(lastAction: string | null): void {
    if (!tree || !board) return;
    const position = shown();
    const tokens = tree.turnTokens(current);
    board.update({
      board: position.board,
      toMove: position.to_move,
      stage: position.stage,
      legal: pending === null ? position.legal : [],
      // Whoever is to act plays: both sides are the reader's.
      myColor: position.to_move,
      lastAction,
      marks: tokens.length > 0 ? marksOf(tokens, position.board) : null,
      hint: engine.hint(),
    });
    passButton.hidden = pending !== null || !position.legal.some((a) => a.toLowerCase() === "pass");
  }

  function renderStatus(): void {
    const position = shown();
    const over = position.stage === "over";
    turnLine.textContent = over && position.result ? resultHeadline(position.result, players.names) : promptText(position, players.people);
    turnLine.classList.toggle("ab-over", over);
    turnLine.dataset.stage = position.stage;
    turnLine.dataset.toMove = position.to_move;
    const pool = t("table.pool", { count: position.pool });
    poolLine.textContent = position.turn_limit ? `${pool} · ${t("board.ringMoves", { count: position.ring_moves, limit: position.turn_limit })}` : pool;
    players.render(position);
  }

  /** The address and the link field say the position on show (replaced: Back leaves the page, not a step). */
  function keepAddress(): void {
    const ply = record && tree?.has(current) ? record.plies.get(current) : undefined;
    const hash = record && ply !== undefined ? recordHash(record.id, ply) : positionHash(shown().position);
    if (location.hash !== hash) history.replaceState(history.state, "", hash);
    share.show(location.href, shown().position);
  }

  // ---- Notes ----

  function showNotice(text: string): void {
    notice.textContent = text;
    notice.hidden = false;
  }
  function hideNotice(): void {
    notice.hidden = true;
  }
  function showActionNote(text: string): void {
    actionNote.textContent = text;
    actionNote.hidden = false;
  }
  function hideActionNote(): void {
    actionNote.hidden = true;
  }

  // ---- Input ----

  passButton.addEventListener("click", () => void act("pass"), { signal: life.signal });
  document.addEventListener(
    "keydown",
    (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || keyTakenBy(ev.target)) return;
      const moves: Record<string, () => void> = { ArrowLeft: back, ArrowRight: forward, Home: toStart, End: toEnd };
      const run = moves[ev.key];
      if (!run) return;
      ev.preventDefault();
      run();
    },
    { signal: life.signal },
  );

  const stopState = conn.onState(() => engine.render());

  return () => {
    life.abort();
    stopState();
    engine.destroy();
    share.destroy();
    stopFit();
    board?.destroy();
    board = null;
  };
}
