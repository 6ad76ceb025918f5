import { describe, expect, it, vi } from "vitest";

vi.mock("../../i18n", () => ({ t: (key: string) => key }));

import { confirmWanted, notifyState, notifyWanted } from "./toggles";

describe("the notifications switch", () => {
  it("is off unless switched on in this browser", () => {
    expect(notifyWanted({ getItem: () => "on" })).toBe(true);
    expect(notifyWanted({ getItem: () => "off" })).toBe(false);
    expect(notifyWanted({ getItem: () => null })).toBe(false);
    expect(notifyWanted(null)).toBe(false);
    expect(
      notifyWanted({
        getItem: () => {
          throw new Error("storage refused");
        },
      }),
    ).toBe(false);
  });

  it("shows pressed only when on and allowed, and says why when the browser refuses", () => {
    expect(notifyState(true, "granted")).toEqual({ pressed: true, title: "game.notifyExplain" });
    expect(notifyState(true, "default")).toEqual({ pressed: false, title: "game.notifyExplain" });
    expect(notifyState(false, "granted").pressed).toBe(false);
    expect(notifyState(true, "denied")).toEqual({ pressed: false, title: "game.notifyDenied" });
    expect(notifyState(false, null)).toEqual({ pressed: false, title: "game.notifyExplain" });
  });
});

describe("the confirm turn switch", () => {
  it("is on for correspondence games and off for live ones unless chosen otherwise, for each", () => {
    expect(confirmWanted("correspondence", null)).toBe(true);
    expect(confirmWanted("live", null)).toBe(false);
    const chosen = (stored: Record<string, string>) => ({ getItem: (key: string) => stored[key] ?? null });
    const offByMail = chosen({ "yinsh.confirmTurn.correspondence": "off" });
    expect(confirmWanted("correspondence", offByMail)).toBe(false);
    expect(confirmWanted("live", offByMail)).toBe(false);
    const onLive = chosen({ "yinsh.confirmTurn.live": "on" });
    expect(confirmWanted("live", onLive)).toBe(true);
    expect(confirmWanted("correspondence", onLive)).toBe(true);
    expect(confirmWanted("correspondence", chosen({ "yinsh.confirmTurn.correspondence": "maybe" }))).toBe(true);
    const refusing = {
      getItem: (): string | null => {
        throw new Error("storage refused");
      },
    };
    expect(confirmWanted("correspondence", refusing)).toBe(true);
  });
});
