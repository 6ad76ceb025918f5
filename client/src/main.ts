// The page shell: header (navigation, language, connection state, who you are, the
// account link, the count of games waiting for a move and the notifications' bell) and
// the router between the lobby, a table, the archive, the replay viewer, the rules, the
// account page, a player's page, the leaderboards, the analysis board and My games.

import "./theme.css";
import "./style.css";
import { Connection } from "./connection";
import { h, replace } from "./dom";
import { LANGS, lang, onLangChange, setLang, t, type Lang } from "./i18n";
import { mountArchive } from "./pages/archive";
import { mountLobby } from "./pages/lobby";
import { mountReplay } from "./pages/replay";
import { mountRules } from "./pages/rules";
import { mountAccount } from "./pages/account";
import { mountLeaderboard } from "./pages/leaderboard";
import { mountPlayer } from "./pages/player";
import { guestMark } from "./pages/guest";
import { isRegistered, playerLink } from "./pages/ratings";
import { mountTable } from "./pages/table";
import type { PlayerView } from "./protocol";
// ---- quick pairing and challenges ----
import { mountChallengeLink } from "./pages/challenge-link";
import { mountChallengeNotices } from "./pages/challenges";
import { mountTournament } from "./pages/tournament";
import { mountTournaments } from "./pages/tournaments";
// ---- analysis board ----
import { mountAnalysisBoard } from "./pages/analysis-board";
// ---- notifications and my games ----
import { inboxHeader } from "./pages/notify";
import { unlockSound } from "./pages/sound";
import { mountMyGames } from "./pages/my-games";

const conn = new Connection(lang());
// Challenges to and from the player on every page; `paired` goes to the new table.
mountChallengeNotices(conn);
const app = document.getElementById("app")!;

const nav = h("nav", { class: "nav" });
const status = h("span", { class: "conn", "data-testid": "connection", role: "status" });
const who = h("span", { class: "who", "data-testid": "me" });
/** "guest" beside the name while the session has no account. */
const guestSlot = h("span", { class: "guest-slot" });
/** Sign in (a guest) or the account's page (an account), beside the name. */
const accountLink = h("a", { class: "account-link", href: "#/account", "data-testid": "account-link" });
const langSelect = h("select", {
  class: "lang",
  "data-testid": "language",
  "aria-label": "Language",
}) as HTMLSelectElement;
for (const l of LANGS) langSelect.append(h("option", { value: l.code }, l.name));
langSelect.value = lang();
langSelect.addEventListener("change", () => setLang(langSelect.value as Lang));

// Browsers let a page sound only after a gesture: any click or key unlocks it, so that
// a challenge's knock sounds on every page.
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlockSound, { passive: true });

// The games waiting for the player's move and the bell, kept from the connection's news.
const inbox = inboxHeader(conn);

const main = h("main", { id: "page" });
app.append(h("header", { class: "top" }, h("a", { class: "brand", href: "#/" }, "YINSH"), nav, h("span", { class: "spacer" }), inbox.myTurn, inbox.bell, who, guestSlot, accountLink, status, langSelect), main);

function renderHeader(): void {
  replace(
    nav,
    h("a", { href: "#/" }, t("nav.lobby")),
    h("a", { href: "#/archive" }, t("nav.archive")),
    h("a", { href: "#/leaderboard", "data-testid": "nav-players" }, t("nav.players")),
    h("a", { href: "#/tournaments", "data-testid": "nav-tournaments", title: t("nav.tournaments") }, h("span", { class: "nav-long" }, t("nav.tournaments")), h("span", { class: "nav-short" }, t("nav.tournamentsShort"))),
    h("a", { href: "#/rules", class: "nav-wide", "data-testid": "nav-rules" }, t("nav.rules")),
    // A phone shows the short name: the site and its pages keep to one line.
    h("a", { href: "#/analysis", "data-testid": "nav-board", title: t("nav.board") }, h("span", { class: "nav-long" }, t("nav.board")), h("span", { class: "nav-short" }, t("nav.boardShort"))),
    h("a", { href: "#/games", "data-testid": "nav-games", title: t("nav.games") }, h("span", { class: "nav-long" }, t("nav.games")), h("span", { class: "nav-short" }, t("nav.gamesShort"))),
  );
  inbox.render();
  langSelect.setAttribute("aria-label", t("nav.language"));
  status.textContent = t(`conn.${conn.state}`);
  status.dataset.state = conn.state;
  replace(who, conn.player ? whoAmI(conn.player) : null);
  accountLink.textContent = conn.player && !conn.player.guest ? t("nav.account") : t("nav.signIn");
  replace(guestSlot, conn.player?.guest ? guestMark() : null);
}

/**
 * "You are {name}", the words apart from the name so that a phone shows the name alone;
 * an account's name links to its page.
 */
function whoAmI(me: PlayerView): (HTMLElement | null)[] {
  const [before, after] = t("you.are", { name: "\u0000" }).split("\u0000");
  return [
    before ? h("span", { class: "who-words" }, before) : null,
    isRegistered(me) ? playerLink(me.name, { "data-testid": "my-page" }) : h("span", {}, me.name),
    after ? h("span", { class: "who-words" }, after) : null,
  ];
}

conn.onState(() => renderHeader());
conn.onPlayer(() => renderHeader());

let unmount: (() => void) | null = null;

/** Shows the page the address names. */
function route(): void {
  unmount?.();
  unmount = null;
  main.replaceChildren();
  window.scrollTo(0, 0); // each page opens at its top
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path] = hash.split("?");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "table" && parts[1]) {
    unmount = mountTable(main, conn, decodeURIComponent(parts[1]));
  } else if (parts[0] === "archive") {
    unmount = mountArchive(main);
  } else if (parts[0] === "account") {
    // After a register, log-in or log-out the server closes this browser's connection
    // of the old session; it comes back at once as the new player.
    unmount = mountAccount(main, () => conn.reconnect());
  } else if (parts[0] === "rules") {
    unmount = mountRules(main);
  } else if (parts[0] === "@" && parts[1]) {
    unmount = mountPlayer(main, conn, decodeURIComponent(parts[1]));
  } else if (parts[0] === "leaderboard") {
    unmount = mountLeaderboard(main);
  } else if (parts[0] === "challenge" && parts[1]) {
    unmount = mountChallengeLink(main, conn, decodeURIComponent(parts[1]));
  } else if (parts[0] === "analysis") {
    unmount = mountAnalysisBoard(main, conn);
  } else if (parts[0] === "tournaments") {
    unmount = mountTournaments(main, conn);
  } else if (parts[0] === "tournament" && parts[1]) {
    unmount = mountTournament(main, conn, decodeURIComponent(parts[1]));
  } else if (parts[0] === "games") {
    unmount = mountMyGames(main, conn);
  } else if (parts[0] === "replay" && parts[1]) {
    unmount = mountReplay(main, conn, decodeURIComponent(parts[1]));
  } else {
    unmount = mountLobby(main, conn);
  }
}

onLangChange((l) => {
  langSelect.value = l;
  conn.setLang(l);
  renderHeader();
  route();
});
window.addEventListener("hashchange", route);
renderHeader();
route();
