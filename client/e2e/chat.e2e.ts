// Markup typed into the chat is shown as text to everyone at the table, never run or
// rendered (docs/security.md, "Players' browsers").

import { expect, test } from "@playwright/test";
import { expectNoPageErrors, newPlayer, tableIdOf, typeInChat } from "./helpers";

test("markup in chat lines is shown as text to the other players", async ({ browser }) => {
  const writer = await newPlayer(browser);
  const reader = await newPlayer(browser);
  await writer.page.getByTestId("create-table").click();
  const table = await tableIdOf(writer.page);
  await reader.page.goto(`/#/table/${table}`);
  await expect(reader.page.getByTestId("chat-log")).toBeVisible();

  const lines = ['<img src=x onerror="document.title=\'pwned\'">', "<script>document.title='pwned'</script>", "<b>bold</b> & <i>it</i>"];
  for (const line of lines) await typeInChat(writer.page, line);

  const log = reader.page.getByTestId("chat-log");
  for (const line of lines) await expect(log.locator(".line.chat").filter({ hasText: line })).toHaveCount(1);
  // Nothing of it became markup (the only elements of a chat line are the sender's name,
  // in bold, and its guest mark), and nothing ran.
  await expect(log.locator("img, script, i")).toHaveCount(0);
  await expect(log.locator(".line.chat b")).toHaveCount(lines.length);
  await expect(log.locator(".line.chat b").first()).not.toContainText("bold");
  expect(await reader.page.title()).not.toBe("pwned");
  expectNoPageErrors(writer, reader);
  await Promise.all([writer.close(), reader.close()]);
});
