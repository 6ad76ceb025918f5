import { describe, expect, it } from "vitest";
import { onTitleCount, setTitleCount, titleCount } from "./title-count";

describe("the tab title's count", () => {
  it("adds what each part counts and tells only of changes", () => {
    let told = 0;
    const stop = onTitleCount(() => told++);
    setTitleCount("turns", 2);
    setTitleCount("challenges", 1);
    expect(titleCount()).toBe(3);
    setTitleCount("challenges", 1);
    expect(told).toBe(2);
    setTitleCount("turns", 0);
    expect(titleCount()).toBe(1);
    stop();
    setTitleCount("challenges", 0);
    expect(titleCount()).toBe(0);
    expect(told).toBe(3);
  });
});
