import { describe, expect, it } from "vitest";
import { BoardInput, parseToken, type Highlights } from "./input";

/** The highlights as sorted arrays, easier to compare. */
function plain(h: Highlights): Record<string, string[]> {
  return Object.fromEntries(Object.entries(h).map(([role, set]) => [role, [...set].sort()]));
}

describe("parseToken", () => {
  it("reads every form, in either case", () => {
    expect(parseToken("e5")).toEqual({ kind: "place", token: "e5", at: "e5" });
    expect(parseToken("H7-G7")).toEqual({ kind: "move", token: "H7-G7", from: "h7", to: "g7" });
    expect(parseToken("xc3-c7")).toEqual({
      kind: "row", token: "xc3-c7", ends: ["c3", "c7"], points: ["c3", "c4", "c5", "c6", "c7"],
    });
    expect(parseToken("xk10")).toEqual({ kind: "ring", token: "xk10", at: "k10" });
    expect(parseToken("pass")).toEqual({ kind: "pass", token: "pass" });
  });

  it("refuses what is no token", () => {
    for (const bad of ["a1", "e5-", "e5-f4x", "xe5-g6", "xa1", "resign", ""]) expect(parseToken(bad)).toBeNull();
  });
});

describe("placement", () => {
  const legal = ["e5", "e6", "f6"];

  it("gives the token of a legal point", () => {
    const input = new BoardInput(legal);
    expect(plain(input.highlights()).target).toEqual(["e5", "e6", "f6"]);
    expect(input.click("e6").token).toBe("e6");
    expect(input.state).toEqual({ kind: "sent", token: "e6" });
  });

  it("ignores other points and clicks after sending", () => {
    const input = new BoardInput(legal);
    expect(input.click("a2").token).toBeNull();
    expect(input.state.kind).toBe("idle");
    input.click("e5");
    const after = input.click("f6");
    expect(after.token).toBeNull();
    expect(plain(after.highlights)).toEqual({ target: [], selected: [], candidate: [], ghostMarker: [] });
  });

  it("offers nothing without legal tokens", () => {
    const input = new BoardInput([]);
    expect(input.click("e5").token).toBeNull();
    expect(input.canPass).toBe(false);
  });
});

describe("ring move", () => {
  // White rings on c3 and g2; the black ring on a2 cannot move for White.
  const legal = ["c3-c4", "c3-c5", "c3-d4", "c3-b3", "g2-g3", "g2-h3"];

  it("selects a movable ring and shows its destinations and the ghost marker", () => {
    const input = new BoardInput(legal);
    expect(plain(input.highlights()).candidate).toEqual(["c3", "g2"]);
    const step = input.click("c3");
    expect(step.token).toBeNull();
    expect(input.state).toEqual({ kind: "selected", from: "c3" });
    expect(plain(step.highlights)).toEqual({
      target: ["b3", "c4", "c5", "d4"], selected: ["c3"], candidate: ["g2"], ghostMarker: ["c3"],
    });
  });

  it("gives from-to for a highlighted destination", () => {
    const input = new BoardInput(legal);
    input.click("c3");
    expect(input.click("c5").token).toBe("c3-c5");
  });

  it("keeps the selection on a click elsewhere, also on a destination of another ring", () => {
    const input = new BoardInput(legal);
    input.click("c3");
    expect(input.click("g3").token).toBeNull();
    expect(input.click("a2").token).toBeNull();
    expect(input.state).toEqual({ kind: "selected", from: "c3" });
  });

  it("deselects on a second click and on cancel", () => {
    const input = new BoardInput(legal);
    input.click("c3");
    input.click("c3");
    expect(input.state.kind).toBe("idle");
    input.click("c3");
    const step = input.cancel();
    expect(input.state.kind).toBe("idle");
    expect(plain(step.highlights).ghostMarker).toEqual([]);
    expect(plain(step.highlights).candidate).toEqual(["c3", "g2"]);
  });

  it("switches to another movable ring", () => {
    const input = new BoardInput(legal);
    input.click("c3");
    const step = input.click("g2");
    expect(input.state).toEqual({ kind: "selected", from: "g2" });
    expect(plain(step.highlights).target).toEqual(["g3", "h3"]);
  });

  it("plays a drop on a destination and keeps the selection on another drop", () => {
    const input = new BoardInput(legal);
    expect(input.chooseDestination("c4").token).toBeNull(); // nothing selected
    expect(input.select("c3").token).toBeNull();
    expect(input.select("c3").token).toBeNull(); // select does not toggle
    expect(input.state).toEqual({ kind: "selected", from: "c3" });
    expect(input.chooseDestination("g3").token).toBeNull();
    expect(input.state).toEqual({ kind: "selected", from: "c3" });
    expect(input.chooseDestination("d4").token).toBe("c3-d4");
    expect(input.isMovable("g2")).toBe(false); // sent: nothing more
  });

  it("tells which points hold a movable ring", () => {
    const input = new BoardInput(legal);
    expect(input.isMovable("c3")).toBe(true);
    expect(input.isMovable("a2")).toBe(false);
    expect(input.select("a2").highlights.selected.size).toBe(0);
  });
});

describe("pass", () => {
  it("is offered only when legal", () => {
    expect(new BoardInput(["c3-c4"]).canPass).toBe(false);
    const input = new BoardInput(["pass"]);
    expect(input.canPass).toBe(true);
  });

  it("is not offered once an action was sent", () => {
    const input = new BoardInput(["c3-c4", "pass"]);
    input.click("c3");
    input.click("c4");
    expect(input.canPass).toBe(false);
  });
});

describe("row removal", () => {
  it("takes the only legal row with one click on any of its markers", () => {
    const input = new BoardInput(["xc3-c7"]);
    expect(plain(input.highlights())).toEqual({
      target: [], selected: [], candidate: ["c3", "c4", "c5", "c6", "c7"], ghostMarker: [],
    });
    expect(input.click("c8").token).toBeNull();
    expect(input.click("c5").token).toBe("xc3-c7");
  });

  // A white run of six on c3–c8: two overlapping windows.
  const run = ["xc3-c7", "xc4-c8"];

  it("shows every marker of a legal row and the ends to click first", () => {
    const h = plain(new BoardInput(run).highlights());
    expect(h.candidate).toEqual(["c3", "c4", "c5", "c6", "c7", "c8"]);
    expect(h.target).toEqual(["c3", "c4", "c7", "c8"]);
  });

  it("ignores a first click on a marker that is no end", () => {
    const input = new BoardInput(run);
    expect(input.click("c5").token).toBeNull();
    expect(input.state.kind).toBe("idle");
  });

  it("chooses an end, then the matching other end", () => {
    const input = new BoardInput(run);
    const step = input.click("c3");
    expect(input.state).toEqual({ kind: "rowEnd", end: "c3" });
    expect(plain(step.highlights)).toEqual({
      target: ["c7"], selected: ["c3"], candidate: ["c4", "c5", "c6", "c7"], ghostMarker: [],
    });
    expect(input.click("c8").token).toBeNull(); // not a row with c3: c8 becomes the end
    expect(input.state).toEqual({ kind: "rowEnd", end: "c8" });
    expect(input.click("c4").token).toBe("xc4-c8");
  });

  it("matches the ends in either order, whatever order the server wrote", () => {
    const input = new BoardInput(["xc7-c3", "xc4-c8"]);
    input.click("c3");
    expect(input.click("c7").token).toBe("xc7-c3");
    const other = new BoardInput(run);
    other.click("c7");
    expect(other.click("c3").token).toBe("xc3-c7");
  });

  it("cancels by clicking the first end again, or by cancel", () => {
    const input = new BoardInput(run);
    input.click("c4");
    input.click("c4");
    expect(input.state.kind).toBe("idle");
    input.click("c8");
    input.cancel();
    expect(input.state.kind).toBe("idle");
  });

  it("handles crossing rows, whose shared marker is no end", () => {
    // c3–c7 and a4–e4 cross at c4.
    const input = new BoardInput(["xc3-c7", "xa4-e4"]);
    expect(input.click("c4").token).toBeNull();
    input.click("a4");
    expect(plain(input.highlights()).target).toEqual(["e4"]);
    expect(input.click("e4").token).toBe("xa4-e4");
  });
});

describe("ring removal", () => {
  it("gives the token of a removable ring", () => {
    const input = new BoardInput(["xc3", "xg2", "xk10"]);
    expect(plain(input.highlights()).candidate).toEqual(["c3", "g2", "k10"]);
    expect(input.click("e5").token).toBeNull();
    expect(input.click("k10").token).toBe("xk10");
  });
});
