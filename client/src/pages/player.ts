// A registered player's page (`#/@/<name>`, GET /api/player/{name}): the name, whether
// they are online and since when they play here, the record against the reader (for a
// registered reader on someone else's page), a card per rating category, the rating
// history as a chart, the recent games (to replay) and a link to all of them in the
// archive. Room is kept in the header for actions on the player (a challenge, later).

import "./archive.css";
import "./player.css";
import type { Connection } from "../connection";
import { h, replace } from "../dom";
import { lang, t, tn } from "../i18n";
import type { CategoryRatingView, HeadToHead, PlayerProfile, PlayerView } from "../protocol";
import { archiveHash, archiveTable, dateLocale, errorText, formatDate } from "./archive";
import { mountChallengeButton } from "./challenges";
import { nameMarks } from "./guest";
import { ratingGraph } from "./rating-graph";
import { categoryLabel, ratingText, sortByCategory } from "./ratings";

/** The request for a player's page, with the record against `vs` when given. */
export function profileApiUrl(name: string, vs: string | null): string {
  const base = `/api/player/${encodeURIComponent(name)}`;
  return vs ? `${base}?vs=${encodeURIComponent(vs)}` : base;
}

/**
 * Whom to compare the player with: the reader, when registered and not the player
 * (names are the same player ignoring case); `null` otherwise.
 */
export function vsName(me: Pick<PlayerView, "name" | "guest"> | null, name: string): string | null {
  if (!me || me.guest) return null;
  return me.name.toLowerCase() === name.toLowerCase() ? null : me.name;
}

/** The record from the reader's side: the server counts it from the player's. */
export function readerRecord(h2h: HeadToHead): { mine: number; draws: number; theirs: number } {
  return { mine: h2h.losses, draws: h2h.draws, theirs: h2h.wins };
}

/** A day in the page's language (`3 December 2026`). */
function formatDay(ms: number): string {
  return new Intl.DateTimeFormat(dateLocale(lang()), { dateStyle: "long" }).format(new Date(ms));
}

export function mountPlayer(root: HTMLElement, conn: Connection, name: string): () => void {
  let request: AbortController | null = null;
  let stopGraph: (() => void) | null = null;
  let stopChallenge: (() => void) | null = null;
  const page = h("section", { class: "profile-page", "data-testid": "profile" });
  const status = h("p", { class: "profile-status", role: "status" }, t("archive.loading"));
  page.append(status);
  root.append(page);

  /** The player compared with, as asked; undefined before the first request. */
  let asked: string | null | undefined;

  async function load(vs: string | null): Promise<void> {
    asked = vs;
    request?.abort();
    const mine = new AbortController();
    request = mine;
    try {
      const response = await fetch(profileApiUrl(name, vs), { signal: mine.signal });
      if (response.status === 404) {
        stopGraph?.();
        replace(page, h("p", { class: "profile-missing", "data-testid": "profile-missing" }, t("profile.notFound", { name })));
        return;
      }
      if (!response.ok) throw new Error(await errorText(response));
      const profile = (await response.json()) as PlayerProfile;
      if (mine.signal.aborted) return;
      show(profile);
    } catch (err) {
      if (mine.signal.aborted) return;
      replace(page, h("p", { class: "profile-status error", "data-testid": "profile-error" }, t("profile.error", { error: err instanceof Error ? err.message : String(err) })));
    }
  }

  function show(p: PlayerProfile): void {
    stopGraph?.();
    stopGraph = null;
    stopChallenge?.();
    const actions = h("div", { class: "profile-actions", "data-testid": "profile-actions" });
    // A challenge to this player (hidden on one's own page).
    stopChallenge = mountChallengeButton(actions, conn, p.name);
    const head = h(
      "header",
      { class: "profile-head" },
      h(
        "div",
        { class: "profile-id" },
        h(
          "h1",
          {},
          h("span", { class: p.online ? "online-dot on" : "online-dot", "aria-hidden": "true" }),
          h("span", { "data-testid": "profile-name" }, p.name),
          nameMarks(p),
        ),
        h(
          "p",
          { class: "profile-meta" },
          h("span", { class: p.online ? "presence on" : "presence", "data-testid": "profile-online" }, t(p.online ? "profile.online" : "profile.offline")),
          " · ",
          t("account.member", { date: formatDay(p.created_at) }),
        ),
        p.head_to_head ? headToHead(p.head_to_head, p.name) : null,
      ),
      actions,
    );

    const ratings = sortByCategory(p.ratings, (r) => r.category);
    const cards = ratings.length
      ? h("div", { class: "rating-cards" }, ratings.map(card))
      : h("p", { class: "profile-empty", "data-testid": "no-ratings" }, t("profile.noRatings"));

    let history: HTMLElement | null = null;
    if (p.history.length > 0) {
      const graph = ratingGraph(p.history, {
        point: (ms) => formatDate(ms),
        tick: (ms, options) => new Intl.DateTimeFormat(dateLocale(lang()), options).format(new Date(ms)),
      });
      stopGraph = graph.stop;
      history = h("section", { class: "profile-section" }, h("h2", {}, t("profile.history")), graph.el);
    }

    const recent = h(
      "section",
      { class: "profile-section", "data-testid": "recent-games" },
      h("h2", {}, t("profile.recent")),
      p.recent.length ? archiveTable(p.recent) : h("p", { class: "profile-empty" }, t("profile.noGames")),
      p.games > 0
        ? h(
            "p",
            { class: "profile-more" },
            h("a", { href: archiveHash({ player: p.name, from: "", to: "", offset: 0 }), "data-testid": "profile-archive" }, t("profile.allGames", { count: p.games })),
          )
        : null,
    );

    replace(page, head, h("section", { class: "profile-section" }, h("h2", {}, t("profile.ratings")), cards), history, recent);
  }

  function headToHead(h2h: HeadToHead, name: string): HTMLElement {
    const r = readerRecord(h2h);
    const none = r.mine + r.draws + r.theirs === 0;
    return h(
      "p",
      { class: "head-to-head", "data-testid": "head-to-head", title: none ? null : t("profile.h2hExplain", { name }) },
      none ? t("profile.h2hNone", { name }) : t("profile.h2h", { ...r, name }),
    );
  }

  function card(r: CategoryRatingView): HTMLElement {
    return h(
      "div",
      { class: "rating-card", "data-testid": "rating-card", "data-category": r.category },
      h("h3", {}, h("a", { href: `#/leaderboard?category=${encodeURIComponent(r.category)}` }, categoryLabel(r.category))),
      h(
        "p",
        { class: r.provisional ? "rating-value provisional" : "rating-value", "data-testid": "rating-value", title: r.provisional ? t("rating.provisional") : null },
        ratingText(r.rating, r.provisional),
      ),
      h("p", { class: "rating-games" }, tn("profile.ratedGames", r.games)),
      h("p", { class: "rating-record" }, t("profile.record", { wins: r.wins, draws: r.draws, losses: r.losses })),
    );
  }

  // The record against the reader needs to know who reads: asked again once the
  // server has said (or when the reader signs in or out).
  void load(vsName(conn.player, name));
  const stopPlayer = conn.onPlayer((me) => {
    const vs = vsName(me, name);
    if (vs !== asked) void load(vs);
  });

  return () => {
    stopPlayer();
    stopGraph?.();
    stopChallenge?.();
    request?.abort();
  };
}
