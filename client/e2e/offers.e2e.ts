// The buttons of a running game: a draw offer declined, a takeback requested and
// granted, and a resignation, which takes a second click to confirm.

import { expect, test } from "@playwright/test";
import { boardOf, expectMyTurn, expectNoPageErrors, expectPieces, hit, screenshot, seatedPair } from "./helpers";

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
