import { describe, expect, it, vi } from "vitest";

// The real catalogue touches the browser when loaded: `t` gives the key here.
vi.mock("../i18n", () => ({
  t: (key: string) => key,
  lang: () => "en",
}));

import { SCOPES, tokenProblem } from "./tokens";

describe("API tokens on the account page", () => {
  it("offers the server's scopes", () => {
    expect(SCOPES.map((s) => s.scope)).toEqual(["bot:play", "challenge:write", "board:play", "tournament:write"]);
  });

  it("says what the server would refuse", () => {
    expect(tokenProblem("engine", ["bot:play"])).toBeNull();
    expect(tokenProblem("   ", ["bot:play"])).toBe("tokens.nameLength");
    expect(tokenProblem("x".repeat(41), ["bot:play"])).toBe("tokens.nameLength");
    expect(tokenProblem("é".repeat(40), ["bot:play"])).toBeNull();
    expect(tokenProblem("engine", [])).toBe("tokens.noScope");
  });
});
