import { afterEach, describe, expect, it, vi } from "vitest";

// The page's parts touch `document` when used; only their pure functions are tested here.
// `t` returns the key and its arguments, `tn` the plural key with its count.
vi.mock("../i18n", () => {
  const t = (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key;
  return { t, tn: (base: string, count: number, args: Record<string, string | number> = {}) => t(`${base}.n`, { count, ...args }), lang: () => "en", engineName: () => "engine" };
});
vi.mock("../board/view", () => ({ BoardView: class {} }));

import type { BoardPosition } from "../protocol";
import { engineWanted } from "./analysis-board/engine-panel";
import { MAX_ACTIONS, positionsAlong } from "./analysis-board/server";
import { knownDate, promptText, scoreText } from "./analysis-board/words";
import { positionHash, recordHash, sourceFromHash } from "./board-address";

const EMPTY = "4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0";
const LATER = "bbBB/5Bb/2wwwwwW/9/8Bb/9/W9/8B/W7/W6/3W w row-after 0-0 3-3 9";

describe("the address", () => {
  it("names the empty board, a position or an archived game's action", () => {
    expect(sourceFromHash("#/analysis")).toEqual({ kind: "empty" });
    expect(sourceFromHash("#/analysis?position=")).toEqual({ kind: "empty" });
    expect(sourceFromHash("#/analysis?record=12&ply=30")).toEqual({ kind: "record", id: "12", ply: 30 });
    expect(sourceFromHash("#/analysis?record=12")).toEqual({ kind: "record", id: "12", ply: 0 });
    expect(sourceFromHash("#/analysis?record=12&ply=-3")).toEqual({ kind: "record", id: "12", ply: 0 });
    expect(sourceFromHash("#/analysis?record=12&ply=x")).toEqual({ kind: "record", id: "12", ply: 0 });
  });

  it("writes a position so that reading the address gives it back", () => {
    for (const position of [EMPTY, LATER, "bB1B/6B/2wW4/9/9B/9/W9/8B/W7/W6/3W w move 0-0 2-3 2/40"]) {
      const hash = positionHash(position);
      expect(hash).toMatch(/^#\/analysis\?position=[^ ?#&]+$/);
      expect(sourceFromHash(hash)).toEqual({ kind: "position", position });
    }
    // The column slashes stay readable, spaces are escaped.
    expect(positionHash(EMPTY)).toBe("#/analysis?position=4/7/8/9/10/9/10/9/8/7/4%20w%20place%200-0%203-3%200");
  });

  it("reads a position written with `+` for spaces too (as a form would)", () => {
    expect(sourceFromHash("#/analysis?position=4/7/8/9/10/9/10/9/8/7/4+w+place+0-0+3-3+0")).toEqual({ kind: "position", position: EMPTY });
  });

  it("writes an archived game's action", () => {
    expect(recordHash(7, 0)).toBe("#/analysis?record=7&ply=0");
    expect(sourceFromHash(recordHash("7", 41))).toEqual({ kind: "record", id: "7", ply: 41 });
  });
});

describe("the score", () => {
  it("writes rings for White", () => {
    expect(scoreText({ cp: 35, white_chance: 0.6 })).toBe("+0.35");
    expect(scoreText({ cp: -120, white_chance: 0.3 })).toBe("-1.20");
    expect(scoreText({ cp: 0, white_chance: 0.5 })).toBe("0.00");
  });

  it("says who wins a forced win, in how many actions", () => {
    expect(scoreText({ win: 3, white_chance: 1 })).toBe("board.winsIn.n(count=3,player=color.white)");
    expect(scoreText({ win: -1, white_chance: 0 })).toBe("board.winsIn.n(count=1,player=color.black)");
  });

  it("gives the score of a finished game", () => {
    expect(scoreText({ over: "white", white_chance: 1 })).toBe("1-0");
    expect(scoreText({ over: "draw", white_chance: 0.5 })).toBe("½-½");
  });
});

describe("the prompt", () => {
  const names = { white: "Ann", black: "Bob" };
  const nobody = { white: null, black: null };
  it("names who acts and what they do", () => {
    expect(promptText({ stage: "place", to_move: "white", legal: ["e5", "f6"] }, names)).toBe("turn.other.place(player=Ann)");
    expect(promptText({ stage: "remove_row", to_move: "black", legal: ["xa1-a5"] }, names)).toBe("turn.other.remove_row(player=Bob)");
  });
  it("says the colour when the player has no name", () => {
    expect(promptText({ stage: "move", to_move: "white", legal: ["a2-a3"] }, nobody)).toBe("board.to.move(side=board.side.white)");
    expect(promptText({ stage: "remove_ring", to_move: "black", legal: ["xa2"] }, { white: "Ann", black: null })).toBe("board.to.remove_ring(side=board.side.black)");
  });
  it("says when the only action is a pass", () => {
    expect(promptText({ stage: "move", to_move: "black", legal: ["pass"] }, names)).toBe("board.mustPass(player=Bob)");
    expect(promptText({ stage: "move", to_move: "black", legal: ["pass"] }, nobody)).toBe("board.to.pass(side=board.side.black)");
  });
  it("says nothing once the game is over (the result does)", () => {
    expect(promptText({ stage: "over", to_move: "black", legal: [] }, names)).toBe("");
  });
});

describe("small things", () => {
  it("keeps a date only when some of it is known", () => {
    expect(knownDate("2026.03.21")).toBe("2026.03.21");
    expect(knownDate("2026.??.??")).toBe("2026.??.??");
    expect(knownDate("????.??.??")).toBeNull();
  });

  it("has the engine on unless it was turned off", () => {
    expect(engineWanted({ getItem: () => null })).toBe(true);
    expect(engineWanted({ getItem: () => "on" })).toBe(true);
    expect(engineWanted({ getItem: () => "off" })).toBe(false);
    expect(engineWanted({ getItem: () => { throw new Error("denied"); } })).toBe(true);
    expect(engineWanted(null)).toBe(true);
  });
});

describe("positions along a long line", () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A server that answers each request with one made-up position per action. */
  function fakeServer(requests: { position?: string; actions: string[] }[]) {
    return async (_url: string, init: { body: string }) => {
      const request = JSON.parse(init.body) as { position?: string; actions: string[] };
      requests.push(request);
      const base = Number(request.position ?? "0");
      const positions = [base, ...request.actions.map((_, i) => base + i + 1)].map((n) => ({ position: String(n) }) as BoardPosition);
      return { ok: true, json: async () => ({ positions }) };
    };
  }

  it("asks in pieces the server takes, each from where the last one ended", async () => {
    const requests: { position?: string; actions: string[] }[] = [];
    vi.stubGlobal("fetch", fakeServer(requests));
    const actions = Array.from({ length: MAX_ACTIONS + 5 }, (_, i) => `a${i}`);
    const positions = await positionsAlong(undefined, actions, new AbortController().signal);
    expect(positions.map((p) => p.position)).toEqual(Array.from({ length: actions.length + 1 }, (_, i) => String(i)));
    expect(requests.map((r) => [r.position, r.actions.length])).toEqual([[undefined, MAX_ACTIONS], [String(MAX_ACTIONS), 5]]);
  });

  it("asks once for no actions at all", async () => {
    const requests: { position?: string; actions: string[] }[] = [];
    vi.stubGlobal("fetch", fakeServer(requests));
    expect((await positionsAlong("9", [], new AbortController().signal)).map((p) => p.position)).toEqual(["9"]);
    expect(requests).toEqual([{ position: "9", actions: [] }]);
  });

  it("gives the server's refusal as the error", async () => {
    vi.stubGlobal("fetch", async () => ({ ok: false, status: 422, json: async () => ({ error: "action 1 'e3': illegal action e3: the point is occupied", index: 1 }) }));
    await expect(positionsAlong(undefined, ["e3", "e3"], new AbortController().signal)).rejects.toThrow("the point is occupied");
  });
});
