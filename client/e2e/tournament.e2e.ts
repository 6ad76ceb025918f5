// An arena from the page (docs/tournaments.md): an account makes one that starts now,
// joins it; another finds it in the lobby and joins; the director pairs them and both
// are taken to their table, which links back to the arena; White goes berserk; one
// resigns, and the standings give the winner 2 points. The tournament list, the arena
// page and the lobby's box at a laptop's size and a phone's.

import { expect, test } from "@playwright/test";
import { colorOf, expectNoPageErrors, expectNoSidewaysScroll, playFirstRings, registered, resign, screenshot } from "./helpers";

test("two accounts play a game of an arena made from the page", async ({ browser }) => {
  const { player: ann, name: annName } = await registered(browser, "Arena");
  const { player: bob, name: bobName } = await registered(browser, "Rival");
  const phone = await registered(browser, "Phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  // Made from the tournament list: it starts now.
  await ann.page.getByTestId("nav-tournaments").click();
  await expect(ann.page.getByTestId("tournaments")).toBeVisible();
  await ann.page.getByTestId("arena-name").fill("Evening Arena");
  await ann.page.getByTestId("arena-minutes").selectOption("20");
  await ann.page.getByTestId("arena-clock").selectOption("3");
  await ann.page.getByTestId("arena-increment").selectOption("2");
  await ann.page.getByTestId("arena-wait").selectOption("0");
  await ann.page.getByTestId("arena-rated").uncheck();
  await ann.page.getByTestId("arena-create").click();
  await expect(ann.page).toHaveURL(/#\/tournament\//);
  const arenaUrl = ann.page.url();
  await expect(ann.page.getByTestId("arena-title")).toHaveText("Evening Arena");
  await expect(ann.page.getByTestId("arena-kind")).toContainText("3+2");
  await ann.page.getByTestId("arena-join").click();
  await expect(ann.page.getByTestId("arena-withdraw")).toBeVisible();
  await expect(ann.page.getByTestId("standing-line")).toHaveCount(1);

  // Found from the lobby's box; joined.
  await bob.page.goto("/");
  const row = bob.page.getByTestId("lobby-arenas").getByTestId("arena-row").filter({ hasText: "Evening Arena" });
  await expect(row).toBeVisible();
  await screenshot(bob.page, "lobby-arenas-1366x768");
  await row.click();
  await expect(bob.page.getByTestId("arena-countdown")).toContainText(/Ends in \d+:\d\d/);
  await bob.page.getByTestId("arena-join").click();

  // Paired: both are taken to their table, which names the arena.
  await expect(ann.page).toHaveURL(/#\/table\//, { timeout: 15_000 });
  await expect(bob.page).toHaveURL(/#\/table\//, { timeout: 15_000 });
  await expect(ann.page.getByTestId("table-arena")).toBeVisible();
  // White goes berserk before the first ring: half the clock (3+2 → 1:30).
  const white = (await colorOf(ann.page)) === "white" ? ann.page : bob.page;
  await white.getByTestId("berserk").click();
  await expect(white.getByTestId("clock-white")).toHaveText(/^1:(30|2\d)$/);
  await expect(white.getByTestId("berserk")).toHaveCount(0);
  await playFirstRings(ann.page, bob.page);
  const loser = (await colorOf(ann.page)) === "black" ? ann.page : bob.page;
  const winnerName = loser === ann.page ? bobName : annName;
  await resign(loser);

  // The standings: the winner has 2 points and leads.
  await loser.getByTestId("table-arena").click();
  await expect(loser).toHaveURL(arenaUrl);
  const first = loser.getByTestId("standing-line").first();
  await expect(first).toHaveAttribute("data-name", winnerName);
  await expect(first.getByTestId("score")).toHaveText("2");
  await expect(loser.getByTestId("standing-line").nth(1).getByTestId("score")).toHaveText("0");
  await expect(loser.getByTestId("arena-me")).toContainText("You are number 2");
  await screenshot(loser, "arena-1366x768");

  // On a phone: the list and the arena fit the screen.
  await phone.player.page.goto("/#/tournaments");
  await expect(phone.player.page.getByTestId("arenas-started").getByTestId("arena-row").filter({ hasText: "Evening Arena" })).toBeVisible();
  await expectNoSidewaysScroll(phone.player.page, "the tournament list");
  await screenshot(phone.player.page, "tournaments-390x844", true);
  await phone.player.page.goto(arenaUrl.slice(arenaUrl.indexOf("#")));
  await expect(phone.player.page.getByTestId("standing-line")).toHaveCount(2);
  await expectNoSidewaysScroll(phone.player.page, "the arena page");
  await screenshot(phone.player.page, "arena-390x844", true);
  expectNoPageErrors(ann, bob, phone.player);
});
