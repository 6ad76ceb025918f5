// The game pages fit the screen: at common desktop sizes and on a phone, the whole
// board, both clocks and the controls that matter during play are on the screen without
// scrolling, on the table page (a game against the engine) and in the replay viewer.
// Screenshots of both pages at every size go to test-results/screenshots/.

import { expect, test, type Locator, type Page } from "@playwright/test";
import { boardOf, expectMyTurn, expectNoPageErrors, hit, myName, newPlayer, pointsWith, screenshot, sitDown, tableIdOf } from "./helpers";

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844, phone: true },
];

/** Fails unless the element's box lies wholly within the screen, the page scrolled to its top. */
async function expectOnScreen(page: Page, locator: Locator, what: string): Promise<void> {
  await expect(locator, what).toBeVisible();
  const box = await locator.boundingBox();
  const view = page.viewportSize()!;
  const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
  expect(scroll, "the page is at its top").toEqual({ x: 0, y: 0 });
  expect(box, what).not.toBeNull();
  const b = box!;
  const inside = b.x >= -0.5 && b.y >= -0.5 && b.x + b.width <= view.width + 0.5 && b.y + b.height <= view.height + 0.5;
  expect(inside, `${what} within ${view.width}×${view.height}: ${JSON.stringify(b)}`).toBe(true);
}

for (const vp of VIEWPORTS) {
  const size = `${vp.width}x${vp.height}`;
  test(`at ${size} the table and the replay show the whole board, both clocks and the controls`, async ({ browser }) => {
    const player = await newPlayer(browser, {
      viewport: { width: vp.width, height: vp.height },
      ...(vp.phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}),
    });
    const page = player.page;
    await page.getByTestId("engine-level").selectOption("1");
    await page.getByTestId("play-engine").click();
    await tableIdOf(page);
    await expect(page.getByTestId("seat-white-name")).toHaveText(await myName(page));
    // Two placements each: a running game with a move list, a takeback to offer and marks.
    for (let n = 0; n < 2; n++) {
      await expectMyTurn(page, "place");
      const offered = await pointsWith(page, "target");
      const point = ["e5", "g7", "f4"].find((p) => offered.includes(p))!;
      await (vp.phone ? hit(page, point).tap() : hit(page, point).click());
      await expect(page.locator('[data-testid="moves"] .act')).toHaveCount(2 * n + 2);
    }
    await expectMyTurn(page, "place");
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectOnScreen(page, boardOf(page), "the board");
    for (const id of ["clock-white", "clock-black", "resign", "draw", "takeback", "flip"]) {
      await expectOnScreen(page, page.getByTestId(id), id);
    }
    await expectOnScreen(page, page.getByTestId("move-input"), "the move field");
    // The opponent (the engine) above the board, the player below.
    const top = (await page.getByTestId("seat-black").boundingBox())!;
    const bottom = (await page.getByTestId("seat-white").boundingBox())!;
    const board = (await boardOf(page).boundingBox())!;
    expect(top.y, "the opponent's bar is above the player's").toBeLessThan(bottom.y);
    if (vp.phone) {
      expect(top.y + top.height).toBeLessThanOrEqual(board.y + 1);
      expect(bottom.y).toBeGreaterThanOrEqual(board.y + board.height - 1);
    }
    await screenshot(page, `table-${size}`);

    // Resign (two clicks), then the game in the replay viewer.
    await page.getByTestId("resign").click();
    await page.getByTestId("resign").click();
    await expect(page.getByTestId("replay-link")).toBeVisible();
    await page.getByTestId("replay-link").click();
    await expect(page.getByTestId("replay-position")).toContainText("0");
    await page.getByTestId("replay-forward").click();
    await page.getByTestId("replay-forward").click();
    await page.getByTestId("replay-forward").click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectOnScreen(page, boardOf(page), "the replay's board");
    for (const id of ["replay-start", "replay-back", "replay-play", "replay-forward", "replay-end", "replay-clock-white", "replay-clock-black"]) {
      await expectOnScreen(page, page.getByTestId(id), id);
    }
    await screenshot(page, `replay-${size}`);
    expectNoPageErrors(player);
    await player.close();
  });
}

test("the table's options form in German keeps each field with its words", async ({ browser }) => {
  const player = await newPlayer(browser, { viewport: { width: 1366, height: 768 } });
  const page = player.page;
  await page.getByTestId("create-table").click();
  await tableIdOf(page);
  await sitDown(page, "white");
  await page.getByTestId("language").selectOption("de");
  await page.locator(".table-options summary").click();
  await expect(page.getByTestId("opt-turns")).toBeVisible();
  // "Zeit [10] Min. [5] + Sek." stays on one line: the label is no taller than its fields.
  const label = (await page.locator(".table-options label").filter({ has: page.getByTestId("opt-timed") }).boundingBox())!;
  const field = (await page.getByTestId("opt-minutes").boundingBox())!;
  expect(label.height, "the time label on one line").toBeLessThan(field.height * 1.5);
  // The turn limit's field is wide enough for its placeholder ("keins").
  const fits = await page.getByTestId("opt-turns").evaluate((el) => {
    const input = el as HTMLInputElement;
    const probe = document.createElement("span");
    probe.style.font = getComputedStyle(input).font;
    probe.textContent = input.placeholder;
    document.body.append(probe);
    const need = probe.getBoundingClientRect().width;
    probe.remove();
    const style = getComputedStyle(input);
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16; // the spinner
    return need <= room;
  });
  expect(fits, "the placeholder fits its field").toBe(true);
  await page.locator(".table-options").screenshot({ path: "test-results/screenshots/table-options-de.png" });
  expectNoPageErrors(player);
  await player.close();
});
