// Mail through the browser (docs/client.md, the account page): an account adds its
// address, opens the link that came to the real SMTP server (aiosmtpd, started beside
// the server by playwright.config.ts) and sees it verified; it chooses what is mailed;
// logged out, it asks "Forgot your password?", sets a new one on the page the mailed
// link opens, and logs in with it. Screenshots of the section go to
// test-results/screenshots/.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoPageErrors, registered, screenshot } from "./helpers";

const maildir = process.env.E2E_MAILDIR;

/** Quoted-printable undone (the mails' bodies), so that links read whole. */
function unquoted(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The mails to `address` so far, decoded. */
function mailsTo(address: string): string[] {
  const dir = join(maildir!, "new");
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .filter((m) => m.split(/\r?\n/).some((l) => l.toLowerCase() === `to: ${address}`))
    .map(unquoted);
}

/** The path of the `/mail/{what}/…` link in the newest mail to `address` that has one. */
async function linkIn(address: string, what: string, count: number): Promise<string> {
  let mails: string[] = [];
  await expect.poll(() => (mails = mailsTo(address)).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const match = new RegExp(`/mail/${what}/[0-9a-f]{64}`).exec(mails.filter((m) => m.includes(`/mail/${what}/`)).at(-1) ?? "");
  expect(match, `a ${what} link`).not.toBeNull();
  return match![0];
}

test("an account verifies its address by the mailed link and resets its password by mail", async ({ browser }) => {
  test.skip(!maildir, "no SMTP server (scripts/smtp)");
  const { player, name } = await registered(browser, "Mailer");
  const { page } = player;
  const address = `${name.toLowerCase()}@example.org`;
  await page.goto("/#/account");
  const section = page.getByTestId("mail-settings");
  await expect(section.getByTestId("mail-address")).toBeVisible();
  await section.getByTestId("mail-address").fill("not an address");
  await section.getByTestId("mail-save").click();
  await expect(section.getByTestId("mail-status")).toHaveText("That is not an email address.");
  await section.getByTestId("mail-address").fill(address);
  await section.getByTestId("mail-save").click();
  await expect(section.getByTestId("mail-state")).toHaveAttribute("data-verified", "false");
  await expect(section.getByTestId("mail-status")).toContainText(`A link to verify ${address}`);

  // The link from the mail verifies it; the defaults are mailed.
  const verify = await linkIn(address, "verify", 1);
  await page.goto(verify);
  await expect(page.getByTestId("mail-verified")).toContainText(`${address} is verified`);
  await page.goto("/#/account");
  await expect(section.getByTestId("mail-state")).toHaveAttribute("data-verified", "true");
  await expect(section.getByTestId("mail-your_turn")).toBeChecked();
  await expect(section.getByTestId("mail-deadline")).toBeChecked();
  await expect(section.getByTestId("mail-challenge")).not.toBeChecked();
  await section.getByTestId("mail-challenge").check();
  await expect(section.getByTestId("mail-status")).toHaveText("Saved");
  await page.reload();
  await expect(section.getByTestId("mail-challenge")).toBeChecked();
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, "account-mail-1366x768");

  // Logged out, the password is forgotten: a link comes, the page it opens sets a new one.
  await page.getByTestId("logout").click();
  await page.getByTestId("forgot-open").click();
  await page.getByTestId("forgot-address").fill(address.toUpperCase());
  await page.getByTestId("forgot-send").click();
  await expect(page.getByTestId("forgot-message")).toContainText("If an account has this verified address");
  const reset = await linkIn(address, "reset", 2);
  await page.goto(reset);
  await page.locator('input[name="password"]').fill("a brand new horse");
  await page.getByRole("button", { name: "Set the password" }).click();
  await expect(page.getByTestId("mail-reset-done")).toContainText("Your password is set");
  await page.goto(reset);
  await expect(page.getByTestId("mail-link-gone")).toBeVisible();
  await page.goto("/#/account");
  await page.getByTestId("login-name").fill(name);
  await page.getByTestId("login-password").fill("a brand new horse");
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("account-name")).toContainText(`Signed in as ${name}`);

  expectNoPageErrors(player);
  await player.close();
});
