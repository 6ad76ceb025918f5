// A timed game lost on time: one minute each, set with `/option time 1+0` typed into the
// chat; white places a ring, black lets the clock run out. Takes a minute of real time.

import { expect, test } from "@playwright/test";
import { boardOf, expectMyTurn, expectNoPageErrors, hit, screenshot, seatedPair, typeInChat } from "./helpers";

test("a player who lets the clock run out loses on time", async ({ browser }) => {
  test.setTimeout(150_000);
  const { white, black, whiteName } = await seatedPair(browser);

  // The option, typed as a slash command: the chat tells the change once (its event, not
  // also the reply to the command), both tables show it.
  await typeInChat(white.page, "/option time 1+0");
  const log = white.page.getByTestId("chat-log");
  await expect(log.locator(".line.event").last()).toContainText("changed the options: Standard · 1 min + 0 s");
  await expect(log.locator(".line.reply")).toHaveCount(0);
  for (const p of [white.page, black.page]) await expect(p.getByTestId("table-options")).toContainText("1 min + 0 s");

  await white.page.getByTestId("start").click();
  for (const p of [white.page, black.page]) {
    await expect(p.getByTestId("clock-white")).toHaveText(/^(1:00|0:5\d)$/);
    await expect(p.getByTestId("clock-black")).toHaveText("1:00");
  }
  await expectMyTurn(white.page, "place");
  await hit(white.page, "e5").click();
  await expectMyTurn(black.page, "place");

  // Black's clock runs down on both screens; white's stands still.
  for (const p of [white.page, black.page]) await expect(p.getByTestId("clock-black")).toHaveText(/^0:5\d$/);
  const whiteClock = await white.page.getByTestId("clock-white").textContent();
  await screenshot(black.page, "clock-running");

  // A minute later the server ends the game: black lost on time, the clock shows 0:00.
  for (const p of [white.page, black.page]) {
    await expect(p.getByTestId("result")).toContainText("1-0", { timeout: 75_000 });
    await expect(p.getByTestId("result")).toContainText(`${whiteName} wins (time)`);
    await expect(p.getByTestId("clock-black")).toHaveText(/^0:00(\.0)?$/);
    await expect(p.getByTestId("clock-white")).toHaveText(whiteClock!);
    await expect(boardOf(p)).toHaveAttribute("data-stage", "over");
    await expect(boardOf(p)).toHaveAttribute("data-interactive", "false");
  }
  await expect(black.page.getByTestId("clock-black")).toHaveClass(/\blow\b/);
  await screenshot(black.page, "lost-on-time");

  expectNoPageErrors(white, black);
  await Promise.all([white.close(), black.close()]);
});
