// A table: the board, the seats with their clocks (and, after a rated game, the rating
// changes), every table command as a button, the move list, the chat (where slash
// commands work) and the spectators. This module wires the table's parts (table/*.ts,
// each with its CSS) to the connection: the table's messages go to its view
// (table/state.ts), and every part draws from that view.
//
// With "Confirm turn" on (toggles.ts), the player's actions are not sent as they are
// made: each goes to `POST /api/position` from the game's position (the server is the
// rules authority, and says what follows), and the board shows the turn so far, a
// draft, until it is whole. "Confirm" then sends its actions one after the other, each
// with the number of actions it follows; "Undo" drops it.

import "./table.css";
import { BoardView } from "../board/view";
import { boardOfFen } from "../board/fen";
import type { Connection, Refused } from "../connection";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { BoardPosition, Command, GameView, ServerMessage, SeatColor, TableView } from "../protocol";
import { postPosition } from "./analysis-board/server";
import { fitToScreen, keyTakenBy } from "./gamepage";
import { describeOptions } from "./options";
import { arenaHash } from "./tournaments";
import { ratedMark } from "./ratings";
import { play } from "./sound";
import { Chat } from "./table/chat";
import { Controls } from "./table/controls";
import { TableMoves } from "./table/moves";
import { OptionsPanel } from "./table/options-panel";
import { ResultBox } from "./table/result";
import { Seats } from "./table/seats";
import { applyEvent, applyLegal, describeEvent, gameRunning, replyIsLogged, seatName, seatOf, tabTitle } from "./table/state";
import { resultSentence } from "./result-words";
import { TableStatus } from "./table/status";
import { Toggles } from "./table/toggles";

export function mountTable(root: HTMLElement, conn: Connection, id: string): () => void {
  let view: TableView | null = null;
  /** The action that led to the position to draw next: a ring move slides its ring. */
  let lastAction: string | null = null;
  let flipped = false;
  /** The flip the player chose with the button; null: the seat's own side (Black sees Black below). */
  let flipChoice: boolean | null = null;
  const savedTitle = document.title;
  /** The turn made so far with "Confirm turn" on, not sent yet: after `base` actions of the game, `actions`, leading to `last`. */
  let draft: { base: number; actions: string[]; last: BoardPosition } | null = null;
  /** Cancels the position requests in flight when the page goes. */
  const life = new AbortController();

  // ---- Helpers ----
  const mySeat = (): SeatColor | null => seatOf(view, conn.player);
  const nameOf = (c: SeatColor): string => seatName(view, c);
  const running = (): boolean => gameRunning(view);
  const online = (): boolean => conn.state === "open";

  // ---- The parts ----
  const status = new TableStatus();
  const boardBox = h("div", { class: "board-box" });
  const board = new BoardView(boardBox, { onAction: (token) => void act(token), onMiss: (why) => status.showMiss(why) });
  const offlineNote = h("p", { class: "board-note", "data-testid": "board-offline", hidden: true }, t("conn.offline"));
  boardBox.append(offlineNote);
  const seats = new Seats({ view: () => view, seat: mySeat, online, nameOf, join: (c) => void command({ command: "join", color: c }) });
  const moves = new TableMoves((ply) => review(ply));
  const result = new ResultBox();
  const controls = new Controls((c) => void command(c));
  const options = new OptionsPanel(id, (c) => command(c));
  const chat = new Chat((text, quiet) => void request(() => conn.request({ type: "chat", table: id, text }), quiet));
  const toggles = new Toggles(
    id,
    (text) => status.note(text),
    () => {
      draft = null;
      renderAll();
    },
  );
  const confirmNote = h("p", { class: "confirm-note", "data-testid": "confirm-note" });
  const confirmButton = h("button", { type: "button", class: "primary", "data-testid": "confirm-turn", onclick: () => void confirmTurn() }, t("table.confirm"));
  const undoButton = h("button", { type: "button", "data-testid": "undo-turn", onclick: () => undoTurn() }, t("table.undoTurn"));
  const confirmBar = h("div", { class: "confirm-bar", "data-testid": "confirm-bar", hidden: true }, confirmNote, h("div", { class: "controls-row" }, confirmButton, undoButton));
  const optionsLine = h("p", { class: "options-line", "data-testid": "table-options" });
  const passButton = h("button", { type: "button", class: "primary", "data-testid": "pass", hidden: true, onclick: () => void act("pass") }, t("table.pass"));
  const moveInput = h("input", {
    type: "text",
    class: "move-input",
    "data-testid": "move-input",
    placeholder: t("game.moveField"),
    "aria-label": t("table.typeMove"),
    title: t("table.typeMove"),
    autocomplete: "off",
    spellcheck: "false",
  }) as HTMLInputElement;
  const flipButton = h("button", { type: "button", class: "flip", "data-testid": "flip", title: t("table.flip"), onclick: () => setFlip(!flipped) }, t("table.flip"));

  const layout = h(
    "div",
    { class: "game" },
    h(
      "div",
      { class: "game-extra" },
      h(
        "div",
        { class: "table-head" },
        h("h1", {}, t("table.title", { id })),
        optionsLine,
        h("p", { class: "table-links" }, h("a", { href: "#/" }, t("table.back")), " · ", h("a", { href: "#/rules", "data-testid": "rules-link" }, t("nav.rules"))),
      ),
      options.invite,
      options.el,
      h("h2", {}, t("table.chat")),
      chat.log,
      chat.form,
      chat.spectators,
    ),
    h("div", { class: "game-board" }, boardBox),
    h(
      "div",
      { class: "game-side" },
      seats.top,
      h("div", { class: "game-status" }, result.el, status.turn, status.miss, status.paused, moves.reviewBar, confirmBar),
      h("div", { class: "game-moves" }, moves.list, moves.pool),
      h(
        "div",
        { class: "game-controls" },
        h("div", { class: "controls-row" }, passButton, controls.el),
        h("div", { class: "controls-row" }, moveInput),
        h("div", { class: "controls-row below-board" }, flipButton, toggles.sound, toggles.notify, toggles.confirm),
      ),
      seats.bottom,
    ),
  );
  root.append(h("section", { class: "table-page game-page" }, layout));
  const stopFit = fitToScreen(layout);

  // ---- Commands ----
  async function request(run: () => Promise<{ key: string; text: string }>, quiet = false): Promise<boolean> {
    try {
      const answer = await run();
      // The event that follows tells the same (one line per event); see replyIsLogged.
      if (!quiet && replyIsLogged(answer.key)) chat.add(answer.text, "reply");
      return true;
    } catch (e) {
      chat.add((e as Refused).text, "error");
      return false;
    }
  }

  const command = (c: Command, quiet = false) => request(() => conn.request({ type: "command", table: id, ...c }), quiet);

  async function act(token: string): Promise<void> {
    const game = view?.game;
    status.hideMiss();
    if (game && toggles.confirming && running() && mySeat() === game.to_move && moves.reviewPly === null) {
      // A whole turn waits for "Confirm": nothing more is played in it (a typed action
      // would be the opponent's).
      const d = liveDraft();
      if (!d || draftGoesOn(d)) await addToDraft(game, token);
      return;
    }
    const ok = await request(() => conn.request({ type: "act", table: id, action: token, ply: game ? game.moves.length : undefined }), true);
    // A refused action unlocks the board again (an accepted one re-renders with its event).
    if (!ok) renderGame();
  }

  /** The draft, while it still follows the game as it stands and it is the player's turn; dropped otherwise. */
  function liveDraft(): typeof draft {
    const game = view?.game;
    if (draft && !(game && running() && mySeat() === game.to_move && game.moves.length === draft.base && toggles.confirming)) draft = null;
    return draft;
  }

  /** Plays `token` in the draft: the server says the position after the turn so far. */
  async function addToDraft(game: GameView, token: string): Promise<void> {
    const base = game.moves.length;
    const actions = [...(liveDraft()?.actions ?? []), token];
    let positions: BoardPosition[];
    try {
      positions = await postPosition({ position: game.position, actions }, life.signal);
    } catch (e) {
      if (life.signal.aborted) return;
      chat.add((e as Error).message, "error");
      renderGame();
      return;
    }
    // The game moved on meanwhile: the draft was made from a position gone by.
    if (view?.game?.moves.length !== base || !running()) return;
    draft = { base, actions, last: positions[positions.length - 1] };
    lastAction = token;
    renderAll();
  }

  /** Whether the draft's turn goes on: its player still acts (a row to remove, a ring to take). */
  const draftGoesOn = (d: NonNullable<typeof draft>): boolean => d.last.to_move === mySeat() && d.last.result === undefined && d.last.legal.length > 0;

  /** Sends the draft's actions, in order; the first refused stops them (the rest of the turn is then played as usual). */
  async function confirmTurn(): Promise<void> {
    const d = liveDraft();
    if (!d || draftGoesOn(d)) return;
    draft = null;
    for (const [i, token] of d.actions.entries()) {
      const ok = await request(() => conn.request({ type: "act", table: id, action: token, ply: d.base + i }), true);
      if (!ok) break;
    }
    renderAll();
  }

  function undoTurn(): void {
    draft = null;
    renderAll();
  }

  /** Looks back at the position after `ply` actions (null: the live one). */
  function review(ply: number | null): void {
    const step = moves.review(view?.game, ply);
    if (step === undefined) return;
    lastAction = step;
    renderGame();
  }

  function setFlip(on: boolean): void {
    flipChoice = on;
    flipped = on;
    board.setFlipped(flipped);
    renderSeats();
  }

  // ---- Drawing ----
  const players = () => ({ white: view!.seats.white ? nameOf("white") : null, black: view!.seats.black ? nameOf("black") : null });

  function renderGame(): void {
    if (!view) return;
    const game = view.game;
    const seat = mySeat();
    flipped = flipChoice ?? seat === "black";
    board.setFlipped(flipped);
    layout.classList.toggle("offline", !online());
    offlineNote.hidden = online();
    moveInput.disabled = !online();
    moves.sync(game);
    const mine = !!game && running() && seat === game.to_move;
    if (!game) {
      // A table that begins from a position shows it before its first game.
      const start = view.options.position ? boardOfFen(view.options.position) : null;
      board.update({
        board: start ?? { rings: { white: [], black: [] }, markers: { white: [], black: [] } },
        toMove: "white",
        stage: "place",
        legal: [],
        myColor: null,
        marks: null,
      });
    } else {
      const marks = moves.record.marks(game, moves.reviewPly);
      const at = moves.reviewPly;
      const history = moves.record.history;
      const d = liveDraft();
      if (at === null && d) {
        // The turn so far, not sent: what follows in it may be played on.
        const legal = draftGoesOn(d) && online() ? d.last.legal : [];
        board.update({ board: d.last.board, toMove: d.last.to_move, stage: d.last.stage, legal, myColor: seat, lastAction, marks: null });
      } else if (at === null) {
        board.update({ board: game.board, toMove: game.to_move, stage: game.stage, legal: mine && online() ? game.legal : [], myColor: seat, lastAction, marks });
      } else {
        board.update({ board: history!.boards[at], toMove: history!.actors[at] ?? game.to_move, stage: game.stage, legal: [], myColor: null, lastAction, marks });
      }
      lastAction = null;
    }
    const d = game ? liveDraft() : null;
    const legalNow = d ? (draftGoesOn(d) ? d.last.legal : []) : (game?.legal ?? []);
    passButton.hidden = !(!!game && moves.reviewPly === null && mine && online() && legalNow.includes("pass"));
    confirmBar.hidden = !d || moves.reviewPly !== null;
    if (d) {
      const whole = !draftGoesOn(d);
      confirmNote.textContent = t(whole ? "table.turnReady" : "table.turnDraft");
      confirmButton.disabled = !whole || !online();
    }
    status.render(game, mine, nameOf);
    // While a draft waits, its note says what to do instead of the turn's line.
    status.turn.hidden = !!d && moves.reviewPly === null;
    moves.render(game);
    result.render(game, view.options.log, nameOf);
    const last = game && seat ? moves.record.lastOpponentTurn(seat) : null;
    document.title = tabTitle({ id, mine, last, ...players() });
  }

  function renderSeats(): void {
    if (!view) return;
    status.setPaused(!!view.game?.paused);
    seats.render(flipped);
  }

  function renderAll(): void {
    if (!view) return;
    toggles.setPace(view.options.correspondence ? "correspondence" : "live");
    const arena = view.options.tournament;
    replace(
      optionsLine,
      ratedMark(view.options),
      " ",
      describeOptions(view.options, view.seats),
      // A tournament's game links back to its arena.
      arena ? [" · ", h("a", { href: arenaHash(arena), "data-testid": "table-arena" }, t("table.backToArena"))] : null,
    );
    chat.renderSpectators(view);
    renderGame();
    renderSeats();
    const seat = mySeat();
    controls.render({ view, seat, acted: seat ? moves.record.hasActed(view.game, seat) : true, online: online(), nameOf });
    options.render({ view, seat, guest: conn.player?.guest ?? true });
  }

  // ---- Messages ----
  function onMessage(msg: ServerMessage): void {
    if (msg.type === "error") {
      replace(root, h("p", { class: "message" }, msg.text), h("a", { href: "#/" }, t("table.back")));
      return;
    }
    if (msg.type === "snapshot") {
      view = msg.table;
      seats.clocksReceived();
      chat.reset(view.chat);
      renderAll();
      return;
    }
    if (msg.type === "legal" && view) {
      if (applyLegal(view, msg)) renderAll();
      return;
    }
    if (msg.type === "thinking" && view) {
      // Progress of the engine's search of the position it is to act in now.
      if (msg.version === view.version) seats.setThought({ version: msg.version, color: msg.color, depth: msg.depth });
      return;
    }
    if (msg.type === "clocks" && view?.game) {
      view.game.clocks = msg.clocks;
      seats.clocksReceived();
      seats.tick();
      return;
    }
    if (msg.type !== "event" || !view) return;
    const event = msg.event;
    const wasMine = running() && mySeat() === view.game?.to_move;
    applyEvent(view, msg);
    if (event.kind === "acted") lastAction = event.action;
    if (event.kind === "aborted") lastAction = null;
    // A change of the game brings the board back to the live position.
    if (event.kind === "acted" || event.kind === "took_back" || event.kind === "aborted" || event.kind === "started" || event.kind === "game_over") moves.reviewPly = null;
    if (event.kind === "chat") chat.add(event.line.text, "chat", event.line.from, event.line.guest);
    if (msg.game || msg.clocks) seats.clocksReceived();
    const text = describeEvent(event, nameOf);
    if (text) chat.add(text);
    if (event.kind === "game_over" && view.game?.result) chat.add(resultSentence(view.game.result, nameOf));
    if (event.kind === "acted") play(/^x[a-k]\d+-/.test(event.action) ? "capture" : "move");
    if (event.kind === "game_over") play("end");
    renderAll();
    const seat = mySeat();
    if (!wasMine && seat && running() && view.game?.to_move === seat && event.kind === "acted") {
      toggles.notifyTurn(moves.record.lastOpponentTurn(seat));
    }
  }

  // ---- Input ----
  moveInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const token = moveInput.value.trim().toLowerCase();
      moveInput.value = "";
      if (token) void act(token);
    }
  });
  /** Typing a move anywhere on the page goes to the move field; the arrows look back. */
  const onKey = (e: KeyboardEvent) => {
    if (keyTakenBy(e.target)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const game = view?.game;
    if (game && moves.record.history && ["ArrowLeft", "ArrowRight", "End", "Home"].includes(e.key)) {
      e.preventDefault();
      const at = moves.reviewPly ?? game.moves.length;
      if (e.key === "ArrowLeft") review(at - 1);
      else if (e.key === "ArrowRight") review(at + 1);
      else if (e.key === "Home") review(0);
      else review(null);
      return;
    }
    if (/^[a-kpx]$/i.test(e.key) && running() && mySeat() === view?.game?.to_move && moves.reviewPly === null) {
      moveInput.focus();
    }
  };
  document.addEventListener("keydown", onKey);
  const tick = setInterval(() => {
    if (running() && seats.counting) seats.tick();
  }, 100);

  const stopWatching = conn.watchTable(id, onMessage);
  const stopPlayer = conn.onPlayer(() => renderAll());
  const stopState = conn.onState(() => renderAll());
  return () => {
    life.abort();
    stopWatching();
    stopPlayer();
    stopState();
    stopFit();
    clearInterval(tick);
    status.destroy();
    toggles.destroy();
    document.removeEventListener("keydown", onKey);
    board.destroy();
    document.title = savedTitle;
  };
}
