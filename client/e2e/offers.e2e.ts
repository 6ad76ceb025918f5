// The buttons of a running game: a draw offer declined, a takeback requested and
// granted, a resignation, which takes a second click to confirm, and an abort at the
// start of a game, confirmed the same way.

import { expect, test } from "@playwright/test";
import { boardOf, expectMyTurn, expectNoPageErrors, expectPieces, hit, myName, screenshot, seatedPair } from "./helpers";

test("draw offer, takeback and resignation by their buttons", async ({ browser }) => {
  const { white, black, whiteName } = await seatedPair(browser);
  await white.page.getByTestId("start").click();
  await expectMyTurn(white.page, "place");

  // White offers a draw: black sees the offer with accept and decline, and declines.
  await white.page.getByTestId("draw").click();
  await expect(black.page.getByTestId("offer")).toHaveText(`${whiteName} offers a draw.`);
  await expect(white.page.getByTestId("accept")).toHaveCount(0);
  await screenshot(black.page, "draw-offered");
  await black.page.getByTestId("decline").click();
  for (const p of [white.page, black.page]) await expect(p.getByTestId("offer")).toHaveCount(0);
  await expect(boardOf(white.page)).toHaveAttribute("data-stage", "place");

  // White places a ring and asks to take it back; black grants it: the ring is gone and
  // it is white's turn again.
  await hit(white.page, "e5").click();
  await expectMyTurn(black.page, "place");
  await expectPieces(black.page, ["ring white e5"]);
  await white.page.getByTestId("takeback").click();
  await expect(black.page.getByTestId("offer")).toHaveText(`${whiteName} asks to take back.`);
  await black.page.getByTestId("accept").click();
  for (const p of [white.page, black.page]) await expectPieces(p, [], "the placement is taken back");
  await expectMyTurn(white.page, "place");

  // Black resigns: the first click only asks for confirmation, the second resigns.
  const resign = black.page.getByTestId("resign");
  await resign.click();
  await expect(resign).toHaveText("Click again to resign");
  await expect(resign).toHaveClass(/\bconfirm\b/);
  await expect(white.page.getByTestId("result")).toBeEmpty();
  await screenshot(black.page, "resign-confirm");
  await resign.click();
  for (const p of [white.page, black.page]) {
    await expect(p.getByTestId("result")).toContainText(`${whiteName} wins (resignation)`);
    await expect(boardOf(p)).toHaveAttribute("data-stage", "over");
  }
  expectNoPageErrors(white, black);
  await Promise.all([white.close(), black.close()]);
});

test("an unconfirmed resignation lapses", async ({ browser }) => {
  const { white, black } = await seatedPair(browser);
  await white.page.getByTestId("start").click();
  await expectMyTurn(white.page, "place");

  const resign = white.page.getByTestId("resign");
  await resign.click();
  await expect(resign).toHaveText("Click again to resign");
  // A few seconds later the button is back to a plain "Resign" and the game goes on.
  await expect(resign).toHaveText("Resign", { timeout: 8_000 });
  await expect(resign).not.toHaveClass(/\bconfirm\b/);
  await hit(white.page, "f6").click();
  await expectMyTurn(black.page, "place");
  await expect(white.page.getByTestId("result")).toBeEmpty();
  expectNoPageErrors(white, black);
  await Promise.all([white.close(), black.close()]);
});

test("an abort at the start clears the game for both players", async ({ browser }) => {
  const { white, black } = await seatedPair(browser);
  const blackName = await myName(black.page);
  await white.page.getByTestId("start").click();
  await expectMyTurn(white.page, "place");

  // White places a ring; the game may still be aborted, by either player.
  await hit(white.page, "e5").click();
  await expectMyTurn(black.page, "place");
  for (const p of [white.page, black.page]) await expect(p.getByTestId("abort")).toBeVisible();

  // Black aborts: the first click only asks for confirmation, the second aborts.
  const abort = black.page.getByTestId("abort");
  await abort.click();
  await expect(abort).toHaveText("Click again to abort");
  await expect(abort).toHaveClass(/\bconfirm\b/);
  await expectPieces(white.page, ["ring white e5"]);
  await abort.click();

  // The game is gone (no result, not archived): the board is empty, the table waits,
  // and the players can start a new game.
  for (const p of [white.page, black.page]) {
    await expectPieces(p, [], "the aborted game is cleared");
    await expect(p.getByTestId("turn")).toHaveText("Waiting for the game to start.");
    await expect(p.getByTestId("chat-log")).toContainText(`${blackName} aborted the game.`);
    await expect(p.getByTestId("result")).toBeEmpty();
    await expect(p.getByTestId("moves")).toBeEmpty();
    for (const id of ["abort", "resign", "draw", "takeback"]) await expect(p.getByTestId(id)).toHaveCount(0);
    await expect(p.getByTestId("start")).toBeVisible();
    await expect(boardOf(p)).toHaveAttribute("data-interactive", "false");
  }

  // A new game: once white has made two actions it can no longer be aborted.
  await white.page.getByTestId("start").click();
  await expectMyTurn(white.page, "place");
  await expect(white.page.getByTestId("abort")).toBeVisible();
  await hit(white.page, "e5").click();
  await expectMyTurn(black.page, "place");
  await hit(black.page, "f6").click();
  await expectMyTurn(white.page, "place");
  await hit(white.page, "g7").click();
  await expectMyTurn(black.page, "place");
  for (const p of [white.page, black.page]) {
    await expect(p.getByTestId("abort")).toHaveCount(0);
    await expect(p.getByTestId("resign")).toBeVisible();
  }
  expectNoPageErrors(white, black);
  await Promise.all([white.close(), black.close()]);
});
