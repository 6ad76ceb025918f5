// One arena (`#/tournament/{id}`, GET /api/tournament/{id}): its name and kind, the
// countdown to its start or end, Join / Withdraw (for an account), the player's own
// line and a link to the game they play now, the standings by pages (rank, name,
// rating, each game's points, a fire mark, the score), and the podium once it is over.
// Asked for again every 2 s while the page is seen; a pairing takes the player to their
// table (`paired`, handled for every page by pages/challenges.ts).

import "./tournaments.css";
import { api } from "../api";
import type { Connection } from "../connection";
import { h, replace } from "../dom";
import { t, tn } from "../i18n";
import type { ArenaFull, StandingLine } from "../protocol";
import { playerLink } from "./ratings";
import { tableHash } from "./new-table";
import { clockText, momentText, secondsLeft, sheetGames } from "./tournament-model";

/** How often the arena is asked for while it is seen. */
const POLL_MS = 2_000;

/** A small flame, drawn (emoji fonts are missing on many systems). */
function fireMark(): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "fire");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("arena.onFire"));
  const title = document.createElementNS(ns, "title");
  title.textContent = t("arena.onFire");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M8 1c1 3 4 4.5 4 8.5A4 4 0 0 1 4 9.5C4 7 5.5 6 6 4c1 1.5 1 2.5 1 3.5C8 6 8.5 4 8 1z");
  svg.append(title, path);
  return svg;
}

/** One game's points on a sheet: doubled ones (on fire) marked. */
function sheetEl(line: StandingLine): HTMLElement {
  const games = sheetGames(line.sheet.scores);
  return h(
    "span",
    { class: "sheet", "data-testid": "sheet" },
    games.map((points) => h("span", { class: points >= 4 ? "sheet-game double" : points === 0 ? "sheet-game zero" : "sheet-game" }, String(points))),
  );
}

function lineRow(line: StandingLine, me: string | null): HTMLElement {
  return h(
    "tr",
    { class: line.name === me ? "mine" : "", "data-testid": "standing-line", "data-name": line.name },
    h("td", { class: "rank" }, String(line.rank)),
    h(
      "td",
      { class: "who" },
      line.title ? h("span", { class: "standing-title" }, line.title) : null,
      playerLink(line.name),
      line.withdraw ? h("span", { class: "standing-note" }, ` · ${t("arena.paused")}`) : null,
      line.playing ? h("a", { class: "standing-note", href: tableHash(line.playing), title: t("arena.watch") }, ` · ${t("arena.playing")}`) : null,
    ),
    h("td", { class: "rating" }, String(line.rating)),
    h("td", {}, h("div", { class: "sheet-cell" }, sheetEl(line), line.sheet.fire ? fireMark() : null)),
    h("td", { class: "score", "data-testid": "score" }, String(line.score)),
  );
}

export function mountTournament(root: HTMLElement, conn: Connection, id: string): () => void {
  const title = h("h1", { "data-testid": "arena-title" }, t("archive.loading"));
  const kind = h("p", { class: "arena-kind-line", "data-testid": "arena-kind" });
  const when = h("p", { class: "arena-countdown", "data-testid": "arena-countdown", "aria-live": "off" });
  const status = h("p", { class: "message", role: "alert", "data-testid": "arena-page-message" });
  /** Why a join or withdrawal was refused (kept until the next one). */
  const refused = h("p", { class: "message", role: "alert", "data-testid": "arena-refused" });
  const actions = h("div", { class: "arena-actions" });
  const mine = h("div", { class: "arena-me", "data-testid": "arena-me" });
  const podium = h("div", { class: "podium", "data-testid": "podium" });
  const rows = h("tbody", {});
  const pager = h("nav", { class: "arena-pages", "aria-label": t("arena.pages") });
  const table = h(
    "table",
    { class: "standings", "data-testid": "standings" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("arena.player")), h("th", {}, t("arena.rating")), h("th", {}, t("arena.games")), h("th", {}, t("arena.points")))),
    rows,
  );
  root.append(
    h(
      "section",
      { class: "arena-page", "data-testid": "arena-page" },
      h("p", { class: "back" }, h("a", { href: "#/tournaments" }, t("arena.all"))),
      h("div", { class: "arena-head" }, h("div", {}, title, kind, when), actions),
      status,
      refused,
      mine,
      podium,
      table,
      pager,
      h("p", { class: "hint arena-explain" }, t("arena.explain")),
    ),
  );

  let live = true;
  let asked = 0;
  let page = 1;
  let view: ArenaFull | null = null;
  let receivedAt = 0;
  /** Whether a join or withdrawal is under way (its button stays disabled). */
  let busy = false;

  function tick(): void {
    if (view) when.textContent = momentText(view, secondsLeft(view, receivedAt, Date.now()));
  }

  async function load(): Promise<void> {
    const mineAsked = ++asked;
    const answer = await api<ArenaFull>("GET", `/api/tournament/${encodeURIComponent(id)}?page=${page}`);
    if (!live || mineAsked !== asked) return;
    if (!answer.ok || !answer.body) {
      if (answer.status === 400 && page > 1) {
        // The standings shrank (someone left before the start): back to the first page.
        page = 1;
        return load();
      }
      title.textContent = answer.status === 404 ? t("arena.unknown") : t("arena.title");
      status.textContent = answer.status === 404 ? "" : (answer.error ?? t("arena.failed", { status: answer.status }));
      return;
    }
    status.textContent = "";
    view = answer.body;
    receivedAt = Date.now();
    draw(view);
  }

  async function change(what: "join" | "withdraw"): Promise<void> {
    busy = true;
    refused.textContent = "";
    if (view) draw(view);
    const answer = await api<unknown>("POST", `/api/tournament/${encodeURIComponent(id)}/${what}`);
    busy = false;
    if (!answer.ok) refused.textContent = answer.error ?? t("arena.failed", { status: answer.status });
    await load();
  }

  function draw(arena: ArenaFull): void {
    title.textContent = arena.fullName;
    kind.textContent = [clockText(arena), tn("arena.minutes", arena.minutes), arena.variant.name, arena.rated ? t("rating.rated") : t("rating.casual"), tn("arena.players", arena.nbPlayers), t("arena.by", { name: arena.createdBy })].join(" · ");
    tick();
    const player = conn.player;
    const joined = arena.me !== undefined && !arena.me.withdraw;
    let button: HTMLElement | null = null;
    if (!arena.isFinished) {
      if (!player || player.guest) {
        button = h("p", { class: "hint", "data-testid": "arena-sign-in" }, t("arena.signInToJoin"), " ", h("a", { href: "#/account" }, t("nav.signIn")));
      } else if (joined) {
        button = h("button", { type: "button", "data-testid": "arena-withdraw", disabled: busy ? "" : null, onclick: () => void change("withdraw") }, arena.isStarted ? t("arena.pause") : t("arena.withdraw"));
      } else {
        button = h("button", { type: "button", class: "primary", "data-testid": "arena-join", disabled: busy ? "" : null, onclick: () => void change("join") }, arena.me ? t("arena.comeBack") : t("arena.join"));
      }
    }
    replace(actions, button);
    const me = arena.me;
    replace(
      mine,
      me
        ? h(
            "p",
            {},
            t("arena.yourPlace", { rank: me.rank, score: me.score }),
            me.playing ? [" ", h("a", { class: "button", href: tableHash(me.playing), "data-testid": "arena-my-game" }, t("arena.yourGame"))] : null,
            me.withdraw ? ` ${t("arena.pausedHint")}` : joined && arena.isStarted && !me.playing ? ` ${t("arena.waiting", { seconds: arena.pairDelaySeconds })}` : null,
          )
        : null,
    );
    replace(
      podium,
      arena.podium?.length
        ? [h("h2", {}, t("arena.podium")), h("ol", {}, arena.podium.map((l) => h("li", { "data-testid": "podium-place" }, playerLink(l.name), ` · ${tn("arena.pointsCount", l.score)}`, l.performance !== undefined ? ` · ${t("arena.performance", { rating: l.performance })}` : null)))]
        : null,
    );
    replace(rows, arena.standing.players.length ? arena.standing.players.map((l) => lineRow(l, player?.name ?? null)) : h("tr", {}, h("td", { colspan: "5", class: "hint" }, t("arena.nobody"))));
    const pages = arena.standing.pages;
    replace(
      pager,
      pages > 1
        ? Array.from({ length: pages }, (_, i) =>
            h("button", { type: "button", class: i + 1 === page ? "current" : "", "aria-current": i + 1 === page ? "page" : null, onclick: () => ((page = i + 1), void load()) }, String(i + 1)),
          )
        : null,
    );
  }

  void load();
  const poll = window.setInterval(() => void load(), POLL_MS);
  const timer = window.setInterval(tick, 1000);
  const stopPlayer = conn.onPlayer(() => view && draw(view));
  return () => {
    live = false;
    window.clearInterval(poll);
    window.clearInterval(timer);
    stopPlayer();
  };
}
