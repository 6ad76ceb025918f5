// My games (#/games): every running game of the player, live and correspondence
// (`GET /api/account/playing`), in two sections as on lichess — those waiting for the
// player's move (the most urgent first) and those waiting for the opponent. A row shows
// the opponent (rating, `?` while provisional, or the engine's level), the player's
// colour, the pace, the time left to move (counting down) and the last move, and opens
// the table. Asked again when the count of games to move in changes (`my_turn`), when a
// game ended (`game_over`) and after each (re)connect; a guest sees their own games too.

import "./my-games.css";
import { api } from "../api";
import type { Connection } from "../connection";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { NowPlaying, NowPlayingList } from "../protocol";
import { guestMark } from "./guest";
import { colorWords } from "./meet-words";
import { gameSections, opponentRating, opponentShown, paceText, timeLeftText } from "./notify-model";

/** A time left shown, counting down from when the list came. */
interface Countdown {
  el: HTMLElement;
  seconds: number;
}

export function mountMyGames(root: HTMLElement, conn: Connection): () => void {
  const status = h("p", { class: "my-games-status", role: "status", "data-testid": "my-games-status" }, t("archive.loading"));
  const body = h("div", { class: "my-games-body" });
  root.append(h("section", { class: "my-games-page", "data-testid": "my-games" }, h("h1", {}, t("games.title")), status, body));

  let alive = true;
  /** The last request made: an older answer that comes later is dropped. */
  let asked = 0;
  let receivedAt = 0;
  let countdowns: Countdown[] = [];

  async function load(): Promise<void> {
    const mine = ++asked;
    const answer = await api<NowPlayingList>("GET", "/api/account/playing");
    if (!alive || mine !== asked) return;
    if (!answer.ok || !answer.body) {
      status.textContent = answer.status === 401 ? t("games.noSession") : t("games.failed", { status: answer.status });
      status.classList.add("error");
      status.hidden = false;
      replace(body);
      countdowns = [];
      return;
    }
    receivedAt = Date.now();
    status.classList.remove("error");
    status.hidden = true;
    draw(answer.body.nowPlaying);
  }

  function draw(games: NowPlaying[]): void {
    countdowns = [];
    if (games.length === 0) {
      replace(body, h("div", { class: "my-games-empty", "data-testid": "my-games-empty" }, h("p", {}, t("games.empty")), h("a", { href: "#/", class: "button" }, t("games.toLobby"))));
      return;
    }
    const { myTurn, waiting } = gameSections(games);
    replace(body, section("my-turn-games", t("games.myTurn"), myTurn, t("games.noneMyTurn")), section("waiting-games", t("games.waiting"), waiting, t("games.noneWaiting")));
  }

  function section(testid: string, title: string, games: NowPlaying[], none: string): HTMLElement {
    return h(
      "section",
      { class: `my-games-section ${testid}`, "data-testid": testid },
      h("h2", {}, title, " ", h("span", { class: "my-games-count" }, `(${games.length})`)),
      games.length > 0 ? h("div", { class: "my-games-list" }, games.map(row)) : h("p", { class: "my-games-none" }, none),
    );
  }

  function row(g: NowPlaying): HTMLElement {
    const o = g.opponent;
    const rating = opponentRating(o);
    const time = h("span", { class: "my-game-time", "data-testid": "my-game-time" });
    if (g.secondsLeft !== undefined) {
      countdowns.push({ el: time, seconds: g.secondsLeft });
      time.textContent = t("games.timeLeft", { time: timeLeftText(g.secondsLeft) });
    }
    const details = [colorWords(g.color), t(`variant.${g.variant.key}`), paceText(g), t(g.rated ? "rating.rated" : "rating.casual")];
    return h(
      "a",
      {
        class: `my-game ${g.isMyTurn ? "mine" : "theirs"}`,
        href: `#/table/${encodeURIComponent(g.gameId)}`,
        "data-testid": "my-game",
        "data-table": g.gameId,
      },
      h(
        "span",
        { class: "my-game-who" },
        h("span", { class: `my-game-swatch ${g.color}`, "aria-hidden": "true" }),
        h("bdi", { class: "my-game-name", "data-testid": "my-game-opponent" }, opponentShown(o)),
        rating ? h("span", { class: "my-game-rating", "data-testid": "my-game-rating" }, rating) : null,
        o.id === undefined && o.ai === undefined ? guestMark() : null,
      ),
      time,
      h("span", { class: "my-game-details" }, details.join(" · ")),
      h("span", { class: "my-game-last", "data-testid": "my-game-last" }, g.lastMove ? t("games.lastMove", { move: g.lastMove }) : t("games.noMove")),
    );
  }

  /** The times left, counted down since the list came. */
  function tick(): void {
    const elapsed = (Date.now() - receivedAt) / 1000;
    for (const c of countdowns) c.el.textContent = t("games.timeLeft", { time: timeLeftText(c.seconds - elapsed) });
  }

  const stopPlayer = conn.onPlayer(() => void load());
  const stopNotice = conn.onNotice((msg) => {
    // A game ended while the player was away comes as a notification too.
    if (msg.type === "my_turn" || (msg.type === "notified" && msg.notification.notice.kind === "game_over")) void load();
  });
  const timer = window.setInterval(tick, 1000);
  return () => {
    alive = false;
    stopPlayer();
    stopNotice();
    window.clearInterval(timer);
  };
}
