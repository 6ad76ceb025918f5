import { describe, expect, it, vi } from "vitest";

vi.mock("../../i18n", () => ({ t: (key: string) => key }));

import type { GameView, PlayerView, TableView } from "../../protocol";
import { wantsInvite } from "./options-panel";

const ann = { id: 1, name: "ann", online: true } as PlayerView;
const bob = { id: 2, name: "bob", online: true } as PlayerView;
const table = (seats: TableView["seats"], game?: Partial<GameView>) => ({ id: "t1", seats, game }) as TableView;

describe("the invitation", () => {
  it("shows to a seated player while a seat is free, between games", () => {
    expect(wantsInvite(table({ white: ann, black: null }), "white")).toBe(true);
    expect(wantsInvite(table({ white: ann, black: bob }), "white")).toBe(false);
    expect(wantsInvite(table({ white: ann, black: null }), null)).toBe(false);
  });

  it("does not show while a game runs, and shows again after it", () => {
    expect(wantsInvite(table({ white: ann, black: null }, { id: 7 }), "white")).toBe(false);
    const over = { id: 7, result: { winner: "white", score: "1-0", termination: "resignation" } } as Partial<GameView>;
    expect(wantsInvite(table({ white: ann, black: null }, over), "white")).toBe(true);
  });
});
