// Rated games from the page: two accounts play a rated 3+0 table made with the Rated
// box, resign by clicking, and both see the rating changes; the player's page shows the
// rating card, the history chart and the games, the record against the reader, and
// the leaderboards load. Screenshots of both pages (also with a long made-up history
// and full boards, answered by the test instead of the server) at 1366×768 and 390×844.

import { expect, test } from "@playwright/test";
import { en } from "../src/i18n/en";
import { expectNoPageErrors, expectNoSidewaysScroll, headerLines, newPlayer, registered, resign, screenshot, sitDown, tableIdOf } from "./helpers";

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };



const up = /^1500 → \d{4}\? \(\+\d+\)$/;
const down = /^1500 → \d{4}\? \(−\d+\)$/;

test("a rated game changes both ratings, shown at the table and on the players' pages", async ({ browser }) => {
  // A guest may not choose a rated game, and is told why.
  const guest = await newPlayer(browser);
  await expect(guest.page.getByTestId("opt-rated")).toBeDisabled();
  await expect(guest.page.getByTestId("rated-hint")).toHaveText(en["rating.guestOnly"]);

  const { player: annPlayer, name: ann } = await registered(browser, "Ann");
  const { player: bobPlayer, name: bob } = await registered(browser, "Bob");
  const a = annPlayer.page;
  const b = bobPlayer.page;

  // An account may, with a clock: untimed, the box is off and says why.
  await expect(a.getByTestId("opt-rated")).toBeEnabled();
  await a.getByTestId("opt-timed").uncheck();
  await expect(a.getByTestId("opt-rated")).toBeDisabled();
  await expect(a.getByTestId("rated-hint")).toHaveText(en["rating.needsClock"]);
  await a.getByTestId("opt-timed").check();
  await a.getByTestId("opt-minutes").fill("3");
  await a.getByTestId("opt-increment").fill("0");
  await a.getByTestId("opt-turns").fill("40");
  await a.getByTestId("opt-rated").check();
  // Rated: archived, no turn limit (the fields say so before the server would).
  await expect(a.getByTestId("opt-log")).toBeChecked();
  await expect(a.getByTestId("opt-log")).toBeDisabled();
  await expect(a.getByTestId("opt-turns")).toHaveValue("");
  await a.getByTestId("create-table").click();
  const table = await tableIdOf(a);
  await sitDown(a, "white");
  await expect(a.getByTestId("table-options").getByTestId("rated-mark")).toHaveText("Rated");
  await expect(a.getByTestId("table-options")).toContainText("3 min + 0 s");

  // The lobby says "Rated", the seat's name links to the player's page, and the
  // accounts online are named.
  const lobbyRow = b.locator(`[data-testid="table-row"][data-table="${table}"]`);
  await expect(lobbyRow.getByTestId("rated-mark")).toHaveText("Rated");
  await expect(lobbyRow.getByRole("link", { name: ann })).toHaveAttribute("href", `#/@/${ann}`);
  await b.reload();
  await expect(b.getByTestId("accounts-online").getByRole("link", { name: ann })).toBeVisible();
  await expect(guest.page.locator(`[data-testid="table-row"][data-table="${table}"]`).getByTestId("rated-mark")).toHaveText("Rated");

  // Bob sits down; the game starts; Bob resigns.
  await b.goto(`/#/table/${table}`);
  await sitDown(b, "black");
  await a.getByTestId("start").click();
  await expect(b.getByTestId("resign")).toBeVisible();
  await resign(b);
  for (const page of [a, b]) {
    await expect(page.getByTestId("rating-white")).toHaveText(up);
    await expect(page.getByTestId("rating-black")).toHaveText(down);
    await expect(page.getByTestId("result-ratings")).toContainText(ann);
    await expect(page.getByTestId("seat-white-name").getByRole("link")).toHaveAttribute("href", `#/@/${ann}`);
  }
  const gain = (await a.getByTestId("rating-white").textContent())!;
  const firstGame = (await a.getByTestId("replay-link").getAttribute("href"))!.replace("#/replay/", "");
  await screenshot(a, "rated-result-1366x768");
  await a.setViewportSize(PHONE);
  await expect(a.getByTestId("rating-white")).toBeVisible();
  await expectNoSidewaysScroll(a, "the table after a rated game");
  await screenshot(a, "rated-result-390x844");
  await a.setViewportSize(DESKTOP);

  // A rematch, which Ann resigns: her rating goes down from where it was.
  await a.getByTestId("start").click();
  await expect(a.getByTestId("resign")).toBeVisible();
  await expect(a.getByTestId("rating-white")).toHaveCount(0);
  await resign(a);
  const after = gain.replace(/^1500 → (\d+)\?.*$/, "$1");
  await expect(a.getByTestId("rating-white")).toHaveText(new RegExp(`^${after} → \\d{4}\\? \\(−\\d+\\)$`));
  await expect(b.getByTestId("rating-black")).toHaveText(/^\d{4} → \d{4}\? \(\+\d+\)$/);
  const secondGame = (await a.getByTestId("replay-link").getAttribute("href"))!.replace("#/replay/", "");

  // Ann's page: one category, the history through both games, the games.
  await a.getByTestId("seat-white-name").getByRole("link").click();
  await expect(a).toHaveURL(new RegExp(`#/@/${ann}$`));
  await expect(a.getByTestId("profile-name")).toHaveText(ann);
  await expect(a.getByTestId("profile-online")).toHaveText(en["profile.online"]);
  await expect(a.getByTestId("profile-actions")).toHaveCount(1);
  await expect(a.getByTestId("head-to-head")).toHaveCount(0); // her own page
  const card = a.getByTestId("rating-card");
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute("data-category", "standard-quick");
  await expect(card).toContainText("Standard · Quick");
  await expect(card.getByTestId("rating-value")).toHaveText(/^\d{4}\?$/);
  await expect(card).toContainText("2 rated games");
  await expect(card).toContainText("1 won · 0 drawn · 1 lost");
  const path = a.locator('[data-testid="rating-graph"] svg path');
  await expect(path).toHaveCount(1);
  await expect(path).toHaveAttribute("d", /^M[\d.]+,[\d.]+L[\d.]+,[\d.]+$/);
  await expect(a.locator('[data-testid="rating-graph"] .graph-point')).toHaveCount(2);
  const recent = a.getByTestId("recent-games");
  await expect(recent.locator(`[data-testid="archive-row"][data-game-id="${firstGame}"]`)).toBeVisible();
  await expect(recent.locator(`[data-testid="archive-row"][data-game-id="${secondGame}"]`)).toContainText("Rated");
  await expect(a.getByTestId("profile-archive")).toHaveAttribute("href", `#/archive?player=${ann}`);
  await expectNoSidewaysScroll(a, "the player's page");
  await screenshot(a, "profile-1366x768", true);
  await a.setViewportSize(PHONE);
  await expectNoSidewaysScroll(a, "the player's page on a phone");
  await screenshot(a, "profile-390x844", true);
  await a.setViewportSize(DESKTOP);
  // A name in the recent games leads to that player's page.
  await recent.getByRole("link", { name: bob }).first().click();
  await expect(a.getByTestId("profile-name")).toHaveText(bob);

  // Bob reading Ann's page sees their record from his side: 1 win, no draw, 1 loss.
  await b.goto(`/#/@/${ann.toLowerCase()}`);
  await expect(b.getByTestId("profile-name")).toHaveText(ann);
  await expect(b.getByTestId("head-to-head")).toHaveText(`You 1 – 0 – 1 ${ann}`);

  // Nobody of that name.
  await b.goto("/#/@/Nobody_here");
  await expect(b.getByTestId("profile-missing")).toHaveText("No registered player is called “Nobody_here”.");

  // The leaderboards: every category, empty so far (a place needs 10 rated games).
  await b.getByTestId("nav-players").click();
  await expect(b).toHaveURL(/#\/leaderboard$/);
  const cards = b.getByTestId("leaderboard-card");
  await expect(cards).toHaveCount(10);
  await expect(cards.first()).toContainText("Standard · Bullet");
  await expect(cards.nth(4)).toContainText("Standard · Correspondence");
  await expect(cards.nth(5)).toContainText("Blitz · Bullet");
  await expect(cards.first()).toContainText(en["leaderboard.empty"]);
  await b.getByRole("link", { name: "Standard · Quick" }).first().click();
  await expect(b).toHaveURL(/#\/leaderboard\?category=standard-quick$/);
  await expect(b.getByTestId("leaderboard-empty")).toBeVisible();
  // Finding a player by name.
  await b.getByTestId("find-player").fill(ann);
  await b.getByTestId("find-player-go").click();
  await expect(b.getByTestId("profile-name")).toHaveText(ann);

  expectNoPageErrors(guest, annPlayer, bobPlayer);
  await Promise.all([guest.close(), annPlayer.close(), bobPlayer.close()]);
});

// ---- Made-up data, for the look of full pages ----

const CATS = ["standard-bullet", "standard-quick", "standard-rapid", "standard-classical", "blitz-bullet", "blitz-quick", "blitz-rapid", "blitz-classical"];
const NAMES = ["Dirk", "Annelies", "Krzysztof_Wiśniewski", "Mia", "Bartholomew-Long", "Zoë", "Jan", "Ola", "Pieter", "Greta"];
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 30, 12);

function madeUpProfile(): object {
  const history: object[] = [];
  let game = 1;
  for (const [category, start, games] of [["standard-rapid", 1500, 40], ["blitz-quick", 1500, 14], ["standard-bullet", 1500, 4]] as const) {
    let rating = start;
    for (let i = 0; i < games; i++) {
      rating += Math.round(Math.sin(i * 1.7 + game) * 60 + (category === "standard-rapid" ? 12 : -4));
      history.push({ game: game++, category, at: NOW - (120 - i * (category === "standard-bullet" ? 20 : 3)) * DAY, rating });
    }
  }
  history.sort((x, y) => (x as { at: number }).at - (y as { at: number }).at);
  const recent = Array.from({ length: 6 }, (_, i) => ({
    id: 100 - i,
    white: i % 2 ? "Dirk" : "Annelies",
    black: i % 2 ? "Annelies" : "SwiftOtter4821",
    black_guest: i % 2 ? undefined : true,
    options: { variant: i % 3 ? "standard" : "blitz", time: { minutes: 10, increment: 5 }, log: true, rated: i % 2 === 1 ? true : undefined },
    started_at: NOW - i * DAY,
    finished_at: NOW - i * DAY + 600_000,
    result: { winner: i % 3 ? "white" : "black", score: i % 3 ? "1-0" : "0-1", termination: "target reached" },
    actions: 80 + i,
  }));
  return {
    name: "Annelies",
    created_at: NOW - 200 * DAY,
    online: true,
    ratings: [
      { category: "standard-rapid", rating: 1874, deviation: 62, provisional: false, games: 40, wins: 25, draws: 3, losses: 12 },
      { category: "blitz-quick", rating: 1544, deviation: 90, provisional: false, games: 14, wins: 7, draws: 0, losses: 7 },
      { category: "standard-bullet", rating: 1421, deviation: 180, provisional: true, games: 4, wins: 1, draws: 1, losses: 2 },
    ],
    history,
    recent,
    games: 312,
    head_to_head: { opponent: "Dirk", wins: 3, draws: 1, losses: 2 },
  };
}

function madeUpBoard(category: string, n: number): object {
  return {
    category,
    players: Array.from({ length: n }, (_, i) => ({ rank: i + 1, name: NAMES[i % NAMES.length] + (i >= NAMES.length ? String(i) : ""), rating: 2150 - i * 23, deviation: 60, games: 200 - i * 7 })),
  };
}

test("the player's page and the leaderboards, full, at a desktop's and a phone's size", async ({ browser }) => {
  const viewer = await newPlayer(browser, { viewport: DESKTOP });
  const page = viewer.page;
  await page.route("**/api/player/**", (route) => route.fulfill({ json: madeUpProfile() }));
  await page.route("**/api/leaderboard*", (route) => {
    const category = new URL(route.request().url()).searchParams.get("category");
    return route.fulfill({ json: category ? madeUpBoard(category, 40) : CATS.map((c, i) => madeUpBoard(c, i === 3 || i === 7 ? 0 : 10 - i)) });
  });

  await page.goto("/#/@/Annelies");
  await expect(page.getByTestId("rating-card")).toHaveCount(3);
  await expect(page.locator('[data-testid="rating-graph"] svg path')).toHaveCount(3);
  await expect(page.getByTestId("head-to-head")).toBeVisible();
  await expectNoSidewaysScroll(page, "a full player's page");
  await screenshot(page, "profile-full-1366x768", true);
  await page.setViewportSize(PHONE);
  await expect(page.locator('[data-testid="rating-graph"] svg')).toHaveAttribute("width", /^3\d\d$/);
  await expectNoSidewaysScroll(page, "a full player's page on a phone");
  await screenshot(page, "profile-full-390x844", true);

  await page.setViewportSize(DESKTOP);
  await page.goto("/#/leaderboard");
  await expect(page.getByTestId("leaderboard-card")).toHaveCount(8);
  await expectNoSidewaysScroll(page, "the leaderboards");
  await screenshot(page, "leaderboard-1366x768", true);
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page, "the leaderboards on a phone");
  await screenshot(page, "leaderboard-390x844", true);
  await page.goto("/#/leaderboard?category=blitz-rapid");
  await expect(page.getByTestId("leaderboard-row")).toHaveCount(40);
  await expectNoSidewaysScroll(page, "a whole board on a phone");
  await screenshot(page, "leaderboard-board-390x844");
  await page.setViewportSize(DESKTOP);
  await screenshot(page, "leaderboard-board-1366x768");
  expectNoPageErrors(viewer);
  await viewer.close();
});

test("the header on a phone keeps to two lines in every language, for a guest and an account", async ({ browser }) => {
  const guest = await newPlayer(browser, { viewport: PHONE });
  const { player: account, name } = await registered(browser, "Header");
  await account.page.setViewportSize(PHONE);
  // An account's name in the header leads to its page.
  await expect(account.page.getByTestId("my-page")).toHaveAttribute("href", `#/@/${name}`);
  for (const player of [guest, account]) {
    const page = player.page;
    for (const lang of ["en", "nl", "pl", "de"]) {
      await page.getByTestId("language").selectOption(lang);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const lines = await headerLines(page);
      expect(lines, `the header's lines in ${lang}`).toBeLessThanOrEqual(2);
      await expectNoSidewaysScroll(page, `the header in ${lang}`);
    }
    await page.getByTestId("language").selectOption("en");
  }
  await screenshot(account.page, "header-account-390x844");
  expectNoPageErrors(guest, account);
  await Promise.all([guest.close(), account.close()]);
});
