import { describe, expect, it, vi } from "vitest";

vi.mock("../i18n", () => ({ t: (key: string) => key }));

import type { PlayerView, TableOptions } from "../protocol";
import { describeOptions } from "./options";

const options = { variant: "standard", log: true, engine_full: true } as TableOptions;
const person: PlayerView = { id: 1, name: "ann", online: true };
const engine: PlayerView = { name: "engine", bot: 10, online: true };

describe("table options in words", () => {
  it("name full strength only where an engine sits", () => {
    expect(describeOptions(options, { white: person, black: engine })).toContain("opt.engineFull");
    expect(describeOptions(options, { white: engine, black: null })).toContain("opt.engineFull");
    expect(describeOptions(options, { white: person, black: null })).not.toContain("opt.engineFull");
    expect(describeOptions(options, { white: null, black: null })).not.toContain("opt.engineFull");
  });

  it("name it when the seats are not known", () => {
    expect(describeOptions(options)).toContain("opt.engineFull");
    expect(describeOptions({ ...options, engine_full: false })).not.toContain("opt.engineFull");
  });
});
