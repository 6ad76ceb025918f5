// A cluster as docs/scaling.md describes it, started by scripts/cluster: PostgreSQL,
// Redis, three nodes of this binary and HAProxy in front. Two people whose pages are
// served by different nodes see each other online, click the same clock and meet at
// one table (the meeting node pairs their seeks), and play there (one of them through
// the routing to the table's node); a third comes in through the proxy and watches,
// its connection moved to the table's node (`/ws?node=`, which HAProxy routes on).
// Screenshots at a laptop's and a phone's size go to test-results/screenshots/.

import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  colorOf,
  expectMyTurn,
  expectNoPageErrors,
  expectNoSidewaysScroll,
  haproxyPath,
  hit,
  newPlayer,
  playFirstRings,
  pointsWith,
  screenshot,
} from "./helpers";

const haproxy = haproxyPath();

// The test command installs HAProxy (and PostgreSQL and Redis) and sets
// YINSH_REQUIRE_HAPROXY; elsewhere a machine without it skips (and says so).
test.skip(!haproxy && !process.env.YINSH_REQUIRE_HAPROXY, "HAProxy is not installed");

const script = resolve("../scripts/cluster");
const bin = resolve(process.env.YINSH_BIN ?? "../target/debug/yinsh");
let site = "";
let dir = "";

test.beforeAll(() => {
  const out = execFileSync(script, ["start"], {
    env: { ...process.env, YINSH_BIN: bin, YINSH_NODE_ARGS: "--no-bots --analysis-workers 0" },
    stdio: ["ignore", "pipe", "inherit"],
  })
    .toString()
    .trim()
    .split("\n");
  [site, dir] = [out[0], out[1]];
});

test.afterAll(() => {
  if (dir) execFileSync(script, ["stop", dir], { stdio: "inherit" });
});

const node = (k: number) => `http://${readFileSync(`${dir}/nodes`, "utf8").trim().split("\n")[k - 1]}`;

test("players on different nodes meet by quick pairing and play; a spectator comes through the proxy", async ({ browser }) => {
  const a = await newPlayer(browser, { baseURL: node(1), viewport: { width: 1366, height: 768 } });
  const b = await newPlayer(browser, {
    baseURL: node(2),
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  // Each node counts both (the other one's player by the bus).
  for (const page of [a.page, b.page]) {
    await expect
      .poll(async () => (await page.evaluate(() => fetch("/api/stats").then((r) => r.json()))).players_online, {
        timeout: 15_000,
      })
      .toBe(2);
  }

  // The seek made at node 1 is listed at node 2; the same clock there pairs them.
  await a.page.getByTestId("preset-3+2").click();
  await expect(a.page.getByTestId("seeking")).toBeVisible();
  await expect(b.page.locator('[data-testid="seek-row"]')).toHaveCount(1);
  await b.page.getByTestId("preset-3+2").click();
  const table = await playFirstRings(a.page, b.page);
  await screenshot(a.page, "cluster-table-1366x768");
  await screenshot(b.page, "cluster-table-390x844");
  await expectNoSidewaysScroll(b.page, "the phone's table in a cluster");

  // A third person, through the proxy, finds the table in the lobby and watches it.
  // (Someone in the lobby through the proxy first: the proxy's least busy node for the
  // spectator is then another than the table's, whose first node the proxy picks.)
  const d = await newPlayer(browser, { baseURL: site, viewport: { width: 1366, height: 768 } });
  const c = await newPlayer(browser, { baseURL: site, viewport: { width: 1366, height: 768 } });
  // The node serving the spectator's connection (its last `welcome`), and the one that
  // runs the table (its snapshot).
  const seen = { servedBy: "", runs: "" };
  c.page.on("websocket", (ws) => {
    ws.on("framereceived", ({ payload }) => {
      const msg = JSON.parse(String(payload)) as { type: string; node?: string; table?: { id: string; node?: string } };
      if (msg.type === "welcome") seen.servedBy = msg.node ?? "";
      if (msg.type === "snapshot" && msg.table?.id === table) seen.runs = msg.table.node ?? "";
    });
  });
  await c.page.goto(`${site}/#/table/${table}`);
  // Loaded again, so that every socket of the page is heard from its first message.
  await c.page.reload();
  await expect(c.page.locator('[data-testid="moves"] .act')).toHaveCount(2);
  // Its connection is at the table's node now (where the proxy put it first, or moved
  // there), and the game goes on for it.
  await expect.poll(() => seen.runs !== "" && seen.servedBy === seen.runs, { timeout: 10_000 }).toBe(true);
  const white = (await colorOf(a.page)) === "white" ? a.page : b.page;
  await expectMyTurn(white, "place");
  const [point] = await pointsWith(white, "target");
  await hit(white, point).click();
  await expect(c.page.locator('[data-testid="moves"] .act')).toHaveCount(3);
  await screenshot(c.page, "cluster-spectator-1366x768");
  expectNoPageErrors(a, b, c, d);
  await Promise.all([a.close(), b.close(), c.close(), d.close()]);
});
