import { describe, expect, it, vi } from "vitest";

// The page's modules touch `document` when loaded; only pure functions are tested here,
// and `t` returns the key and its arguments.
vi.mock("../../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
  engineName: (level: number) => `engine ${level}`,
}));
vi.mock("../../board/view", () => ({ BoardView: class {} }));

import type { GameView, ServerMessage, TableView } from "../../protocol";
import { TAKEBACK_LIMIT, applyEvent, applyLegal, describeEvent, gameButtons, gameRunning, optionChanges, promptKey, replyIsLogged, seatName, seatOf, tabTitle, turnLineText } from "./state";

type EventMessage = Extract<ServerMessage, { type: "event" }>;

function game(over: Partial<GameView> = {}): GameView {
  return {
    id: 7,
    position: "",
    board: { rings: { white: ["e5"], black: [] }, markers: { white: [], black: [] } },
    to_move: "black",
    stage: "place",
    pool: 51,
    removed: { white: 0, black: 0 },
    targets: { white: 3, black: 3 },
    ring_moves: 0,
    legal: ["a1"],
    moves: ["e5"],
    clocks: { white_ms: 300_000, black_ms: 300_000, running: "black", increment: 0 },
    takebacks: { white: 0, black: 0 },
    abortable: true,
    paused: false,
    ...over,
  };
}

function table(g?: GameView): TableView {
  return {
    id: "t1",
    epoch: 1,
    version: 5,
    options: { variant: "standard", log: true },
    seats: { white: { id: 1, name: "ann", online: true }, black: { id: 2, name: "bob", online: true } },
    spectator_count: 0,
    spectators: [],
    chat: [],
    game: g,
  };
}

const event = (e: EventMessage["event"], more: Partial<EventMessage> = {}): EventMessage => ({
  type: "event",
  table: "t1",
  version: 6,
  event: e,
  ...more,
});

const names = (c: string) => (c === "white" ? "ann" : "bob");

describe("the buttons of a running game", () => {
  it("are none without a seat, a game, or once it is over", () => {
    expect(gameButtons(game(), null)).toBeNull();
    expect(gameButtons(undefined, "white")).toBeNull();
    expect(gameButtons(game({ result: { winner: "white", score: "1-0", termination: "resignation" } }), "white")).toBeNull();
  });

  it("offer abort while the game is abortable, to both players", () => {
    expect(gameButtons(game(), "white")?.abort).toBe(true);
    expect(gameButtons(game(), "black")?.abort).toBe(true);
    expect(gameButtons(game({ abortable: false }), "white")?.abort).toBe(false);
  });

  it("offer berserk in a tournament game, before one's first action, once", () => {
    const clocks = (berserk?: { white: boolean; black: boolean }) => ({ white_ms: 180_000, black_ms: 180_000, increment: 2, berserk });
    expect(gameButtons(game({ clocks: clocks() }), "black", false)?.berserk).toBe(false);
    expect(gameButtons(game({ clocks: clocks({ white: false, black: false }) }), "black", false)?.berserk).toBe(true);
    expect(gameButtons(game({ clocks: clocks({ white: false, black: false }) }), "white", true)?.berserk).toBe(false);
    expect(gameButtons(game({ clocks: clocks({ white: false, black: true }) }), "black", false)?.berserk).toBe(false);
  });

  it("offer a claim only to the player who may claim", () => {
    expect(gameButtons(game(), "white")?.claim).toBe(false);
    expect(gameButtons(game({ claimable: "white" }), "white")?.claim).toBe(true);
    expect(gameButtons(game({ claimable: "white" }), "black")?.claim).toBe(false);
  });

  it("answer only the opponent's offer", () => {
    expect(gameButtons(game({ draw_offer: "black" }), "white")?.answer).toBe("draw");
    expect(gameButtons(game({ draw_offer: "black" }), "black")?.answer).toBeNull();
    expect(gameButtons(game({ takeback_request: "white" }), "black")?.answer).toBe("takeback");
  });

  it("count the takebacks left of each player", () => {
    const g = game({ takebacks: { white: 1, black: TAKEBACK_LIMIT } });
    expect(gameButtons(g, "white")?.takebacksLeft).toBe(TAKEBACK_LIMIT - 1);
    expect(gameButtons(g, "black")?.takebacksLeft).toBe(0);
  });
});

describe("events", () => {
  it("an abort clears the game: the table waits again", () => {
    const view = table(game());
    applyEvent(view, event({ kind: "aborted", by: "white" }));
    expect(view.game).toBeUndefined();
    expect(view.version).toBe(6);
    expect(gameButtons(view.game, "white")).toBeNull();
    // Clocks that come after it have no game to go to.
    applyEvent(view, event({ kind: "presence", color: "black", online: false }, { clocks: { white_ms: 1, black_ms: 1, increment: 0 } }));
    expect(view.game).toBeUndefined();
    expect(view.seats.black?.online).toBe(false);
  });

  it("an action is applied to the game held: the position read, the action appended, the legal actions gone", () => {
    const view = table(game({ position: "4/7/8/9/4W5/9/10/9/8/7/4 b place 0-0 3-3 0", legal: ["a1"] }));
    const position = "4/7/8/9/4W5/9/10/9/8/7/B3 w place 0-0 3-3 0";
    applyEvent(view, event({ kind: "acted", color: "black", action: "k7", ply: 2, position, abortable: true }, { clocks: { white_ms: 299_000, black_ms: 298_000, running: "white", increment: 0 } }));
    const g = view.game!;
    expect(g.moves).toEqual(["e5", "k7"]);
    expect(g.position).toBe(position);
    expect(g.board.rings).toEqual({ white: ["e5"], black: ["k7"] });
    expect([g.to_move, g.stage, g.pool, g.ring_moves, g.abortable]).toEqual(["white", "place", 51, 0, true]);
    expect(g.legal).toEqual([]);
    expect(g.clocks?.white_ms).toBe(299_000);
    // The same action again (a game view sent in the same moment held it): not twice.
    applyEvent(view, event({ kind: "acted", color: "black", action: "k7", ply: 2, position }, { version: 7 }));
    expect(view.game!.moves).toEqual(["e5", "k7"]);
    expect(view.game!.abortable).toBe(false);
    // The legal actions of this version are taken, older ones not.
    expect(applyLegal(view, { type: "legal", table: "t1", version: 6, actions: ["old"] })).toBe(false);
    expect(applyLegal(view, { type: "legal", table: "t1", version: 7, actions: ["a2", "b2"] })).toBe(true);
    expect(view.game!.legal).toEqual(["a2", "b2"]);
  });

  it("the game sent with an event replaces the one held", () => {
    const view = table(game());
    const paused = game({ paused: true, clocks: { white_ms: 290_000, black_ms: 280_000, increment: 0 } });
    applyEvent(view, event({ kind: "interrupted" }, { game: paused }));
    expect(view.game?.paused).toBe(true);
    expect(view.game?.clocks?.running).toBeUndefined();
    applyEvent(view, event({ kind: "claimable", by: "black" }, { game: game({ claimable: "black" }) }));
    expect(gameButtons(view.game, "black")?.claim).toBe(true);
  });

  it("have their log lines", () => {
    expect(describeEvent({ kind: "aborted", by: "black" }, names)).toBe("event.aborted(player=bob)");
    expect(describeEvent({ kind: "aborted" }, names)).toBe("event.abortedByServer");
    expect(describeEvent({ kind: "claimable", by: "white" }, names)).toBe("event.claimable(player=ann)");
    expect(describeEvent({ kind: "interrupted" }, names)).toBe("event.interrupted");
    expect(describeEvent({ kind: "resumed" }, names)).toBe("event.resumed");
    expect(describeEvent({ kind: "vacation", color: "black", hours: 1, left: 239 }, names)).toBe(
      "event.vacation(player=bob,hours=1,left=clock.daysHours(days=9,hours=23))",
    );
    expect(describeEvent({ kind: "vacation", color: "white", hours: 2, left: 5 }, names)).toBe("event.vacation(player=ann,hours=2,left=clock.hoursOnly(hours=5))");
    expect(describeEvent({ kind: "declined", by: "white" }, names)).toBe("event.declined(player=ann)");
    expect(describeEvent({ kind: "acted", color: "white", action: "e5", ply: 1, position: "" }, names)).toBeNull();
  });
});

describe("the game page's words", () => {
  it("log a command's reply only when no event tells the same", () => {
    for (const key of ["started", "option_set", "joined", "left", "bot_seated", "resigned", "draw_offered", "takeback_requested", "accepted", "declined", "played", "aborted", "chat_sent"]) {
      expect(replyIsLogged(key), key).toBe(false);
    }
    for (const key of ["who", "help", "result_held", "something_new"]) expect(replyIsLogged(key), key).toBe(true);
  });

  it("title the tab with the player's turn and the opponent's last turn, else the table", () => {
    expect(tabTitle({ id: "t1", mine: true, last: "c6-d6;xc2-c6xd6", white: "ann", black: "bob" })).toBe("game.yourTurn — c6-d6;xc2-c6xd6 · YINSH");
    expect(tabTitle({ id: "t1", mine: true, last: null, white: "ann", black: "bob" })).toBe("game.yourTurn · YINSH");
    expect(tabTitle({ id: "t1", mine: false, last: "e5", white: "ann", black: "bob" })).toBe("ann – bob · table.title(id=t1) · YINSH");
    expect(tabTitle({ id: "t1", mine: false, last: null, white: "ann", black: null })).toBe("table.title(id=t1) · YINSH");
  });

  it("prompt a row removal by the number of rows offered", () => {
    expect(promptKey("remove_row", ["xc3-c7"])).toBe("game.promptOneRow");
    expect(promptKey("remove_row", ["xc3-c7", "xc4-c8"])).toBe("turn.you.remove_row");
    expect(promptKey("move", ["pass"])).toBe("turn.you.pass");
    expect(promptKey("place", ["e5"])).toBe("turn.you.place");
  });

  it("hide Offer draw and Take back while an offer waits, and Take back before one's first action", () => {
    expect(gameButtons(game(), "white")).toMatchObject({ draw: true, takeback: true, waiting: null });
    expect(gameButtons(game(), "black", false)).toMatchObject({ draw: true, takeback: false });
    expect(gameButtons(game({ draw_offer: "black" }), "white")).toMatchObject({ draw: false, takeback: false, answer: "draw", waiting: null });
    expect(gameButtons(game({ draw_offer: "white" }), "white")).toMatchObject({ draw: false, takeback: false, answer: null, waiting: "draw" });
    expect(gameButtons(game({ takeback_request: "white" }), "white")).toMatchObject({ waiting: "takeback", draw: false });
  });
});

describe("optionChanges", () => {
  const casual = { variant: "standard" as const, log: true, time: { minutes: 3, increment: 0 } };

  it("changes nothing for the same options", () => {
    expect(optionChanges(casual, { ...casual })).toEqual([]);
  });

  it("asks for the engine at full strength and back", () => {
    expect(optionChanges(casual, { ...casual, engine_full: true })).toEqual([{ option: "engine", full: true }]);
    expect(optionChanges({ ...casual, engine_full: true }, { ...casual })).toEqual([{ option: "engine", full: false }]);
  });

  it("makes a game rated last, after what a rated game needs", () => {
    const old = { ...casual, log: false, turn_limit: 40, handicap: { white: 2, black: 3 } };
    expect(optionChanges(old, { ...casual, rated: true })).toEqual([
      { option: "variant", variant: "standard" }, // the same variant clears the handicap
      { option: "turns", limit: undefined },
      { option: "log", on: true },
      { option: "rated", on: true },
    ]);
  });

  it("makes a game casual first, before what a rated game forbids", () => {
    expect(optionChanges({ ...casual, rated: true }, { ...casual, time: undefined, turn_limit: 20 })).toEqual([
      { option: "rated", on: false },
      { option: "time", time: undefined },
      { option: "turns", limit: 20 },
    ]);
  });

  it("switches between a clock and days per turn in one change, a rated game too", () => {
    const rated = { ...casual, rated: true };
    const days = { variant: "standard" as const, log: true, rated: true, correspondence: { days: 3 } };
    expect(optionChanges(rated, days)).toEqual([{ option: "correspondence", correspondence: { days: 3 } }]);
    expect(optionChanges(days, rated)).toEqual([{ option: "time", time: { minutes: 3, increment: 0 } }]);
    expect(optionChanges({ ...days, rated: false }, { variant: "standard", log: true })).toEqual([{ option: "correspondence", correspondence: undefined }]);
  });

  it("sets a handicap after the variant, which would clear it", () => {
    expect(optionChanges(casual, { ...casual, variant: "blitz", handicap: { white: 1, black: 2 } })).toEqual([
      { option: "variant", variant: "blitz" },
      { option: "handicap", white: 1, black: 2 },
    ]);
  });
});

describe("the options event", () => {
  it("says when the game is rated, and nothing for a casual one", () => {
    const names = () => "x";
    expect(describeEvent({ kind: "options", by: "Ann", options: { variant: "standard", log: true, rated: true } }, names)).toContain("rating.rated");
    expect(describeEvent({ kind: "options", by: "Ann", options: { variant: "standard", log: true } }, names)).not.toContain("rating.");
  });
});

describe("the seats", () => {
  it("name a player, the engine by its level, and a free seat by its colour", () => {
    const view = table();
    view.seats.black = { name: "Engine", bot: 4, online: true };
    expect(seatName(view, "white")).toBe("ann");
    expect(seatName(view, "black")).toBe("engine 4");
    view.seats.white = null;
    expect(seatName(view, "white")).toBe("color.white");
    expect(seatName(null, "black")).toBe("color.black");
  });

  it("find the reader's seat by their id", () => {
    expect(seatOf(table(), { id: 2 })).toBe("black");
    expect(seatOf(table(), { id: 3 })).toBeNull();
    expect(seatOf(table(), null)).toBeNull();
    expect(seatOf(null, { id: 1 })).toBeNull();
  });

  it("say whether a game runs: begun and not over", () => {
    expect(gameRunning(table())).toBe(false);
    expect(gameRunning(table(game()))).toBe(true);
    expect(gameRunning(table(game({ result: { winner: "white", score: "1-0", termination: "resignation" } })))).toBe(false);
  });
});

describe("the status line", () => {
  it("prompts the player to act, says who acts to the others, and nothing once over", () => {
    expect(turnLineText(game(), true, names)).toBe("turn.you.place");
    expect(turnLineText(game(), false, names)).toBe("turn.other.place(player=bob)");
    expect(turnLineText(game({ stage: "over" }), false, names)).toBe("");
  });
});
