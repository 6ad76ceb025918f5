// A table: the board, the seats with their clocks (and, after a rated game, the rating
// changes), every table command as a button, the move list, the chat (where slash
// commands work) and the spectators. This module wires the table's parts (table/*.ts,
// each with its CSS) to the connection: the table's messages go to its view
// (table/state.ts), and every part draws from that view.

import "./table.css";
import { BoardView } from "../board/view";
import { boardOfFen } from "../board/fen";
import type { Connection, Refused } from "../connection";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { Command, ServerMessage, SeatColor, TableView } from "../protocol";
import { fitToScreen, keyTakenBy } from "./gamepage";
import { describeOptions } from "./options";
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
  const toggles = new Toggles(id, (text) => status.note(text));
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
      h("div", { class: "game-status" }, result.el, status.turn, status.miss, status.paused, moves.reviewBar),
      h("div", { class: "game-moves" }, moves.list, moves.pool),
      h(
        "div",
        { class: "game-controls" },
        h("div", { class: "controls-row" }, passButton, controls.el),
        h("div", { class: "controls-row" }, moveInput),
        h("div", { class: "controls-row below-board" }, flipButton, toggles.sound, toggles.notify),
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
    const ok = await request(() => conn.request({ type: "act", table: id, action: token, ply: game ? game.moves.length : undefined }), true);
    // A refused action unlocks the board again (an accepted one re-renders with its event).
    if (!ok) renderGame();
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
      if (at === null) {
        board.update({ board: game.board, toMove: game.to_move, stage: game.stage, legal: mine && online() ? game.legal : [], myColor: seat, lastAction, marks });
      } else {
        board.update({ board: history!.boards[at], toMove: history!.actors[at] ?? game.to_move, stage: game.stage, legal: [], myColor: null, lastAction, marks });
      }
      lastAction = null;
    }
    passButton.hidden = !(!!game && moves.reviewPly === null && mine && online() && game.legal.includes("pass"));
    status.render(game, mine, nameOf);
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
    replace(optionsLine, ratedMark(view.options), " ", describeOptions(view.options, view.seats));
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
