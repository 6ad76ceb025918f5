import { describe, expect, it, vi } from "vitest";

vi.mock("../i18n", () => ({ t: (key: string) => (key === "lobby.level" ? "Level" : key) }));

import { levelLabel } from "./engine-levels";

describe("engine levels", () => {
  it("name a level with its estimated rating once it is known", () => {
    expect(levelLabel(5, 2200)).toBe("Level 5 · ≈2200");
    expect(levelLabel(1, undefined)).toBe("Level 1");
  });
});
