// The lobby's correspondence seeks (docs/client.md, the lobby): an account posts a seek
// for a rated game of two days per turn and leaves the site; another player finds it in
// the lobby, accepts it and is taken to the new table; the first, back days later (here:
// a moment), finds the game in My games. A guest can post only casual seeks; one's own
// seek is withdrawn. Both players' vacation shows at the game. Screenshots of the lobby's
// section at 1366×768 and 390×844, and of the game, go to test-results/screenshots/.

import { expect, test } from "@playwright/test";
import { expectNoPageErrors, expectNoSidewaysScroll, newPlayer, registered, screenshot, tableIdOf } from "./helpers";

test("a correspondence seek waits in the lobby for its player who is away, and starts a game when taken", async ({ browser }) => {
  const { player: a, name: aName } = await registered(browser, "Seeker");
  const section = a.page.getByTestId("corres");
  await expect(section).toBeVisible();
  await section.getByTestId("corres-days").selectOption("2");
  await section.getByTestId("corres-rated").check();
  await section.getByTestId("corres-post").click();
  const mine = section.locator('[data-testid="corres-seek"][data-own="true"]');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText(aName);
  await expect(mine.getByTestId("corres-pace")).toHaveText("2 days per turn");
  await expect(mine).toContainText("Standard · Rated");
  await expect(mine.getByTestId("corres-rating")).toHaveText("1500?");
  await expect(mine.getByTestId("corres-withdraw")).toBeVisible();
  // A second one, unlimited (never rated: the box is off), withdrawn again.
  await section.getByTestId("corres-days").selectOption("unlimited");
  await expect(section.getByTestId("corres-rated")).toBeDisabled();
  await expect(section.getByTestId("corres-rated")).not.toBeChecked();
  await section.getByTestId("corres-post").click();
  await expect(mine).toHaveCount(2);
  await expect(mine.nth(1).getByTestId("corres-pace")).toHaveText("Correspondence, unlimited");
  await expect(mine.nth(1)).toContainText("Casual");
  await screenshot(a.page, "corres-seeks-1366x768");
  await mine.nth(1).getByTestId("corres-withdraw").click();
  await expect(mine).toHaveCount(1);
  const seekId = await mine.getAttribute("data-seek");

  // The seeker leaves the site altogether.
  await a.page.goto("about:blank");

  // A guest sees it, but may post only casual seeks and may not take a rated one.
  const guest = await newPlayer(browser, { viewport: { width: 390, height: 844 } });
  await guest.page.goto("/");
  const theirs = guest.page.locator(`[data-testid="corres-seek"][data-seek="${seekId}"]`);
  await expect(theirs).toContainText(aName);
  await expect(theirs).toHaveAttribute("data-own", "false");
  await expect(guest.page.getByTestId("corres-rated")).toBeDisabled();
  await theirs.getByTestId("corres-accept").click();
  await expect(guest.page.getByTestId("corres-message")).toHaveText(/registered players/);
  await guest.page.getByTestId("corres").scrollIntoViewIfNeeded();
  await expectNoSidewaysScroll(guest.page, "the correspondence seeks on a phone");
  await screenshot(guest.page, "corres-seeks-390x844");

  // Another account takes it: the game begins at once, at a new table.
  const { player: b } = await registered(browser, "Taker");
  const offer = b.page.locator(`[data-testid="corres-seek"][data-seek="${seekId}"]`);
  await offer.getByTestId("corres-accept").click();
  await expect(b.page).toHaveURL(/#\/table\//);
  const table = await tableIdOf(b.page);
  // Both players' vacation shows beside their names: 10 days for an account's year.
  for (const c of ["white", "black"]) await expect(b.page.getByTestId(`vacation-${c}`)).toHaveText("Vacation 10 d 0 h");
  await screenshot(b.page, "corres-game-1366x768");
  // Gone from the list for everyone.
  await guest.page.reload();
  await expect(guest.page.getByTestId("corres")).toBeVisible();
  await expect(theirs).toHaveCount(0);

  // The seeker comes back: the game is in My games.
  await a.page.goto("/#/games");
  const game = a.page.getByTestId("my-game");
  await expect(game).toHaveAttribute("data-table", table);
  await expect(game).toContainText("2 days per turn");
  await expect(game).toContainText("Rated");

  expectNoPageErrors(a, b, guest);
  await Promise.all([a.close(), b.close(), guest.close()]);
});
