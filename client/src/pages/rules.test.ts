import { describe, expect, it, vi } from "vitest";

vi.mock("../i18n", () => ({ lang: () => "en" }));

import { between, isPoint } from "../board/geometry";
import { DIAGRAMS } from "./rules";
import { RULES } from "./rules-text";

describe("the rules page's diagrams", () => {
  it("use only points of the board, one piece to a point (a ring may hold a marker)", () => {
    for (const [name, d] of Object.entries(DIAGRAMS)) {
      const rings = [...d.rings.white, ...d.rings.black];
      const markers = [...d.markers.white, ...d.markers.black];
      for (const p of [...rings, ...markers, ...(d.targets ?? []), ...(d.labels ?? []), ...(d.arrow ?? []), ...(d.row ?? [])]) {
        expect(isPoint(p), `${name}: ${p}`).toBe(true);
      }
      expect(new Set(rings).size, name).toBe(rings.length);
      expect(new Set(markers).size, name).toBe(markers.length);
    }
  });

  it("show the setup's ten rings", () => {
    expect(DIAGRAMS.setup.rings.white).toHaveLength(5);
    expect(DIAGRAMS.setup.rings.black).toHaveLength(5);
  });

  it("show a ring move as the rules make it (M1, M2, M4)", () => {
    const before = DIAGRAMS["move-before"];
    const after = DIAGRAMS["move-after"];
    const [from, to] = before.arrow!;
    // The ring holds a marker of its colour, and lands behind one group of markers.
    expect(before.rings.white).toContain(from);
    expect(before.markers.white).toContain(from);
    const path = between(from, to)!;
    const markers = new Set([...before.markers.white, ...before.markers.black]);
    const rings = new Set([...before.rings.white, ...before.rings.black]);
    expect(path.some((p) => rings.has(p))).toBe(false);
    expect(markers.has(to) || rings.has(to)).toBe(false);
    const jumped = path.filter((p) => markers.has(p));
    expect(jumped).toEqual(path.slice(path.length - jumped.length)); // one group, right before the landing point
    // Afterwards: the ring moved, the start marker stays, the jumped markers flipped.
    expect(after.rings.white).toContain(to);
    expect(after.rings.white).not.toContain(from);
    const flip = (p: string) => (before.markers.white.includes(p) ? "black" : "white");
    for (const p of jumped) expect(after.markers[flip(p)], p).toContain(p);
    expect(after.markers.white).toContain(from);
    // The targets: the empty points before the group, and the one behind it.
    expect(before.targets).toEqual([...path.filter((p) => !markers.has(p)), to]);
  });

  it("show a row of five markers of one colour", () => {
    const d = DIAGRAMS.row;
    const [a, b] = d.row!;
    const row = [a, ...between(a, b)!, b];
    expect(row).toHaveLength(5);
    for (const p of row) expect(d.markers.white).toContain(p);
  });
});

describe("the rules page's words", () => {
  it("every language has the same sections and figures as English", () => {
    const shape = (l: keyof typeof RULES) =>
      RULES[l].sections.map((s) => [s.id, s.list?.length ?? 0, s.paragraphs.length, s.after?.length ?? 0, (s.figures ?? []).map((f) => f.diagram)]);
    for (const l of ["nl", "pl", "de"] as const) expect(shape(l), l).toEqual(shape("en"));
  });

  it("names the points of the diagrams in every caption that points at them", () => {
    for (const [l, text] of Object.entries(RULES)) {
      const captions = text.sections.flatMap((s) => s.figures ?? []).map((f) => f.caption).join(" ");
      for (const p of ["e2", "e8", "c3", "g3"]) expect(captions, l).toContain(p);
    }
  });
});
