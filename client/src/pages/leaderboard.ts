// The leaderboards (`#/leaderboard`, GET /api/leaderboard): every category's best
// settled ratings as cards; a category's whole board (`#/leaderboard?category=…`,
// the 100 best). Names link to the players' pages; a field finds a player by name.

import "./player.css";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { Leaderboard, LeaderboardEntry } from "../protocol";
import { errorText } from "./archive";
import { CATEGORIES, categoryLabel, playerLink, profileHash, sortByCategory } from "./ratings";

/** The category an address asks for (`#/leaderboard?category=blitz-rapid`), `null` for all or an unknown one. */
export function leaderboardCategory(hash: string): string | null {
  const at = hash.indexOf("?");
  const category = new URLSearchParams(at >= 0 ? hash.slice(at + 1) : "").get("category");
  return category !== null && CATEGORIES.includes(category) ? category : null;
}

/** The request for one board, or for all of them. */
export function leaderboardApiUrl(category: string | null): string {
  return category ? `/api/leaderboard?category=${encodeURIComponent(category)}` : "/api/leaderboard";
}

/** The address of one board. */
export function leaderboardHash(category: string): string {
  return `#/leaderboard?category=${encodeURIComponent(category)}`;
}

export function mountLeaderboard(root: HTMLElement): () => void {
  const category = leaderboardCategory(location.hash);
  const request = new AbortController();

  // ---- Find a player by name ----
  const nameInput = h("input", {
    type: "search",
    name: "player",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: 64,
    "aria-label": t("leaderboard.find"),
    placeholder: t("leaderboard.find"),
    "data-testid": "find-player",
  }) as HTMLInputElement;
  const find = h(
    "form",
    { class: "find-player", role: "search" },
    nameInput,
    h("button", { type: "submit", "data-testid": "find-player-go" }, t("leaderboard.go")),
  );
  find.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = nameInput.value.trim();
    if (name) location.hash = profileHash(name);
  });

  // ---- The categories, when one board is shown ----
  const tabs = category
    ? h(
        "nav",
        { class: "board-tabs", "aria-label": t("leaderboard.title") },
        h("a", { href: "#/leaderboard", "data-testid": "all-boards" }, t("leaderboard.all")),
        CATEGORIES.map((c) =>
          h("a", { href: leaderboardHash(c), "aria-current": c === category ? "page" : null }, categoryLabel(c)),
        ),
      )
    : null;

  const content = h("div", { class: "boards", "aria-busy": "true" }, h("p", { class: "profile-status", role: "status" }, t("archive.loading")));
  root.append(
    h(
      "section",
      { class: "leaderboard-page", "data-testid": "leaderboard" },
      h(
        "div",
        { class: "board-head" },
        h("h1", {}, category ? `${t("leaderboard.title")} · ${categoryLabel(category)}` : t("leaderboard.title")),
        find,
      ),
      h("p", { class: "board-explain" }, t("leaderboard.explain")),
      tabs,
      content,
    ),
  );

  void (async () => {
    try {
      const response = await fetch(leaderboardApiUrl(category), { signal: request.signal });
      if (!response.ok) throw new Error(await errorText(response));
      const body = (await response.json()) as Leaderboard | Leaderboard[];
      if (request.signal.aborted) return;
      if (Array.isArray(body)) replace(content, h("div", { class: "board-cards" }, sortByCategory(body, (b) => b.category).map(boardCard)));
      else replace(content, fullBoard(body));
    } catch (err) {
      if (request.signal.aborted) return;
      replace(content, h("p", { class: "profile-status error", "data-testid": "leaderboard-error" }, t("leaderboard.error", { error: err instanceof Error ? err.message : String(err) })));
    } finally {
      content.removeAttribute("aria-busy");
    }
  })();

  return () => request.abort();
}

/** A category's first places, as a card whose title opens the whole board. */
function boardCard(board: Leaderboard): HTMLElement {
  return h(
    "section",
    { class: "board-card", "data-testid": "leaderboard-card", "data-category": board.category },
    h("h2", {}, h("a", { href: leaderboardHash(board.category) }, categoryLabel(board.category))),
    board.players.length
      ? h(
          "ol",
          { class: "board-list" },
          board.players.map((p) =>
            h(
              "li",
              {},
              h("span", { class: "rank" }, p.rank),
              h("span", { class: "name" }, playerLink(p.name)),
              h("span", { class: "rating" }, p.rating),
            ),
          ),
        )
      : h("p", { class: "profile-empty" }, t("leaderboard.empty")),
    board.players.length ? h("a", { class: "board-more", href: leaderboardHash(board.category) }, `${t("leaderboard.full")} ›`) : null,
  );
}

/** One category's board as a table. */
function fullBoard(board: Leaderboard): HTMLElement {
  if (!board.players.length) return h("p", { class: "profile-empty", "data-testid": "leaderboard-empty" }, t("leaderboard.empty"));
  const row = (p: LeaderboardEntry) =>
    h(
      "tr",
      { "data-testid": "leaderboard-row" },
      h("td", { class: "num" }, p.rank),
      h("td", {}, playerLink(p.name)),
      h("td", { class: "num" }, p.rating),
      h("td", { class: "num" }, p.games),
    );
  return h(
    "table",
    { class: "board-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col", class: "num" }, t("leaderboard.rank")),
        h("th", { scope: "col" }, t("leaderboard.player")),
        h("th", { scope: "col", class: "num" }, t("leaderboard.rating")),
        h("th", { scope: "col", class: "num" }, t("leaderboard.games")),
      ),
    ),
    h("tbody", {}, board.players.map(row)),
  );
}
