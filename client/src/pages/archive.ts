// The archive: finished, logged games searched by player and date, newest first,
// 25 to a page; each row opens the replay viewer. The search lives in the address
// (`#/archive?player=…&from=…&to=…&offset=…`) so a search can be shared, survives a
// reload and the browser's Back button walks through earlier searches.

import "./archive.css";
import { h, replace } from "../dom";
import { engineName, lang, t, tn } from "../i18n";
import { nameMarks } from "./guest";
import { nameOrLink } from "./ratings";
import type { ArchiveEntry, ArchivePage, TableOptions } from "../protocol";
import { resultSummary } from "./result-words";

/** Games per page. */
export const PAGE_SIZE = 25;

/** What the archive is searched for. Empty strings mean "any". */
export interface ArchiveQuery {
  /** A player's name (either colour). */
  player: string;
  /** The first day, `YYYY-MM-DD`. */
  from: string;
  /** The last day (inclusive), `YYYY-MM-DD`. */
  to: string;
  /** How many of the newest matches to skip (paging). */
  offset: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the query from an address hash (`#/archive?player=…`); anything malformed is dropped. */
export function parseArchiveQuery(hash: string): ArchiveQuery {
  const at = hash.indexOf("?");
  const params = new URLSearchParams(at >= 0 ? hash.slice(at + 1) : "");
  const day = (name: string): string => {
    const value = (params.get(name) ?? "").trim();
    return DAY.test(value) ? value : "";
  };
  const offset = Number(params.get("offset") ?? "0");
  return {
    player: (params.get("player") ?? "").trim(),
    from: day("from"),
    to: day("to"),
    offset: Number.isSafeInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The query's non-empty fields as URL parameters, in a fixed order. */
function queryParams(q: ArchiveQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (q.player.trim()) params.set("player", q.player.trim());
  if (q.from) params.set("from", q.from);
  if (q.to) params.set("to", q.to);
  return params;
}

/** The address hash of a search: `#/archive` alone when nothing is asked. */
export function archiveHash(q: ArchiveQuery): string {
  const params = queryParams(q);
  if (q.offset > 0) params.set("offset", String(q.offset));
  const text = params.toString();
  return text ? `#/archive?${text}` : "#/archive";
}

/** The server request for one page of a search. */
export function archiveApiUrl(q: ArchiveQuery, limit: number = PAGE_SIZE): string {
  const params = queryParams(q);
  params.set("limit", String(limit));
  params.set("offset", String(q.offset));
  return `/api/archive?${params.toString()}`;
}

/** The offsets of the newer and older pages, `null` where there is none. */
export function pageOffsets(
  offset: number,
  shown: number,
  total: number,
  limit: number = PAGE_SIZE,
): { newer: number | null; older: number | null } {
  return {
    newer: offset > 0 ? Math.max(0, offset - limit) : null,
    older: offset + shown < total && shown > 0 ? offset + limit : null,
  };
}

/**
 * The options of an archived game in words: `Blitz · 5 min + 3 s · 50 turns`, `Rated ·
 * Standard · 3 min + 0 s`. Every archived game was logged, so that option is left out.
 */
export function optionsSummary(o: TableOptions): string {
  const parts = o.rated ? [t("rating.rated")] : [];
  parts.push(t(`variant.${o.variant}`));
  parts.push(o.time ? t("opt.time", { minutes: o.time.minutes, increment: o.time.increment }) : t("opt.untimed"));
  if (o.handicap) parts.push(t("opt.handicap", { white: o.handicap.white, black: o.handicap.black }));
  if (o.turn_limit) parts.push(t("opt.turns", { turns: o.turn_limit }));
  if (o.position) parts.push(t("opt.fromPosition"));
  return parts.join(" · ");
}

/**
 * A moment in the page's language (`1 Dec 2026, 14:05`, `1 gru 2026, 14:05`,
 * `01.12.2026, 14:05`) and the browser's time zone. Formatted anew at each render, so a
 * switch of language shows at once.
 */
export function formatDate(ms: number, language: string = dateLocale(lang())): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}

/**
 * The locale for dates in a page language: the browser's own tag when it is of that
 * language (`en-GB` writes `1 Dec 2026`, `en-US` `Dec 1, 2026`), else the language.
 */
export function dateLocale(language: string, browser: readonly string[] = typeof navigator === "undefined" ? [] : navigator.languages ?? []): string {
  return browser.find((tag) => tag.toLowerCase().split("-")[0] === language) ?? language;
}

/** A player's name as the page shows it: the engine named in the page's language. */
export function playerName(name: string, bot: number | undefined): string {
  return bot === undefined ? name : engineName(bot);
}

/** The message of a failed request: the server's `{"error": …}` text, else the HTTP status. */
export async function errorText(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === "object" && "error" in body && typeof body.error === "string") {
      return body.error;
    }
  } catch {
    // Not JSON (a proxy's page, say): the status says enough.
  }
  return `HTTP ${response.status}`;
}

export function mountArchive(root: HTMLElement): () => void {
  let query = parseArchiveQuery(location.hash);
  /** Removes every listener this page added, and cancels the request in flight. */
  const life = new AbortController();
  let request: AbortController | null = null;

  // ---- The search form ----
  const playerInput = h("input", {
    type: "search",
    name: "player",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: 64,
    "data-testid": "archive-player",
  });
  const fromInput = h("input", { type: "date", name: "from", "data-testid": "archive-from" });
  const toInput = h("input", { type: "date", name: "to", "data-testid": "archive-to" });
  playerInput.value = query.player;
  fromInput.value = query.from;
  toInput.value = query.to;
  const searchButton = h("button", { type: "submit", class: "primary", "data-testid": "archive-search" }, t("archive.find"));
  const form = h(
    "form",
    { class: "archive-form", role: "search" },
    h("label", {}, h("span", {}, t("archive.search")), playerInput),
    h("label", {}, h("span", {}, t("archive.from")), fromInput),
    h("label", {}, h("span", {}, t("archive.to")), toInput),
    searchButton,
  );

  // ---- Results ----
  const summary = h("p", { class: "archive-summary", role: "status", "data-testid": "archive-summary" });
  const results = h("div", { class: "archive-results" });
  const newerButton = h("button", { type: "button", "data-testid": "archive-newer" }, `‹ ${t("archive.prev")}`);
  const olderButton = h("button", { type: "button", "data-testid": "archive-older" }, `${t("archive.next")} ›`);
  const pager = h("nav", { class: "archive-pager" }, newerButton, olderButton);
  newerButton.disabled = olderButton.disabled = true;

  // ---- Importing a game: a record or a boardspace SGF file joins the archive ----
  const importText = h("textarea", { rows: 4, "data-testid": "archive-import-text", placeholder: "[White \"…\"] … 1.e5 2.f6 … | (;GM[24]…", "aria-label": t("import.title") }) as HTMLTextAreaElement;
  const importFile = h("input", { type: "file", accept: ".sgf,.txt,.record,text/plain", "data-testid": "archive-import-file" }) as HTMLInputElement;
  const importButton = h("button", { type: "submit", "data-testid": "archive-import-submit" }, t("import.submit"));
  const importError = h("p", { class: "message", role: "alert", "data-testid": "archive-import-error" });
  const importForm = h(
    "form",
    { class: "archive-import" },
    h("details", {}, h("summary", { "data-testid": "archive-import-open" }, t("import.title")), h("p", { class: "hint" }, t("import.hint")), importText, h("label", {}, `${t("import.file")} `, importFile), importButton, importError),
  );
  async function importGame(text: string): Promise<void> {
    importError.textContent = "";
    importButton.disabled = true;
    try {
      const response = await fetch("/api/import", { method: "POST", body: text, signal: life.signal });
      if (!response.ok) throw new Error(await errorText(response));
      const made = (await response.json()) as { replay: string };
      location.hash = made.replay;
    } catch (err) {
      if (!life.signal.aborted) importError.textContent = err instanceof Error ? err.message : String(err);
    } finally {
      importButton.disabled = false;
    }
  }

  replace(
    root,
    h("section", { class: "archive-page" }, h("h1", {}, t("archive.title")), form, importForm, summary, results, pager),
  );
  importForm.addEventListener(
    "submit",
    (ev) => {
      ev.preventDefault();
      if (importText.value.trim()) void importGame(importText.value);
    },
    { signal: life.signal },
  );
  importFile.addEventListener(
    "change",
    () => {
      const file = importFile.files?.[0];
      if (file) void file.text().then(importGame);
    },
    { signal: life.signal },
  );

  const on = <K extends keyof HTMLElementEventMap>(
    el: HTMLElement,
    type: K,
    fn: (ev: HTMLElementEventMap[K]) => void,
  ): void => el.addEventListener(type, fn, { signal: life.signal });

  // A day range that runs backwards finds nothing: keep the pickers consistent.
  const syncLimits = (): void => {
    toInput.min = fromInput.value;
    fromInput.max = toInput.value;
  };
  syncLimits();
  on(fromInput, "change", syncLimits);
  on(toInput, "change", syncLimits);

  on(form, "submit", (ev) => {
    ev.preventDefault();
    go({ player: playerInput.value.trim(), from: fromInput.value, to: toInput.value, offset: 0 });
  });

  let offsets: { newer: number | null; older: number | null } = { newer: null, older: null };
  on(newerButton, "click", () => {
    if (offsets.newer !== null) go({ ...query, offset: offsets.newer });
  });
  on(olderButton, "click", () => {
    if (offsets.older !== null) go({ ...query, offset: offsets.older });
  });

  /**
   * Shows a new search. The address is updated without a `hashchange` (which would
   * make the shell mount the page afresh); Back still returns to the earlier search,
   * and that does fire `hashchange`.
   */
  function go(next: ArchiveQuery): void {
    query = next;
    const hash = archiveHash(next);
    if (location.hash !== hash) history.pushState(null, "", hash);
    void load();
  }

  async function load(): Promise<void> {
    request?.abort();
    const mine = new AbortController();
    request = mine;
    summary.textContent = t("archive.loading");
    results.setAttribute("aria-busy", "true");
    newerButton.disabled = olderButton.disabled = true;
    try {
      const response = await fetch(archiveApiUrl(query), { signal: mine.signal });
      if (!response.ok) throw new Error(await errorText(response));
      const page = (await response.json()) as ArchivePage;
      if (mine.signal.aborted) return;
      show(page);
    } catch (err) {
      if (mine.signal.aborted) return;
      summary.textContent = t("archive.error", { error: err instanceof Error ? err.message : String(err) });
      summary.classList.add("error");
      results.replaceChildren();
    } finally {
      if (request === mine) {
        request = null;
        results.removeAttribute("aria-busy");
      }
    }
  }

  function show(page: ArchivePage): void {
    summary.classList.remove("error");
    const shown = page.games.length;
    summary.textContent =
      shown > 0
        ? `${tn("archive.games", page.total)} · ${t("archive.range", {
            first: query.offset + 1,
            last: query.offset + shown,
          })}`
        : tn("archive.games", page.total);
    offsets = pageOffsets(query.offset, shown, page.total);
    newerButton.disabled = offsets.newer === null;
    olderButton.disabled = offsets.older === null;
    pager.hidden = offsets.newer === null && offsets.older === null;

    if (shown === 0) {
      replace(results, h("p", { class: "archive-empty", "data-testid": "archive-empty" }, t("archive.empty")));
      return;
    }
    replace(results, archiveTable(page.games));
  }

  void load();

  return () => {
    life.abort();
    request?.abort();
    request = null;
  };
}

/**
 * Games as the archive lists them (also the recent games of a player's page): date,
 * players, options, result, actions. A click anywhere on a row opens its game, as the
 * date's link does (the link keeps middle-click and "open in new tab"); a registered
 * player's name links to their page.
 */
export function archiveTable(games: readonly ArchiveEntry[]): HTMLTableElement {
  const table = h(
    "table",
    { class: "archive-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("archive.date")),
        h("th", { scope: "col" }, t("archive.players")),
        h("th", { scope: "col" }, t("archive.variant")),
        h("th", { scope: "col" }, t("archive.result")),
        h("th", { scope: "col", class: "num" }, t("archive.moves")),
      ),
    ),
    h("tbody", {}, games.map(archiveRow)),
  );
  table.addEventListener("click", (ev) => {
    const target = ev.target as Element;
    if (target.closest("a")) return;
    const row = target.closest<HTMLElement>("tr[data-game-id]");
    if (row) location.hash = `#/replay/${row.dataset.gameId}`;
  });
  return table;
}

/** One game; names are text nodes, never markup. */
function archiveRow(g: ArchiveEntry): HTMLTableRowElement {
  const winner = g.result.winner;
  const player = (name: string, bot: number | undefined, guest: boolean | undefined, title: string | undefined, color: "white" | "black") =>
    h(
      "span",
      { class: winner === color ? "winner" : null, title: t(`color.${color}`) },
      nameOrLink(name, { bot, guest, imported: g.imported }, playerName(name, bot)),
      nameMarks({ guest, title }),
    );
  return h(
    "tr",
    { "data-testid": "archive-row", "data-game-id": g.id },
    h(
      "td",
      { "data-label": t("archive.date") },
      h("a", { href: `#/replay/${g.id}`, class: "game-link" }, h("time", { datetime: new Date(g.started_at).toISOString() }, formatDate(g.started_at))),
    ),
    h(
      "td",
      { "data-label": t("archive.players"), class: "archive-players" },
      player(g.white, g.white_bot, g.white_guest, g.white_title, "white"),
      " – ",
      player(g.black, g.black_bot, g.black_guest, g.black_title, "black"),
    ),
    h(
      "td",
      { "data-label": t("archive.variant") },
      optionsSummary(g.options),
      g.imported ? h("span", { class: "guest-mark", "data-testid": "imported-mark", title: t("import.explain") }, t("import.mark")) : null,
    ),
    h("td", { "data-label": t("archive.result") }, resultSummary(g.result)),
    h("td", { "data-label": t("archive.moves"), class: "num" }, g.actions),
  );
}
