// The table page as a lichess player expects it: the opponent's last move marked on the
// board, the move list by turns, looking back at an earlier position during the game and
// returning to the live one, one chat line per event, and the buttons that make sense now.

import { expect, test, type Page } from "@playwright/test";
import { boardOf, expectMyTurn, expectNoPageErrors, expectPieces, hit, seatedPair, typeInChat } from "./helpers";

const mark = (page: Page, kind: string, at: string) => page.locator(`svg.yinsh-board [data-mark="${kind}"][data-at="${at}"]`);
const marks = (page: Page) => page.locator("svg.yinsh-board [data-mark]");

test("last move marked, moves by turn, looking back and back to live, one chat line for /start", async ({ browser }) => {
  const { white, black } = await seatedPair(browser);

  // /start typed in the chat: one line tells it (the event), not also the reply.
  await typeInChat(white.page, "/start");
  await expectMyTurn(white.page, "place");
  for (const p of [white.page, black.page]) {
    const log = p.getByTestId("chat-log");
    await expect(log.locator(".line").filter({ hasText: /game begins/i })).toHaveCount(1);
    await expect(log.locator(".line.reply")).toHaveCount(0);
  }
  // Nothing to take back before one's own first action; a draw may be offered.
  await expect(white.page.getByTestId("takeback")).toHaveCount(0);
  await expect(white.page.getByTestId("draw")).toBeVisible();

  // White places a ring: Black sees it marked (and White too, as the last move, as on lichess).
  await hit(white.page, "e5").click();
  await expectMyTurn(black.page, "place");
  await expect(mark(black.page, "to", "e5")).toHaveCount(1);
  await expect(mark(white.page, "to", "e5")).toHaveCount(1);
  await expect(white.page.getByTestId("takeback")).toBeVisible();
  await expect(black.page.getByTestId("takeback")).toHaveCount(0);
  await expect(white.page).toHaveTitle(/YINSH/);
  await expect(black.page).toHaveTitle(/^Your turn — e5 · YINSH$/);

  await hit(black.page, "f6").click();
  await expectMyTurn(white.page, "place");
  // Black's answer: now that is the one marked, White's own ring no longer.
  await expect(mark(white.page, "to", "f6")).toHaveCount(1);
  await expect(marks(white.page)).toHaveCount(1);
  await hit(white.page, "g7").click();
  await expectMyTurn(black.page, "place");
  await hit(black.page, "d4").click();
  await expectMyTurn(white.page, "place");

  // The move list: one row per pair of turns, White's then Black's, numbered.
  const rows = white.page.locator('[data-testid="moves"] li.turn-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).locator(".n")).toHaveText("1");
  await expect(rows.nth(0).locator(".turn-cell.white")).toHaveText("e5");
  await expect(rows.nth(0).locator(".turn-cell.black")).toHaveText("f6");
  await expect(rows.nth(1).locator(".turn-cell.white")).toHaveText("g7");
  await expect(rows.nth(1).locator(".turn-cell.black")).toHaveText("d4");
  await expect(white.page.locator('[data-testid="moves"] .act.current')).toHaveText("d4");

  // White looks back at the position after the first action: the board shows it, read only.
  const all = ["ring black d4", "ring black f6", "ring white e5", "ring white g7"];
  await white.page.locator('[data-testid="moves"] .act[data-ply="1"]').click();
  await expectPieces(white.page, ["ring white e5"], "the position after 1. e5");
  await expect(white.page.getByTestId("review")).toBeVisible();
  await expect(boardOf(white.page)).toHaveAttribute("data-interactive", "false");
  await expect(mark(white.page, "to", "e5")).toHaveCount(1);
  // The arrows step through the game; the button returns to the live position.
  await white.page.keyboard.press("ArrowRight");
  await expectPieces(white.page, ["ring black f6", "ring white e5"]);
  await white.page.getByTestId("back-to-live").click();
  await expectPieces(white.page, all);
  await expect(white.page.getByTestId("review")).toBeHidden();
  await expectMyTurn(white.page, "place");
  await white.page.keyboard.press("ArrowLeft");
  await expectPieces(white.page, ["ring black f6", "ring white e5", "ring white g7"]);
  await white.page.keyboard.press("End");
  await expectPieces(white.page, all);
  await expectMyTurn(white.page, "place");

  // Black looks back; White's next action brings Black back to the live position.
  await black.page.locator('[data-testid="moves"] .act[data-ply="2"]').click();
  await expectPieces(black.page, ["ring black f6", "ring white e5"]);
  await hit(white.page, "h8").click();
  await expectPieces(black.page, [...all, "ring white h8"].sort(), "back to the live position");
  await expect(black.page.getByTestId("review")).toBeHidden();
  await expectMyTurn(black.page, "place");

  // A draw offer: Offer draw and Take back go while it waits, on both sides.
  await black.page.getByTestId("draw").click();
  await expect(white.page.getByTestId("offer")).toBeVisible();
  for (const p of [white.page, black.page]) {
    await expect(p.getByTestId("draw")).toHaveCount(0);
    await expect(p.getByTestId("takeback")).toHaveCount(0);
  }
  await expect(black.page.getByTestId("waiting")).toBeVisible();
  await white.page.getByTestId("decline").click();
  await expect(black.page.getByTestId("draw")).toBeVisible();

  // After the game, the button that starts the next one says so.
  await black.page.getByTestId("resign").click();
  await black.page.getByTestId("resign").click();
  await expect(white.page.getByTestId("result")).toContainText("resignation");
  await expect(white.page.getByTestId("start")).toHaveText("Rematch");
  expectNoPageErrors(white, black);
  await Promise.all([white.close(), black.close()]);
});
