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

import "./analysis.css";
import "./analysis-board.css";
import { marksOf } from "../board/marks";
import { BoardView } from "../board/view";
import type { Connection, EngineLine, Refused } from "../connection";
import { h, replace } from "../dom";
import { t, tn, type Key } from "../i18n";
import type { ArchivedGame, BoardPosition, EvalView, Pair, ParsedRecord, PositionLine, PositionRequest, ResultView, SeatColor } from "../protocol";
import { favoured, formatEval } from "./analysis";
import { errorText, playerName, resultSentence } from "./archive";
import { playOnPanel } from "./play-on";
import { fitToScreen, keyTakenBy } from "./gamepage";
import { removedSlots } from "./player-bar";
import { COPIED_MS, copyText } from "./invite";
import { positionHash, recordHash, sourceFromHash, type BoardSource } from "./board-address";
import { MoveTree, lineText, treeItems, type TreeItem } from "./move-tree";
import { controlIcon } from "./control-icons";

const COLORS: SeatColor[] = ["white", "black"];
/** The most actions one `POST /api/position` takes (the server's limit). */
export const MAX_ACTIONS = 600;
/** How long the position on show must stay before the engine is asked about it: holding → does not send a search per step. */
const ASK_DELAY_MS = 150;
/** Where the engine switch is remembered. */
const ENGINE_KEY = "yinsh.engine";

// ---- Words ----

/**
 * The engine's evaluation for the panel: `+0.35` (rings, for White), `White wins in 3
 * actions` for a forced win, the score once the game is over.
 */
export function scoreText(view: EvalView): string {
  if (view.over === undefined && view.win !== undefined) {
    return tn("board.winsIn", Math.abs(view.win), { player: t(view.win > 0 ? "color.white" : "color.black") });
  }
  return formatEval(view);
}

/**
 * What the player to act must do, or that they must pass: by their name when the game
 * on the board names them (`Ann places a ring.`, the table's words), else by their
 * colour (`White places a ring.`, in a form of its own: Polish says it otherwise).
 */
export function promptText(position: Pick<BoardPosition, "stage" | "to_move" | "legal">, people: Pair<string | null>): string {
  const player = people[position.to_move];
  const side = t(`board.side.${position.to_move}`);
  const pass = position.legal.length === 1 && position.legal[0].toLowerCase() === "pass";
  if (pass) return player ? t("board.mustPass", { player }) : t("board.to.pass", { side });
  if (position.stage === "over") return "";
  return player ? t(`turn.other.${position.stage}` as Key, { player }) : t(`board.to.${position.stage}` as Key, { side });
}

/** `2026.03.21` as the record writes it, none when wholly unknown (`????.??.??`). */
export function knownDate(date: string): string | null {
  return /\d/.test(date) ? date : null;
}

/** Whether the engine switch is on (it is unless turned off in this browser). */
export function engineWanted(storage: Pick<Storage, "getItem"> | null = safeStorage()): boolean {
  try {
    return storage?.getItem(ENGINE_KEY) !== "off";
  } catch {
    return true;
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

function rememberEngine(on: boolean): void {
  try {
    localStorage.setItem(ENGINE_KEY, on ? "on" : "off");
  } catch {
    // Only for this page then.
  }
}

// ---- The server ----

async function postPosition(request: PositionRequest, signal: AbortSignal): Promise<BoardPosition[]> {
  const response = await fetch("/api/position", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok) throw new Error(await errorText(response));
  return ((await response.json()) as PositionLine).positions;
}

/** The start and the position after each action, asked in pieces of at most MAX_ACTIONS. */
export async function positionsAlong(start: string | undefined, actions: readonly string[], signal: AbortSignal): Promise<BoardPosition[]> {
  const out: BoardPosition[] = [];
  let from = start;
  let done = 0;
  do {
    const chunk = actions.slice(done, done + MAX_ACTIONS);
    const positions = await postPosition({ position: from, actions: chunk }, signal);
    out.push(...(out.length > 0 ? positions.slice(1) : positions));
    from = positions[positions.length - 1].position;
    done += chunk.length;
  } while (done < actions.length);
  return out;
}

// ---- The page ----

/** What is known of the game on the board (an archived or imported one). */
interface GameInfo {
  /** The players' names, where the game gives them. */
  readonly people: Pair<string | null>;
  readonly date: string | null;
  readonly result: ResultView | null;
  /** The archived game, for a link to its replay. */
  readonly archived: number | null;
}

export function mountAnalysisBoard(root: HTMLElement, conn: Connection): () => void {
  /** Removes every listener this page added, and cancels the requests in flight. */
  const life = new AbortController();
  const on = <K extends keyof HTMLElementEventMap>(el: EventTarget, type: K, fn: (ev: HTMLElementEventMap[K]) => void): void =>
    el.addEventListener(type, fn as EventListener, { signal: life.signal });

  let tree: MoveTree | null = null;
  let current = 0;
  /** The last node of the line being looked at: → and End follow it back into a variation. */
  let tip = 0;
  /** The archived game whose own actions are on the board, and their nodes (node → ply). */
  let record: { id: string; plies: Map<number, number> } | null = null;
  let game: GameInfo | null = null;
  /** The node an action was played from while its answer is awaited (the board takes no input). */
  let pending: number | null = null;
  let flipped = false;
  let board: BoardView | null = null;

  // ---- Elements ----
  const title = h("h1", {}, t("board.title"));
  const notice = h("p", { class: "ab-notice", role: "status", "data-testid": "board-notice", hidden: true });
  const gameLine = h("p", { class: "ab-game", "data-testid": "board-game", hidden: true });

  const linkField = h("input", { type: "text", readonly: true, class: "ab-link", "aria-label": t("board.link"), "data-testid": "board-link", spellcheck: "false" }) as HTMLInputElement;
  const copyButton = h("button", { type: "button", "data-testid": "board-copy" }, t("board.copyLink"));
  const copyNote = h("span", { class: "ab-copy-note", role: "status" });
  const positionField = h("input", { type: "text", class: "ab-position", "aria-label": t("board.positionField"), "data-testid": "board-position", spellcheck: "false", autocomplete: "off" }) as HTMLInputElement;
  const setUpButton = h("button", { type: "button", "data-testid": "board-set-up" }, t("board.setUp"));
  const setUpNote = h("p", { class: "ab-error", role: "status", "data-testid": "board-set-up-error", hidden: true });
  const share = h(
    "section",
    { class: "ab-share" },
    h("label", { class: "ab-field" }, h("span", {}, t("board.link")), h("span", { class: "ab-row" }, linkField, copyButton)),
    copyNote,
    h("label", { class: "ab-field" }, h("span", {}, t("board.positionField")), h("span", { class: "ab-row" }, positionField, setUpButton)),
    setUpNote,
  );

  const importText = h("textarea", {
    class: "import-text",
    rows: 4,
    "aria-label": t("board.importText"),
    placeholder: t("board.importPlaceholder"),
    spellcheck: "false",
    "data-testid": "import-text",
  }) as HTMLTextAreaElement;
  const importFile = h("input", { type: "file", accept: ".txt,.sgf,.record,text/plain", "data-testid": "import-file", "aria-label": t("board.importFile") }) as HTMLInputElement;
  const importButton = h("button", { type: "button", class: "primary", "data-testid": "import-submit", disabled: true }, t("board.importButton"));
  const importNote = h("p", { class: "ab-error", role: "status", "data-testid": "import-error", hidden: true });
  const importPanel = h(
    "section",
    { class: "ab-import", "data-testid": "board-import" },
    h("h2", {}, t("board.import")),
    h("p", { class: "ab-explain" }, t("board.importExplain")),
    importText,
    h("div", { class: "ab-row" }, importButton, h("label", { class: "import-file" }, h("span", {}, t("board.importFile")), importFile)),
    importNote,
  );

  // The engine: a switch, the score and depth, the line; the bar above the board.
  const engineSwitch = h("input", { type: "checkbox", role: "switch", "data-testid": "engine-switch" }) as HTMLInputElement;
  const engineScore = h("span", { class: "engine-score", "data-testid": "engine-score" });
  const engineDepth = h("span", { class: "engine-depth", "data-testid": "engine-depth" });
  const engineBody = h("p", { class: "engine-line", "data-testid": "engine-line", "aria-live": "polite" });
  const enginePanel = h(
    "section",
    { class: "ab-engine", "data-testid": "board-engine" },
    h("div", { class: "engine-head" }, h("label", { class: "engine-toggle" }, engineSwitch, h("span", {}, t("board.engine"))), engineScore, engineDepth),
    engineBody,
  );
  const evalBar = h("div", { class: "eval-bar", "data-testid": "eval-bar", hidden: true });

  const boardBox = h("div", { class: "board-box", "data-testid": "board-board" });
  const turnLine = h("p", { class: "turn", "data-testid": "board-turn", role: "status" });
  const passButton = h("button", { type: "button", class: "primary", "data-testid": "board-pass", hidden: true }, t("table.pass"));
  const actionNote = h("p", { class: "miss", role: "status", "data-testid": "board-action-error", hidden: true });
  const poolLine = h("p", { class: "pool", "data-testid": "board-pool" });
  const treeBox = h("div", { class: "move-tree", "data-testid": "board-tree", "aria-label": t("table.moves") });

  const iconButton = (testid: string, name: Parameters<typeof controlIcon>[0], label: string): HTMLButtonElement =>
    h("button", { type: "button", "data-testid": testid, title: label, "aria-label": label }, controlIcon(name));
  const startButton = iconButton("board-start", "start", t("replay.start"));
  const backButton = iconButton("board-back", "back", t("replay.back"));
  const forwardButton = iconButton("board-forward", "forward", t("replay.forward"));
  const endButton = iconButton("board-end", "end", t("replay.end"));
  const undoButton = h("button", { type: "button", "data-testid": "board-undo", title: t("board.undoTitle") }, t("board.undo"));
  const flipButton = h("button", { type: "button", "data-testid": "board-flip" }, t("table.flip"));
  const deleteButton = h("button", { type: "button", "data-testid": "board-delete", title: t("board.deleteTitle") }, t("board.delete"));
  const promoteButton = h("button", { type: "button", "data-testid": "board-promote", title: t("board.promoteTitle") }, t("board.promote"));

  const people = (): Pair<string | null> => game?.people ?? { white: null, black: null };
  /** The players as the page names them: by name, else by colour. */
  const names = (): Pair<string> => ({ white: people().white ?? t("color.white"), black: people().black ?? t("color.black") });
  const nameBoxes: Pair<HTMLElement> = { white: h("span", { class: "seat-name" }), black: h("span", { class: "seat-name" }) };
  const removedBoxes: Pair<HTMLElement> = { white: h("span"), black: h("span") };
  const bars: Pair<HTMLElement> = {
    white: h("div", { class: "player-bar white", "data-testid": "board-bar-white" }),
    black: h("div", { class: "player-bar black", "data-testid": "board-bar-black" }),
  };
  for (const c of COLORS) bars[c].append(h("span", { class: `swatch ${c}`, title: t(`color.${c}`) }), h("span", { class: "bar-who" }, nameBoxes[c]), removedBoxes[c]);
  const topSlot = h("div", { class: "bar-slot bar-top" });
  const bottomSlot = h("div", { class: "bar-slot bar-bottom" });
  const placeBars = (): void => {
    const bottom: SeatColor = flipped ? "black" : "white";
    topSlot.replaceChildren(bars[bottom === "white" ? "black" : "white"]);
    bottomSlot.replaceChildren(bars[bottom]);
  };
  placeBars();

  // A new game from the position on show (kept current by `render`).
  const playOn = playOnPanel(conn);

  const layout = h(
    "div",
    { class: "game" },
    h("div", { class: "game-extra" }, h("div", { class: "ab-head" }, title, gameLine), notice, share, playOn.el, importPanel),
    h("div", { class: "game-board" }, evalBar, boardBox),
    h(
      "div",
      { class: "game-side" },
      topSlot,
      enginePanel,
      h("div", { class: "game-status" }, turnLine, h("div", { class: "controls-row" }, passButton), actionNote),
      h("div", { class: "game-moves" }, treeBox, poolLine),
      h(
        "div",
        { class: "game-controls" },
        h("div", { class: "ab-nav" }, startButton, backButton, forwardButton, endButton),
        h("div", { class: "controls-row" }, undoButton, flipButton, deleteButton, promoteButton),
      ),
      bottomSlot,
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
    const response = await fetch(`/api/archive/${encodeURIComponent(id)}`, { signal: life.signal });
    if (response.status === 404) throw new Error(t("replay.notFound"));
    if (!response.ok) throw new Error(await errorText(response));
    const archived = (await response.json()) as ArchivedGame;
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
    game = info;
    pending = null;
    current = tip = tree.root;
    drawGame();
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

  const back = (): void => step(tree?.get(current).parent ?? null);
  const forward = (): void => step(tree?.forward(current, tip) ?? null);
  const toStart = (): void => step(tree?.root ?? null);
  const toEnd = (): void => step(tree ? tree.end(current, tip) : null);

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
    renderTree();
    renderControls();
    keepAddress();
    askEngine();
    renderEngine();
    playOn.setPosition(shown().position);
  }

  function shown(): BoardPosition {
    return tree!.get(current).position;
  }

  function renderBoard(lastAction: string | null): void {
    if (!tree || !board) return;
    const node = tree.get(current);
    const position = node.position;
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
      hint: engineHint(),
    });
    passButton.hidden = pending !== null || !position.legal.some((a) => a.toLowerCase() === "pass");
  }

  function renderStatus(): void {
    const position = shown();
    const over = position.stage === "over";
    turnLine.textContent = over && position.result ? `${position.result.score} — ${resultSentence(position.result, names())}` : promptText(position, people());
    turnLine.classList.toggle("ab-over", over);
    turnLine.dataset.stage = position.stage;
    turnLine.dataset.toMove = position.to_move;
    const pool = t("table.pool", { count: position.pool });
    poolLine.textContent = position.turn_limit ? `${pool} · ${t("board.ringMoves", { count: position.ring_moves, limit: position.turn_limit })}` : pool;
    for (const c of COLORS) {
      const acting = !over && position.to_move === c;
      bars[c].classList.toggle("to-move", acting);
      replace(removedBoxes[c], removedSlots(position.removed[c], position.targets[c]));
    }
  }

  /** The players' names and what is known of the game, when one is loaded. */
  function drawGame(): void {
    const n = names();
    for (const c of COLORS) nameBoxes[c].textContent = n[c];
    if (!game) {
      gameLine.hidden = true;
      replace(gameLine);
      return;
    }
    const parts: (Node | string)[] = [
      h("span", { class: "swatch white", "aria-hidden": "true" }),
      h("span", { "data-testid": "board-game-white" }, n.white),
      " – ",
      h("span", { class: "swatch black", "aria-hidden": "true" }),
      h("span", { "data-testid": "board-game-black" }, n.black),
    ];
    if (game.date) parts.push(` · ${game.date}`);
    if (game.result) parts.push(" · ", h("span", { "data-testid": "board-game-result" }, `${game.result.score} — ${resultSentence(game.result, n)}`));
    if (game.archived !== null) {
      parts.push(" · ", h("a", { href: `#/replay/${game.archived}`, "data-testid": "board-replay-link" }, t("replay.game", { id: game.archived })));
    }
    replace(gameLine, parts);
    gameLine.hidden = false;
  }

  function renderTree(): void {
    if (!tree) return;
    const items = treeItems(tree);
    if (items.length === 0) {
      replace(treeBox, h("p", { class: "tree-empty" }, t("board.treeEmpty")));
      return;
    }
    const draw = (list: readonly TreeItem[], depth: number): Node[] =>
      list.map((item) => {
        if (item.kind === "variation") {
          // Variations of the main line stand apart under the move they replace; deeper ones in parentheses.
          return depth === 0
            ? h("div", { class: "tree-variation", "data-testid": "tree-variation" }, draw(item.items, depth + 1))
            : h("span", { class: "tree-sub", "data-testid": "tree-variation" }, "(", draw(item.items, depth + 1), ")");
        }
        const here = item.id === current;
        return h(
          "span",
          { class: "tree-step" },
          item.number ? h("span", { class: "tree-n" }, item.number) : item.sep ? h("span", { class: "sep" }, item.sep) : null,
          h("button", { type: "button", class: `tree-move${here ? " current" : ""}`, "data-node": item.id, "data-token": item.token, tabindex: -1, "aria-current": here ? "step" : null, "data-testid": "tree-move" }, item.token),
        );
      });
    replace(treeBox, draw(items, 0));
    const mark = treeBox.querySelector<HTMLElement>(".tree-move.current");
    if (!mark) {
      treeBox.scrollTop = 0;
      return;
    }
    // The box is the offset parent (positioned in the CSS): keep the current move in sight.
    const top = mark.offsetTop;
    const bottom = top + mark.offsetHeight;
    if (top < treeBox.scrollTop) treeBox.scrollTop = top - 4;
    else if (bottom > treeBox.scrollTop + treeBox.clientHeight) treeBox.scrollTop = bottom - treeBox.clientHeight + 4;
  }

  function renderControls(): void {
    if (!tree) return;
    const node = tree.get(current);
    const atStart = node.parent === null;
    startButton.disabled = backButton.disabled = undoButton.disabled = deleteButton.disabled = atStart;
    forwardButton.disabled = endButton.disabled = tree.forward(current, tip) === null;
    promoteButton.disabled = tree.isMainLine(current);
  }

  /** The address and the link field say the position on show (replaced: Back leaves the page, not a step). */
  function keepAddress(): void {
    const ply = record && tree?.has(current) ? record.plies.get(current) : undefined;
    const hash = record && ply !== undefined ? recordHash(record.id, ply) : positionHash(shown().position);
    if (location.hash !== hash) history.replaceState(history.state, "", hash);
    linkField.value = location.href;
    if (document.activeElement !== positionField) positionField.value = shown().position;
  }

  // ---- The engine ----

  let engineOn = engineWanted();
  engineSwitch.checked = engineOn;
  /** The deepest line heard of each position (going back to one shows it at once). */
  const lines = new Map<string, EngineLine>();
  /** Refusals, by position. */
  const refusals = new Map<string, string>();
  /** Positions the server said must wait for the engine (others' searches first). */
  const queued = new Set<string>();
  /** The position the engine was last asked about, and the search's stop. */
  let asked: string | null = null;
  let stopSearch: (() => void) | null = null;
  let askTimer: ReturnType<typeof setTimeout> | undefined;

  function askEngine(): void {
    if (!engineOn || !tree) return;
    const position = shown().position;
    if (position === asked) return;
    asked = position;
    clearTimeout(askTimer);
    refusals.delete(position);
    queued.delete(position);
    if (lines.get(position)?.done) {
      // Finished before: nothing to search again; the engine is left to others.
      stop();
      return;
    }
    askTimer = setTimeout(() => {
      if (asked !== position || !engineOn) return;
      stopSearch = conn.analyse(
        position,
        onLine,
        (err) => onRefused(position, err),
        () => onQueued(position),
      );
    }, ASK_DELAY_MS);
  }

  function stop(): void {
    clearTimeout(askTimer);
    stopSearch?.();
    stopSearch = null;
  }

  function onLine(line: EngineLine): void {
    if (life.signal.aborted) return;
    const known = lines.get(line.position);
    if (known && line.depth < known.depth) return;
    lines.set(line.position, line);
    if (tree && line.position === shown().position) {
      renderEngine();
      renderBoard(null);
    }
  }

  function onQueued(position: string): void {
    if (life.signal.aborted) return;
    queued.add(position);
    if (tree && position === shown().position) renderEngine();
  }

  function onRefused(position: string, err: Refused): void {
    if (life.signal.aborted) return;
    refusals.set(position, err.text);
    if (tree && position === shown().position) renderEngine();
  }

  /** The engine's choice in the position on show, for the board. */
  function engineHint(): string | null {
    if (!engineOn || !tree) return null;
    return lines.get(shown().position)?.line[0] ?? null;
  }

  function setEngine(next: boolean): void {
    engineOn = next;
    rememberEngine(next);
    if (!next) {
      stop();
      asked = null;
    } else {
      askEngine();
    }
    renderEngine();
    renderBoard(null);
  }

  function renderEngine(): void {
    if (!tree) return;
    enginePanel.dataset.state = "off";
    if (!engineOn) {
      engineScore.textContent = "";
      engineDepth.textContent = "";
      engineBody.textContent = t("board.engineOff");
      evalBar.hidden = true;
      layout.classList.remove("has-eval");
      return;
    }
    const position = shown().position;
    const refused = refusals.get(position);
    const line = lines.get(position);
    layout.classList.add("has-eval");
    if (refused && !line) {
      enginePanel.dataset.state = "refused";
      engineScore.textContent = "";
      engineDepth.textContent = "";
      replace(engineBody, h("span", { class: "engine-refused", "data-testid": "engine-refused" }, refused));
      drawBar(null);
      return;
    }
    if (!line) {
      // Asked and waiting (the search is asked again once the connection is back).
      const online = conn.state === "open";
      enginePanel.dataset.state = online ? "thinking" : "offline";
      engineScore.textContent = "";
      engineDepth.textContent = "";
      const waiting = queued.has(position) ? t("analysis.queued") : t("board.thinking");
      replace(
        engineBody,
        online
          ? h("span", { class: "engine-thinking", "data-testid": "engine-thinking" }, h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")), " ", waiting)
          : h("span", { class: "engine-refused" }, t("conn.offline")),
      );
      drawBar(null);
      return;
    }
    enginePanel.dataset.state = line.done ? "done" : "searching";
    engineScore.textContent = scoreText(line.eval);
    engineScore.dataset.side = favoured(line.eval) ?? "even";
    replace(
      engineDepth,
      t("board.depth", { depth: line.depth, seconds: (line.time_ms / 1000).toFixed(1) }),
      line.done ? null : h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")),
    );
    engineDepth.dataset.depth = String(line.depth);
    const text = notation(line);
    replace(engineBody, line.line.length > 0 ? h("span", { "data-testid": "engine-moves", "data-best": line.line[0], title: t("analysis.line", { line: text }) }, text) : null);
    drawBar(line.eval);
  }

  /** The bar: White's win chance as the white share, the score on the side it favours; empty while unknown. */
  function drawBar(view: EvalView | null): void {
    evalBar.hidden = false;
    evalBar.classList.toggle("eval-pending", !view);
    if (!view) {
      const even = h("span", { class: "eval-white" });
      even.style.width = "50%";
      replace(evalBar, even, h("span", { class: "eval-mid", "aria-hidden": "true" }));
      evalBar.removeAttribute("title");
      evalBar.removeAttribute("aria-label");
      return;
    }
    const text = formatEval(view);
    const white = h("span", { class: "eval-white" });
    white.style.width = `${(Math.min(1, Math.max(0, view.white_chance)) * 100).toFixed(1)}%`;
    replace(evalBar, white, h("span", { class: "eval-mid", "aria-hidden": "true" }), h("span", { class: `eval-text ${favoured(view) ?? "white"}`, "data-testid": "eval-text" }, text));
    evalBar.setAttribute("role", "img");
    evalBar.setAttribute("aria-label", t("analysis.eval", { eval: text }));
    evalBar.title = t("analysis.eval", { eval: text });
  }

  /** The line in turn notation: the server says who plays each of its actions. */
  function notation(line: EngineLine): string {
    if (!tree || line.movers.length !== line.line.length) return line.line.join(" ");
    const node = tree.get(current);
    return lineText(line.line, line.movers, { turn: node.turn, actor: node.actor });
  }

  // ---- Import, set up, share ----

  async function importRecord(text: string): Promise<void> {
    importNote.hidden = true;
    importButton.disabled = true;
    importButton.textContent = t("board.importing");
    try {
      const response = await fetch("/api/record/parse", { method: "POST", headers: { "content-type": "text/plain; charset=utf-8" }, body: text, signal: life.signal });
      if (!response.ok) throw new Error(await errorText(response));
      const parsed = (await response.json()) as ParsedRecord;
      if (life.signal.aborted) return;
      const known = (name: string) => (name && name !== "?" ? name : null);
      load(parsed.positions, parsed.actions, {
        people: { white: known(parsed.white), black: known(parsed.black) },
        date: knownDate(parsed.date),
        result: parsed.result ?? null,
        archived: null,
      });
      hideNotice();
      goTo(tree!.root, null);
    } catch (err) {
      if (life.signal.aborted) return;
      importNote.textContent = t("board.importError", { error: message(err) });
      importNote.hidden = false;
    } finally {
      importButton.textContent = t("board.importButton");
      importButton.disabled = importText.value.trim() === "";
    }
  }

  async function setUp(): Promise<void> {
    const text = positionField.value.trim();
    if (!text) return;
    try {
      await openPosition(text);
      setUpNote.hidden = true;
      hideNotice();
    } catch (err) {
      if (life.signal.aborted) return;
      setUpNote.textContent = t("board.openError", { error: message(err) });
      setUpNote.hidden = false;
    }
  }

  let copiedTimer: ReturnType<typeof setTimeout> | undefined;
  async function copyLink(): Promise<void> {
    const copied = await copyText(location.href, typeof navigator === "undefined" ? undefined : navigator.clipboard);
    clearTimeout(copiedTimer);
    if (copied) {
      copyButton.textContent = t("invite.copied");
      copyNote.textContent = "";
      copiedTimer = setTimeout(() => {
        copyButton.textContent = t("board.copyLink");
      }, COPIED_MS);
    } else {
      linkField.focus();
      linkField.select();
      copyNote.textContent = t("invite.select");
    }
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

  on(passButton, "click", () => void act("pass"));
  on(startButton, "click", toStart);
  on(backButton, "click", back);
  on(forwardButton, "click", forward);
  on(endButton, "click", toEnd);
  on(undoButton, "click", undo);
  on(deleteButton, "click", deleteHere);
  on(promoteButton, "click", promote);
  on(flipButton, "click", () => {
    board?.setFlipped((flipped = !flipped));
    placeBars();
  });
  on(treeBox, "click", (ev) => {
    const move = (ev.target as Element).closest<HTMLElement>("[data-node]");
    if (move) step(Number(move.dataset.node));
  });
  on(engineSwitch, "change", () => setEngine(engineSwitch.checked));
  on(importText, "input", () => {
    importButton.disabled = importText.value.trim() === "";
  });
  on(importButton, "click", () => void importRecord(importText.value));
  on(importFile, "change", () => {
    const file = importFile.files?.[0];
    if (!file) return;
    void file.text().then((text) => {
      importFile.value = ""; // the same file can be chosen again
      return importRecord(text);
    });
  });
  on(copyButton, "click", () => void copyLink());
  on(linkField, "focus", () => linkField.select());
  on(setUpButton, "click", () => void setUp());
  on(positionField, "keydown", (ev) => {
    if (ev.key === "Enter") void setUp();
  });
  on(document, "keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || keyTakenBy(ev.target)) return;
    const moves: Record<string, () => void> = { ArrowLeft: back, ArrowRight: forward, Home: toStart, End: toEnd };
    const run = moves[ev.key];
    if (!run) return;
    ev.preventDefault();
    run();
  });

  const stopState = conn.onState(() => renderEngine());

  return () => {
    life.abort();
    stopState();
    stop();
    clearTimeout(copiedTimer);
    stopFit();
    board?.destroy();
    board = null;
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
