import { describe, expect, it, vi } from "vitest";

// The pages' modules touch `document` only when something is drawn; `t` returns the
// key and its arguments.
vi.mock("../i18n", () => ({
  t: (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key,
  onLangChange: () => () => undefined,
}));

import { challengeChoice, withName } from "./challenges";
import { clockWords, colorWords, gameLabel } from "./meet-words";

const form = {
  open: false,
  name: "  Bob ",
  variant: "standard" as const,
  pace: "",
  timed: true,
  minutes: 10,
  increment: 5,
  rated: false,
  color: "random" as const,
};

describe("the challenge form", () => {
  it("sends a trimmed name, the clock, archived, and no colour for random", () => {
    expect(challengeChoice(form)).toEqual({
      to: "Bob",
      options: { variant: "standard", log: true, time: { minutes: 10, increment: 5 } },
    });
  });

  it("sends no name for an open challenge, and the colour chosen", () => {
    expect(challengeChoice({ ...form, open: true, color: "black", variant: "blitz" })).toEqual({
      options: { variant: "blitz", log: true, time: { minutes: 10, increment: 5 } },
      color: "black",
    });
  });

  it("makes it rated only with a clock", () => {
    expect(challengeChoice({ ...form, rated: true }).options.rated).toBe(true);
    expect(challengeChoice({ ...form, rated: true, timed: false }).options).toEqual({ variant: "standard", log: true });
  });

  it("sends days per turn instead of a clock for correspondence, rated only with days", () => {
    expect(challengeChoice({ ...form, pace: "3", rated: true }).options).toEqual({ variant: "standard", log: true, correspondence: { days: 3 }, rated: true });
    expect(challengeChoice({ ...form, pace: "unlimited", rated: true }).options).toEqual({ variant: "standard", log: true, correspondence: {} });
  });

  it("leaves an empty name empty (the form asks for one)", () => {
    expect(challengeChoice({ ...form, name: "   " }).to).toBe("");
  });
});

describe("words", () => {
  it("put a name element where the text has {name}", () => {
    const name = { nodeName: "SPAN" } as unknown as Node;
    expect(withName("{name} challenges you", name)).toEqual([name, " challenges you"]);
    expect(withName("Du hast {name} herausgefordert", name)).toEqual(["Du hast ", name, " herausgefordert"]);
    expect(withName("no name here", name)).toEqual(["no name here"]);
  });

  it("describe the game: variant, clock and class, extras, rated or casual", () => {
    expect(clockWords({ minutes: 5, increment: 3 })).toBe("5+3 meet.speed.quick");
    expect(gameLabel({ variant: "blitz", log: true, time: { minutes: 1, increment: 0 }, rated: true })).toBe(
      "variant.blitz · 1+0 meet.speed.bullet · meet.rated",
    );
    expect(gameLabel({ variant: "standard", log: true, handicap: { white: 2, black: 3 }, turn_limit: 40 })).toBe(
      "variant.standard · opt.untimed · opt.handicap(white=2,black=3) · opt.turns(turns=40) · meet.casual",
    );
  });

  it("say the colours", () => {
    expect(colorWords("white")).toBe("meet.youPlayWhite");
    expect(colorWords("black")).toBe("meet.youPlayBlack");
    expect(colorWords(null)).toBe("meet.colorsRandom");
  });
});
