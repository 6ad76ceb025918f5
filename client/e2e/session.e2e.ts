// "Sign out other devices" in the lobby: a browser holding a copy of the session cookie
// becomes a new guest, the one that clicked keeps its name (docs/security.md, session
// rotation).

import { expect, test } from "@playwright/test";
import { expectNoPageErrors, myName, newPlayer, screenshot, waitOnline } from "./helpers";

test("signing out other devices turns a copied session into a new guest", async ({ browser }) => {
  const mine = await newPlayer(browser);
  const name = await myName(mine.page);
  // The same cookie in another browser: the same guest.
  const copy = await newPlayer(browser, { storageState: await mine.page.context().storageState() });
  expect(await myName(copy.page)).toBe(name);

  await mine.page.getByTestId("rotate-session").click();
  await expect(mine.page.getByTestId("rotate-result")).toHaveText("Other devices are signed out.");
  await screenshot(mine.page, "session-rotated", true);

  // The copy's connection ended with the old token; it comes back as a new guest.
  await expect(copy.page.getByTestId("me")).not.toHaveText(`You are ${name}`);
  await waitOnline(copy.page);
  expect(await myName(copy.page)).not.toBe(name);
  // This browser keeps its name, also after a reload (it holds the new cookie).
  await waitOnline(mine.page);
  await expect(mine.page.getByTestId("me")).toHaveText(`You are ${name}`);
  await mine.page.reload();
  await waitOnline(mine.page);
  await expect(mine.page.getByTestId("me")).toHaveText(`You are ${name}`);
  expectNoPageErrors(mine, copy);
  await Promise.all([mine.close(), copy.close()]);
});
