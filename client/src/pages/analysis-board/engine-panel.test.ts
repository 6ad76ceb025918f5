import { describe, expect, it, vi } from "vitest";

// `t` returns the key and its arguments.
vi.mock("../../i18n", () => {
  const t = (key: string, args: Record<string, string | number> = {}) =>
    Object.keys(args).length ? `${key}(${Object.entries(args).map(([k, v]) => `${k}=${v}`).join(",")})` : key;
  return { t, tn: (base: string, count: number) => t(`${base}.n`, { count }), lang: () => "en", engineName: () => "engine" };
});

import type { EngineLine } from "../../connection";
import { EngineMemory, whiteShare } from "./engine-panel";

const line = (position: string, depth: number, done = false): EngineLine =>
  ({ position, depth, done, line: ["e5"], movers: ["white"], eval: { cp: 10, white_chance: 0.52 }, time_ms: 100 }) as unknown as EngineLine;

describe("the engine's memory", () => {
  it("keeps the deepest line of each position", () => {
    const memory = new EngineMemory();
    expect(memory.heard(line("p", 8))).toBe(true);
    expect(memory.heard(line("p", 6))).toBe(false);
    expect(memory.line("p")?.depth).toBe(8);
    expect(memory.heard(line("p", 8, true))).toBe(true);
    expect(memory.line("p")?.done).toBe(true);
  });

  it("shows the switch off, a refusal, a wait, the connection down, or the line", () => {
    const memory = new EngineMemory();
    expect(memory.state("p", false, true)).toEqual({ kind: "off" });
    expect(memory.state("p", true, true)).toEqual({ kind: "thinking", queued: false });
    memory.waits("p");
    expect(memory.state("p", true, true)).toEqual({ kind: "thinking", queued: true });
    expect(memory.state("p", true, false)).toEqual({ kind: "offline" });
    memory.refused("p", "bots are off");
    expect(memory.state("p", true, true)).toEqual({ kind: "refused", text: "bots are off" });
    memory.heard(line("p", 5));
    // A line heard wins over the refusal.
    expect(memory.state("p", true, true)).toMatchObject({ kind: "searching", line: { depth: 5 } });
    memory.heard(line("p", 9, true));
    expect(memory.state("p", true, true)).toMatchObject({ kind: "done" });
  });

  it("forgets a refusal and a wait when the position is asked about again, not its lines", () => {
    const memory = new EngineMemory();
    memory.refused("p", "no");
    memory.waits("q");
    memory.heard(line("q", 4));
    memory.asking("p");
    memory.asking("q");
    expect(memory.state("p", true, true)).toEqual({ kind: "thinking", queued: false });
    expect(memory.state("q", true, true)).toMatchObject({ kind: "searching" });
  });

  it("gives White's share of the bar, kept within it", () => {
    expect(whiteShare({ cp: 0, white_chance: 0.5 })).toBe("50.0%");
    expect(whiteShare({ cp: 0, white_chance: 0.1234 })).toBe("12.3%");
    expect(whiteShare({ win: 2, white_chance: 1.2 })).toBe("100.0%");
    expect(whiteShare({ win: -2, white_chance: -0.1 })).toBe("0.0%");
  });
});
