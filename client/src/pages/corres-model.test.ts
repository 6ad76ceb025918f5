import { describe, expect, it, vi } from "vitest";

// The English catalogue itself (the real `./index` touches the browser when loaded).
vi.mock("../i18n", async () => {
  const { en } = await import("../i18n/en");
  const words = en as Record<string, string>;
  const t = (key: string, args: Record<string, string | number> = {}) =>
    words[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
  return {
    t,
    tn: (base: string, count: number, args: Record<string, string | number> = {}) => t(`${base}.${new Intl.PluralRules("en").select(count)}`, { count, ...args }),
  };
});

import type { PlayerView, SeekView } from "../protocol";
import { corresOrder, corresPace, corresSeekBody } from "./corres-model";

function seek(id: string, player: PlayerView): SeekView {
  return { id, player, options: { variant: "standard", correspondence: { days: 3 }, log: true } as SeekView["options"], created_at: 1 };
}

describe("the correspondence seeks", () => {
  it("asks for days per turn, or for no deadline and then never rated", () => {
    expect(corresSeekBody({ variant: "blitz", days: 5, rated: true, bots: false })).toEqual({ variant: "blitz", days: 5, rated: true, bots: false });
    expect(corresSeekBody({ variant: "standard", days: "unlimited", rated: true, bots: true })).toEqual({ variant: "standard", rated: false, bots: true });
  });

  it("says the pace", () => {
    expect(corresPace(1)).toBe("1 day per turn");
    expect(corresPace(14)).toBe("14 days per turn");
    expect(corresPace(undefined)).toBe("Correspondence, unlimited");
  });

  it("shows one's own seeks first, the others oldest first as listed", () => {
    const ann: PlayerView = { id: 1, name: "Ann", online: true };
    const bob: PlayerView = { id: 2, name: "Bob", online: false };
    const list = [seek("a", bob), seek("b", ann), seek("c", bob), seek("d", ann)];
    expect(corresOrder(list, ann).map((s) => s.id)).toEqual(["b", "d", "a", "c"]);
    expect(corresOrder(list, null).map((s) => s.id)).toEqual(["a", "b", "c", "d"]);
  });
});
