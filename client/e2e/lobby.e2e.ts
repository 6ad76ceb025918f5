// The lobby's sections (open, games, finished, players away), who is online, playing the
// engine as black, the how-to-play page in every language, the archive's dates and
// engine names in the page's language, and screenshots of these pages at common sizes.

import { expect, test, type Browser, type Page } from "@playwright/test";
import { RULES } from "../src/pages/rules-text";
import {
  boardOf,
  expectMyTurn,
  expectNoPageErrors,
  expectNoSidewaysScroll,
  myName,
  newPlayer,
  screenshot,
  seatedPair,
  tableIdOf,
  waitOnline,
} from "./helpers";

const row = (page: Page, table: string) => page.locator(`[data-testid="table-row"][data-table="${table}"]`);
const inSection = (page: Page, section: string, table: string) =>
  page.locator(`[data-testid="section-${section}"] [data-testid="table-row"][data-table="${table}"]`);

/** Resigns with the two clicks the button asks for. */
async function resign(page: Page): Promise<void> {
  const button = page.getByTestId("resign");
  await button.click();
  await expect(button).toHaveClass(/\bconfirm\b/);
  await button.click();
  await expect(page.getByTestId("result")).toContainText(/resignation/);
}

test("tables move from open to the games in progress and to the finished ones", async ({ browser }) => {
  const watcher = await newPlayer(browser);
  // The figures asked before the connection counted the viewer (here: an answer made to
  // say so) are asked again once connected, not at the next refresh 10 s later.
  {
    const context = await browser.newContext({ locale: "en-GB" });
    const page = await context.newPage();
    let first = true;
    await page.route("**/api/stats", (route) => {
      if (!first) return route.continue();
      first = false;
      return route.fulfill({ json: { players_online: 0, tables: 0, games: 0, accounts_online: [] } });
    });
    await page.goto("/");
    await expect(page.getByTestId("players-online")).not.toHaveText("0 players online", { timeout: 3_000 });
    await context.close();
  }
  const { white, black, whiteName } = await seatedPair(browser);
  const table = await tableIdOf(white.page);
  const lobby = watcher.page;

  // Both seats taken, no game yet: among the games, about to start.
  await expect(inSection(lobby, "games", table)).toHaveAttribute("data-state", "ready");
  await expect(inSection(lobby, "games", table)).toContainText(whiteName);

  await white.page.getByTestId("start").click();
  await expect(boardOf(white.page)).toHaveAttribute("data-stage", "place");
  await expect(inSection(lobby, "games", table)).toHaveAttribute("data-state", "playing");
  await expect(inSection(lobby, "games", table).getByRole("link")).toHaveText("Watch");

  await resign(black.page);
  // Finished: apart, folded under its count, with the result.
  const done = inSection(lobby, "finished", table);
  await expect(done).toHaveCount(1);
  await expect(done).toBeHidden();
  await lobby.getByTestId("finished").locator("summary").click();
  await expect(done).toBeVisible();
  await expect(done).toContainText("1-0 · resignation");
  await expect(done.locator(".winner")).toContainText(whiteName);
  // The players are guests, and marked so.
  await expect(done.locator(".winner").getByTestId("guest-mark")).toHaveText("guest");
  await expect(inSection(lobby, "games", table)).toHaveCount(0);

  // Black leaves the seat: the table is open again, with "Sit down".
  await black.page.getByTestId("leave").click();
  await expect(inSection(lobby, "open", table)).toHaveCount(1);
  await expect(inSection(lobby, "open", table).getByRole("link")).toHaveText("Sit down");
  // White leaves too: nobody is left at the finished table, and the lobby offers it no more.
  await white.page.getByTestId("leave").click();
  await expect(lobby.locator(`[data-table="${table}"]`)).toHaveCount(0);

  // Who is online: at least the three of us, and the figures come from /api/stats.
  await expect(lobby.getByTestId("players-online")).toHaveText(/^\d+ players? online$/);
  await expect
    .poll(async () => Number.parseInt((await lobby.getByTestId("players-online").textContent()) ?? "0"), { timeout: 25_000 })
    .toBeGreaterThanOrEqual(3);
  await expect(lobby.getByTestId("games-running")).toHaveText(/^\d+ games? in progress$/);
  expectNoPageErrors(watcher, white, black);
  await Promise.all([watcher.close(), white.close(), black.close()]);
});

test("a running game whose players have both gone shows as players away", async ({ browser }) => {
  const watcher = await newPlayer(browser);
  const { white, black } = await seatedPair(browser);
  const table = await tableIdOf(white.page);
  await white.page.getByTestId("start").click();
  await expect(inSection(watcher.page, "games", table)).toHaveAttribute("data-state", "playing");
  await Promise.all([white.close(), black.close()]);
  // Absences are announced after 5 s.
  await expect(inSection(watcher.page, "games", table)).toHaveAttribute("data-state", "away", { timeout: 20_000 });
  await expect(inSection(watcher.page, "games", table)).toContainText("players away");
  expectNoPageErrors(watcher);
  await watcher.close();
});

test("playing the engine as black: the engine sits at white and moves first; a Polish lobby names it", async ({ browser }) => {
  const player = await newPlayer(browser);
  const page = player.page;
  const me = await myName(page);
  const polish = await newPlayer(browser, { locale: "pl-PL" });
  await page.getByTestId("engine-level").selectOption("1");
  await page.getByTestId("engine-color").selectOption("black");
  await page.getByTestId("play-engine").click();
  const table = await tableIdOf(page);
  await expect(page.getByTestId("seat-black-name")).toHaveText(me);
  await expect(page.getByTestId("seat-white-name")).toHaveText(/Engine/);
  // White's first ring is the engine's; then it is our turn to place.
  await expect(page.locator('[data-testid="moves"] li')).toHaveCount(1);
  await expectMyTurn(page, "place");
  await expect(page.locator('svg.yinsh-board [data-piece="ring"][data-color="white"]')).toHaveCount(1);

  // In Polish, the lobby writes the engine's name in Polish, not the server's English one.
  await expect(polish.page.locator("html")).toHaveAttribute("lang", "pl");
  await expect(row(polish.page, table)).toContainText("Silnik (poziom 1)");
  await expect(row(polish.page, table)).not.toContainText("Engine");

  // Resigned: the archive names the engine in the reader's language too.
  await resign(page);
  await polish.page.goto("/#/archive");
  const entry = polish.page.locator('[data-testid="archive-row"]', { hasText: me }).first();
  await expect(entry).toContainText("Silnik (poziom 1)");
  expectNoPageErrors(player, polish);
  await Promise.all([player.close(), polish.close()]);
});

test("the archive's dates and counts are written in German and in Polish", async ({ browser }) => {
  // A finished, archived game.
  const { white, black } = await seatedPair(browser);
  await white.page.getByTestId("start").click();
  await resign(white.page);
  const page = white.page;
  await page.goto("/#/archive");
  await expect(page.getByTestId("archive-row").first()).toBeVisible();
  await expect(page.getByTestId("archive-summary")).toHaveText(/^\d+ games? · showing/);

  await page.getByTestId("language").selectOption("de");
  const date = page.locator('[data-testid="archive-row"] time').first();
  await expect(date).toHaveText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
  await expect(page.getByTestId("archive-summary")).toHaveText(/^\d+ Partien? · /);

  await page.getByTestId("language").selectOption("pl");
  await expect(date).toHaveText(/^\d{1,2} (sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru) \d{4}, \d{2}:\d{2}$/);
  await expect(page.getByTestId("archive-summary")).toHaveText(/^\d+ (partia|partie|partii) · /);
  await page.getByTestId("language").selectOption("en");
  expectNoPageErrors(white, black);
  await Promise.all([white.close(), black.close()]);
});

test("the how-to-play page, from the header and the lobby, in every language", async ({ browser }) => {
  const player = await newPlayer(browser);
  const page = player.page;
  await page.getByTestId("lobby-rules").click();
  await expect(page).toHaveURL(/#\/rules$/);
  await expect(page.getByTestId("rules").locator("h1")).toHaveText(RULES.en.title);
  await page.getByRole("link", { name: "Lobby", exact: true }).click();
  await expect(page.getByTestId("tables")).toBeVisible();
  await page.getByTestId("nav-rules").click();
  for (const l of ["en", "nl", "pl", "de"] as const) {
    await page.getByTestId("language").selectOption(l);
    const rules = page.getByTestId("rules");
    await expect(rules.locator("h1")).toHaveText(RULES[l].title);
    await expect(rules.locator("h2")).toHaveText(RULES[l].sections.map((s) => s.heading));
    await expect(rules.locator("svg.rules-diagram")).toHaveCount(4);
    await expect(rules.locator('figure[data-diagram="move-before"] [data-piece="ring"][data-at="e2"]')).toHaveCount(1);
    await expect(rules.locator("figcaption").first()).toHaveText(RULES[l].sections[1].figures![0].caption);
  }
  await page.getByTestId("language").selectOption("en");
  // A section link scrolls within the page and stays on it.
  await page.locator('.rules-toc a[data-section="end"]').click();
  await expect(page).toHaveURL(/#\/rules$/);
  await expect(page.getByTestId("rules-end")).toBeInViewport();
  expectNoPageErrors(player);
  await player.close();
});

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
];

async function shootAll(browser: Browser, lang: "en" | "de" = "en"): Promise<void> {
  for (const size of SIZES) {
    const phone = size.width < 500;
    const player = await newPlayer(browser, {
      viewport: size,
      ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}),
    });
    const page = player.page;
    const name = (p: string) => `${p}${lang === "en" ? "" : `-${lang}`}-${size.width}x${size.height}`;
    if (lang !== "en") await page.getByTestId("language").selectOption(lang);
    await expect(page.getByTestId("players-online")).toBeVisible();
    await expectNoSidewaysScroll(page, `the lobby at ${size.width}×${size.height}`);
    await screenshot(page, name("lobby"));
    await page.goto("/#/archive");
    await waitOnline(page);
    await expect(page.getByTestId("archive-row").first()).toBeVisible();
    await expectNoSidewaysScroll(page, `the archive at ${size.width}×${size.height}`);
    await screenshot(page, name("archive"));
    await page.goto("/#/rules");
    await expect(page.getByTestId("rules")).toBeVisible();
    await expectNoSidewaysScroll(page, `the rules at ${size.width}×${size.height}`);
    await screenshot(page, name("rules"));
    if (size.width === 1366 || phone) await screenshot(page, `${name("rules")}-full`, true);
    expectNoPageErrors(player);
    await player.close();
  }
}

test("screenshots of the lobby, the archive and the rules at common sizes; nothing scrolls sideways", async ({ browser }) => {
  test.setTimeout(240_000);
  // Something in each section: an open table, a game in progress, a finished game (in
  // the archive too).
  const finished = await seatedPair(browser);
  await finished.white.page.getByTestId("start").click();
  await resign(finished.black.page);
  const host = await newPlayer(browser);
  await host.page.getByTestId("create-table").click();
  await tableIdOf(host.page);
  await host.page.getByTestId("join-white").click();
  const game = await seatedPair(browser);
  await game.white.page.getByTestId("start").click();
  await expect(boardOf(game.white.page)).toHaveAttribute("data-stage", "place");

  await shootAll(browser);
  // German: the options form keeps "+ Sek." with its number and shows the placeholder whole.
  await shootAll(browser, "de");
  const de = await newPlayer(browser, { viewport: { width: 1366, height: 768 } });
  await de.page.getByTestId("language").selectOption("de");
  for (const unit of await de.page.locator(".options .opt-unit").all()) {
    const box = (await unit.boundingBox())!;
    expect(box.height, "a number and its unit on one line").toBeLessThan(50);
  }
  const turns = de.page.getByTestId("opt-turns");
  await expect(turns).toHaveAttribute("placeholder", "keins");
  expect((await turns.boundingBox())!.width).toBeGreaterThan(90);
  await Promise.all([host.close(), game.white.close(), game.black.close(), finished.white.close(), finished.black.close(), de.close()]);
});
