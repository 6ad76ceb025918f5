// Switching to Dutch at a table: the page's own words (the client's catalogue, nl.ts)
// and the server's replies to slash commands typed in the chat.

import { expect, test } from "@playwright/test";
import { en } from "../src/i18n/en";
import { expectNoPageErrors, newPlayer, screenshot, sitDown, tableIdOf, typeInChat } from "./helpers";

test("Dutch: the table page and the server's chat replies", async ({ browser }) => {
  const player = await newPlayer(browser);
  const page = player.page;
  await page.getByTestId("create-table").click();
  await tableIdOf(page);
  await sitDown(page, "white");
  await expect(page.getByTestId("leave")).toHaveText(en["table.leave"]);

  await page.getByTestId("language").selectOption("nl");
  await expect(page.locator("html")).toHaveAttribute("lang", "nl");
  await expect(page.getByTestId("language")).toHaveValue("nl");
  await expect(page.getByTestId("seat-white-name")).not.toHaveText(en["seat.free"]);

  // The server answers in Dutch from now on.
  const log = page.getByTestId("chat-log");
  await typeInChat(page, "/who");
  await expect(log.locator(".line.reply").last()).toContainText(/^Wit: \S+ \(gast\)\. Zwart: niemand\. Toeschouwers: niemand\.$/);
  await typeInChat(page, "/onzin");
  await expect(log.locator(".line.error").last()).toContainText("Onbekend commando");

  // The client's own words (soft: every one is reported when the catalogue lags behind).
  const english = [
    [page.getByTestId("leave"), en["table.leave"]],
    [page.getByTestId("chat-send"), en["table.send"]],
    [page.getByTestId("turn"), en["table.waiting"]],
    [page.getByRole("link", { name: en["table.back"] }), null],
  ] as const;
  for (const [locator, text] of english) {
    if (text === null) await expect.soft(locator, "the link back to the lobby is still in English").toHaveCount(0);
    else await expect.soft(locator, `"${text}" is still in English`).not.toHaveText(text);
  }
  await expect.soft(page.getByTestId("chat-input")).not.toHaveAttribute("placeholder", en["table.chatPlaceholder"]);
  await screenshot(page, "table-dutch");

  expectNoPageErrors(player);
  await player.close();
});
