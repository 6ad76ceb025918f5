// Players meeting and rating each other, the whole way a person goes (issue: players
// with a name): two accounts pick the same rated clock in the lobby's quick pairing and
// meet at a new table, place rings by mouse, one resigns by clicking; both see the
// rating changes, and each one's page shows the new rating and the game. Then one
// challenges the other from that page; the other accepts from the notice and both are
// at the new table.

import { expect, test, type Page } from "@playwright/test";
import { colorOf, expectNoPageErrors, playFirstRings, registered, resign, screenshot } from "./helpers";

const change = /^1500 → \d{3,4}\? \([+−]\d+\)$/;

/** The page's rating card of `category`: its value. */
function ratingValue(page: Page, category: string) {
  return page.locator(`[data-testid="rating-card"][data-category="${category}"]`).getByTestId("rating-value");
}

test("two accounts pair by quick pairing, play rated, see it on their pages, and meet again by a challenge from a page", async ({ browser }) => {
  const { player: quinn, name: quinnName } = await registered(browser, "Quinn");
  const { player: rhea, name: rheaName } = await registered(browser, "Rhea");
  const [q, r] = [quinn.page, rhea.page];

  // Both ask for a rated 3+0 game: the second click pairs them.
  for (const page of [q, r]) await page.getByTestId("quick-mode-rated").click();
  await q.getByTestId("preset-3+0").click();
  const seek = r.locator('[data-testid="seek-row"]', { hasText: quinnName });
  await expect(seek.getByTestId("seek-rating")).toHaveText("1500?");
  await r.getByTestId("preset-3+0").click();
  await playFirstRings(q, r);
  await expect(q.getByTestId("rated-mark").first()).toHaveText("Rated");

  // Whoever is Black resigns by clicking; both see both changes.
  const [white, black] = (await colorOf(q)) === "white" ? [q, r] : [r, q];
  await resign(black);
  for (const page of [q, r]) {
    await expect(page.getByTestId("rating-white")).toHaveText(change);
    await expect(page.getByTestId("rating-black")).toHaveText(change);
    await expect(page.getByTestId("rating-white")).toContainText("(+");
  }
  const won = (await white.getByTestId("rating-white").textContent())!.split(" → ")[1].split("?")[0];
  const lost = (await white.getByTestId("rating-black").textContent())!.split(" → ")[1].split("?")[0];

  // Each one's page: the new rating, provisional, and the game among the recent ones.
  for (const [page, name, rating] of [
    [q, quinnName, white === q ? won : lost],
    [r, rheaName, white === r ? won : lost],
  ] as const) {
    await page.goto(`/#/@/${name}`);
    await expect(page.getByTestId("profile-name")).toHaveText(name);
    await expect(ratingValue(page, "standard-quick")).toHaveText(`${rating}?`);
    const games = page.getByTestId("recent-games");
    await expect(games).toContainText(quinnName);
    await expect(games).toContainText(rheaName);
    await expect(games).toContainText(/resignation/);
    await expect(page.getByTestId("challenge-player")).toBeHidden(); // one's own page
  }

  // Quinn opens Rhea's page and challenges her from it (the form comes filled in).
  await q.goto(`/#/@/${rheaName}`);
  await expect(q.getByTestId("head-to-head")).toBeVisible();
  await q.getByTestId("challenge-player").click();
  const dialog = q.getByTestId("challenge-dialog");
  await expect(dialog.getByTestId("challenge-name")).toHaveValue(rheaName);
  await dialog.getByTestId("challenge-color").selectOption("black");
  await dialog.getByTestId("challenge-send").click();
  await expect(dialog).toHaveCount(0);
  const notice = r.locator('[data-testid="challenge-card"][data-dir="in"]');
  await expect(notice).toContainText(quinnName);
  await screenshot(r, "players-challenge-notice-1366x768");
  await notice.getByTestId("challenge-accept").click();
  await expect(q).toHaveURL(/#\/table\//);
  await expect(r).toHaveURL(/#\/table\//);
  expect(await colorOf(q)).toBe("black");
  expect(await colorOf(r)).toBe("white");
  expectNoPageErrors(quinn, rhea);
  await Promise.all([quinn.close(), rhea.close()]);
});
