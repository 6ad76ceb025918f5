// Personal API tokens on the account page: made with a name and scopes, shown once and
// copied, then used by a "program" (a request with only the token) that is the account;
// listed with their use, revoked, and dead at once.

import { expect, test } from "@playwright/test";
import { expectNoPageErrors, registered, screenshot } from "./helpers";

test("an account makes an API token, a program uses it, the account revokes it", async ({ browser }) => {
  const { player, name } = await registered(browser, "Tok");
  const { page } = player;
  await page.goto("/#/account");
  const panel = page.getByTestId("tokens");
  await expect(panel.getByTestId("token-list")).toHaveText("No tokens yet.");

  // Refused before asking: no scope chosen.
  await panel.getByTestId("token-name").fill("my engine");
  await panel.getByTestId("token-create").click();
  await expect(panel.getByTestId("token-message")).toHaveText("Choose at least one thing the token may do.");
  await panel.getByTestId("token-scope-bot:play").check();
  await panel.getByTestId("token-scope-board:play").check();
  await panel.getByTestId("token-create").click();
  const secret = panel.getByTestId("token-secret");
  await expect(secret).toHaveText(/^yat_[0-9a-f]{64}$/);
  const token = (await secret.textContent())!;
  await expect(panel.getByTestId("token")).toHaveCount(1);
  await expect(panel.getByTestId("token")).toContainText("my engine");
  await expect(panel.getByTestId("token")).toContainText("bot:play, board:play");
  await expect(panel.getByTestId("token")).toContainText("never used");
  await screenshot(page, "account-tokens", true);

  // A program with nothing but the token is the account.
  const program = await browser.newContext();
  const answer = await program.request.get("/api/account", { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { name: string }).name).toBe(name);
  // The list says it was used (after a reload the token itself is gone from the page).
  await page.reload();
  await expect(panel.getByTestId("token")).toContainText("last used");
  await expect(panel.getByTestId("token-new")).toBeHidden();

  // Revoked: gone from the list, refused at once.
  await panel.getByTestId("token-revoke").click();
  await expect(panel.getByTestId("token-list")).toHaveText("No tokens yet.");
  const refused = await program.request.get("/api/account", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  await program.close();
  expectNoPageErrors(player);
});
