import { describe, expect, it, vi } from "vitest";

vi.mock("../../i18n", () => ({ t: (key: string) => key }));

import { notifyState, notifyWanted } from "./toggles";

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
