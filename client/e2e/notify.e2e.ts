// Notifications and My games (docs/client.md, the header's news): two accounts meet by
// a challenge to a one-day-per-turn game; the challenged one, away from the table,
// sees the bell's count and the count of games waiting for a move, reads "Your turn
// against …" in the bell's panel, finds the game under "Your turn" on My games, opens
// it from the notification and plays; the challenger's resignation comes as a
// notification, marked read with "Mark all read"; the kinds of notification are
// switched on the account page. Each ring is placed with "Confirm turn" (on by default
// in correspondence games), the first undone once. Screenshots of the header with the
// bell open, of a turn waiting to be confirmed, and of My games at 1366×768 and 390×844
// go to test-results/screenshots/.

import { expect, test, type Page } from "@playwright/test";
import { expectMyTurn, expectNoPageErrors, expectNoSidewaysScroll, headerLines, hit, pointsWith, registered, resign, screenshot, tableIdOf } from "./helpers";

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/**
 * Places a ring on the first free point, by mouse, as the player to act, and confirms
 * the turn ("Confirm turn" is on by default in correspondence games): the ring is on
 * the board at once, sent only when confirmed. With `undoFirst`, the first try is
 * undone.
 */
async function placeRing(page: Page, actionsAfter: number, undoFirst = false): Promise<void> {
  await expectMyTurn(page, "place");
  const [point] = await pointsWith(page, "target");
  const played = page.locator('[data-testid="moves"] .act');
  const bar = page.getByTestId("confirm-bar");
  await expect(page.getByTestId("confirm-toggle")).toHaveAttribute("aria-pressed", "true");
  if (undoFirst) {
    await hit(page, point).click();
    await expect(bar).toBeVisible();
    const ring = page.locator(`svg.yinsh-board [data-piece="ring"][data-at="${point}"]`);
    await expect(ring).toHaveCount(1);
    await page.getByTestId("undo-turn").click();
    await expect(bar).toBeHidden();
    await expect(ring).toHaveCount(0);
    await expect(hit(page, point)).toHaveClass(/\btarget\b/);
  }
  await hit(page, point).click();
  await expect(page.getByTestId("confirm-note")).toHaveText("Your turn is ready: confirm to send it.");
  await expect(played).toHaveCount(actionsAfter - 1);
  if (undoFirst) await screenshot(page, "confirm-turn-1366x768");
  await page.getByTestId("confirm-turn").click();
  await expect(played).toHaveCount(actionsAfter);
  await expect(bar).toBeHidden();
}

test("a correspondence game's turn comes to the bell, the header's count and My games", async ({ browser }) => {
  const { player: a, name: aName } = await registered(browser, "Bella");
  const { player: b, name: bName } = await registered(browser, "Clapper");
  // Nothing yet: no counts.
  await expect(b.page.getByTestId("bell")).toBeVisible();
  await expect(b.page.getByTestId("bell-count")).toBeHidden();
  await expect(b.page.getByTestId("my-turn-count")).toBeHidden();
  await b.page.getByTestId("nav-games").click();
  await expect(b.page.getByTestId("my-games-empty")).toContainText("No games in progress.");

  // A challenges B to a game of one day per turn, A playing White.
  await a.page.getByTestId("open-challenge-form").click();
  const dialog = a.page.getByTestId("challenge-dialog");
  await dialog.getByTestId("challenge-name").fill(bName);
  await dialog.getByTestId("challenge-days").selectOption("1");
  await dialog.getByTestId("challenge-color").selectOption("white");
  await dialog.getByTestId("challenge-send").click();
  await expect(dialog).toHaveCount(0);
  // The challenge rings B's bell too, and counts in B's tab title; accepting it answers
  // it (read).
  await expect(b.page.getByTestId("bell-count")).toHaveText("1");
  await expect(b.page).toHaveTitle(/^\(1\) /);
  const challenge = b.page.locator('[data-testid="challenge-card"][data-dir="in"]');
  await challenge.getByTestId("challenge-accept").click();
  const table = await tableIdOf(b.page);
  expect(await tableIdOf(a.page)).toBe(table);
  await expect(b.page.getByTestId("bell-count")).toBeHidden();

  // B leaves the table for the lobby; A places the first ring.
  await b.page.locator("nav").getByRole("link", { name: "Lobby" }).click();
  await expect(b.page.getByTestId("lobby-stats")).toBeVisible();
  await placeRing(a.page, 1, true);

  // B, elsewhere, is told: the bell's count, the games to move in, the tab's title.
  await expect(b.page.getByTestId("bell-count")).toHaveText("1");
  const myTurn = b.page.getByTestId("my-turn-count");
  await expect(myTurn).toHaveText("1");
  await expect(myTurn).toHaveAttribute("aria-label", "1 game waits for your move");
  await expect(b.page).toHaveTitle(/^\(1\) /);
  await expect(b.page.getByTestId("bell")).toHaveAttribute("aria-label", "Notifications: 1 unread");
  // A, at the table, was told nothing; its count is 0 now that it is B's move.
  await expect(a.page.getByTestId("bell-count")).toBeHidden();
  await expect(a.page.getByTestId("my-turn-count")).toBeHidden();

  // The bell's panel: the newest first, unread.
  const bell = b.page.getByTestId("bell");
  await bell.click();
  await expect(bell).toHaveAttribute("aria-expanded", "true");
  const panel = b.page.getByTestId("notifications");
  await expect(panel).toBeVisible();
  const first = panel.getByTestId("notification").first();
  await expect(first).toContainText(`Your turn against ${aName}`);
  await expect(first).toContainText("just now");
  await expect(first).toHaveAttribute("data-read", "false");
  await expect(first).toHaveAttribute("href", `#/table/${table}`);
  await expect(panel.getByTestId("notification").nth(1)).toContainText(`${aName} challenged you`);
  await expect(panel.getByTestId("notification").nth(1)).toHaveAttribute("data-read", "true");
  await screenshot(b.page, "notifications-1366x768");
  await b.page.setViewportSize(PHONE);
  await expect(panel).toBeVisible();
  expect(await headerLines(b.page), "the phone's header lines").toBeLessThanOrEqual(2);
  await expectNoSidewaysScroll(b.page, "the bell's panel on a phone");
  const panelBox = (await panel.boundingBox())!;
  expect(panelBox.x).toBeGreaterThanOrEqual(0);
  expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(PHONE.width);
  await screenshot(b.page, "notifications-390x844");
  // Escape closes it, the focus back on the bell; so does a click elsewhere.
  await b.page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(bell).toHaveAttribute("aria-expanded", "false");
  await bell.click();
  await expect(panel).toBeVisible();
  await b.page.locator("main").click({ position: { x: 5, y: 200 } });
  await expect(panel).toBeHidden();
  await b.page.setViewportSize(DESKTOP);

  // My games: the game under "Your turn", nothing waiting for the opponent.
  await b.page.getByTestId("nav-games").click();
  await expect(b.page).toHaveURL(/#\/games$/);
  const mine = b.page.getByTestId("my-turn-games").getByTestId("my-game");
  await expect(mine).toHaveCount(1);
  await expect(mine).toHaveAttribute("data-table", table);
  await expect(mine).toContainText(aName);
  await expect(mine.getByTestId("my-game-rating")).toHaveText("1500?");
  await expect(mine).toContainText("you play Black");
  await expect(mine).toContainText("1 day per turn");
  await expect(mine.getByTestId("my-game-time")).toHaveText(/^(23 h \d+ min|1 d 0 h) left$/);
  await expect(mine.getByTestId("my-game-last")).toHaveText(/^last move [a-k]\d+$/);
  await expect(b.page.getByTestId("waiting-games")).toContainText("No game waits for an opponent.");
  await screenshot(b.page, "my-games-1366x768");
  await b.page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(b.page, "My games on a phone");
  expect(await headerLines(b.page), "the phone's header lines on My games").toBeLessThanOrEqual(2);
  await screenshot(b.page, "my-games-390x844");
  await b.page.setViewportSize(DESKTOP);

  // The notification opens the table and is read; B places a ring.
  await bell.click();
  await panel.getByTestId("notification").first().click();
  await expect(b.page).toHaveURL(new RegExp(`#/table/${table}$`));
  await expect(panel).toBeHidden();
  await expect(b.page.getByTestId("bell-count")).toBeHidden();
  await placeRing(b.page, 2);
  // The bars keep the names readable beside the days' clocks.
  for (const c of ["white", "black"]) expect((await b.page.getByTestId(`seat-${c}-name`).boundingBox())!.width).toBeGreaterThan(40);
  await expect(b.page.getByTestId("seat-white-name")).toHaveAttribute("title", aName);
  await screenshot(b.page, "correspondence-table-1366x768");
  await expect(b.page.getByTestId("my-turn-count")).toBeHidden();
  await expect(b.page).not.toHaveTitle(/^\(\d+\) /);
  // It is A's move now: A's header counts it (A is at the table: no notification, and
  // the table's own title says whose turn it is).
  await expect(a.page.getByTestId("my-turn-count")).toHaveText("1");
  await expect(a.page).not.toHaveTitle(/^\(\d+\) /);

  // On My games the game waits for the opponent.
  await b.page.getByTestId("nav-games").click();
  const theirs = b.page.getByTestId("waiting-games").getByTestId("my-game");
  await expect(theirs).toHaveAttribute("data-table", table);
  await expect(b.page.getByTestId("my-turn-games")).toContainText("No game waits for your move.");

  // A resigns: B, on My games, is told, and the game leaves the page at once.
  await resign(a.page);
  await expect(b.page.getByTestId("bell-count")).toHaveText("1");
  await expect(b.page.getByTestId("my-games-empty")).toBeVisible();
  await bell.click();
  await expect(panel.getByTestId("notification").first()).toContainText(`You won against ${aName}`);
  await expect(panel.getByTestId("notification").first()).toHaveAttribute("href", /^#\/replay\/\d+$/);
  await b.page.getByTestId("mark-all-read").click();
  await expect(b.page.getByTestId("bell-count")).toBeHidden();
  await expect(panel.getByTestId("notification").first()).toHaveAttribute("data-read", "true");
  await expect(b.page.getByTestId("mark-all-read")).toBeDisabled();
  // Read on one page, read on the others: a second page of B's shows no count.
  const second = await b.page.context().newPage();
  await second.goto("/#/games");
  await expect(second.getByTestId("my-games-empty")).toBeVisible();
  await expect(second.getByTestId("bell-count")).toBeHidden();
  await second.close();

  // The settings: every kind on; one switched off is kept.
  await b.page.goto("/#/account");
  const settings = b.page.getByTestId("notify-settings");
  await expect(settings.getByTestId("notify-your_turn")).toBeChecked();
  for (const kind of ["challenge", "game_over", "deadline", "analysis_ready"]) await expect(settings.getByTestId(`notify-${kind}`)).toBeChecked();
  await settings.getByTestId("notify-challenge").uncheck();
  await expect(settings.getByTestId("notify-status")).toHaveText("Saved");
  await b.page.reload();
  await expect(b.page.getByTestId("notify-challenge")).not.toBeChecked();
  await expect(b.page.getByTestId("notify-your_turn")).toBeChecked();
  await screenshot(b.page, "account-notify-1366x768", true);
  // Switched off: A's next challenge is shown as a challenge, but the bell stays quiet.
  await a.page.getByTestId("nav-games").click();
  await expect(a.page.getByTestId("my-games-empty")).toBeVisible();
  await a.page.locator("nav").getByRole("link", { name: "Lobby" }).click();
  await a.page.getByTestId("open-challenge-form").click();
  await a.page.getByTestId("challenge-name").fill(bName);
  await a.page.getByTestId("challenge-send").click();
  await expect(b.page.locator('[data-testid="challenge-card"][data-dir="in"]')).toHaveCount(1);
  await b.page.waitForTimeout(500);
  await expect(b.page.getByTestId("bell-count")).toBeHidden();

  expectNoPageErrors(a, b);
  await Promise.all([a.close(), b.close()]);
});
