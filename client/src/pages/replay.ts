// The replay viewer: one archived game, frame by frame. Frame n is the position
// after n actions (frame 0 the empty board); the controls, the slider, the keyboard
// and the move list all move between frames. The frame shown is kept in the address
// (`#/replay/<id>?ply=n`, replaced in place) so a reload or a shared link returns to it.
// The computer analysis (analysis-view.ts) adds its bar, graph, marks and the engine's
// choice to whatever frame is on show.

import "./archive.css";
import { BoardView } from "../board/view";
import type { Connection } from "../connection";
import { formatClock, h, replace } from "../dom";
import { t } from "../i18n";
import type { ArchivedGame, Pair, SeatColor } from "../protocol";
import { errorText, formatDate, optionsSummary, playerName } from "./archive";
import { resultSentence } from "./result-words";
import { nameMarks } from "./guest";
import { nameOrLink } from "./ratings";
import { fitToScreen } from "./gamepage";
import { controlIcon as icon, type ControlIconName } from "./control-icons";
import { animatedAction, archivedTurns, clampPly, clocksAt, playableActions, plyForKey, plyFromHash, replayHash, replayMarks, targetsOf } from "./replay-frames";
import { renderTurns, scrollListTo } from "./move-list";
import { removedSlots } from "./player-bar";
import { ReplayAnalysis } from "./analysis-view";
import { playOnPanel } from "./play-on";
import { recordHash } from "./board-address";

/** Milliseconds between actions while playing automatically. */
export const AUTOPLAY_MS = 800;

const COLORS: SeatColor[] = ["white", "black"];

/**
 * Whether a key press belongs to a field that uses that key itself: text fields
 * and menus keep every key; the slider moves itself with the arrows and Home/End
 * (its `input` event follows) and leaves only Space to us.
 */
function keyTakenBy(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return (target as HTMLInputElement).type === "range" ? key !== " " : true;
  return false;
}

export function mountReplay(root: HTMLElement, conn: Connection, id: string): () => void {
  /** Removes every listener this page added, and cancels the request in flight. */
  const life = new AbortController();
  let board: BoardView | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopFit: (() => void) | null = null;
  let analysis: ReplayAnalysis | null = null;

  const status = h("p", { class: "replay-status", role: "status" }, t("archive.loading"));
  const page = h(
    "section",
    { class: "replay-page" },
    h("p", { class: "replay-crumbs" }, h("a", { href: "#/archive" }, `‹ ${t("replay.toArchive")}`)),
    h("h1", {}, t("replay.title")),
    status,
  );
  replace(root, page);

  void load();

  async function load(): Promise<void> {
    try {
      const response = await fetch(`/api/archive/${encodeURIComponent(id)}`, { signal: life.signal });
      if (response.status === 404) {
        showError(t("replay.notFound"));
        return;
      }
      if (!response.ok) throw new Error(await errorText(response));
      const game = (await response.json()) as ArchivedGame;
      if (life.signal.aborted) return;
      show(game);
    } catch (err) {
      if (life.signal.aborted) return;
      showError(t("replay.error", { error: err instanceof Error ? err.message : String(err) }));
    }
  }

  function showError(text: string): void {
    status.textContent = text;
    status.classList.add("error");
    status.setAttribute("data-testid", "replay-error");
  }

  function show(game: ArchivedGame): void {
    const total = playableActions(game);
    const names = { white: playerName(game.white, game.white_bot), black: playerName(game.black, game.black_bot) };
    let ply = clampPly(plyFromHash(location.hash) ?? 0, total);
    let flipped = false;

    // ---- Header: players, date, options, result, download, the analysis board ----
    /** The frame on show on the analysis board, to play on from it (kept current by `render`). */
    const analysisLink = h("a", { href: recordHash(game.id, ply), "data-testid": "open-analysis-board" }, t("nav.board"));
    const header = h(
      "header",
      { class: "replay-header" },
      h(
        "p",
        { class: "replay-players" },
        h("span", { class: "swatch white", title: t("color.white") }),
        h("span", { "data-testid": "replay-white" }, nameOrLink(game.white, { bot: game.white_bot, guest: game.white_guest, imported: game.imported }, names.white)),
        nameMarks({ guest: game.white_guest, title: game.white_title }),
        " – ",
        h("span", { class: "swatch black", title: t("color.black") }),
        h("span", { "data-testid": "replay-black" }, nameOrLink(game.black, { bot: game.black_bot, guest: game.black_guest, imported: game.imported }, names.black)),
        nameMarks({ guest: game.black_guest, title: game.black_title }),
      ),
      h(
        "p",
        { class: "replay-meta" },
        t("replay.game", { id: game.id }),
        " · ",
        h("time", { datetime: new Date(game.started_at).toISOString() }, formatDate(game.started_at)),
        " · ",
        optionsSummary(game.options),
        game.imported ? ` · ${t("import.mark")}` : "",
      ),
      h("p", { class: "replay-result", "data-testid": "replay-result" }, resultSentence(game.result, names)),
      h(
        "p",
        { class: "replay-links" },
        h(
          "a",
          {
            href: `/api/archive/${encodeURIComponent(String(game.id))}/record`,
            download: `yinsh-${game.id}.txt`,
            "data-testid": "replay-download",
          },
          t("replay.download"),
        ),
        " · ",
        analysisLink,
      ),
    );

    // ---- Board and controls ----
    const boardBox = h("div", { class: "board-box", "data-testid": "replay-board" });

    // Icon buttons, named by `aria-label` (and `title` for a mouse).
    const button = (testid: string, name: ControlIconName, label: string): HTMLButtonElement =>
      h("button", { type: "button", "data-testid": testid, title: label, "aria-label": label }, icon(name));
    const startButton = button("replay-start", "start", t("replay.start"));
    const backButton = button("replay-back", "back", t("replay.back"));
    const playButton = button("replay-play", "play", t("replay.play"));
    const forwardButton = button("replay-forward", "forward", t("replay.forward"));
    const endButton = button("replay-end", "end", t("replay.end"));
    const flipButton = h("button", { type: "button", class: "replay-flip" }, t("table.flip"));
    const slider = h("input", {
      type: "range",
      min: 0,
      max: total,
      step: 1,
      "aria-label": t("replay.slider"),
      "data-testid": "replay-slider",
    });
    const position = h("p", { class: "replay-position", "data-testid": "replay-position", "aria-live": "polite" });
    const controls = h(
      "div",
      { class: "replay-controls" },
      h("div", { class: "replay-buttons" }, startButton, backButton, playButton, forwardButton, endButton),
      slider,
      h("div", { class: "replay-under" }, position, flipButton),
    );

    // ---- Side: the players' bars (name, rings removed, clock), who acts, the moves ----
    const targets = targetsOf(game.options);
    const turns = archivedTurns(game.moves, game.frames, total);
    const clockBoxes: Pair<HTMLElement> = {
      white: h("span", { class: "clock", "data-testid": "replay-clock-white" }),
      black: h("span", { class: "clock", "data-testid": "replay-clock-black" }),
    };
    const removedBoxes: Pair<HTMLElement> = { white: h("span"), black: h("span") };
    const bars: Pair<HTMLElement> = {
      white: h("div", { class: "player-bar white", "data-color": "white", "data-testid": "replay-bar-white" }),
      black: h("div", { class: "player-bar black", "data-color": "black", "data-testid": "replay-bar-black" }),
    };
    for (const c of COLORS) {
      bars[c].append(
        h("span", { class: `swatch ${c}`, title: t(`color.${c}`) }),
        h("span", { class: "bar-who" }, h("span", { class: "seat-name" }, names[c])),
        removedBoxes[c],
        ...(game.options.time ? [clockBoxes[c]] : []),
      );
    }
    const topSlot = h("div", { class: "bar-slot bar-top" });
    const bottomSlot = h("div", { class: "bar-slot bar-bottom" });
    const placeBars = () => {
      const bottom: SeatColor = flipped ? "black" : "white";
      topSlot.replaceChildren(bars[bottom === "white" ? "black" : "white"]);
      bottomSlot.replaceChildren(bars[bottom]);
    };
    placeBars();
    const turnLine = h("p", { class: "replay-turn", "data-testid": "replay-turn" });
    const poolLine = h("p", { class: "pool", "data-testid": "replay-pool" });
    const removedLine = h("p", { class: "pool", "data-testid": "replay-removed" });
    const moveList = h("ol", { class: "turns", "data-testid": "replay-moves", "aria-label": t("table.moves") });

    // ---- Computer analysis: its panel beside the details, bar and graph around the board ----
    const computer = new ReplayAnalysis({
      conn,
      game: game.id,
      total,
      names,
      actions: game.moves.map((m) => m.action),
      goTo: (next) => manual(next),
      changed: () => {
        layout.classList.toggle("has-analysis", computer.result !== null);
        render(null);
      },
    });
    analysis = computer;
    // A new game from the frame on show (kept current by `render`).
    const playOn = playOnPanel(conn);

    const layout = h(
      "div",
      { class: "game" },
      h(
        "div",
        { class: "game-extra" },
        h(
          "div",
          { class: "replay-head" },
          h("p", { class: "replay-crumbs" }, h("a", { href: "#/archive" }, `‹ ${t("replay.toArchive")}`)),
          h("h1", {}, t("replay.title")),
          header,
        ),
        computer.panel,
        playOn.el,
      ),
      h("div", { class: "game-board" }, computer.bar, boardBox, computer.graphSlot),
      h(
        "div",
        { class: "game-side" },
        topSlot,
        h("div", { class: "game-status" }, turnLine, computer.comment),
        h("div", { class: "game-moves" }, moveList, poolLine, removedLine),
        h("div", { class: "game-controls" }, controls),
        bottomSlot,
      ),
    );
    replace(page, layout);
    page.classList.add("game-page");
    stopFit = fitToScreen(layout);

    // Display only: no legal actions are ever given, so `onAction` is never called.
    // Made once the box is in the page, so that it can measure it.
    board = new BoardView(boardBox, { onAction: () => {} });

    // ---- Showing a frame ----

    /** Draws frame `next`; animates only a single step forward. */
    function goTo(next: number): void {
      next = clampPly(next, total);
      const lastAction = animatedAction(ply, next, game.moves);
      ply = next;
      render(lastAction);
    }

    function render(lastAction: string | null): void {
      const frame = game.frames[ply];
      board?.update({
        board: frame.board,
        toMove: frame.to_move,
        stage: frame.stage,
        legal: [],
        myColor: null,
        lastAction,
        marks: replayMarks(turns, game.frames, ply),
        hint: computer.hint(ply),
      });
      computer.show(ply);
      playOn.setPosition(frame.position);

      position.textContent = t("replay.position", { n: ply, total });
      slider.value = String(ply);
      startButton.disabled = backButton.disabled = ply === 0;
      forwardButton.disabled = endButton.disabled = ply === total;

      const times = clocksAt(game.moves, game.options, ply);
      for (const c of COLORS) {
        if (times) clockBoxes[c].textContent = formatClock(times[c]);
        bars[c].classList.toggle("to-move", frame.stage !== "over" && frame.to_move === c);
        bars[c].classList.toggle("active", frame.stage !== "over" && frame.to_move === c);
        replace(removedBoxes[c], removedSlots(frame.removed[c], targets[c]));
      }

      turnLine.textContent =
        frame.stage === "over" ? resultSentence(game.result, names) : t(`turn.other.${frame.stage}`, { player: names[frame.to_move] });
      poolLine.textContent = t("table.pool", { count: frame.pool });
      removedLine.textContent = `${t("table.removed")}: ${t("color.white")} ${frame.removed.white} · ${t("color.black")} ${frame.removed.black}`;

      renderTurns(moveList, turns, ply);
      computer.annotate(moveList);
      if (ply > 0) scrollListTo(moveList, ".act.current");
      else moveList.scrollTop = 0;

      analysisLink.setAttribute("href", recordHash(game.id, ply));

      // Keep the frame in the address without a `hashchange` (which would remount the page).
      const hash = replayHash(id, ply);
      if (location.hash !== hash) history.replaceState(history.state, "", hash);
    }

    // ---- Autoplay ----
    function setPlaying(on: boolean): void {
      if (timer !== null) clearInterval(timer);
      timer = null;
      if (on) {
        if (ply >= total) goTo(0); // Playing from the end starts over.
        timer = setInterval(() => {
          goTo(ply + 1);
          if (ply >= total) setPlaying(false);
        }, AUTOPLAY_MS);
      }
      const label = on ? t("replay.pause") : t("replay.play");
      playButton.replaceChildren(icon(on ? "pause" : "play"));
      playButton.title = label;
      playButton.setAttribute("aria-label", label);
      playButton.setAttribute("aria-pressed", String(on));
      playButton.disabled = total === 0;
    }

    /** A move made by hand stops the autoplay. */
    const manual = (next: number): void => {
      setPlaying(false);
      goTo(next);
    };

    const on = <K extends keyof HTMLElementEventMap>(
      el: HTMLElement,
      type: K,
      fn: (ev: HTMLElementEventMap[K]) => void,
    ): void => el.addEventListener(type, fn, { signal: life.signal });

    on(startButton, "click", () => manual(0));
    on(backButton, "click", () => manual(ply - 1));
    on(forwardButton, "click", () => manual(ply + 1));
    on(endButton, "click", () => manual(total));
    on(playButton, "click", () => setPlaying(timer === null));
    on(slider, "input", () => manual(Number(slider.value)));
    on(flipButton, "click", () => {
      board?.setFlipped((flipped = !flipped));
      placeBars();
    });
    on(moveList, "click", (ev) => {
      const item = (ev.target as Element).closest<HTMLElement>("[data-ply]");
      if (item) manual(Number(item.dataset.ply));
    });
    document.addEventListener(
      "keydown",
      (ev) => {
        if (ev.altKey || ev.ctrlKey || ev.metaKey || keyTakenBy(ev.target, ev.key)) return;
        if (ev.key === " ") {
          ev.preventDefault(); // No page scroll.
          if (!ev.repeat && total > 0) setPlaying(timer === null);
          return;
        }
        const next = plyForKey(ev.key, ply, total);
        if (next === null) return;
        ev.preventDefault();
        manual(next);
      },
      { signal: life.signal },
    );
    // Space would also "click" a focused button when released (the last one clicked
    // keeps the focus): here it only toggles the autoplay.
    document.addEventListener(
      "keyup",
      (ev) => {
        if (ev.key === " " && ev.target instanceof HTMLButtonElement && page.contains(ev.target)) ev.preventDefault();
      },
      { signal: life.signal },
    );

    setPlaying(false);
    render(null);
    computer.start();
  }

  return () => {
    life.abort();
    stopFit?.();
    analysis?.destroy();
    analysis = null;
    if (timer !== null) clearInterval(timer);
    timer = null;
    board?.destroy();
    board = null;
  };
}
