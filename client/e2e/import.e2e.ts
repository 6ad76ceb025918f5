// Importing a game into the archive from the archive page: a boardspace SGF file is
// chosen, the replay of the imported game opens, its players are the record's (no
// links to accounts here) and it is marked imported in the list; a record that is no
// finished game is refused with the server's reason.

import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { expectNoPageErrors, newPlayer } from "./helpers";

const SGF = fileURLToPath(new URL("../../crates/yinsh/tests/fixtures/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf", import.meta.url));

test("a boardspace game imported into the archive, replayed and listed as imported", async ({ browser }) => {
  const player = await newPlayer(browser, { viewport: { width: 1366, height: 768 } });
  const { page } = player;
  await page.goto("/#/archive");
  await page.getByTestId("archive-import-open").click();
  // Not a finished game: the server's reason.
  await page.getByTestId("archive-import-text").fill("1.e3 2.a5 *");
  await page.getByTestId("archive-import-submit").click();
  await expect(page.getByTestId("archive-import-error")).toContainText("only finished games");
  // The SGF file: its replay opens.
  await page.getByTestId("archive-import-file").setInputFiles(SGF);
  await expect(page).toHaveURL(/#\/replay\/\d+$/);
  await expect(page.getByTestId("replay-white")).toHaveText("DrMih");
  await expect(page.getByTestId("replay-white").locator("a")).toHaveCount(0);
  await expect(page.getByTestId("replay-result")).toContainText("Dumbot");
  await expect(page.getByTestId("replay-position")).toHaveText(/^Action 0 of \d+$/);
  // In the archive's list, marked imported.
  await page.goto("/#/archive");
  const row = page.getByTestId("archive-row").filter({ hasText: "DrMih" });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("imported-mark")).toHaveText("imported");
  expectNoPageErrors(player);
});
