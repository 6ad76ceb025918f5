// Meeting people (docs/protocol.md, quick pairing and challenges): two guests click the
// same clock and meet at a new table with the game begun; a seek is listed live in the
// other's lobby and cancelled; a rated seek shows the rating and is refused to a guest;
// a challenge by name is declined, then accepted; an open challenge's link is accepted
// by a third player. Screenshots of the lobby, the panel and the form on a desktop and
// a phone go to test-results/screenshots/.

import { expect, test, type Page } from "@playwright/test";
import {
  colorOf,
  expectNoPageErrors,
  expectNoSidewaysScroll,
  myName,
  newPlayer,
  playFirstRings,
  screenshot,
  waitOnline,
  type Player,
} from "./helpers";

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1366, height: 768 } };

const seekRow = (page: Page, name: string) => page.locator('[data-testid="seek-row"]', { hasText: name });
const card = (page: Page, dir: "in" | "out") => page.locator(`[data-testid="challenge-card"][data-dir="${dir}"]`);



/** Registers the page's guest as an account (the page's own fetch, with its cookie). */
async function register(player: Player, name: string): Promise<void> {
  const status = await player.page.evaluate(async (n) => {
    const r = await fetch("/api/account/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: n, password: "correct horse" }),
    });
    return r.ok;
  }, name);
  expect(status, "registered").toBe(true);
  await player.page.reload();
  await waitOnline(player.page);
  await expect(player.page.getByTestId("me")).toHaveText(`You are ${name}`);
}

async function challengeByName(page: Page, name: string, shot?: string): Promise<void> {
  await page.getByTestId("open-challenge-form").click();
  const dialog = page.getByTestId("challenge-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("challenge-name").fill(name);
  await dialog.getByTestId("challenge-minutes").fill("5");
  await dialog.getByTestId("challenge-increment").fill("3");
  await dialog.getByTestId("challenge-color").selectOption("white");
  if (shot) await screenshot(page, shot);
  await dialog.getByTestId("challenge-send").click();
  await expect(dialog).toHaveCount(0);
}

test("two guests click the same clock: both land at one table, the game begun, and place rings", async ({ browser }) => {
  const a = await newPlayer(browser, DESKTOP);
  const b = await newPlayer(browser, PHONE);
  const aName = await myName(a.page);

  // A guest has no rated games: the switch says casual and rated is not offered.
  await expect(a.page.getByTestId("quick-mode-casual")).toHaveAttribute("aria-pressed", "true");
  await expect(a.page.getByTestId("quick-mode-rated")).toBeDisabled();
  await expect(a.page.getByTestId("quick-rated-note")).toBeVisible();

  // A seeks 5+0: the timer runs, B's lobby lists it live; A cancels, it is gone.
  await a.page.getByTestId("preset-5+0").click();
  const seeking = a.page.getByTestId("seeking");
  await expect(seeking).toContainText(/Looking for an opponent… \(0:0\d\)/);
  await expect(seeking).toContainText("Standard · 5+0 Quick · Casual");
  await expect(a.page.getByTestId("preset-5+0")).toHaveAttribute("aria-pressed", "true");
  await expect(seekRow(a.page, aName)).toHaveAttribute("data-own", "true");
  await expect(seekRow(a.page, aName).getByTestId("accept-seek")).toHaveCount(0);
  const row = seekRow(b.page, aName);
  await expect(row).toContainText("5+0 Quick");
  await expect(row).toContainText("Casual");
  await expect(row.getByTestId("guest-mark")).toHaveText("guest");
  await expect(row.getByTestId("seek-rating")).toHaveText("");
  await expect(seeking).toContainText("(0:02)", { timeout: 5000 });
  await screenshot(a.page, "quick-seeking-1366x768");
  await screenshot(b.page, "quick-lobby-390x844");
  await screenshot(b.page, "quick-lobby-390x844-full", true);
  await expectNoSidewaysScroll(b.page, "the phone's lobby with quick pairing");
  await a.page.getByTestId("cancel-seek").click();
  await expect(seeking).toBeHidden();
  await expect(row).toHaveCount(0);

  // Seeking again replaces the seek: 10+5 instead of 5+0, one row.
  await a.page.getByTestId("preset-5+0").click();
  await expect(seekRow(b.page, aName)).toContainText("5+0");
  await a.page.getByTestId("preset-3+2").click();
  await expect(seekRow(b.page, aName)).toContainText("3+2");
  await expect(seekRow(b.page, aName)).toHaveCount(1);
  await expect(a.page.getByTestId("preset-5+0")).toHaveAttribute("aria-pressed", "false");

  // B clicks the same clock: paired at once, both at the new table.
  await b.page.getByTestId("preset-3+2").click();
  await playFirstRings(a.page, b.page);
  await expect(a.page.getByTestId("table-options")).toContainText("3 min + 2 s");
  expectNoPageErrors(a, b);
  await Promise.all([a.close(), b.close()]);
});

test("a seek accepted from the list, a custom clock, and a rated seek shown with its rating", async ({ browser }) => {
  const a = await newPlayer(browser);
  const b = await newPlayer(browser);
  const aName = `Seeker${Date.now() % 1_000_000}`;
  await register(a, aName);

  // Registered: rated can be chosen; the seek shows the provisional rating.
  await a.page.getByTestId("quick-mode-rated").click();
  await expect(a.page.getByTestId("quick-mode-rated")).toHaveAttribute("aria-pressed", "true");
  await a.page.getByTestId("quick-variant-blitz").click();
  await a.page.getByTestId("preset-custom").click();
  await a.page.getByTestId("custom-minutes").fill("200");
  await a.page.getByTestId("custom-seek").click();
  await expect(a.page.getByTestId("quick-message")).toHaveText("A clock has 1 to 180 minutes and an increment of 0 to 60 seconds.");
  await a.page.getByTestId("custom-minutes").fill("7");
  await a.page.getByTestId("custom-increment").fill("4");
  await a.page.getByTestId("custom-seek").click();
  await expect(a.page.getByTestId("seeking-game")).toHaveText("Blitz · 7+4 Rapid · Rated");
  const row = seekRow(b.page, aName);
  await expect(row.getByTestId("seek-rating")).toHaveText("1500?");
  await expect(row).toContainText("Rated");
  await expect(row).toContainText("Blitz");
  // A guest may not accept a rated seek: the server's reason is shown.
  await row.getByTestId("accept-seek").click();
  await expect(b.page.getByTestId("seeks-message")).toHaveText("Rated games are for registered players: sign in, or make the game casual.");
  await screenshot(b.page, "quick-rated-seek-1280x1000");

  // A casual seek of A's is accepted by B from the list.
  await a.page.getByTestId("quick-mode-casual").click();
  await a.page.getByTestId("quick-variant-standard").click();
  await a.page.getByTestId("preset-10+0").click();
  await expect(seekRow(b.page, aName)).toContainText("10+0");
  await expect(seekRow(b.page, aName)).toContainText("Casual");
  await seekRow(b.page, aName).getByTestId("accept-seek").click();
  await playFirstRings(a.page, b.page);
  expectNoPageErrors(a, b);
  await Promise.all([a.close(), b.close()]);
});

test("a challenge by name: declined, then accepted; both meet at the table", async ({ browser }) => {
  const a = await newPlayer(browser, DESKTOP);
  const b = await newPlayer(browser, DESKTOP);
  const aName = await myName(a.page);
  const bName = await myName(b.page);
  // B is on another page: the panel is on every page.
  await b.page.goto("/#/archive");

  // Nobody of that name: the server's reason, in the form.
  await a.page.getByTestId("open-challenge-form").click();
  await a.page.getByTestId("challenge-name").fill("NobodyAtAll");
  await a.page.getByTestId("challenge-send").click();
  await expect(a.page.getByTestId("challenge-message")).toHaveText("Nobody called NobodyAtAll is online.");
  // A guest cannot make it rated.
  await expect(a.page.getByTestId("challenge-rated")).toBeDisabled();
  await a.page.getByTestId("challenge-close").click();

  await challengeByName(a.page, bName, "challenge-form-1366x768");
  const mine = card(a.page, "out");
  await expect(mine).toContainText(`You challenged ${bName}`);
  await expect(mine).toContainText("Standard · 5+3 Quick · Casual · you play White");
  const theirs = card(b.page, "in");
  await expect(theirs).toContainText(`${aName}guest challenges you`);
  await expect(theirs).toContainText("you play Black");
  await screenshot(b.page, "challenge-notice-1366x768");
  await theirs.getByTestId("challenge-decline").click();
  await expect(mine).toHaveAttribute("data-state", "declined");
  await expect(mine.getByTestId("challenge-gone")).toHaveText("Declined.");
  await expect(theirs).toHaveAttribute("data-state", "declined");
  // Shown a moment, then gone.
  await expect(a.page.getByTestId("challenges")).toBeHidden({ timeout: 12_000 });

  // Again: accepted; both go to the table (B from the archive page).
  await challengeByName(a.page, bName);
  await expect(card(b.page, "in")).toHaveAttribute("data-state", "standing");
  // Reloading B's page brings the standing challenge back once (sent again on connecting).
  await b.page.reload();
  await waitOnline(b.page);
  await expect(card(b.page, "in")).toHaveCount(1);
  await card(b.page, "in").getByTestId("challenge-accept").click();
  await playFirstRings(a.page, b.page);
  // The challenger chose white.
  expect(await colorOf(a.page)).toBe("white");
  expectNoPageErrors(a, b);
  await Promise.all([a.close(), b.close()]);
});

test("an open challenge: its link, waiting for the challenger, accepted by a third player", async ({ browser }) => {
  const a = await newPlayer(browser, DESKTOP);
  const c = await newPlayer(browser, PHONE);
  const aName = await myName(a.page);

  await a.page.getByTestId("open-challenge-form").click();
  const dialog = a.page.getByTestId("challenge-dialog");
  await dialog.getByTestId("challenge-to-anyone").check();
  await expect(dialog.getByTestId("challenge-name")).toBeDisabled();
  await dialog.getByTestId("challenge-variant").selectOption("blitz");
  await dialog.getByTestId("challenge-send").click();
  const link = dialog.getByTestId("challenge-link");
  await expect(link).toHaveValue(/\/#\/challenge\/[a-z0-9]+$/);
  const url = await link.inputValue();
  expect(new URL(url).origin).toBe(new URL(a.page.url()).origin);
  await screenshot(a.page, "challenge-open-dialog-1366x768");
  await dialog.getByTestId("challenge-close").click();
  await expect(card(a.page, "out")).toContainText("Your open challenge");
  await expect(card(a.page, "out").getByTestId("challenge-link")).toHaveValue(url);

  // The challenger's own link: waiting, with the link to copy.
  await a.page.goto(url);
  await expect(a.page.getByTestId("challenge-link-waiting")).toHaveText("Waiting for someone to accept");
  await expect(a.page.getByTestId("challenge-page").getByTestId("challenge-link")).toHaveValue(url);
  await expect(a.page.getByTestId("challenge-link-accept")).toHaveCount(0);

  // A third player opens it: who, the game, Accept.
  await c.page.goto(url);
  await expect(c.page.getByTestId("challenge-link-from")).toHaveText(`${aName}guest challenges you to a game`);
  await expect(c.page.getByTestId("challenge-link-game")).toHaveText("Blitz · 10+5 Rapid · Casual");
  await screenshot(c.page, "challenge-link-390x844");
  await expectNoSidewaysScroll(c.page, "the challenge's page on a phone");
  await c.page.getByTestId("challenge-link-accept").click();
  await playFirstRings(a.page, c.page);

  // Accepted: the link is no longer open.
  await c.page.goto(url);
  await expect(c.page.getByTestId("challenge-link-gone")).toHaveText("This challenge is no longer open.");
  expectNoPageErrors(a, c);
  await Promise.all([a.close(), c.close()]);
});

test("on a phone the panel and the form fit, in German too", async ({ browser }) => {
  const a = await newPlayer(browser, { ...PHONE, locale: "de-DE" });
  const b = await newPlayer(browser, PHONE);
  const bName = await myName(b.page);
  await expect(a.page.getByTestId("quick")).toContainText("Schnell eine Partie");
  // Seeking on a phone; the same clock again stops it.
  await a.page.getByTestId("preset-15+10").click();
  await expect(a.page.getByTestId("seeking")).toContainText("Suche einen Gegner…");
  await expect(b.page.getByTestId("seek-row")).toHaveCount(1);
  await a.page.getByTestId("seeking").scrollIntoViewIfNeeded();
  await screenshot(a.page, "quick-seeking-de-390x844");
  await expectNoSidewaysScroll(a.page, "the German phone lobby");
  await a.page.getByTestId("preset-15+10").click();
  await expect(a.page.getByTestId("seeking")).toBeHidden();
  await expect(b.page.getByTestId("seek-row")).toHaveCount(0);
  await a.page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(a.page, "quick-lobby-de-390x844");
  await a.page.getByTestId("open-challenge-form").click();
  await screenshot(a.page, "challenge-form-de-390x844");
  await a.page.getByTestId("challenge-name").fill(bName);
  await a.page.getByTestId("challenge-send").click();
  await expect(card(a.page, "out")).toContainText(`Du hast ${bName}Gast herausgefordert`);
  await expect(card(b.page, "in")).toBeVisible();
  await screenshot(b.page, "challenge-notice-390x844");
  await screenshot(a.page, "challenge-out-de-390x844");
  // Folded, the panel is one small button; a new challenge opens it again.
  await b.page.getByTestId("challenges-toggle").click();
  await expect(card(b.page, "in")).toHaveCount(0);
  await expect(b.page.getByTestId("challenges-toggle")).toHaveText("Challenges (1)");
  await card(a.page, "out").getByTestId("challenge-cancel").click();
  await expect(card(a.page, "out")).toHaveAttribute("data-state", "canceled");
  await expect(card(a.page, "out")).toContainText("Zurückgezogen.");
  expectNoPageErrors(a, b);
  await Promise.all([a.close(), b.close()]);
});

