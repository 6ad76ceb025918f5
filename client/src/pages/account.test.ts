import { describe, expect, it, vi } from "vitest";

// The real catalogue touches the browser when loaded: `t` gives the key here.
vi.mock("../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.values(args).join(",")})` : key,
  lang: () => "en",
  tn: (base: string) => base,
  engineName: (level: number) => `engine(${level})`,
}));

import { nameProblem, passwordProblem, refusalText } from "./account";

describe("account forms", () => {
  it("check names and passwords as the server does", () => {
    expect(nameProblem("Ann")).toBeNull();
    expect(nameProblem("yinsh_fan-2")).toBeNull();
    expect(nameProblem("A")).toBe("account.nameLength");
    expect(nameProblem("a".repeat(21))).toBe("account.nameLength");
    expect(nameProblem("Ann Lee")).toBe("account.nameChars");
    expect(nameProblem("Anné")).toBe("account.nameChars");
    expect(passwordProblem("short")).toBe("account.passwordShort");
    expect(passwordProblem("long enough")).toBeNull();
    expect(passwordProblem("é".repeat(129))).toBe("account.passwordLong");
  });

  it("say why a request was refused", () => {
    expect(refusalText(401, "wrong name or password")).toBe("account.wrong");
    expect(refusalText(409, "that name is taken")).toBe("account.taken");
    expect(refusalText(409, "this session has an account; log out first")).toBe("account.already");
    expect(refusalText(429, undefined)).toBe("account.tooMany");
    expect(refusalText(400, "a name has 2 to 20 characters")).toBe("a name has 2 to 20 characters");
    expect(refusalText(0, undefined)).toBe("account.failed(0)");
  });
});
