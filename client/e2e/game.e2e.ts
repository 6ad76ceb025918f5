// A whole game between two guests, played with the mouse on the board only, watched
// live by a spectator; then the same game in the archive and the replay viewer.
//
// The game is the server tests' fixture (crates/yinsh-server/tests/fixtures/
// opponent-row.txt), turned by e2e/fixtures/make-game.mjs into the actions with the
// board after each one, as the server computed them. It has everything the board
// input must handle:
//   - rows of six where the window is chosen by clicking its first and last marker
//     (actions 51, 68 and 79, with two legal windows each);
//   - a row the mover made for the opponent (white's 66th action), which black
//     removes before their own move (actions 68–70);
//   - a single legal row taken with one click (action 72), ring removals;
//   - the end by target: black removes a third ring (0-1).

import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import {
  boardOf,
  dragRing,
  expectMyTurn,
  expectNoPageErrors,
  expectPieces,
  hit,
  myName,
  newPlayer,
  piecesOfBoard,
  piecesOn,
  pointsWith,
  rowPoints,
  screenshot,
  sitDown,
  tableIdOf,
  type BoardJson,
  type Color,
} from "./helpers";

interface FixtureAction {
  token: string;
  color: Color;
  stage: "place" | "move" | "remove_row" | "remove_ring";
  /** The legal row windows, at a `remove_row` stage. */
  rows?: string[];
  /** A row the opponent's move made, removed before the player's own move. */
  opponentRow?: boolean;
  /** The board after the action. */
  board: BoardJson;
}

const fixture = JSON.parse(readFileSync(new URL("./fixtures/opponent-row.json", import.meta.url), "utf8")) as {
  result: { winner: Color; score: string; termination: string };
  actions: FixtureAction[];
};

// What the fixture is chosen for; if it ever changes, these say so first.
test.beforeAll(() => {
  const actions = fixture.actions;
  expect(actions.filter((a) => a.stage === "remove_row" && a.rows!.length > 1).length).toBeGreaterThan(0);
  expect(actions.some((a) => a.opponentRow)).toBe(true);
  expect(actions.some((a) => a.stage === "remove_row" && a.rows!.length === 1)).toBe(true);
  expect(fixture.result.termination).toBe("target reached");
});

/** Plays one action on the mover's page with the mouse, as a person would. */
async function perform(page: Page, a: FixtureAction, n: number): Promise<void> {
  switch (a.stage) {
    case "place": {
      await expect(hit(page, a.token)).toHaveClass(/\btarget\b/);
      await hit(page, a.token).click();
      return;
    }
    case "move": {
      const [from, to] = a.token.split("-");
      if (n % 3 === 0) {
        // Every third move is dragged.
        await dragRing(page, from, to);
      } else {
        // Click the ring: it is selected and its destinations show; then the destination.
        await hit(page, from).click();
        await expect(hit(page, from)).toHaveClass(/\bselected\b/);
        await expect(hit(page, to)).toHaveClass(/\btarget\b/);
        await hit(page, to).click();
      }
      return;
    }
    case "remove_row": {
      const rows = a.rows!;
      const points = rowPoints(a.token);
      if (rows.length === 1) {
        // One legal row: a single click on any of its markers takes it.
        expect(await pointsWith(page, "target")).toEqual([]);
        await hit(page, points[2]).click();
        return;
      }
      // A run longer than five: the window is chosen by its ends. Every legal end is
      // offered first; after one end only the matching other end is.
      const ends = rows.flatMap((r) => rowPoints(r).filter((_, i, all) => i === 0 || i === all.length - 1));
      expect((await pointsWith(page, "target")).sort()).toEqual([...new Set(ends)].sort());
      // The first window by first-then-last, the others by last-then-first.
      const [first, last] = n === 50 ? [points[0], points[4]] : [points[4], points[0]];
      await hit(page, first).click();
      await expect(hit(page, first)).toHaveClass(/\bselected\b/);
      expect(await pointsWith(page, "target")).toEqual([last]);
      if (n === 50) await screenshot(page, "game-row-choice");
      await hit(page, last).click();
      return;
    }
    case "remove_ring": {
      await expect(hit(page, a.token.slice(1))).toHaveClass(/\bcandidate\b/);
      await hit(page, a.token.slice(1)).click();
      return;
    }
  }
}

test.describe.serial("a complete game", () => {
  let gameId = "";
  let whiteName = "";
  let finalPieces: string[] = [];

  test("two guests play a game to its result with the mouse on laptop screens, never scrolling; a spectator sees every action live", async ({ browser }) => {
    test.setTimeout(150_000);
    // The players sit at an ordinary laptop's 1366×768: every click and drag of the
    // game must find its points on the screen as the page opened.
    const laptop = { viewport: { width: 1366, height: 768 } };
    const white = await newPlayer(browser, laptop);
    const black = await newPlayer(browser, laptop);
    const spectator = await newPlayer(browser);

    // White creates a table in the lobby (standard, 10 min + 5 s, archived) and sits down.
    await white.page.getByTestId("create-table").click();
    const table = await tableIdOf(white.page);
    whiteName = await sitDown(white.page, "white");
    await expect(white.page.getByTestId("join-black")).toHaveCount(0);

    // Black finds it in the lobby and sits down through its link and the seat button.
    const row = black.page.locator(`[data-testid="table-row"][data-table="${table}"]`);
    await expect(row).toContainText(whiteName);
    await screenshot(black.page, "lobby");
    await row.getByRole("link").click();
    await expect(black.page).toHaveURL(new RegExp(`#/table/${table}$`));
    const blackName = await sitDown(black.page, "black");
    expect(blackName).not.toBe(whiteName);

    // The spectator watches from the lobby's link.
    const watch = spectator.page.locator(`[data-testid="table-row"][data-table="${table}"]`);
    await expect(watch).toContainText(blackName);
    await watch.getByRole("link").click();
    await expect(spectator.page.getByTestId("seat-black-name")).toHaveText(blackName);
    await expect(white.page.getByTestId("spectators")).toContainText(await myName(spectator.page));

    await white.page.getByTestId("start").click();
    for (const p of [white, black, spectator]) await expect(boardOf(p.page)).toHaveAttribute("data-stage", "place");
    await expect(white.page.getByTestId("turn")).toContainText(/your turn/i);
    await expect(boardOf(black.page)).toHaveAttribute("data-interactive", "false");
    await expect(boardOf(spectator.page)).toHaveAttribute("data-interactive", "false");

    const pages = { white: white.page, black: black.page };
    const everyone = [white.page, black.page, spectator.page];
    for (const [n, a] of fixture.actions.entries()) {
      const mover = pages[a.color];
      const other = pages[a.color === "white" ? "black" : "white"];
      await test.step(`${n + 1}. ${a.color} ${a.token}${a.opponentRow ? " (the opponent's row)" : ""}`, async () => {
        await expectMyTurn(mover, a.stage);
        await expect(boardOf(other)).toHaveAttribute("data-interactive", "false");
        // Passing is offered only when no ring can move (never in this game).
        await expect(mover.getByTestId("pass")).toBeHidden();
        if (a.opponentRow) {
          // Black removes the row white made for them before black's own move.
          expect(fixture.actions[n - 1].color).not.toBe(a.color);
          await expect(mover.getByTestId("turn")).toContainText(/row/i);
        }
        await perform(mover, a, n);
        const expected = piecesOfBoard(a.board);
        // Both players and the spectator see the action: the pieces and the move list.
        for (const page of everyone) {
          await expectPieces(page, expected, `after action ${n + 1} (${a.token})`);
          await expect(page.locator('[data-testid="moves"] .act')).toHaveCount(n + 1);
        }
        await expect(spectator.page.locator('[data-testid="moves"] .act').last()).toHaveText(a.token);
        // A turn that ends with a placement or a ring move: the opponent sees it marked.
        const next = fixture.actions[n + 1];
        if (next && next.color !== a.color && (a.stage === "place" || a.stage === "move")) {
          const to = a.token.split("-").pop()!;
          await expect(other.locator(`svg.yinsh-board [data-mark="to"][data-at="${to}"]`)).toHaveCount(1);
          if (a.stage === "move") await expect(other.locator(`svg.yinsh-board [data-mark="from"][data-at="${a.token.split("-")[0]}"]`)).toHaveCount(1);
        }
        if (a.opponentRow) {
          // Black removes the row White made: Black still sees White's move marked, not the removal.
          await expect(mover.locator(`svg.yinsh-board [data-mark="to"][data-at="${fixture.actions[n - 1].token.split("-")[1]}"]`)).toHaveCount(1);
        }
      });
      if (n === 69) {
        // Turn 66, black's `xd5-h9xi10;h5-h4`: White sees the row, the ring and the move marked.
        for (const [kind, at] of [["row", "d5-h9"], ["ring", "i10"], ["from", "h5"], ["to", "h4"]]) {
          await expect(white.page.locator(`svg.yinsh-board [data-mark="${kind}"][data-at="${at}"]`), `${kind} ${at}`).toHaveCount(1);
        }
        await expect(white.page.locator('[data-testid="moves"] .turn-cell[data-turn="66"]')).toHaveText("xd5-h9xi10;h5-h4");
      }
      if (n === 40) await screenshot(white.page, "game-in-progress");
    }

    // The move list holds one row per pair of turns, White's then Black's.
    let turns = 0;
    fixture.actions.forEach((a, i) => {
      if (i === 0 || fixture.actions[i - 1].color !== a.color) turns++;
    });
    await expect(white.page.locator('[data-testid="moves"] li.turn-row')).toHaveCount(Math.ceil(turns / 2));
    await expect(white.page.locator('[data-testid="moves"] .turn-cell[data-turn="50"]')).toHaveText("h5-i5;xh3-h7xi4");

    // The end: black reached the target. Everyone sees the result; the players get the replay link.
    for (const page of everyone) {
      await expect(boardOf(page)).toHaveAttribute("data-stage", "over");
      await expect(page.getByTestId("result")).toContainText("0-1");
      await expect(page.getByTestId("result")).toContainText(blackName);
      await expect(page.getByTestId("result")).toContainText("target reached");
      await expect(boardOf(page)).toHaveAttribute("data-interactive", "false");
    }
    for (const page of [white.page, black.page]) await expect(page.getByTestId("replay-link")).toBeVisible();
    // The result box took room from the move list: its last action is still in sight.
    for (const page of everyone) {
      await expect
        .poll(() =>
          page.locator('[data-testid="moves"]').evaluate((list) => {
            const last = [...list.querySelectorAll(".act")].at(-1)!.getBoundingClientRect();
            const box = list.getBoundingClientRect();
            return last.top >= box.top - 1 && last.bottom <= box.bottom + 1;
          }),
        )
        .toBe(true);
    }
    // Nothing was ever scrolled to reach a point or a button (the browser scrolls to
    // what it clicks; the page would have stayed scrolled).
    for (const page of [white.page, black.page]) {
      expect(await page.evaluate(() => [window.scrollX, window.scrollY])).toEqual([0, 0]);
    }
    const href = (await white.page.getByTestId("replay-link").getAttribute("href"))!;
    gameId = /^#\/replay\/(\d+)$/.exec(href)![1];
    finalPieces = await piecesOn(white.page);
    expect(finalPieces).toEqual(piecesOfBoard(fixture.actions[fixture.actions.length - 1].board));
    await screenshot(black.page, "game-over");

    expectNoPageErrors(white, black, spectator);
    await Promise.all([white.close(), black.close(), spectator.close()]);
  });

  test("the archive finds the game and the replay viewer steps through it to the same final position", async ({ browser }) => {
    expect(gameId, "the game of the previous test").not.toBe("");
    const viewer = await newPlayer(browser);
    const page = viewer.page;
    const total = fixture.actions.length;

    // The archive, searched by the white player's name.
    await page.getByRole("link", { name: "Archive" }).click();
    await page.getByTestId("archive-player").fill(whiteName);
    await page.getByTestId("archive-search").click();
    await expect(page).toHaveURL(/#\/archive\?player=/);
    const row = page.locator(`[data-testid="archive-row"][data-game-id="${gameId}"]`);
    await expect(row).toContainText(whiteName);
    await expect(row).toContainText("0-1");
    await expect(row).toContainText(String(total));
    await row.click();
    await expect(page).toHaveURL(new RegExp(`#/replay/${gameId}`));

    // Frame 0 is the empty board; forward and back step one action at a time.
    const position = page.getByTestId("replay-position");
    await expect(position).toHaveText(`Action 0 of ${total}`);
    await expect(page.locator('[data-testid="replay-moves"] .act')).toHaveCount(total);
    await expectPieces(page, []);
    for (let n = 1; n <= 3; n++) {
      await page.getByTestId("replay-forward").click();
      await expect(position).toHaveText(`Action ${n} of ${total}`);
      await expectPieces(page, piecesOfBoard(fixture.actions[n - 1].board));
    }
    await page.getByTestId("replay-back").click();
    await expect(position).toHaveText(`Action 2 of ${total}`);
    await expectPieces(page, piecesOfBoard(fixture.actions[1].board));
    await expect(page).toHaveURL(new RegExp(`#/replay/${gameId}\\?ply=2$`));

    // The end: the same pieces as the live game's last position.
    await page.getByTestId("replay-end").click();
    await expect(position).toHaveText(`Action ${total} of ${total}`);
    await expectPieces(page, finalPieces);
    await expect(page.getByTestId("replay-forward")).toBeDisabled();
    await expect(page.getByTestId("replay-result")).toContainText("target reached");
    await screenshot(page, "replay");

    // One step back from the end shows the position before black's last ring removal.
    await page.getByTestId("replay-back").click();
    await expectPieces(page, piecesOfBoard(fixture.actions[total - 2].board));
    await page.getByTestId("replay-start").click();
    await expect(position).toHaveText(`Action 0 of ${total}`);
    await expectPieces(page, []);

    // The record to download is the same game.
    const download = page.getByTestId("replay-download");
    const record = await page.request.get((await download.getAttribute("href"))!);
    expect(record.ok()).toBe(true);
    const text = await record.text();
    expect(text).toContain(`[White "${whiteName}"]`);
    expect(text).toContain("50.h5-i5;xh3-h7xi4");
    expect(text).toContain("66.xd5-h9xi10;h5-h4");
    expect(text.trim().endsWith("0-1")).toBe(true);

    expectNoPageErrors(viewer);
    await viewer.close();
  });
});
