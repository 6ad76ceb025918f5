// The analysis board: two guests play the fixture's recorded game (over sockets of
// their own: the board is what is tested here), then one opens its replay, goes to an
// action and opens it on the analysis board; both sides play on by clicking, a
// different action at an earlier node opens a variation, Undo takes one back; the
// address opens the same position in a new page; the live engine's line, score and
// arrow appear and the switch turns it off (remembered); a pasted record and an
// uploaded SGF file are imported and stepped through; a position string is set up;
// a phone shows the board first.

import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import {
  boardOf,
  expectNoPageErrors,
  expectNoSidewaysScroll,
  expectPieces,
  hit,
  newPlayer,
  piecesOfBoard,
  piecesOn,
  playArchivedGame,
  pointsWith,
  screenshot,
  waitOnline,
  type BoardJson,
} from "./helpers";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/opponent-row.json", import.meta.url), "utf8")) as {
  actions: { token: string; color: "white" | "black"; board: BoardJson }[];
};
const tokens = fixture.actions.map((a) => a.token);
const RECORD = readFileSync(new URL("../../crates/yinsh-server/tests/fixtures/opponent-row.txt", import.meta.url), "utf8");
const SGF = new URL("../../crates/yinsh/tests/fixtures/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf", import.meta.url).pathname;

/** The board after `ply` actions of the fixture's game. */
const boardAt = (ply: number): string[] => piecesOfBoard(fixture.actions[ply - 1].board);

const current = (page: Page) => page.locator('[data-testid="tree-move"].current');

/**
 * Plays one action by clicking the board, none of `avoid`: a ring placement, or a
 * ring and one of its destinations; waits until the tree shows it as the current
 * action and gives its token.
 */
async function playByClick(page: Page, avoid: readonly string[] = []): Promise<string> {
  const board = boardOf(page);
  await expect(board).toHaveAttribute("data-interactive", "true");
  const stage = await board.getAttribute("data-stage");
  let token: string | null = null;
  if (stage === "place") {
    token = (await pointsWith(page, "target")).find((p) => !avoid.includes(p)) ?? null;
    if (token) await hit(page, token).click();
  } else if (stage === "move") {
    for (const ring of await pointsWith(page, "candidate")) {
      await hit(page, ring).click();
      await expect(boardOf(page).locator("circle.hit.selected")).toHaveAttribute("data-point", ring);
      const to = (await pointsWith(page, "target")).find((p) => !avoid.includes(`${ring}-${p}`));
      if (to) {
        token = `${ring}-${to}`;
        await hit(page, to).click();
        break;
      }
      await hit(page, ring).click(); // no destination left to choose: put it down again
    }
  }
  if (!token) throw new Error(`no action to play at stage ${stage}`);
  await expect(current(page)).toHaveAttribute("data-token", token);
  return token;
}

test("the analysis board: from a replay, play on with variations, share the position, the live engine, import", async ({ browser }) => {
  test.setTimeout(240_000);
  const white = await newPlayer(browser, { viewport: { width: 1366, height: 768 }, permissions: ["clipboard-read", "clipboard-write"] });
  const black = await newPlayer(browser);
  const gameId = await playArchivedGame(white.page, black.page, tokens);
  await black.close();
  const page = white.page;

  // ---- From the replay: the button follows the action on show ----
  const ply = 20;
  await page.goto(`/#/replay/${gameId}?ply=${ply}`);
  await expect(page.getByTestId("replay-position")).toHaveText(`Action ${ply} of ${tokens.length}`);
  const open = page.getByTestId("open-analysis-board");
  await expect(open).toHaveAttribute("href", `#/analysis?record=${gameId}&ply=${ply}`);
  await page.getByTestId("replay-forward").click();
  await expect(open).toHaveAttribute("href", `#/analysis?record=${gameId}&ply=${ply + 1}`);
  await open.click();

  // The position of that action, the game's players, Black to move.
  const at = ply + 1;
  await expect(page).toHaveURL(new RegExp(`#/analysis\\?record=${gameId}&ply=${at}$`));
  await expectPieces(page, boardAt(at), "the board shows the replay's action");
  await expect(page.getByTestId("board-game-white")).not.toHaveText("");
  await expect(page.getByTestId("board-game-result")).toContainText("0-1");
  await expect(page.getByTestId("board-turn")).toHaveAttribute("data-to-move", fixture.actions[at].color);
  await expect(page.getByTestId("board-turn")).toContainText("moves a ring");
  await expect(page.getByTestId("tree-move")).toHaveCount(tokens.length);
  await expect(current(page)).toHaveAttribute("data-token", tokens[at - 1]);
  await expect(page.getByTestId("tree-variation")).toHaveCount(0);

  // ---- The live engine: thinking, then its line, score, depth and the arrow ----
  await expect(page.getByTestId("engine-switch")).toBeChecked();
  const moves = page.getByTestId("engine-moves");
  await expect(moves).toHaveText(/^\d+(\.|…)\S+/, { timeout: 20_000 });
  await expect(page.getByTestId("engine-score")).toHaveText(/^([+-]\d+\.\d\d|0\.00|(White|Black) wins in \d+ actions?)$/);
  await expect(page.getByTestId("engine-depth")).toHaveText(/^Depth \d+ · \d+\.\d s$/);
  await expect(page.getByTestId("eval-text")).toBeVisible();
  const best = (await moves.getAttribute("data-best"))!;
  if (/^[a-k]\d+-[a-k]\d+$/.test(best)) {
    // The engine streams deeper lines meanwhile (on a busy machine, later): the arrow
    // shows whichever action is its best now.
    const arrow = boardOf(page).locator('[data-hint="arrow"]');
    await expect
      .poll(async () => {
        const now = await moves.getAttribute("data-best");
        const shown = `${await arrow.getAttribute("data-from")}-${await arrow.getAttribute("data-to")}`;
        return shown === now ? "the arrow shows the best action" : `arrow ${shown}, best ${now}`;
      })
      .toBe("the arrow shows the best action");
  } else {
    await expect(boardOf(page).locator("[data-hint]")).toHaveCount(1);
  }

  // ---- Both sides play on by clicking: a variation beside the game's own action ----
  const first = await playByClick(page, [tokens[at]]);
  const second = await playByClick(page);
  await expect(page).toHaveURL(/#\/analysis\?position=[^&]+$/);
  const variations = page.getByTestId("tree-variation");
  await expect(variations).toHaveCount(1);
  await expect(variations.first().getByTestId("tree-move")).toHaveText([first, second]);
  // The main line still goes on with the game's action.
  await expect(page.getByTestId("tree-move")).toHaveCount(tokens.length + 2);
  await expect(page.getByTestId("board-turn")).toHaveAttribute("data-to-move", fixture.actions[at].color);

  // Back two actions (the keyboard), then another action there: a second variation.
  await page.keyboard.press("ArrowLeft");
  await expect(current(page)).toHaveAttribute("data-token", first);
  await page.keyboard.press("ArrowLeft");
  await expect(current(page)).toHaveAttribute("data-token", tokens[at - 1]);
  await expect(page).toHaveURL(new RegExp(`record=${gameId}&ply=${at}$`));
  // → goes back into the variation it came from.
  await page.keyboard.press("ArrowRight");
  await expect(current(page)).toHaveAttribute("data-token", first);
  await page.keyboard.press("ArrowLeft");
  const third = await playByClick(page, [tokens[at], first]);
  await expect(variations).toHaveCount(2);
  await expect(variations.nth(1).getByTestId("tree-move")).toHaveText([third]);
  // Undo takes a just played action away again.
  await page.getByTestId("board-undo").click();
  await expect(variations).toHaveCount(1);
  await expect(current(page)).toHaveAttribute("data-token", tokens[at - 1]);
  await expectPieces(page, boardAt(at));
  // A click in the tree goes to the variation's end; there it becomes the main line.
  await variations.first().getByTestId("tree-move").last().click();
  await expect(current(page)).toHaveAttribute("data-token", second);
  await page.getByTestId("board-promote").click();
  await expect(page.getByTestId("board-promote")).toBeDisabled();
  await expect(variations.first().getByTestId("tree-move").first()).toHaveText(tokens[at]);
  await screenshot(page, "board-1366x768");

  // Board, its bar and the controls on the screen; nothing sideways.
  const view = page.viewportSize()!;
  for (const id of ["eval-bar", "board-board", "board-back", "board-undo", "board-bar-white", "board-bar-black"]) {
    const b = (await page.getByTestId(id).boundingBox())!;
    expect(b.y + b.height, `${id} within the screen`).toBeLessThanOrEqual(view.height + 0.5);
    expect(b.x + b.width, `${id} within the screen`).toBeLessThanOrEqual(view.width + 0.5);
  }
  await expectNoSidewaysScroll(page, "the analysis board");

  // ---- The address opens the same position in a new page; Copy link copies it ----
  const url = page.url();
  const pieces = await piecesOn(page);
  const toMove = (await page.getByTestId("board-turn").getAttribute("data-to-move"))!;
  const stage = (await page.getByTestId("board-turn").getAttribute("data-stage"))!;
  await page.getByTestId("board-copy").click();
  await expect(page.getByTestId("board-copy")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  const other = await page.context().newPage();
  await other.goto(url);
  await waitOnline(other);
  await expectPieces(other, pieces, "the copied address shows the same position");
  // The same player to act at the same stage (a position has no players' names: the colours say who).
  await expect(other.getByTestId("board-turn")).toHaveAttribute("data-to-move", toMove);
  await expect(other.getByTestId("board-turn")).toHaveAttribute("data-stage", stage);
  await expect(other.getByTestId("board-turn")).toContainText(toMove === "white" ? "White" : "Black");
  await expect(other).toHaveURL(url);
  await other.close();

  // ---- The engine switch: off (no arrow, no bar), remembered over a reload, on again ----
  await page.getByTestId("engine-switch").click();
  await expect(page.getByTestId("engine-line")).toHaveText("The engine is off.");
  await expect(boardOf(page).locator("[data-hint]")).toHaveCount(0);
  await expect(page.getByTestId("eval-bar")).toBeHidden();
  await page.reload();
  await expectPieces(page, pieces, "a reload keeps the position");
  await expect(page.getByTestId("engine-switch")).not.toBeChecked();
  await expect(page.getByTestId("engine-line")).toHaveText("The engine is off.");
  await page.getByTestId("engine-switch").click();
  await expect(page.getByTestId("engine-moves")).toBeVisible({ timeout: 20_000 });

  // ---- Import: a record that cannot be read, then the fixture's record, stepped through ----
  await page.getByTestId("import-text").fill("1.e5 2.nonsense");
  await page.getByTestId("import-submit").click();
  await expect(page.getByTestId("import-error")).toContainText("not a readable record");
  await page.getByTestId("import-text").fill(RECORD);
  await page.getByTestId("import-submit").click();
  await expect(page.getByTestId("board-game-white")).toHaveText("Random A");
  await expect(page.getByTestId("board-game-black")).toHaveText("Random B");
  await expect(page.getByTestId("board-game-result")).toContainText("0-1");
  await expect(page.getByTestId("import-error")).toBeHidden();
  await expect(page.getByTestId("tree-move")).toHaveCount(tokens.length);
  await expect(page.getByTestId("tree-variation")).toHaveCount(0);
  await expectPieces(page, [], "an imported game opens at its start");
  await expect(page).toHaveURL(/#\/analysis\?position=4\/7\/8\/9\/10\/9\/10\/9\/8\/7\/4%20w%20place%200-0%203-3%200$/);
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press("ArrowRight");
    await expect(current(page)).toHaveAttribute("data-token", tokens[i - 1]);
  }
  await expectPieces(page, boardAt(3));
  // The turn that removes a row and a ring: in the tree as the record writes it.
  await expect(page.getByTestId("board-tree")).toContainText("50.h5-i5;xh3-h7xi4");
  await page.getByTestId("board-end").click();
  await expectPieces(page, boardAt(tokens.length));
  await expect(page.getByTestId("board-turn")).toContainText("0-1");
  await expect(page.getByTestId("engine-score")).toHaveText("0-1", { timeout: 20_000 });
  await page.getByTestId("board-start").click();
  await expectPieces(page, []);

  // ---- An SGF file from boardspace.net ----
  await page.getByTestId("import-file").setInputFiles(SGF);
  await expect(page.getByTestId("board-game-white")).toHaveText("DrMih");
  await expect(page.getByTestId("board-game-black")).toHaveText("Dumbot");
  await expect(page.getByTestId("tree-move")).toHaveCount(56);
  await page.keyboard.press("End");
  await expect(page.getByTestId("board-turn")).toContainText("0-1");

  // ---- A position string typed in its field and set up; one the server cannot read ----
  const field = page.getByTestId("board-position");
  await field.fill("garbage");
  await page.getByTestId("board-set-up").click();
  await expect(page.getByTestId("board-set-up-error")).toContainText("not a legal position string");
  const placed = "B2B/6B/2W5/9/9B/9/W9/8B/W7/W6/3W w move 0-0 3-3 0";
  await field.fill(placed);
  await field.press("Enter");
  await expect(page.getByTestId("board-set-up-error")).toBeHidden();
  await expect(page).toHaveURL(/#\/analysis\?position=B2B\/6B\/2W5\/9\/9B\/9\/W9\/8B\/W7\/W6\/3W%20w%20move%200-0%203-3%200$/);
  await expect(page.getByTestId("board-turn")).toHaveText("White moves a ring.");
  await expect(page.getByTestId("board-game")).toBeHidden();
  await expect(page.getByTestId("tree-move")).toHaveCount(0);
  await expect(boardOf(page).locator('[data-piece="ring"]')).toHaveCount(10);
  await playByClick(page);
  await expect(page.getByTestId("board-turn")).toHaveText("Black moves a ring.");

  // ---- Play on from here: the engine (Black, to act) answers from this very position ----
  const here = await piecesOn(page);
  await page.getByTestId("play-on-open").click();
  await page.getByTestId("play-on-color").selectOption("white");
  await page.getByTestId("play-on-level").selectOption("1");
  await page.getByTestId("play-on-engine").click();
  await expect(page).toHaveURL(/#\/table\//);
  await expect(page.getByTestId("table-options")).toContainText("from a position");
  await expect(page.locator('[data-testid="moves"] .act')).toHaveCount(1, { timeout: 30_000 });
  expect(await piecesOn(page), "the engine's ring moved from the board's position").not.toEqual(here);

  // ---- A bad link: the server's reason, and the empty board ----
  await page.goto("/#/analysis?position=garbage");
  await expect(page.getByTestId("board-notice")).toContainText("not a legal position string");
  await expect(page.getByTestId("board-turn")).toHaveText("White places a ring.");
  await expectPieces(page, []);
  expectNoPageErrors(white);
  await white.close();
});

test("the analysis board on a phone: the board first, then the panels; the header's link", async ({ browser }) => {
  const phone = await newPlayer(browser, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = phone.page;
  await page.getByTestId("nav-board").click();
  await expect(page).toHaveURL(/#\/analysis\?position=/);
  await expect(page.getByTestId("board-turn")).toHaveText("White places a ring.");
  // Rings placed by taps, for both sides.
  for (const point of ["e5", "f6"]) {
    await hit(page, point).tap();
    await expect(current(page)).toHaveAttribute("data-token", point);
  }
  await expect(page.getByTestId("board-turn")).toHaveText("White places a ring.");
  await expect(page.getByTestId("engine-moves")).toBeVisible({ timeout: 20_000 });
  const board = (await page.getByTestId("board-board").boundingBox())!;
  const engine = (await page.getByTestId("board-engine").boundingBox())!;
  const tree = (await page.getByTestId("board-tree").boundingBox())!;
  expect(board.x + board.width).toBeLessThanOrEqual(390.5);
  expect(board.y + board.height, "the whole board on the first screen").toBeLessThanOrEqual(844);
  expect(engine.y, "the engine under the board").toBeGreaterThan(board.y + board.height);
  expect(tree.y, "the moves under the board").toBeGreaterThan(board.y + board.height);
  await expectNoSidewaysScroll(page, "the analysis board on a phone");
  await screenshot(page, "board-390x844");
  await screenshot(page, "board-390x844-full", true);
  expectNoPageErrors(phone);
  await phone.close();
});
