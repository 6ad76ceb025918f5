// Accounts from the page: a guest creates an account (keeping their seat), switches
// "Confirm turn" on for live games, logs out and in again; wrong passwords and taken
// names are told in words (docs/protocol.md, Accounts).

import { expect, test } from "@playwright/test";
import { expectNoPageErrors, myName, newPlayer, screenshot, sitDown, tableIdOf, waitOnline } from "./helpers";

test("a guest creates an account, keeps the seat, logs out and back in", async ({ browser }) => {
  const player = await newPlayer(browser);
  const { page } = player;
  const guest = await myName(page);
  await page.getByTestId("create-table").click();
  const table = await tableIdOf(page);
  await sitDown(page, "white");

  // A guest, marked so in the header and at the seat.
  await expect(page.locator("header").getByTestId("guest-mark")).toHaveText("guest");
  await expect(page.getByTestId("seat-white").getByTestId("guest-mark")).toHaveText("guest");
  // Sign in → the account page offers both forms.
  await expect(page.getByTestId("account-link")).toHaveText("Sign in");
  await page.getByTestId("account-link").click();
  await expect(page.getByTestId("account-guest")).toContainText(guest);
  const name = `Tester${Date.now() % 1_000_000}`;
  // Refused before asking the server, with the reason.
  await page.getByTestId("register-name").fill("A");
  await page.getByTestId("register-password").fill("long enough");
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("register-message")).toHaveText("A name has 2 to 20 characters.");
  // Refused by the server: a name that reads like a guest's.
  await page.getByTestId("register-name").fill("SwiftOtter1234");
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("register-message")).toContainText("guest");
  await page.getByTestId("register-name").fill(name);
  await page.getByTestId("register-password").fill("correct horse");
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("account-name")).toContainText(`Signed in as ${name}`);
  // The connection comes back as the account; the header says so.
  await waitOnline(page);
  await expect(page.getByTestId("me")).toHaveText(`You are ${name}`);
  await expect(page.getByTestId("account-link")).toHaveText("Account");
  await expect(page.locator("header").getByTestId("guest-mark")).toHaveCount(0);
  await expect(page.getByTestId("session")).toHaveCount(1);
  await expect(page.getByTestId("session")).toHaveAttribute("data-current", "true");
  // "Playing": "Confirm turn" is on for correspondence games, off for live ones, until
  // the player switches it.
  await expect(page.getByTestId("confirm-correspondence")).toBeChecked();
  await expect(page.getByTestId("confirm-live")).not.toBeChecked();
  await page.getByTestId("confirm-live").check();
  await screenshot(page, "account", true);
  // The seat is still this player's, and the live table waits for "Confirm turn".
  await page.goto(`/#/table/${table}`);
  await expect(page.getByTestId("seat-white")).toBeVisible();
  await expect(page.getByTestId("join-white")).toHaveCount(0);
  await expect(page.getByTestId("confirm-toggle")).toHaveAttribute("aria-pressed", "true");

  // Log out: a new guest.
  await page.goto("/#/account");
  await page.getByTestId("logout").click();
  await expect(page.getByTestId("login")).toBeVisible();
  await waitOnline(page);
  await expect(page.getByTestId("me")).not.toHaveText(`You are ${name}`);
  await expect(page.getByTestId("account-link")).toHaveText("Sign in");

  // Log in: a wrong password is told, the right one brings the account back.
  await page.getByTestId("login-name").fill(name.toLowerCase());
  await page.getByTestId("login-password").fill("correct horsf");
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("login-message")).toHaveText("Wrong name or password.");
  await page.getByTestId("login-password").fill("correct horse");
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("account-name")).toContainText(`Signed in as ${name}`);
  await waitOnline(page);
  await expect(page.getByTestId("me")).toHaveText(`You are ${name}`);

  // Somebody else cannot take the name, in another case either.
  const other = await newPlayer(browser);
  await other.page.goto("/#/account");
  await other.page.getByTestId("register-name").fill(name.toUpperCase());
  await other.page.getByTestId("register-password").fill("another one");
  await other.page.getByTestId("register-submit").click();
  await expect(other.page.getByTestId("register-message")).toHaveText("That name is taken.");
  expectNoPageErrors(player, other);
  await Promise.all([player.close(), other.close()]);
});
