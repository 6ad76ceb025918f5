// Games against the server's engine (level 1: quick even in a debug build): clicks with
// the mouse, a reload in the middle of a game, taps on a phone-sized screen, and the move
// list after many actions.

import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  boardOf,
  expectMyTurn,
  expectNoPageErrors,
  hit,
  myName,
  newPlayer,
  piecesOn,
  pointsWith,
  screenshot,
  sitDown,
  expectNoSidewaysScroll,
  tableIdOf,
} from "./helpers";

/** Starts a game against the engine of level 1 from the lobby ("Play the engine"); the player is white. */
async function playEngine(page: Page, press: (l: Locator) => Promise<void> = (l) => l.click()): Promise<void> {
  await page.getByTestId("engine-level").selectOption("1");
  await press(page.getByTestId("play-engine"));
  await tableIdOf(page);
  await expect(page.getByTestId("seat-white-name")).toHaveText(await myName(page));
  await expect(page.getByTestId("seat-black-name")).toHaveText(/Engine/);
  await expect(boardOf(page)).toHaveAttribute("data-stage", "place");
}

const moves = (page: Page) => page.locator('[data-testid="moves"] .act');
const piece = (page: Page, kind: string, color: string, at: string) =>
  page.locator(`svg.yinsh-board [data-piece="${kind}"][data-color="${color}"][data-at="${at}"]`);

/**
 * Places white's ring number `n` (0-based) on one of the offered points, with `press`
 * (a click or a tap), and waits for the engine's ring.
 */
async function placeRing(page: Page, n: number, press: (l: Locator) => Promise<void>): Promise<string> {
  await expectMyTurn(page, "place");
  await expect(moves(page)).toHaveCount(2 * n);
  const offered = await pointsWith(page, "target");
  // Every empty point is offered; take one near the middle, a different one each time.
  expect(offered.length).toBe(85 - 2 * n);
  const point = ["e5", "g7", "f4", "d6", "h8"].find((p) => offered.includes(p)) ?? offered[0];
  await press(hit(page, point));
  await expect(piece(page, "ring", "white", point)).toHaveCount(1);
  await expect(moves(page).nth(2 * n)).toHaveText(point);
  // The engine answers with a ring of its own.
  await expect(moves(page)).toHaveCount(2 * n + 2);
  await expect(page.locator('svg.yinsh-board [data-piece="ring"][data-color="black"]')).toHaveCount(n + 1);
  return point;
}

/** Moves one of white's rings with two presses (the ring, then a destination); the engine answers. */
async function moveRing(page: Page, press: (l: Locator) => Promise<void>): Promise<string> {
  await expectMyTurn(page, "move");
  const before = await moves(page).count();
  const rings = await pointsWith(page, "candidate");
  expect(rings.length).toBeGreaterThan(0);
  const from = rings.sort()[0];
  await press(hit(page, from));
  await expect(hit(page, from)).toHaveClass(/\bselected\b/);
  // A ghost marker of the mover's colour shows in the picked-up ring.
  await expect(page.locator(`svg.yinsh-board .ghost-marker[data-at="${from}"]`)).toHaveCount(1);
  const destinations = await pointsWith(page, "target");
  expect(destinations.length).toBeGreaterThan(0);
  const to = destinations.sort()[0];
  await press(hit(page, to));
  const token = `${from}-${to}`;
  await expect(moves(page).nth(before)).toHaveText(token);
  await expect(piece(page, "ring", "white", to)).toHaveCount(1);
  // The marker dropped in the ring stays where the ring stood (the engine's move may turn it over).
  await expect(page.locator(`svg.yinsh-board [data-piece="marker"][data-at="${from}"]`)).toHaveCount(1);
  // The engine answers with a ring move: a black marker more on the board, and it is white's turn again.
  await expect(moves(page)).toHaveCount(before + 2);
  expect(await moves(page).nth(before + 1).textContent()).toMatch(/^[a-k]\d+-[a-k]\d+$/);
  await expectMyTurn(page, "move");
  await expect(page.locator('svg.yinsh-board [data-piece="marker"]')).toHaveCount(before - 10 + 2);
  return token;
}

const click = (l: Locator) => l.click();
const tap = (l: Locator) => l.tap();

test("a guest plays the engine (level 1): placements and ring moves by clicks, the engine answering each", async ({ browser }) => {
  const player = await newPlayer(browser);
  const page = player.page;
  await playEngine(page);
  await expect(page.getByTestId("turn")).toContainText(/your turn/i);
  for (let n = 0; n < 5; n++) await placeRing(page, n, click);
  await moveRing(page, click);
  await moveRing(page, click);
  expectNoPageErrors(player);
  await player.close();
});

test("a reload in the middle of a game keeps the seat, and the player moves on", async ({ browser }) => {
  const player = await newPlayer(browser);
  const page = player.page;
  await playEngine(page);
  const table = await tableIdOf(page);
  const name = await myName(page);
  await placeRing(page, 0, click);
  await placeRing(page, 1, click);
  const pieces = await piecesOn(page);

  await page.reload();
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "open");
  expect(await tableIdOf(page)).toBe(table);
  // Same guest, same seat, same game.
  await expect(page.getByTestId("seat-white-name")).toHaveText(name);
  await expect(moves(page)).toHaveCount(4);
  await expect.poll(() => piecesOn(page)).toEqual(pieces);
  await expect(page.getByTestId("join-white")).toHaveCount(0);
  await expect(page.getByTestId("resign")).toBeVisible();
  // And the player can still act.
  await placeRing(page, 2, click);
  expectNoPageErrors(player);
  await player.close();
});

test("on a phone: taps place and move rings, and the pages fit the screen's width", async ({ browser }) => {
  const player = await newPlayer(browser, {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = player.page;
  // A table in the lobby (long guest names, options in words) must fit too.
  const host = await newPlayer(browser);
  await host.page.getByTestId("create-table").click();
  const table = await tableIdOf(host.page);
  await sitDown(host.page, "white");
  await expect(page.locator(`[data-testid="table-row"][data-table="${table}"]`)).toContainText(await myName(host.page));
  await expectNoSidewaysScroll(page, "the lobby");
  await screenshot(page, "phone-lobby");
  await playEngine(page, tap);
  for (let n = 0; n < 5; n++) await placeRing(page, n, tap);
  await moveRing(page, tap);
  // The board fits the screen: no sideways scrolling, the whole board in the width.
  await expectNoSidewaysScroll(page, "the table page");
  const box = (await boardOf(page).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await boardOf(page).scrollIntoViewIfNeeded();
  await screenshot(page, "phone-table");
  expectNoPageErrors(player, host);
  await Promise.all([player.close(), host.close()]);
});

test("the move list keeps the newest action in sight", async ({ browser }) => {
  const player = await newPlayer(browser);
  const page = player.page;
  await playEngine(page);
  for (let n = 0; n < 5; n++) await placeRing(page, n, click);
  for (let n = 0; n < 4; n++) await moveRing(page, click);
  await expect(moves(page)).toHaveCount(18);
  await expect(moves(page).last()).toBeInViewport({ ratio: 0.9, timeout: 3000 });
  await player.close();
});

test("at full strength the engine thinks long, and the page says how deep it got", async ({ browser }) => {
  const player = await newPlayer(browser, { viewport: { width: 1366, height: 768 } });
  const page = player.page;
  // Untimed and at full strength, level 10 thinks 10 s a decision: long enough to watch.
  await page.getByTestId("engine-clock").selectOption("untimed");
  await page.getByTestId("opt-engine-full").check();
  await page.getByTestId("engine-level").selectOption("10");
  await page.getByTestId("engine-color").selectOption("black");
  await page.getByTestId("play-engine").click();
  await tableIdOf(page);
  await expect(page.getByTestId("table-options")).toContainText("engine at full strength");
  // The engine (white) acts first; while it thinks, its bar tells the seconds and how
  // deep its search got, under its name, without growing.
  const bar = page.getByTestId("seat-white");
  const height = (await bar.boundingBox())!.height;
  const thinking = page.getByTestId("thinking-white");
  await expect(thinking).toHaveText(/^thinking… \d+ s · depth \d+$/, { timeout: 8_000 });
  const name = page.getByTestId("seat-white-name");
  await expect(name).toHaveText("Engine (level 10)");
  expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth), "the engine's name is not cut").toBe(true);
  expect(await thinking.evaluate((el) => el.scrollWidth <= el.clientWidth), "the depth is not cut").toBe(true);
  expect((await bar.boundingBox())!.height).toBeCloseTo(height, 0);
  await screenshot(page, "engine-thinking-laptop");
  // On a phone too (the engine still thinks: 10 s).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(thinking).toHaveText(/depth \d+$/);
  expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth), "the engine's name is not cut on a phone").toBe(true);
  expect(await thinking.evaluate((el) => el.scrollWidth <= el.clientWidth), "the depth is not cut on a phone").toBe(true);
  await screenshot(page, "engine-thinking-phone");
  await expect(moves(page)).toHaveCount(1, { timeout: 20_000 });
  await expect(thinking).toHaveCount(0);
  await expectMyTurn(page, "place");
  expectNoPageErrors(player);
  await player.close();
});
