// The lobby: the tables in sections (open to sit down, games to watch, finished ones
// apart and folded, each rated or casual), who is online (the registered players by
// name, linked to their pages), creating a table (rated or casual) and playing the
// engine with a colour and a clock of one's choice; the correspondence seeks that stand
// for days.

import "./lobby.css";
import type { Connection, Refused } from "../connection";
import { h, replace } from "../dom";
import { engineName, t, tn } from "../i18n";
import type { PlayerView, SeatColor, Stats, TableOptions, TableSummary } from "../protocol";
import { resultSummary } from "./result-words";
import { ENGINE_CLOCKS, engineTime, sections, pickColor, type TableState } from "./lobby-sections";
import { nameMarks } from "./guest";
import { describeOptions, paceOf, paceSelect } from "./options";
import { nameOrLink, playerLink, ratedMark } from "./ratings";
import { fillLevels } from "./engine-levels";
import { quickPairing } from "./quick";
import { corresSeeks } from "./corres-seeks";
import { arenaBox } from "./tournaments";
import { newTable, tableHash } from "./new-table";


/** How often the lobby asks `/api/stats` while it is shown. */
export const STATS_INTERVAL_MS = 10_000;
/** The registered players online named in the lobby; more are counted (`+12`). */
export const ACCOUNTS_SHOWN = 20;

export function mountLobby(root: HTMLElement, conn: Connection): () => void {
  const tables = new Map<string, TableSummary>();
  const life = new AbortController();

  // ---- Who is online ----
  const stats = h("p", { class: "lobby-stats", "data-testid": "lobby-stats", role: "status" });
  async function loadStats(): Promise<void> {
    try {
      const response = await fetch("/api/stats", { signal: life.signal });
      if (!response.ok) return;
      const s = (await response.json()) as Stats;
      const names = s.accounts_online.slice(0, ACCOUNTS_SHOWN);
      const more = s.accounts_online.length - names.length;
      replace(
        stats,
        h("span", { "data-testid": "players-online" }, tn("lobby.players", s.players_online)),
        names.length > 0
          ? h(
              "span",
              { class: "accounts-online", "data-testid": "accounts-online" },
              ": ",
              names.flatMap((name, i) => [i > 0 ? ", " : null, playerLink(name)]),
              more > 0 ? ` +${more}` : null,
            )
          : null,
        " · ",
        h("span", { "data-testid": "games-running" }, tn("lobby.running", s.games)),
      );
    } catch {
      // Offline or unmounted: the last figures stay, the next poll tries again.
    }
  }
  void loadStats();
  const poll = window.setInterval(() => {
    if (!document.hidden) void loadStats();
  }, STATS_INTERVAL_MS);

  // ---- The sections ----
  const openList = h("div", { class: "lobby-list", "data-testid": "section-open" });
  const gamesList = h("div", { class: "lobby-list", "data-testid": "section-games" });
  const finishedList = h("div", { class: "lobby-list compact", "data-testid": "section-finished" });
  const finishedTitle = h("span", {});
  // Folded by default; the element is kept between renders, so an unfolded list stays open.
  const finished = h(
    "details",
    { class: "lobby-finished", "data-testid": "finished" },
    h("summary", {}, finishedTitle),
    finishedList,
  );

  function seat(p: PlayerView | null | undefined): HTMLElement {
    if (!p) return h("span", { class: "lobby-seat free" }, t("seat.free"));
    if (p.bot !== undefined) return h("span", { class: "lobby-seat engine" }, engineName(p.bot));
    return h(
      "span",
      { class: p.online ? "lobby-seat" : "lobby-seat away", title: p.online ? null : t("table.offline") },
      nameOrLink(p.name, p),
      nameMarks(p),
    );
  }

  function players(s: TableSummary, winner?: SeatColor): HTMLElement {
    const one = (c: SeatColor) => {
      const el = seat(s.seats[c]);
      el.classList.add(c);
      if (winner === c) el.classList.add("winner");
      return el;
    };
    return h("span", { class: "lobby-players" }, one("white"), h("span", { class: "vs" }, " – "), one("black"));
  }

  function stateWords(state: TableState): string {
    switch (state) {
      case "open":
        return t("status.waiting");
      case "ready":
        return t("lobby.ready");
      case "away":
        return t("lobby.away");
      default:
        return t("status.playing");
    }
  }

  function link(s: TableSummary, sit: boolean): HTMLElement {
    return h(
      "a",
      { class: sit ? "button primary" : "button", href: `#/table/${encodeURIComponent(s.id)}` },
      sit ? t("lobby.sit") : t("lobby.watch"),
    );
  }

  function row(s: TableSummary, state: TableState): HTMLElement {
    return h(
      "div",
      { class: `lobby-row ${state}`, "data-testid": "table-row", "data-table": s.id, "data-state": state },
      players(s),
      h("span", { class: "lobby-opts" }, ratedMark(s.options), " ", describeOptions(s.options, s.seats)),
      h(
        "span",
        { class: "lobby-state" },
        h("span", { class: "state-word" }, stateWords(state)),
        s.spectators > 0 ? h("span", { class: "spectators" }, tn("lobby.watching", s.spectators)) : null,
      ),
      link(s, state === "open"),
    );
  }

  function finishedRow(s: TableSummary): HTMLElement {
    const result = s.last_result!;
    return h(
      "div",
      { class: "lobby-row finished", "data-testid": "table-row", "data-table": s.id, "data-state": "finished" },
      players(s, result.winner),
      h("span", { class: "lobby-result" }, resultSummary(result)),
      link(s, false),
    );
  }

  function render(): void {
    const by = sections(tables.values());
    replace(
      openList,
      by.open.length ? by.open.map((x) => row(x.table, x.state)) : h("p", { class: "empty" }, t("lobby.openEmpty")),
    );
    replace(
      gamesList,
      by.games.length ? by.games.map((x) => row(x.table, x.state)) : h("p", { class: "empty" }, t("lobby.gamesEmpty")),
    );
    replace(
      finishedList,
      by.finished.length ? by.finished.map((x) => finishedRow(x.table)) : h("p", { class: "empty" }, t("lobby.finishedEmpty")),
    );
    finishedTitle.textContent = t("lobby.finished", { count: by.finished.length });
  }

  // ---- New table and the engine ----
  // Until the server says who this is, the form takes them for a guest (no rated game).
  const form = optionsForm(undefined, conn.player?.guest ?? true);
  // Connected (again): the figures count this viewer now.
  const stopPlayer = conn.onPlayer((p) => {
    form.setGuest(!!p.guest);
    void loadStats();
  });
  const message = h("p", { class: "message", role: "alert" });
  const create = h("button", { type: "submit", class: "primary", "data-testid": "create-table" }, t("lobby.create"));
  const level = h("select", { "data-testid": "engine-level", "aria-label": t("lobby.level") }) as HTMLSelectElement;
  fillLevels(level, 3);
  const color = h("select", { "data-testid": "engine-color", "aria-label": t("lobby.playAs") }) as HTMLSelectElement;
  color.append(
    h("option", { value: "white" }, t("color.white")),
    h("option", { value: "black" }, t("color.black")),
    h("option", { value: "random" }, t("lobby.random")),
  );
  // The engine game's own clock, chosen here (not the New table form's, out of sight).
  const engineClock = h("select", { "data-testid": "engine-clock", "aria-label": t("lobby.time") }) as HTMLSelectElement;
  for (const [minutes, increment] of ENGINE_CLOCKS) {
    engineClock.append(h("option", { value: `${minutes}+${increment}` }, t("opt.time", { minutes, increment })));
  }
  engineClock.append(h("option", { value: "untimed" }, t("lobby.untimed")));
  engineClock.value = "10+5";
  const playEngine = h("button", { type: "button", class: "primary", "data-testid": "play-engine" }, t("lobby.playEngine"));

  form.el.addEventListener("submit", (e) => {
    e.preventDefault();
    void open(form.read(), null);
  });
  // The engine plays no rated game: against it, the table is casual whatever the box says.
  playEngine.addEventListener("click", () =>
    void open({ ...form.read(), time: engineTime(engineClock.value), correspondence: undefined, rated: undefined }, {
      level: Number(level.value),
      color: pickColor(color.value as "white" | "black" | "random"),
    }),
  );

  /** Creates a table and goes there; against the engine, the game starts at once. */
  async function open(options: TableOptions, engine: { level: number; color: SeatColor } | null): Promise<void> {
    message.textContent = "";
    create.disabled = playEngine.disabled = true;
    try {
      const seating = engine === null ? null : { color: engine.color, engine: engine.level };
      location.hash = tableHash(await newTable(conn, options, seating));
    } catch (e) {
      message.textContent = (e as Refused).text;
    } finally {
      create.disabled = playEngine.disabled = false;
    }
  }

  // Quick pairing and the seeks, at the top (pages/quick.ts).
  const quick = quickPairing(conn);
  // The correspondence seeks, kept by the server for days (pages/corres-seeks.ts).
  const corres = corresSeeks(conn);
  // The arenas under way and coming (pages/tournaments.ts).
  const arenas = arenaBox();

  const stop = conn.watchLobby((msg) => {
    if (msg.type === "lobby") {
      tables.clear();
      for (const s of msg.tables) tables.set(s.id, s);
    } else if (msg.type === "lobby_table") {
      tables.set(msg.table.id, msg.table);
    } else if (msg.type === "lobby_removed") {
      tables.delete(msg.table);
    }
    render();
  });
  render();

  root.append(
    h(
      "section",
      { class: "lobby" },
      h(
        "div",
        { class: "lobby-head" },
        h("h1", {}, t("lobby.title")),
        stats,
        h("p", { class: "lobby-rules" }, `${t("lobby.newHere")} `, h("a", { href: "#/rules", "data-testid": "lobby-rules" }, t("lobby.readRules"))),
      ),
      quick.el,
      h(
        "div",
        { class: "lobby-grid" },
        h(
          "div",
          { class: "lobby-tables", "data-testid": "tables" },
          h("section", { class: "lobby-section" }, h("h2", {}, t("lobby.openTables")), openList),
          h("section", { class: "lobby-section" }, h("h2", {}, t("lobby.games")), gamesList),
          corres.el,
          finished,
        ),
        h(
          "div",
          { class: "lobby-side" },
          arenas.el,
          h(
            "section",
            { class: "lobby-box" },
            h("h2", {}, t("lobby.engineTitle")),
            h("p", { class: "hint" }, t("lobby.engineExplain")),
            h(
              "div",
              { class: "engine-choice" },
              h("label", {}, h("span", {}, t("lobby.level")), level),
              h("label", {}, h("span", {}, t("lobby.playAs")), color),
              h("label", {}, h("span", {}, t("lobby.time")), engineClock),
              playEngine,
            ),
          ),
          h(
            "section",
            { class: "lobby-box" },
            h("h2", {}, t("lobby.newTable")),
            h("p", { class: "hint" }, t("lobby.newTableExplain")),
            form.el,
          ),
          message,
        ),
      ),
      sessionBox(),
    ),
  );
  form.el.append(h("div", { class: "actions" }, create));
  return () => {
    stop();
    stopPlayer();
    quick.destroy();
    corres.destroy();
    arenas.destroy();
    life.abort();
    window.clearInterval(poll);
  };
}

/** "Sign out other devices": the session gets a new token (`POST /api/session/rotate`);
 * every other holder of the old cookie becomes a new guest, this browser keeps the name
 * (its own connection is closed by the server and comes back with the new cookie). */
function sessionBox(): HTMLElement {
  const result = h("p", { role: "status", "data-testid": "rotate-result" });
  const button = h("button", { type: "button", "data-testid": "rotate-session" }, t("session.rotate"));
  button.onclick = async () => {
    button.disabled = true;
    try {
      const response = await fetch("/api/session/rotate", { method: "POST" });
      if (response.ok) {
        result.textContent = t("session.rotated");
      } else {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        result.textContent = t("session.failed", { reason: body?.error ?? String(response.status) });
      }
    } catch (e) {
      result.textContent = t("session.failed", { reason: String(e) });
    } finally {
      button.disabled = false;
    }
  };
  return h("div", { class: "session" }, h("h2", {}, t("session.title")), h("p", {}, t("session.explain")), button, result);
}

/** A number field and its unit, kept together on one line. */
function unit(input: HTMLInputElement, words: string): HTMLElement {
  return h("span", { class: "opt-unit" }, input, " ", words);
}

/** The table options form, its values, and the switch for a guest (who plays no rated game). */
export interface OptionsForm {
  el: HTMLFormElement;
  read: () => TableOptions;
  /** A guest may not choose a rated game: the box is disabled, with the reason. */
  setGuest: (guest: boolean) => void;
}

/**
 * The table options form (also used at the table between games). A rated game needs a
 * registered player and a clock; choosing it archives the game and clears a handicap and
 * a turn limit (the server's rules, docs/protocol.md "Rated games").
 */
export function optionsForm(initial?: TableOptions, guest = true): OptionsForm {
  const o: TableOptions = initial ?? { variant: "standard", log: true, time: { minutes: 10, increment: 5 } };
  const variant = h("select", { name: "variant", "data-testid": "opt-variant" }) as HTMLSelectElement;
  for (const v of ["standard", "blitz"] as const) variant.append(h("option", { value: v }, t(`variant.${v}`)));
  variant.value = o.variant;
  const timed = h("input", { type: "checkbox", name: "timed", "data-testid": "opt-timed" }) as HTMLInputElement;
  timed.checked = !!o.time;
  const minutes = h("input", { type: "number", min: 1, max: 180, value: o.time?.minutes ?? 10, name: "minutes", "data-testid": "opt-minutes", "aria-label": t("lobby.minutes") }) as HTMLInputElement;
  const increment = h("input", { type: "number", min: 0, max: 60, value: o.time?.increment ?? 0, name: "increment", "data-testid": "opt-increment", "aria-label": t("lobby.increment") }) as HTMLInputElement;
  // Live play, or correspondence: days per turn or unlimited (it replaces the clock).
  const days = paceSelect(o.correspondence, "opt-days");
  const rated = h("input", { type: "checkbox", name: "rated", "data-testid": "opt-rated" }) as HTMLInputElement;
  rated.checked = !!o.rated;
  const ratedHint = h("span", { class: "rated-hint", "data-testid": "rated-hint" });
  const log = h("input", { type: "checkbox", name: "log", "data-testid": "opt-log" }) as HTMLInputElement;
  log.checked = o.log;
  const handicapOn = h("input", { type: "checkbox", name: "handicap", "data-testid": "opt-handicap" }) as HTMLInputElement;
  handicapOn.checked = !!o.handicap;
  const hw = h("input", { type: "number", min: 1, max: 5, value: o.handicap?.white ?? 3, "aria-label": t("color.white"), "data-testid": "opt-handicap-white" }) as HTMLInputElement;
  const hb = h("input", { type: "number", min: 1, max: 5, value: o.handicap?.black ?? 3, "aria-label": t("color.black"), "data-testid": "opt-handicap-black" }) as HTMLInputElement;
  const engineFull = h("input", { type: "checkbox", name: "engine_full", "data-testid": "opt-engine-full" }) as HTMLInputElement;
  engineFull.checked = !!o.engine_full;
  const turns = h("input", { type: "number", min: 1, max: 1000, value: o.turn_limit ?? "", placeholder: t("lobby.none"), class: "opt-turns", name: "turns", "data-testid": "opt-turns", "aria-label": t("lobby.turnLimit") }) as HTMLInputElement;

  const el = h(
    "form",
    { class: "options" },
    h("label", {}, t("lobby.variant"), " ", variant),
    h("label", {}, t("lobby.pace"), " ", days),
    // Each number stays on one line with its unit ("+ Sek." must not break after the "+").
    h("label", {}, timed, " ", t("lobby.time"), " ", unit(minutes, t("lobby.minutes")), " ", unit(increment, t("lobby.increment"))),
    h("div", { class: "opt-rated" }, h("label", {}, rated, " ", t("rating.option")), ratedHint),
    h("label", {}, log, " ", t("lobby.log")),
    h("label", {}, handicapOn, " ", t("lobby.handicap"), " ", h("span", { class: "opt-unit" }, hw, " – ", hb)),
    h("label", {}, t("lobby.turnLimit"), " ", turns),
    h("label", { title: t("lobby.engineFullHint") }, engineFull, " ", t("lobby.engineFull")),
  ) as HTMLFormElement;

  let isGuest = guest;
  /** What a rated game allows: the box itself, the archive, a handicap, a turn limit. */
  const sync = (): void => {
    const correspondence = days.value !== "";
    timed.disabled = correspondence;
    if (correspondence) timed.checked = false;
    minutes.disabled = increment.disabled = correspondence || !timed.checked;
    const clocked = timed.checked || (correspondence && days.value !== "unlimited");
    const blocked = isGuest ? "rating.guestOnly" : !clocked ? "rating.needsClock" : null;
    rated.disabled = blocked !== null;
    if (blocked) rated.checked = false;
    const on = rated.checked;
    if (on) {
      log.checked = true;
      handicapOn.checked = false;
      turns.value = "";
    }
    log.disabled = handicapOn.disabled = hw.disabled = hb.disabled = turns.disabled = on;
    ratedHint.textContent = t(blocked ?? "rating.explain");
    ratedHint.classList.toggle("blocked", blocked !== null);
  };
  // The hint is the checkbox's description, for screen readers too.
  ratedHint.id = `rated-hint-${++formCount}`;
  rated.setAttribute("aria-describedby", ratedHint.id);
  timed.addEventListener("change", sync);
  days.addEventListener("change", sync);
  rated.addEventListener("change", sync);
  sync();

  const read = (): TableOptions => {
    const options: TableOptions = { variant: variant.value as TableOptions["variant"], log: log.checked };
    const correspondence = paceOf(days.value);
    if (correspondence) options.correspondence = correspondence;
    else if (timed.checked) options.time = { minutes: Number(minutes.value) || 10, increment: Number(increment.value) || 0 };
    if (handicapOn.checked) options.handicap = { white: Number(hw.value) || 3, black: Number(hb.value) || 3 };
    if (turns.value.trim() !== "") options.turn_limit = Number(turns.value);
    if (rated.checked) options.rated = true;
    if (engineFull.checked) options.engine_full = true;
    return options;
  };
  const setGuest = (next: boolean): void => {
    isGuest = next;
    sync();
  };
  return { el, read, setGuest };
}

/** Numbers the options forms on the page, for the ids that tie a hint to its box. */
let formCount = 0;
