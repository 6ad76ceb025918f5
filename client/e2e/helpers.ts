// Shared helpers of the browser tests: players in their own browser contexts, the
// board's pieces as the page draws them, and the mouse and touch gestures on it.

import { expect, type Browser, type BrowserContextOptions, type Locator, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { execFileSync } from "node:child_process";

export type Color = "white" | "black";

/** A board as the server sends it (`game.board`, an archive frame). */
export interface BoardJson {
  rings: Record<Color, string[]>;
  markers: Record<Color, string[]>;
}

/** One guest: a browser context of its own (its own session cookie), on the lobby. */
export interface Player {
  page: Page;
  /** Uncaught errors of the page's scripts; checked by `expectNoPageErrors`. */
  errors: string[];
  close(): Promise<void>;
}

/** Opens a new guest on the lobby and waits until its connection is up. */
export async function newPlayer(browser: Browser, options: BrowserContextOptions = {}): Promise<Player> {
  // Tall enough for the whole board beside the side panel (a drag needs both ends on screen).
  const context = await browser.newContext({ locale: "en-GB", viewport: { width: 1280, height: 1000 }, ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/");
  await waitOnline(page);
  return { page, errors, close: () => context.close() };
}

export async function waitOnline(page: Page): Promise<void> {
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "open");
}

/** The guest name the header shows (`You are <name>`). */
export async function myName(page: Page): Promise<string> {
  await expect(page.getByTestId("me")).toHaveText(/^You are \S+$/);
  return (await page.getByTestId("me").textContent())!.replace(/^You are /, "");
}

/** Takes a seat with its button at the table page; waits until the server seated us. */
export async function sitDown(page: Page, color: Color): Promise<string> {
  const name = await myName(page);
  await page.getByTestId(`join-${color}`).click();
  await expect(page.getByTestId(`seat-${color}-name`)).toHaveText(name);
  return name;
}

/** Two guests at a new table (white created it), both seated; the game not started. */
export async function seatedPair(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ white: Player; black: Player; whiteName: string }> {
  const white = await newPlayer(browser, options);
  const black = await newPlayer(browser, options);
  await white.page.getByTestId("create-table").click();
  const table = await tableIdOf(white.page);
  const whiteName = await sitDown(white.page, "white");
  await black.page.goto(`/#/table/${table}`);
  await sitDown(black.page, "black");
  await expect(white.page.getByTestId("start")).toBeVisible();
  return { white, black, whiteName };
}

export function expectNoPageErrors(...players: Player[]): void {
  for (const p of players) expect(p.errors, "uncaught errors in the page").toEqual([]);
}

/** The table id in the address (`#/table/<id>`). */
export async function tableIdOf(page: Page): Promise<string> {
  await expect(page).toHaveURL(/#\/table\/[^/?]+$/);
  return decodeURIComponent(new URL(page.url()).hash.replace(/^#\/table\//, ""));
}

/** The board of the page (there is one on a table page and on a replay page). */
export function boardOf(page: Page): Locator {
  return page.locator("svg.yinsh-board");
}

/** The hit area of a point: what the mouse clicks and the finger taps. */
export function hit(page: Page, point: string): Locator {
  return page.locator(`svg.yinsh-board circle.hit[data-point="${point}"]`);
}

/** Every piece as `kind colour point` (`ring white e5`), sorted: the set a board shows. */
export function piecesOfBoard(board: BoardJson): string[] {
  const out: string[] = [];
  for (const c of ["white", "black"] as const) {
    for (const p of board.rings[c]) out.push(`ring ${c} ${p}`);
    for (const p of board.markers[c]) out.push(`marker ${c} ${p}`);
  }
  return out.sort();
}

/** The pieces a page draws (`[data-piece][data-color][data-at]`), sorted as `piecesOfBoard`. */
export async function piecesOn(page: Page): Promise<string[]> {
  const list = await page
    .locator("svg.yinsh-board [data-piece]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-piece")} ${e.getAttribute("data-color")} ${e.getAttribute("data-at")}`));
  return list.sort();
}

/** Waits until the page draws exactly `expected` (see `piecesOfBoard`). */
export async function expectPieces(page: Page, expected: string[], message?: string): Promise<void> {
  await expect.poll(() => piecesOn(page), { message, intervals: [20, 50, 100, 200] }).toEqual(expected);
}

/** The points whose hit areas have a class (`target`, `candidate`, `selected`). */
export async function pointsWith(page: Page, role: "target" | "candidate" | "selected"): Promise<string[]> {
  return page.locator(`svg.yinsh-board circle.hit.${role}`).evaluateAll((els) => els.map((e) => e.getAttribute("data-point")!));
}

/** The centre of a point's hit area on the screen; it must be in the viewport. */
async function centreOf(page: Page, point: string): Promise<{ x: number; y: number }> {
  const box = await hit(page, point).boundingBox();
  const view = page.viewportSize()!;
  if (!box || box.y < 0 || box.y + box.height > view.height || box.x < 0 || box.x + box.width > view.width) {
    throw new Error(`point ${point} is not within the screen: ${JSON.stringify(box)}`);
  }
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags the ring on `from` to `to` with the mouse: press, move in steps, release. */
export async function dragRing(page: Page, from: string, to: string): Promise<void> {
  // Both ends on the screen before either is measured (scrolling moves the other).
  await hit(page, from).scrollIntoViewIfNeeded();
  await hit(page, to).scrollIntoViewIfNeeded();
  const a = await centreOf(page, from);
  const b = await centreOf(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  // While dragged, the ring is drawn above the others, following the pointer.
  await expect(page.locator(`svg.yinsh-board .drag [data-piece="ring"][data-at="${from}"]`)).toHaveCount(1);
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** Waits until the page's board takes input for this stage (the player's turn). */
export async function expectMyTurn(page: Page, stage: string): Promise<void> {
  const board = boardOf(page);
  await expect(board).toHaveAttribute("data-stage", stage);
  await expect(board).toHaveAttribute("data-interactive", "true");
}

/** The points of a row `xa-b`, from end to end (a straight line on the board). */
export function rowPoints(token: string): string[] {
  const m = /^x([a-k])(\d+)-([a-k])(\d+)$/.exec(token);
  if (!m) throw new Error(`not a row: ${token}`);
  const [c1, r1, c2, r2] = [m[1].charCodeAt(0), Number(m[2]), m[3].charCodeAt(0), Number(m[4])];
  const n = Math.max(Math.abs(c2 - c1), Math.abs(r2 - r1));
  const [dc, dr] = [Math.sign(c2 - c1), Math.sign(r2 - r1)];
  return Array.from({ length: n + 1 }, (_, i) => `${String.fromCharCode(c1 + i * dc)}${r1 + i * dr}`);
}

/**
 * How many lines the page's header takes: its children, by the vertical room each
 * takes, grouped into lines where they overlap (a taller button beside a word is one
 * line, not two).
 */
export async function headerLines(page: Page): Promise<number> {
  return page.locator("header.top").evaluate((header) => {
    const lines: { top: number; bottom: number }[] = [];
    const boxes = [...header.children].map((el) => el.getBoundingClientRect()).filter((b) => b.width > 0 && b.height > 0);
    for (const box of boxes.sort((a, b) => a.top - b.top)) {
      const line = lines.find((l) => box.top < l.bottom - 2 && box.bottom > l.top + 2);
      if (line) {
        line.top = Math.min(line.top, box.top);
        line.bottom = Math.max(line.bottom, box.bottom);
      } else lines.push({ top: box.top, bottom: box.bottom });
    }
    return lines.length;
  });
}

/** Expects the page to fit the width of the screen: nothing to scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const width = page.viewportSize()!.width;
  const sizes = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(sizes, `${what} fits the screen`).toEqual({ scrollWidth: sizes.innerWidth, innerWidth: width });
}

const SHOTS = new URL("../test-results/screenshots/", import.meta.url);

/** Writes a screenshot to `test-results/screenshots/<name>.png` (kept after the run). */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage, animations: "disabled" });
}

/** Sends a line through the table's chat box, as typed. */
export async function typeInChat(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("chat-input");
  await input.fill(text);
  await input.press("Enter");
}

/** A new guest who registers an account (`<prefix><digits>`), back on the lobby. */
export async function registered(
  browser: Browser,
  prefix: string,
  options: BrowserContextOptions = {},
): Promise<{ player: Player; name: string }> {
  const player = await newPlayer(browser, { viewport: { width: 1366, height: 768 }, ...options });
  const { page } = player;
  const name = `${prefix}${Date.now() % 1_000_000}`;
  await page.goto("/#/account");
  await page.getByTestId("register-name").fill(name);
  await page.getByTestId("register-password").fill("correct horse");
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("account-name")).toContainText(`Signed in as ${name}`);
  await waitOnline(page);
  await expect(page.getByTestId("me")).toHaveText(`You are ${name}`);
  await page.goto("/");
  return { player, name };
}

/** Resigns with the two clicks the button asks for. */
export async function resign(page: Page): Promise<void> {
  const button = page.getByTestId("resign");
  await button.click();
  await expect(button).toHaveClass(/\bconfirm\b/);
  await button.click();
  await expect(page.getByTestId("result")).toContainText(/resignation/);
}

/** The colour the page's player has at the table (by the seat bars' names). */
export async function colorOf(page: Page): Promise<"white" | "black"> {
  const me = await myName(page);
  await expect(page.getByTestId("seat-white-name")).not.toHaveText("");
  return (await page.getByTestId("seat-white-name").textContent())?.trim() === me ? "white" : "black";
}

/** Both pages at the same table with the game begun; white, then black, place a ring by mouse. */
export async function playFirstRings(a: Page, b: Page): Promise<string> {
  const table = await tableIdOf(a);
  expect(await tableIdOf(b), "both at the same table").toBe(table);
  const [white, black] = (await colorOf(a)) === "white" ? [a, b] : [b, a];
  expect(await colorOf(black)).toBe("black");
  for (const page of [white, black]) {
    await expectMyTurn(page, "place");
    const [point] = await pointsWith(page, "target");
    await hit(page, point).click();
    await expect(page.locator('[data-testid="moves"] .act')).toHaveCount(page === white ? 1 : 2);
  }
  await expect(white.locator('[data-testid="moves"] .act')).toHaveCount(2);
  return table;
}

/**
 * Opens a WebSocket of the page's player (its cookie) beside the page's own, as
 * `window.__yc`: `request` sends one request and waits for its answer, `wait` for a
 * message (kept from the moment the socket opened).
 */
export async function openClient(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?lang=en`);
    type Msg = Record<string, unknown> & { id?: number; type: string };
    const messages: Msg[] = [];
    const waiters: { test: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data)) as Msg;
      const waiter = waiters.find((w) => w.test(msg));
      if (waiter) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(msg);
      } else {
        messages.push(msg);
      }
    };
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    let id = 1_000_000;
    const client = {
      wait(test: (m: Msg) => boolean): Promise<Msg> {
        const found = messages.find(test);
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return Promise.resolve(found);
        }
        return new Promise((resolve) => waiters.push({ test, resolve }));
      },
      async request(req: Record<string, unknown>): Promise<Msg> {
        await new Promise((r) => setTimeout(r, 60)); // the server takes 20 messages a second
        const mine = id++;
        ws.send(JSON.stringify({ id: mine, ...req }));
        const answer = await client.wait((m) => m.id === mine);
        if (answer.type === "error") throw new Error(`${JSON.stringify(req)}: ${String(answer.text)}`);
        return answer;
      },
    };
    (window as unknown as { __yc: typeof client }).__yc = client;
  });
}

export type Client = {
  request(req: Record<string, unknown>): Promise<{ table?: string }>;
  wait(test: (m: { type: string; table?: string; event?: { kind: string; ply?: number }; game?: { id: number } }) => boolean): Promise<{
    type: string;
    event?: { kind: string; ply?: number };
    game?: { id: number };
  }>;
};

/**
 * Plays the page's player's actions of `tokens` at `table` (whenever it is given legal
 * actions, it is to act) until the game is over; gives the game's archive id.
 */
export function playColour(page: Page, table: string, tokens: readonly string[]): Promise<number> {
  return page.evaluate(
    async ({ table, tokens }) => {
      const c = (window as unknown as { __yc: Client }).__yc;
      // The actions played so far (from the `acted` events), and the last one we sent.
      let played = 0;
      let acted = -1;
      for (;;) {
        const m = await c.wait((m) => m.table === table && (m.type === "legal" || (m.type === "event" && (m.event?.kind === "acted" || m.event?.kind === "game_over"))));
        if (m.type === "event" && m.event?.kind === "game_over") return m.game!.id;
        if (m.type === "event") {
          played = m.event!.ply!;
          continue;
        }
        // `legal` comes only to the player to act.
        if (played > acted && played < tokens.length) {
          acted = played;
          await c.request({ type: "act", table, action: tokens[played], ply: played });
        }
      }
    },
    { table, tokens: [...tokens] },
  );
}

/**
 * Two pages' players play `tokens` (a whole game) at a new table over sockets of their
 * own (one `act` each: what is tested is what comes after); gives the game's archive id.
 */
export async function playArchivedGame(white: Page, black: Page, tokens: readonly string[]): Promise<number> {
  await openClient(white);
  await openClient(black);
  const table = await white.evaluate(async () => {
    const c = (window as unknown as { __yc: Client }).__yc;
    const created = await c.request({ type: "create_table", options: { variant: "standard", log: true } });
    await c.request({ type: "open", table: created.table });
    await c.request({ type: "command", table: created.table, command: "join", color: "white" });
    return created.table!;
  });
  await black.evaluate(async (table) => {
    const c = (window as unknown as { __yc: Client }).__yc;
    await c.request({ type: "open", table });
    await c.request({ type: "command", table, command: "join", color: "black" });
  }, table);
  await white.evaluate(async (table) => {
    await (window as unknown as { __yc: Client }).__yc.request({ type: "command", table, command: "start" });
  }, table);
  const [id] = await Promise.all([playColour(white, table, tokens), playColour(black, table, tokens)]);
  return id;
}

/** Where Debian's HAProxy is installed, or "" when it is not (the proxy tests skip). */
export function haproxyPath(): string {
  try {
    return execFileSync("sh", ["-c", "command -v haproxy"]).toString().trim();
  } catch {
    return "";
  }
}
