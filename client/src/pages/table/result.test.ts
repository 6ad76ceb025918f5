import { describe, expect, it, vi } from "vitest";

// `t` returns the key and its arguments.
vi.mock("../../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
}));

import type { ResultView, SeatColor } from "../../protocol";
import { resultHeadline } from "./result";
import { resultText } from "./state";

const names = (c: SeatColor) => (c === "white" ? "ann" : "bob");

describe("the result", () => {
  it("names the winner and how the game ended, after the score", () => {
    const r = { winner: "black", score: "0-1", termination: "resignation" } as ResultView;
    expect(resultText(r, names)).toBe("result.win(player=bob,reason=reason.resignation)");
    expect(resultHeadline(r, names)).toBe("0-1 — result.win(player=bob,reason=reason.resignation)");
  });

  it("says a draw without a winner", () => {
    const r: ResultView = { score: "1/2-1/2", termination: "agreement" };
    expect(resultHeadline(r, names)).toBe("1/2-1/2 — result.draw(reason=reason.agreement)");
  });
});
