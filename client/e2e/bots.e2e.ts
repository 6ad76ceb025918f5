// A bot account as people meet it: a program upgrades its account and seeks a game over
// the bot API (docs/protocol.md, "Bot API"); its seek shows in the lobby marked BOT; a
// person is paired with it only after ticking "Bots too"; the bot's seat, the archive,
// the replay and the bot's own page mark it BOT.

import { expect, test, type Page } from "@playwright/test";
import { request as httpRequest, type ClientRequest } from "node:http";
import { expectNoPageErrors, registered, resign, screenshot } from "./helpers";

/** A token of the page's account with `scopes`, made as the account page makes one. */
async function tokenOf(page: Page, scopes: string[]): Promise<string> {
  return page.evaluate(async (scopes) => {
    const r = await fetch("/api/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "engine", scopes }),
    });
    return ((await r.json()) as { token: string }).token;
  }, scopes);
}

/** A seek of the bot's (`POST /api/bot/seek`): its NDJSON lines as they come. */
function botSeek(base: string, token: string, form: string): { lines: unknown[]; req: ClientRequest } {
  const lines: unknown[] = [];
  const url = new URL("/api/bot/seek", base);
  const req = httpRequest(
    {
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
    },
    (res) => {
      let rest = "";
      res.on("data", (chunk) => {
        rest += chunk;
        const parts = rest.split("\n");
        rest = parts.pop()!;
        for (const p of parts) if (p.trim()) lines.push(JSON.parse(p));
      });
    },
  );
  req.on("error", () => undefined);
  req.end(form);
  return { lines, req };
}

test("a bot's seek is marked BOT and pairs only with a person who welcomes bots", async ({ browser, request, baseURL }) => {
  const { player: botPlayer, name: botName } = await registered(browser, "Robo");
  const token = await tokenOf(botPlayer.page, ["bot:play"]);
  expect(token).toMatch(/^yat_/);
  await botPlayer.close();
  const upgrade = await request.post("/api/bot/account/upgrade", { headers: { authorization: `Bearer ${token}` } });
  expect(upgrade.status()).toBe(200);
  const seek = botSeek(baseURL!, token, "time=3&increment=2");

  const { player: ann } = await registered(browser, "Ann");
  const { page } = ann;
  const row = page.locator('[data-testid="seek-row"]', { hasText: botName });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("bot-mark")).toHaveText("BOT");
  await screenshot(page, "lobby-bot-seek");

  // The same clock without "Bots too": Ann's seek stands beside the bot's.
  const bots = page.getByTestId("quick-bots");
  await expect(bots).not.toBeChecked();
  await page.getByTestId("preset-3+2").click();
  await expect(page.getByTestId("seeking")).toBeVisible();
  await expect(page.locator('[data-testid="seek-row"][data-own="true"]')).toHaveCount(1);
  await expect(row).toBeVisible();
  // With it: paired with the bot at once.
  await page.getByTestId("cancel-seek").click();
  await bots.check();
  await page.getByTestId("preset-3+2").click();
  await expect(page).toHaveURL(/#\/table\//);
  const table = /#\/table\/([^/?]+)/.exec(page.url())![1];
  await expect.poll(() => seek.lines).toContainEqual(expect.objectContaining({ type: "gameStart" }));
  expect(seek.lines[0]).toMatchObject({ game: { id: table } });
  seek.req.destroy();
  const botSeat = page.locator('[data-testid^="seat-"][data-testid$="-name"]', { hasText: botName });
  await expect(botSeat).toHaveCount(1);
  await expect(page.getByTestId("bot-mark").first()).toBeVisible();
  await screenshot(page, "table-with-bot");

  await resign(page);
  // The archive, the replay and the bot's page say BOT.
  await page.goto(`/#/archive`);
  const archived = page.locator('[data-testid="archive-row"]', { hasText: botName }).first();
  await expect(archived.getByTestId("bot-mark")).toHaveText("BOT");
  const id = await archived.getAttribute("data-game-id");
  await page.goto(`/#/replay/${id}`);
  await expect(page.getByTestId("replay-white")).toBeVisible();
  await expect(page.getByTestId("bot-mark")).toHaveCount(1);
  await page.goto(`/#/@/${botName}`);
  await expect(page.getByTestId("profile-name")).toHaveText(botName);
  await expect(page.locator(".profile-id").getByTestId("bot-mark")).toHaveText("BOT");
  // "Bots too" is kept for the next visit.
  await page.goto("/");
  await expect(page.getByTestId("quick-bots")).toBeChecked();
  expectNoPageErrors(ann);
});
