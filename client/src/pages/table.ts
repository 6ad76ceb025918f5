// A table: the board, the seats with their clocks, every table command as a button,
// the move list, the chat (where slash commands work) and the spectators.

import { BoardView } from "../board/view";
import type { Connection, Refused } from "../connection";
import { formatClock, h, replace } from "../dom";
import { t, type Key } from "../i18n";
import type {
  ClockView,
  Command,
  GameView,
  OptionChange,
  PlayerView,
  SeatColor,
  ServerMessage,
  TableEvent,
  TableOptions,
  TableView,
} from "../protocol";
import { optionsForm } from "./lobby";
import { describeOptions } from "./options";

const COLORS: SeatColor[] = ["white", "black"];
/** How long a button that ends the game (resign, abort) waits for the click that confirms. */
const CONFIRM_MS = 4000;
/** Takebacks each player may be granted in one game (the server's limit). */
export const TAKEBACK_LIMIT = 3;

type EventMessage = Extract<ServerMessage, { type: "event" }>;

const opponent = (c: SeatColor): SeatColor => (c === "white" ? "black" : "white");

/** What a seated player's buttons of a running game depend on; null when there are none. */
export interface GameButtons {
  /** The opponent's pending offer, to accept or decline. */
  answer: "draw" | "takeback" | null;
  /** The game may still be aborted (neither player has made two actions). */
  abort: boolean;
  /** This player may claim the game (the opponent is away). */
  claim: boolean;
  /** Takebacks this player may still be granted. */
  takebacksLeft: number;
}

export function gameButtons(game: GameView | undefined, seat: SeatColor | null): GameButtons | null {
  if (!game || game.result || !seat) return null;
  const other = opponent(seat);
  return {
    answer: game.draw_offer === other ? "draw" : game.takeback_request === other ? "takeback" : null,
    abort: game.abortable,
    claim: game.claimable === seat,
    takebacksLeft: Math.max(0, TAKEBACK_LIMIT - game.takebacks[seat]),
  };
}

/** Applies an event to the table as the page holds it (the log and redrawing aside). */
export function applyEvent(view: TableView, msg: EventMessage): void {
  const event = msg.event;
  view.version = msg.version;
  switch (event.kind) {
    case "joined":
      view.seats[event.color] = event.player;
      break;
    case "left":
      view.seats[event.color] = null;
      break;
    case "presence": {
      const p = view.seats[event.color];
      if (p) p.online = event.online;
      break;
    }
    case "spectators":
      view.spectators = event.names;
      view.spectator_count = event.count;
      break;
    case "options":
      view.options = event.options;
      break;
  }
  // An aborted game is gone (not archived): the table waits for a new one.
  if (event.kind === "aborted") view.game = undefined;
  else if (msg.game) view.game = msg.game;
  if (msg.clocks && view.game) view.game.clocks = msg.clocks;
}

/** The log line of an event, if it has one (`nameOf` names the player of a seat). */
export function describeEvent(event: TableEvent, nameOf: (c: SeatColor) => string): string | null {
  switch (event.kind) {
    case "joined":
      return t("event.joined", { player: event.player.bot ? `${t("table.bot")} ${event.player.bot}` : event.player.name, color: t(`color.${event.color}`) });
    case "left":
      return t("event.left", { color: t(`color.${event.color}`) });
    case "presence":
      return t(event.online ? "event.online" : "event.offline", { player: nameOf(event.color) });
    case "options":
      return t("event.options", { player: event.by, options: describeOptions(event.options) });
    case "started":
      return t("event.started");
    case "took_back":
      return t("event.tookBack", { count: event.actions });
    case "draw_offered":
      return t("event.drawOffered", { player: nameOf(event.by) });
    case "takeback_requested":
      return t("event.takebackRequested", { player: nameOf(event.by) });
    case "declined":
      return t("event.declined", { player: nameOf(event.by) });
    case "aborted":
      return event.by ? t("event.aborted", { player: nameOf(event.by) }) : t("event.abortedByServer");
    case "claimable":
      return t("event.claimable", { player: nameOf(event.by) });
    case "interrupted":
      return t("event.interrupted");
    case "resumed":
      return t("event.resumed");
    default:
      return null;
  }
}

export function mountTable(root: HTMLElement, conn: Connection, id: string): () => void {
  let view: TableView | null = null;
  /** When the clocks in `view.game` were received (for counting down between events). */
  let clocksAt = performance.now();
  let lastAction: string | null = null;

  // ---- Elements ----
  const title = h("h1", {}, t("table.title", { id }));
  const optionsLine = h("p", { class: "options-line", "data-testid": "table-options" });
  const boardBox = h("div", { class: "board-box" });
  const board = new BoardView(boardBox, { onAction: (token) => void act(token) });
  const turnLine = h("p", { class: "turn", "data-testid": "turn", role: "status" });
  const resultBox = h("div", { class: "result", "data-testid": "result" });
  const passButton = h("button", { type: "button", "data-testid": "pass", hidden: true, onclick: () => void act("pass") }, t("table.pass"));
  const showPass = (on: boolean): void => {
    passButton.hidden = !on;
  };
  const moveInput = h("input", {
    type: "text",
    class: "move-input",
    "data-testid": "move-input",
    placeholder: t("table.typeMove"),
    "aria-label": t("table.typeMove"),
    autocomplete: "off",
    spellcheck: "false",
  }) as HTMLInputElement;
  const seatsBox = h("div", { class: "seats" });
  const pausedLine = h("p", { class: "paused-notice", "data-testid": "paused", role: "status", hidden: true }, t("table.paused"));
  const controls = h("div", { class: "controls", "data-testid": "controls" });
  const optionsBox = h("div", { class: "table-options" });
  const poolLine = h("p", { class: "pool", "data-testid": "pool" });
  const moveList = h("ol", { class: "moves", "data-testid": "moves" });
  const spectatorsLine = h("p", { class: "spectators", "data-testid": "spectators" });
  const chatLog = h("div", { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite" });
  const chatInput = h("input", {
    type: "text",
    "data-testid": "chat-input",
    placeholder: t("table.chatPlaceholder"),
    "aria-label": t("table.chat"),
    maxlength: 500,
  }) as HTMLInputElement;
  const chatForm = h(
    "form",
    { class: "chat-form" },
    chatInput,
    h("button", { type: "submit", "data-testid": "chat-send" }, t("table.send")),
  );
  let flipped = false;
  const flipButton = h("button", { type: "button", class: "flip", onclick: () => board.setFlipped((flipped = !flipped)) }, t("table.flip"));

  root.append(
    h(
      "section",
      { class: "table-page" },
      h("div", { class: "table-head" }, title, optionsLine, h("a", { href: "#/" }, t("table.back"))),
      h(
        "div",
        { class: "table-body" },
        h("div", { class: "play" }, resultBox, turnLine, boardBox, h("div", { class: "below-board" }, passButton, moveInput, flipButton)),
        h(
          "aside",
          { class: "side" },
          seatsBox,
          pausedLine,
          controls,
          optionsBox,
          poolLine,
          h("h2", {}, t("table.moves")),
          moveList,
          h("h2", {}, t("table.chat")),
          chatLog,
          chatForm,
          spectatorsLine,
        ),
      ),
    ),
  );

  // ---- Helpers ----
  const me = (): PlayerView | null => conn.player;
  const mySeat = (): SeatColor | null => {
    const p = me();
    if (!view || !p) return null;
    return COLORS.find((c) => view!.seats[c]?.id === p.id) ?? null;
  };
  const nameOf = (c: SeatColor): string => {
    const p = view?.seats[c];
    if (!p) return t(`color.${c}`);
    return p.bot ? `${t("table.bot")} ${p.bot}` : p.name;
  };
  const running = (): boolean => !!view?.game && !view.game.result;

  function log(text: string, kind: "chat" | "event" | "reply" | "error" = "event", from?: string): void {
    const line = h("div", { class: `line ${kind}` }, from ? h("b", {}, `${from}: `) : null, text);
    chatLog.append(line);
    while (chatLog.childElementCount > 200) chatLog.firstElementChild?.remove();
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  async function request(run: () => Promise<{ text: string }>, quiet = false): Promise<boolean> {
    try {
      const answer = await run();
      if (!quiet) log(answer.text, "reply");
      return true;
    } catch (e) {
      log((e as Refused).text, "error");
      return false;
    }
  }

  const command = (c: Command, quiet = false) =>
    request(() => conn.request({ type: "command", table: id, ...c }), quiet);

  async function act(token: string): Promise<void> {
    const game = view?.game;
    const ok = await request(
      () => conn.request({ type: "act", table: id, action: token, ply: game ? game.moves.length : undefined }),
      true,
    );
    // A refused action unlocks the board again (an accepted one re-renders with its event).
    if (!ok) renderGame();
  }

  // ---- Rendering ----
  function clockMs(clocks: ClockView, c: SeatColor): number {
    const base = c === "white" ? clocks.white_ms : clocks.black_ms;
    // The server leaves `running` absent while the game is paused; checked here too.
    return clocks.running === c && !view?.game?.paused ? base - (performance.now() - clocksAt) : base;
  }

  /** The clock elements of the seats, updated between events by `tick`. */
  const clockEls = new Map<SeatColor, HTMLElement>();

  function renderClocks(): void {
    const clocks = view?.game?.clocks;
    if (!clocks) return;
    for (const [c, el] of clockEls) {
      const ms = clockMs(clocks, c);
      el.textContent = formatClock(ms);
      el.classList.toggle("low", ms < 10_000);
    }
  }

  function renderSeats(): void {
    if (!view) return;
    const game = view.game;
    pausedLine.hidden = !game?.paused;
    const key = JSON.stringify([
      view.seats,
      mySeat(),
      running(),
      game ? [game.removed, game.to_move, !!game.clocks] : null,
    ]);
    if (key === seatsDrawn) {
      renderClocks();
      return;
    }
    seatsDrawn = key;
    clockEls.clear();
    const seat = mySeat();
    replace(
      seatsBox,
      COLORS.map((c) => {
        const p = view!.seats[c];
        const clocks = game?.clocks;
        const toMove = running() && game!.to_move === c;
        return h(
          "div",
          { class: `seat ${c}${toMove ? " to-move" : ""}`, "data-testid": `seat-${c}` },
          h("span", { class: `swatch ${c}`, "aria-hidden": "true" }),
          h("span", { class: "seat-name", "data-testid": `seat-${c}-name` }, p ? nameOf(c) : t("seat.free")),
          p && !p.bot && !p.online ? h("span", { class: "offline" }, ` (${t("table.offline")})`) : null,
          game ? h("span", { class: "removed", title: t("table.removed") }, "◯".repeat(game.removed[c]) || "·") : null,
          clocks ? clockEl(c, clocks) : null,
          !p && !seat && !running()
            ? h("button", { type: "button", "data-testid": `join-${c}`, onclick: () => void command({ command: "join", color: c }) }, t("table.join"))
            : null,
        );
      }),
    );
  }

  function clockEl(c: SeatColor, clocks: ClockView): HTMLElement {
    const ms = clockMs(clocks, c);
    const el = h("span", { class: "clock", "data-testid": `clock-${c}` }, formatClock(ms));
    // As `renderClocks` marks it, also when the clock stands still (a game lost on time).
    el.classList.toggle("low", ms < 10_000);
    clockEls.set(c, el);
    return el;
  }

  // What the seats, the buttons and the options form were last drawn from: they are
  // drawn again only when that changes, so a click or an edit in progress is never lost
  // to an unrelated event (a chat line, a spectator).
  let seatsDrawn = "";
  let controlsDrawn = "";
  let optionsDrawn = "";

  function renderControls(): void {
    if (!view) return;
    const seat = mySeat();
    const game = view.game;
    const other = seat === "white" ? "black" : "white";
    const controlsKey = JSON.stringify([
      seat,
      running(),
      !!view.seats.white,
      !!view.seats.black,
      game?.draw_offer,
      game?.takeback_request,
      gameButtons(game, seat),
      seat ? nameOf(other) : null,
    ]);
    const optionsKey = JSON.stringify([seat && !running(), view.options]);
    if (controlsKey !== controlsDrawn) {
      controlsDrawn = controlsKey;
      drawControls();
    }
    if (optionsKey !== optionsDrawn) {
      optionsDrawn = optionsKey;
      drawOptions();
    }
  }

  function drawControls(): void {
    if (!view) return;
    const seat = mySeat();
    const game = view.game;
    const buttons: HTMLElement[] = [];
    const button = (key: Key, testid: string, run: () => void, title?: string) =>
      buttons.push(h("button", { type: "button", "data-testid": testid, title, onclick: run }, t(key)));
    if (seat && !running()) {
      if (view.seats.white && view.seats.black) button("table.start", "start", () => void command({ command: "start" }));
      if (!view.seats[seat === "white" ? "black" : "white"]) {
        const level = h("select", { "data-testid": "bot-level", "aria-label": t("lobby.level") }) as HTMLSelectElement;
        for (let l = 1; l <= 10; l++) level.append(h("option", { value: l }, `${t("lobby.level")} ${l}`));
        level.value = "3";
        buttons.push(level);
        button("table.bot", "bot", () => void command({ command: "bot", level: Number(level.value) }));
      }
      button("table.leave", "leave", () => void command({ command: "leave" }));
    }
    const playing = gameButtons(game, seat);
    if (seat && playing) {
      const other = opponent(seat);
      if (playing.answer) {
        const what = playing.answer === "draw" ? "table.drawOffered" : "table.takebackRequested";
        buttons.push(h("span", { class: "offer", "data-testid": "offer" }, t(what, { player: nameOf(other) })));
        button("table.accept", "accept", () => void command({ command: "accept" }));
        button("table.decline", "decline", () => void command({ command: "decline" }));
      }
      if (playing.claim) {
        button("table.claimWin", "claim-win", () => void command({ command: "claim", draw: false }));
        button("table.claimDraw", "claim-draw", () => void command({ command: "claim", draw: true }));
      }
      button("table.draw", "draw", () => void command({ command: "draw" }));
      const left = t("table.takebacksLeft", { left: playing.takebacksLeft, limit: TAKEBACK_LIMIT });
      button("table.takeback", "takeback", () => void command({ command: "takeback" }), left);
      if (playing.abort) buttons.push(confirmButton("table.abort", "table.abortConfirm", "abort", { command: "abort" }));
      buttons.push(confirmButton("table.resign", "table.resignConfirm", "resign", { command: "resign" }));
    }
    replace(controls, buttons);
  }

  /** Resigning and aborting take two clicks: the first asks for a second within a few seconds. */
  function confirmButton(key: Key, confirmKey: Key, testid: string, c: Command): HTMLElement {
    const b = h("button", { type: "button", "data-testid": testid }, t(key));
    let timer: number | undefined;
    b.onclick = () => {
      if (b.dataset.confirm) {
        window.clearTimeout(timer);
        void command(c);
        return;
      }
      b.dataset.confirm = "true";
      b.classList.add("confirm");
      b.textContent = t(confirmKey);
      timer = window.setTimeout(() => {
        delete b.dataset.confirm;
        b.classList.remove("confirm");
        b.textContent = t(key);
      }, CONFIRM_MS);
    };
    return b;
  }

  /** The options form: seated players change the options between games. */
  function drawOptions(): void {
    if (!view) return;
    if (mySeat() && !running()) {
      const wasOpen = optionsBox.querySelector("details")?.open ?? false;
      const form = optionsForm(view.options);
      const apply = h("button", { type: "submit", "data-testid": "apply-options" }, t("table.apply"));
      form.el.append(apply);
      form.el.addEventListener("submit", (e) => {
        e.preventDefault();
        void applyOptions(view!.options, form.read());
      });
      replace(optionsBox, h("details", { open: wasOpen }, h("summary", {}, t("table.options")), form.el));
    } else {
      replace(optionsBox);
    }
  }

  /** Sends one `/option` per changed setting (the variant first: it clears a handicap). */
  async function applyOptions(old: TableOptions, next: TableOptions): Promise<void> {
    const changes: OptionChange[] = [];
    if (next.variant !== old.variant) changes.push({ option: "variant", variant: next.variant });
    const h1 = JSON.stringify(next.handicap ?? null);
    if (h1 !== JSON.stringify(old.handicap ?? null) || (next.variant !== old.variant && next.handicap)) {
      if (next.handicap) changes.push({ option: "handicap", white: next.handicap.white, black: next.handicap.black });
    }
    if (JSON.stringify(next.time ?? null) !== JSON.stringify(old.time ?? null)) changes.push({ option: "time", time: next.time });
    if ((next.turn_limit ?? null) !== (old.turn_limit ?? null)) changes.push({ option: "turns", limit: next.turn_limit });
    if (next.log !== old.log) changes.push({ option: "log", on: next.log });
    for (const change of changes) {
      if (!(await command({ command: "option", change }))) break;
    }
  }

  function renderGame(): void {
    if (!view) return;
    const game = view.game;
    const seat = mySeat();
    flipped = seat === "black";
    board.setFlipped(flipped);
    if (!game) {
      board.update({
        board: { rings: { white: [], black: [] }, markers: { white: [], black: [] } },
        toMove: "white",
        stage: "place",
        legal: [],
        myColor: null,
      });
      turnLine.textContent = t("table.waiting");
      showPass(false);
      replace(moveList);
      poolLine.textContent = "";
      replace(resultBox);
      return;
    }
    const mine = running() && seat === game.to_move;
    board.update({
      board: game.board,
      toMove: game.to_move,
      stage: game.stage,
      legal: mine ? game.legal : [],
      myColor: seat,
      lastAction,
    });
    lastAction = null;
    showPass(mine && game.legal.includes("pass"));
    turnLine.textContent = turnText(game, mine);
    poolLine.textContent = t("table.pool", { count: game.pool });
    replace(
      moveList,
      game.moves.map((m, i) => h("li", { "data-ply": i + 1 }, m)),
    );
    moveList.scrollTop = moveList.scrollHeight;
    if (game.result) {
      const r = game.result;
      const reason = t(`reason.${r.termination}` as Key);
      const text = r.winner ? t("result.win", { player: nameOf(r.winner), reason }) : t("result.draw", { reason });
      replace(
        resultBox,
        h("strong", {}, `${r.score} — ${text}`),
        view.options.log ? h("a", { href: `#/replay/${game.id}`, "data-testid": "replay-link" }, t("table.replay")) : null,
      );
    } else {
      replace(resultBox);
    }
  }

  function turnText(game: GameView, mine: boolean): string {
    if (game.stage === "over") return "";
    if (mine) {
      if (game.legal.length === 1 && game.legal[0] === "pass") return t("turn.you.pass");
      return t(`turn.you.${game.stage}` as Key);
    }
    return t(`turn.other.${game.stage}` as Key, { player: nameOf(game.to_move) });
  }

  function renderAll(): void {
    if (!view) return;
    optionsLine.textContent = describeOptions(view.options);
    const more = view.spectator_count - view.spectators.length;
    spectatorsLine.textContent = view.spectator_count
      ? t("table.spectators", { names: view.spectators.join(", ") + (more > 0 ? ` +${more}` : "") })
      : t("table.noSpectators");
    renderSeats();
    renderControls();
    renderGame();
  }

  // ---- Events ----
  function onMessage(msg: ServerMessage): void {
    if (msg.type === "error") {
      replace(root, h("p", { class: "message" }, msg.text), h("a", { href: "#/" }, t("table.back")));
      return;
    }
    if (msg.type === "snapshot") {
      view = msg.table;
      clocksAt = performance.now();
      replace(chatLog);
      for (const line of view.chat) log(line.text, "chat", line.from);
      renderAll();
      return;
    }
    if (msg.type === "clocks" && view?.game) {
      view.game.clocks = msg.clocks;
      clocksAt = performance.now();
      renderClocks();
      return;
    }
    if (msg.type !== "event" || !view) return;
    const event = msg.event;
    applyEvent(view, msg);
    if (event.kind === "acted") lastAction = event.action;
    if (event.kind === "aborted") lastAction = null;
    if (event.kind === "chat") log(event.line.text, "chat", event.line.from);
    if (msg.game || msg.clocks) clocksAt = performance.now();
    const text = describeEvent(event, nameOf);
    if (text) log(text);
    if (event.kind === "game_over" && view.game?.result) {
      const r = view.game.result;
      const reason = t(`reason.${r.termination}` as Key);
      log(r.winner ? t("result.win", { player: nameOf(r.winner), reason }) : t("result.draw", { reason }));
    }
    renderAll();
  }

  // ---- Input ----
  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    chatInput.value = "";
    // Slash commands answer in the log; plain chat shows up as its event.
    void request(() => conn.request({ type: "chat", table: id, text }), !text.startsWith("/"));
  });
  moveInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const token = moveInput.value.trim().toLowerCase();
      moveInput.value = "";
      if (token) void act(token);
    }
  });
  /** Typing a move anywhere on the page goes to the move field. */
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[a-kpx]$/i.test(e.key) && running() && mySeat() === view?.game?.to_move) {
      moveInput.focus();
    }
  };
  document.addEventListener("keydown", onKey);
  const tick = setInterval(() => {
    if (running() && view?.game?.clocks?.running) renderClocks();
  }, 100);

  const stopWatching = conn.watchTable(id, onMessage);
  const stopPlayer = conn.onPlayer(() => renderAll());
  return () => {
    stopWatching();
    stopPlayer();
    clearInterval(tick);
    document.removeEventListener("keydown", onKey);
    board.destroy();
  };
}
