// "Play on from here" in the replay viewer: an archived game (the fixture's, played over
// the players' own sockets) is opened at a frame in the middle; from there one player
// starts a game against the engine, which answers from that very position; the table
// says it began from a position, and its record names the position. Then the same frame
// becomes a table for a friend, with its invitation link; and a later frame a table
// where a whole turn (ring move, row, ring) is played with "Confirm turn".

import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectMyTurn, expectNoPageErrors, expectNoSidewaysScroll, expectPieces, hit, newPlayer, piecesOfBoard, playArchivedGame, resign, rowPoints, screenshot, type BoardJson } from "./helpers";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/opponent-row.json", import.meta.url), "utf8")) as {
  actions: { token: string; color: "white" | "black" }[];
};
const tokens = fixture.actions.map((a) => a.token);

interface Frame {
  position: string;
  board: BoardJson;
  to_move: "white" | "black";
}

test("play on from a replay's frame against the engine, then with a friend", async ({ browser }) => {
  test.setTimeout(180_000);
  const white = await newPlayer(browser, { viewport: { width: 1366, height: 768 } });
  const black = await newPlayer(browser);
  const gameId = await playArchivedGame(white.page, black.page, tokens);
  const page = white.page;
  const archived = (await (await page.request.get(`/api/archive/${gameId}`)).json()) as { frames: Frame[] };
  // A frame of the ring moves, the engine to act first: the player takes the other colour.
  const ply = 24;
  const frame = archived.frames[ply];
  const mine = frame.to_move === "white" ? "black" : "white";

  await page.goto(`/#/replay/${gameId}?ply=${ply}`);
  await expect(page.getByTestId("replay-position")).toHaveText(`Action ${ply} of ${tokens.length}`);
  const panel = page.getByTestId("play-on");
  await panel.getByTestId("play-on-open").click();
  await expect(panel.getByTestId("play-on-note")).toHaveText("A new game from this position (not rated).");
  await panel.getByTestId("play-on-color").selectOption(mine);
  await panel.getByTestId("play-on-level").selectOption("1");
  await screenshot(page, "replay-play-on-1366x768");
  await panel.getByTestId("play-on-engine").click();

  // The table: the frame's pieces, then the engine's answer from there.
  await expect(page).toHaveURL(/#\/table\//);
  await expect(page.getByTestId("table-options")).toContainText("from a position");
  await expect(page.locator('[data-testid="moves"] .act')).toHaveCount(1, { timeout: 30_000 });
  const table = await page.evaluate(() => decodeURIComponent(location.hash.split("/")[2]));
  const start = (await (
    await page.request.post("/api/position", { data: { position: frame.position } })
  ).json()) as { positions: { legal: string[] }[] };
  const moves = await page.locator('[data-testid="moves"] .act').allTextContents();
  expect(start.positions[0].legal, "the engine acted from the frame's position").toContain(moves[0].trim().replace(/^\d+\.\s*/, ""));
  await screenshot(page, "table-from-position-1366x768");
  await resign(page);

  // The archive keeps the start: its record names the position.
  const list = (await (await page.request.get("/api/archive?limit=5")).json()) as { games: { id: number; options: { position?: string } }[] };
  const played = list.games.find((g) => g.options.position === frame.position);
  expect(played, `a game of table ${table} from the frame`).toBeTruthy();
  const record = await (await page.request.get(`/api/archive/${played!.id}/record`)).text();
  expect(record).toContain(`[Position "${frame.position}"]`);

  // ---- The same frame with a friend: a table to share, the player seated ----
  await page.goto(`/#/replay/${gameId}?ply=${ply}`);
  await page.getByTestId("play-on-open").click();
  await page.getByTestId("play-on-color").selectOption("white");
  await page.getByTestId("play-on-friend").click();
  await expect(page).toHaveURL(/#\/table\//);
  await expect(page.getByTestId("invite-link")).toBeVisible();
  await expectPieces(page, piecesOfBoard(frame.board), "the table shows the frame's position");

  // The final frame of a game over on the board offers nothing.
  await page.goto(`/#/replay/${gameId}?ply=${tokens.length}`);
  await page.getByTestId("play-on-open").click();
  await expect(page.getByTestId("play-on-engine")).toBeDisabled();
  await expect(page.getByTestId("play-on-note")).toHaveText("The game is over in this position.");

  // On a phone the panel comes under the moves, and nothing leaves the screen sideways.
  const phone = await newPlayer(browser, { viewport: { width: 390, height: 844 } });
  await phone.page.goto(`/#/replay/${gameId}?ply=${ply}`);
  await phone.page.getByTestId("play-on-open").click();
  await expect(phone.page.getByTestId("play-on-engine")).toBeEnabled();
  await phone.page.getByTestId("play-on").scrollIntoViewIfNeeded();
  await expectNoSidewaysScroll(phone.page, "the replay with its play-on panel");
  await screenshot(phone.page, "replay-play-on-390x844");
  // ---- "Confirm turn" across a whole turn: a ring move, its row and a ring ----
  // Before action 70 White's c1-c2 makes the row c1-g5 (the fixture's next actions are
  // xc1-g5 and xc2). At a table from there, White switches "Confirm turn" on (off in
  // live games): the turn is built on the board, step by step, and sent only when
  // confirmed.
  await page.goto(`/#/replay/${gameId}?ply=70`);
  await page.getByTestId("play-on-open").click();
  await page.getByTestId("play-on-color").selectOption("white");
  await page.getByTestId("play-on-friend").click();
  await expect(page).toHaveURL(/#\/table\//);
  const link = await page.getByTestId("invite-link").inputValue();
  await black.page.goto(link);
  await black.page.getByTestId("join-black").click();
  await page.getByTestId("start").click();
  const toggle = page.getByTestId("confirm-toggle");
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expectMyTurn(page, "move");
  await hit(page, "c1").click();
  await hit(page, "c2").click();
  const note = page.getByTestId("confirm-note");
  await expect(note).toHaveText("Not sent yet: finish the turn, then confirm it.");
  await expect(page.getByTestId("confirm-turn")).toBeDisabled();
  await expectMyTurn(page, "remove_row");
  await hit(page, rowPoints("xc1-g5")[2]).click();
  await expectMyTurn(page, "remove_ring");
  await hit(page, "c2").click();
  await expect(note).toHaveText("Your turn is ready: confirm to send it.");
  const theirMoves = black.page.locator('[data-testid="moves"] .act');
  await expect(theirMoves).toHaveCount(0);
  await screenshot(page, "confirm-turn-row-1366x768");
  await page.getByTestId("confirm-turn").click();
  await expect(theirMoves).toHaveCount(3);
  await expect(page.getByTestId("confirm-bar")).toBeHidden();
  await resign(page);

  expectNoPageErrors(white, black, phone);
});
