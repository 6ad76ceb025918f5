import { describe, expect, it, vi } from "vitest";

// The real catalogue touches `document` when loaded; the words themselves are not
// under test here, so `t` returns the key and its arguments.
vi.mock("../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
}));

import type { ResultView, SeatColor } from "../protocol";
import { reasonWords, resultHeadline, resultSentence, resultSummary } from "./result-words";

describe("the result in words", () => {
  it("translates known terminations and keeps unknown ones", () => {
    expect(reasonWords("target reached")).toBe("reason.target reached");
    expect(reasonWords("meteor strike")).toBe("meteor strike");
  });

  it("summarises a result", () => {
    expect(resultSummary({ winner: "white", score: "1-0", termination: "resignation" })).toBe(
      "1-0 · reason.resignation",
    );
  });

  it("names the winner or says draw", () => {
    const names = { white: "Ann", black: "Bob" };
    expect(resultSentence({ winner: "black", score: "0-1", termination: "time" }, names)).toBe(
      "result.win(player=Bob,reason=reason.time)",
    );
    expect(resultSentence({ score: "1/2-1/2", termination: "agreement" }, names)).toBe(
      "result.draw(reason=reason.agreement)",
    );
  });

  const nameOf = (c: SeatColor) => (c === "white" ? "ann" : "bob");

  it("names the winner and how the game ended, after the score", () => {
    const r = { winner: "black", score: "0-1", termination: "resignation" } as ResultView;
    expect(resultSentence(r, nameOf)).toBe("result.win(player=bob,reason=reason.resignation)");
    expect(resultHeadline(r, nameOf)).toBe("0-1 — result.win(player=bob,reason=reason.resignation)");
  });

  it("says a draw without a winner", () => {
    const r: ResultView = { score: "1/2-1/2", termination: "agreement" };
    expect(resultHeadline(r, nameOf)).toBe("1/2-1/2 — result.draw(reason=reason.agreement)");
  });
});
