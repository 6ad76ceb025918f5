import { describe, expect, it, vi } from "vitest";

vi.mock("../../i18n", () => ({ t: (key: string) => key }));

import type { BoardPosition } from "../../protocol";
import { importable } from "./import-panel";
import { typedPosition } from "./share-panel";
import { gameOfRecord, playerNames } from "./words";

describe("a game brought onto the board", () => {
  it("keeps an imported record's players, date and result; `?` and an unknown date are nobody and nothing", () => {
    const result = { winner: "white", score: "1-0", termination: "target reached" } as BoardPosition["result"];
    expect(gameOfRecord({ white: "Ann", black: "?", date: "????.??.??", result })).toEqual({
      people: { white: "Ann", black: null },
      date: null,
      result,
      archived: null,
    });
    expect(gameOfRecord({ white: "", black: "Bob", date: "2026.03.21" }).date).toBe("2026.03.21");
  });

  it("names the players by their colours where the game gives no names", () => {
    expect(playerNames({ white: "Ann", black: null })).toEqual({ white: "Ann", black: "color.black" });
  });

  it("sends a pasted record, or a typed position, only when there is one", () => {
    expect(importable("  \n ")).toBe(false);
    expect(importable("[White \"Ann\"]")).toBe(true);
    expect(typedPosition("  ")).toBeNull();
    expect(typedPosition(" 4/7 w place ")).toBe("4/7 w place");
  });
});
