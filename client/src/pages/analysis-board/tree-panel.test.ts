import { describe, expect, it, vi } from "vitest";

vi.mock("../../i18n", () => ({ t: (key: string) => key }));

import { scrollToKeep } from "./tree-panel";

describe("the move tree's box", () => {
  it("scrolls only to keep the action on show in sight, a little clear of the edge", () => {
    expect(scrollToKeep(50, 70, 0, 100, 4)).toBeNull();
    expect(scrollToKeep(120, 140, 0, 100, 4)).toBe(44);
    expect(scrollToKeep(10, 30, 40, 100, 4)).toBe(6);
  });
});
