// The computer analysis in the replay viewer: two guests play the recorded game of the
// fixture (over WebSockets of their own, one `act` each: the replay is what is tested
// here), then one opens its replay, requests the analysis (the server searches
// 2,000 nodes a position: see playwright.config.ts), follows the progress and gets the bar, the graph,
// the marks in the move list and the engine's choice on the board; a click on the
// graph and on a "Better" line moves the viewer. Then a phone opens the same replay.

import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { boardOf, expectNoPageErrors, expectNoSidewaysScroll, myName, newPlayer, playArchivedGame, screenshot } from "./helpers";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/opponent-row.json", import.meta.url), "utf8")) as {
  actions: { token: string; color: "white" | "black" }[];
};
const tokens = fixture.actions.map((a) => a.token);

interface Analysis {
  state: string;
  result: {
    engine: string;
    settings: string;
    actions: { action: string; best?: string; mark?: string; eval: { white_chance: number } }[];
    summary: Record<"white" | "black", { inaccuracies: number; mistakes: number; blunders: number; accuracy: number }>;
  };
}

test("the replay's computer analysis: requested, followed, then graph, marks, bar and the engine's arrow; on a phone too", async ({ browser }) => {
  test.setTimeout(180_000);
  const white = await newPlayer(browser, { viewport: { width: 1366, height: 768 } });
  const black = await newPlayer(browser);

  // ---- The game: the fixture's, played over the players' own sockets ----
  const gameId = await playArchivedGame(white.page, black.page, tokens);
  const total = tokens.length;

  // ---- The replay: no analysis yet, a button asks for one ----
  const page = white.page;
  await page.goto(`/#/replay/${gameId}`);
  await expect(page.getByTestId("replay-position")).toHaveText(`Action 0 of ${total}`);
  const request = page.getByTestId("analysis-request");
  await expect(request).toHaveText("Request computer analysis");
  await expect(page.getByTestId("analysis-graph")).toHaveCount(0);
  await screenshot(page, "replay-analysis-request-1366x768");

  // Whatever the panel says on the way is recorded: at 2,000 nodes the job may be done
  // before a screenshot could catch it.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __progress: string[] }).__progress = seen;
    new MutationObserver(() => {
      const p = document.querySelector('[data-testid="analysis-progress"]');
      if (p && seen[seen.length - 1] !== p.textContent) seen.push(p.textContent ?? "");
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await request.click();
  const graph = page.getByTestId("analysis-graph");
  await expect(graph).toBeVisible({ timeout: 60_000 });
  const progress = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
  expect(progress.length, "the progress was shown").toBeGreaterThan(0);
  for (const text of progress) expect(text).toMatch(/^(Waiting for the engine…|Analysing… \d+\/\d+)$/);
  await expect(page.getByTestId("analysis-progress")).toHaveCount(0);

  // What the server says, to compare with what is drawn.
  const analysis = (await (await page.request.get(`/api/archive/${gameId}/analysis`)).json()) as Analysis;
  expect(analysis.state).toBe("done");
  const judged = analysis.result.actions;
  expect(judged).toHaveLength(total);
  const marked = judged.map((a, i) => ({ ...a, ply: i + 1 })).filter((a) => a.mark);
  expect(marked.length, "a game of this level has marked actions").toBeGreaterThan(0);

  // The graph: a dot per marked action, in its colour.
  for (const mark of ["inaccuracy", "mistake", "blunder"]) {
    await expect(graph.locator(`circle.eval-dot[data-mark="${mark}"]`)).toHaveCount(marked.filter((a) => a.mark === mark).length);
  }
  // The move list: the symbols after the marked actions, the better action under them.
  const list = page.getByTestId("replay-moves");
  await expect(list.getByTestId("move-mark")).toHaveCount(marked.length);
  const symbols = { inaccuracy: "?!", mistake: "?", blunder: "??" } as Record<string, string>;
  const first = marked[0];
  await expect(list.locator(`.act[data-ply="${first.ply}"] + [data-testid="move-mark"]`)).toHaveText(symbols[first.mark!]);
  const withBetter = marked.filter((a) => a.best && a.best !== a.action);
  await expect(list.getByTestId("move-better")).toHaveCount(withBetter.length);
  // The summary, as the server counted.
  const summary = page.getByTestId("analysis-summary");
  for (const [row, key] of [["summary-inaccuracies", "inaccuracies"], ["summary-mistakes", "mistakes"], ["summary-blunders", "blunders"]] as const) {
    await expect(summary.getByTestId(row).locator("td[data-color]")).toHaveText([String(analysis.result.summary.white[key]), String(analysis.result.summary.black[key])]);
  }
  await expect(summary.locator('thead th[data-color="white"]')).toHaveAttribute("title", await myName(page));
  await expect(summary.getByTestId("summary-accuracy").locator("td[data-color]")).toHaveText([/^\d+\s?%$/, /^\d+\s?%$/]);
  await expect(page.getByTestId("analysis-engine")).toHaveText(/^yinsh-engine .+, 2,000 nodes a position$/);
  // At the start: the bar says the start's evaluation; the engine's first choice is a placement.
  await expect(page.getByTestId("eval-text")).toHaveText(/^([+-]\d+\.\d\d|0\.00)$/);
  await expect(boardOf(page).locator('[data-hint="place"]')).toHaveAttribute("data-at", judged[0].best!);

  // ---- A click on the graph picks a frame: one where the engine would move a ring ----
  const ply = judged.findIndex((a, i) => i >= 20 && /^[a-k]\d+-[a-k]\d+$/.test(a.best ?? ""));
  expect(ply, "a ring move the engine chose").toBeGreaterThan(0);
  const box = (await graph.boundingBox())!;
  await graph.click({ position: { x: (ply / total) * box.width, y: box.height / 2 } });
  await expect(page.getByTestId("replay-position")).toHaveText(`Action ${ply} of ${total}`);
  await expect(page).toHaveURL(new RegExp(`#/replay/${gameId}\\?ply=${ply}$`));
  await expect(graph).toHaveAttribute("data-ply", String(ply));
  await expect(page.getByTestId("eval-bar")).toHaveAttribute("data-ply", String(ply));
  const [from, to] = judged[ply].best!.split("-");
  const arrow = boardOf(page).locator('[data-hint="arrow"]');
  await expect(arrow).toHaveCount(1);
  await expect(arrow).toHaveAttribute("data-from", from);
  await expect(arrow).toHaveAttribute("data-to", to);
  await expect(page.getByTestId("analysis-line")).toContainText(`Engine: ${judged[ply].best}`);

  // ---- "Better: …" shows the position before the marked action, its better action drawn ----
  const blunder = withBetter.find((a) => /^[a-k]\d+-[a-k]\d+$/.test(a.best!)) ?? withBetter[0];
  await list.locator(`[data-testid="move-better"][data-ply="${blunder.ply - 1}"]`).click();
  await expect(page.getByTestId("replay-position")).toHaveText(`Action ${blunder.ply - 1} of ${total}`);
  await expect(boardOf(page).locator("[data-hint]")).toHaveCount(1);
  // Then the marked action itself: its verdict under who acts.
  await page.getByTestId("replay-forward").click();
  await expect(page.getByTestId("analysis-verdict")).toContainText(`${blunder.action}${symbols[blunder.mark!]}`);
  await expect(page.getByTestId("analysis-verdict")).toContainText(`Better: ${blunder.best}`);

  // Bar, board and graph on the screen together, nothing sideways.
  await page.evaluate(() => window.scrollTo(0, 0));
  const view = page.viewportSize()!;
  for (const [what, locator] of [["the bar", page.getByTestId("eval-bar")], ["the board", boardOf(page)], ["the graph", graph]] as const) {
    const b = (await locator.boundingBox())!;
    expect(b.y + b.height, `${what} within the screen`).toBeLessThanOrEqual(view.height + 0.5);
  }
  await expectNoSidewaysScroll(page, "the replay with its analysis");
  await screenshot(page, "replay-analysis-1366x768");
  // The end of the game: the score in the bar, no suggestion on the board.
  await page.getByTestId("replay-end").click();
  await expect(page.getByTestId("eval-text")).toHaveText("0-1");
  await expect(boardOf(page).locator("[data-hint]")).toHaveCount(0);
  // A smaller screen, where the details and the summary go under the board and the moves.
  await page.setViewportSize({ width: 1024, height: 768 });
  await expectNoSidewaysScroll(page, "the replay with its analysis at 1024×768");
  await screenshot(page, "replay-analysis-1024x768", true);
  await page.setViewportSize({ width: 1366, height: 768 });
  // The summary in the other languages: every name of a mark within its cell.
  for (const lang of ["nl", "pl", "de"]) {
    await page.getByTestId("language").selectOption(lang);
    await expect(page.getByTestId("analysis-engine")).toHaveText(/knopen|węzłów|Knoten/);
    await expect(page.getByTestId("analysis-engine")).not.toHaveText(/nodes a position/);
    const overflowing = await page.getByTestId("analysis-summary").evaluate((table) =>
      [...table.querySelectorAll("tbody th, tbody td")].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
    );
    expect(overflowing, `the summary in ${lang}`).toEqual([]);
    await page.getByTestId("analysis").screenshot({ path: `test-results/screenshots/replay-analysis-summary-${lang}.png` });
  }

  // ---- A phone. Its first look finds the job still running (answered in the server's
  // place) and the socket's news of it held back: the progress stays on show; then the
  // news that it is done brings the result. ----
  const phone = await newPlayer(browser, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const context = phone.page.context();
  let hold = true;
  const held: (() => void)[] = [];
  await context.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      if (hold && String(m).includes('"type":"analysis"')) held.push(() => ws.send(m));
      else ws.send(m);
    });
  });
  await context.route(`**/api/archive/${gameId}/analysis`, (route) => route.fulfill({ json: { game: gameId, state: "running", done: 31, total: 82 } }), { times: 1 });
  const phonePage = await context.newPage();
  phonePage.on("pageerror", (e) => phone.errors.push(String(e)));
  await phonePage.goto(`/#/replay/${gameId}?ply=${blunder.ply}`);
  await expect(phonePage.getByTestId("analysis-progress")).toHaveText("Analysing… 31/82");
  await expect(phonePage.locator('[data-testid="analysis-progress"] progress')).toHaveJSProperty("value", 31 / 82);
  await expect.poll(() => held.length, { message: "the server's news of the job" }).toBeGreaterThan(0);
  await screenshot(phonePage, "replay-analysis-progress-390x844");
  hold = false;
  for (const send of held) send();
  const phoneGraph = phonePage.getByTestId("analysis-graph");
  await expect(phoneGraph).toBeVisible();
  await expect(phonePage.getByTestId("analysis-progress")).toHaveCount(0);
  const boardBox = (await boardOf(phonePage).boundingBox())!;
  const graphBox = (await phoneGraph.boundingBox())!;
  expect(graphBox.y, "the graph under the board").toBeGreaterThanOrEqual(boardBox.y + boardBox.height - 1);
  expect(graphBox.width, "the graph as wide as the board").toBeGreaterThan(boardBox.width - 2);
  await phoneGraph.tap({ position: { x: graphBox.width / 2, y: graphBox.height / 2 } });
  const middle = Math.round(total / 2);
  await expect(phonePage.getByTestId("replay-position")).toHaveText(new RegExp(`^Action (${middle - 1}|${middle}|${middle + 1}) of ${total}$`));
  await expectNoSidewaysScroll(phonePage, "the replay with its analysis on a phone");
  await phonePage.evaluate(() => window.scrollTo(0, 0));
  await screenshot(phonePage, "replay-analysis-390x844");
  await screenshot(phonePage, "replay-analysis-390x844-full", true);
  // In German.
  await phonePage.getByTestId("language").selectOption("de");
  await expect(phonePage.getByTestId("analysis")).toContainText("Computeranalyse");
  await expect(phonePage.getByTestId("summary-accuracy")).toContainText("Genauigkeit");
  await expectNoSidewaysScroll(phonePage, "the replay with its analysis on a phone, in German");
  await screenshot(phonePage, "replay-analysis-390x844-de-full", true);

  // A job the workers gave up on says so.
  await context.route(`**/api/archive/${gameId}/analysis`, (route) => route.fulfill({ json: { game: gameId, state: "failed", done: 0, total: 82 } }), { times: 1 });
  await phonePage.getByTestId("language").selectOption("en");
  await expect(phonePage.getByTestId("analysis-failed")).toHaveText("The computer analysis failed.");
  await expect(phonePage.getByTestId("analysis-graph")).toHaveCount(0);

  // An analysis an older engine made (answered in the server's place, as before the
  // server's settings changed): a button asks for it anew, and the server's own, current
  // one comes.
  const current = (await (await phonePage.request.get(`/api/archive/${gameId}/analysis`)).json()) as Analysis;
  const older = { ...current, result: { ...current.result, settings: "depth 6", outdated: true } };
  await context.route(`**/api/archive/${gameId}/analysis`, (route) => route.fulfill({ json: older }), { times: 1 });
  await phonePage.getByTestId("language").selectOption("nl");
  await expect(phonePage.getByTestId("analysis-engine")).toHaveText(/, diepte 6$/);
  await expect(phonePage.getByTestId("analysis-outdated")).toContainText("Een oudere versie van de engine maakte deze analyse.");
  await expect(phonePage.getByTestId("analysis-graph")).toBeVisible();
  await expectNoSidewaysScroll(phonePage, "an outdated analysis on a phone");
  await phonePage.getByTestId("analysis-outdated").scrollIntoViewIfNeeded();
  await screenshot(phonePage, "replay-analysis-outdated-390x844");
  await phonePage.getByTestId("analysis-again").click();
  await expect(phonePage.getByTestId("analysis-outdated")).toHaveCount(0);
  await expect(phonePage.getByTestId("analysis-engine")).toHaveText(/, 2\.000 knopen per stelling$/);
  await expect(phonePage.getByTestId("analysis-graph")).toBeVisible();

  expectNoPageErrors(white, black, phone);
  await Promise.all([white.close(), black.close(), phone.close()]);
});
