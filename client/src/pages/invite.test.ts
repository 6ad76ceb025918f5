import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("../i18n", () => ({ t: (key: string) => key }));

// A small stand-in for the DOM, enough for `h()` and the box's listeners (the tests run
// in Node, without a browser).
class FakeNode {
  textContent = "";
}
class FakeElement extends FakeNode {
  attrs: Record<string, string> = {};
  children: FakeNode[] = [];
  listeners: Record<string, (() => unknown)[]> = {};
  value = "";
  selected = 0;
  constructor(readonly tag: string) {
    super();
  }
  setAttribute(k: string, v: string) {
    this.attrs[k] = v;
    if (k === "value") this.value = v;
  }
  addEventListener(type: string, fn: () => unknown) {
    (this.listeners[type] ??= []).push(fn);
  }
  appendChild(child: FakeNode) {
    this.children.push(child);
    if (!(child instanceof FakeElement)) this.textContent += child.textContent;
  }
  focus() {
    for (const fn of this.listeners.focus ?? []) fn();
  }
  select() {
    this.selected++;
  }
  async click() {
    for (const fn of this.listeners.click ?? []) await fn();
  }
  find(testid: string): FakeElement {
    if (this.attrs["data-testid"] === testid) return this;
    for (const c of this.children) {
      if (c instanceof FakeElement) {
        try {
          return c.find(testid);
        } catch {
          // elsewhere
        }
      }
    }
    throw new Error(`no ${testid}`);
  }
}

let invite: typeof import("./invite");
beforeAll(async () => {
  vi.stubGlobal("Node", FakeNode);
  vi.stubGlobal("document", {
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => Object.assign(new FakeNode(), { textContent: text }),
  });
  vi.stubGlobal("location", { origin: "https://yinsh.example", pathname: "/" });
  vi.stubGlobal("navigator", {});
  invite = await import("./invite");
});
afterEach(() => vi.useRealTimers());

describe("the invitation link", () => {
  it("is this page's address with the table's hash", () => {
    expect(invite.inviteUrl("tun29d", { origin: "https://yinsh.example", pathname: "/" })).toBe("https://yinsh.example/#/table/tun29d");
    expect(invite.inviteUrl("a b", { origin: "http://127.0.0.1:8080", pathname: "/play/" })).toBe("http://127.0.0.1:8080/play/#/table/a%20b");
  });

  it("copies with the clipboard, and says when it cannot", async () => {
    const written: string[] = [];
    expect(await invite.copyText("x", { writeText: async (t) => void written.push(t) })).toBe(true);
    expect(written).toEqual(["x"]);
    expect(await invite.copyText("x", undefined)).toBe(false);
    expect(await invite.copyText("x", { writeText: () => Promise.reject(new Error("denied")) })).toBe(false);
  });

  it("the box shows the link; Copy copies it and says Copied, then Copy again", async () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const box = invite.inviteBox("tun29d", { writeText: async (t) => void written.push(t) }) as unknown as FakeElement;
    expect(box.children[0].textContent).toBe("invite.label");
    const field = box.find("invite-link");
    const button = box.find("invite-copy");
    expect(field.value).toBe("https://yinsh.example/#/table/tun29d");
    expect(field.attrs.readonly).toBe("");
    await button.click();
    expect(written).toEqual(["https://yinsh.example/#/table/tun29d"]);
    expect(button.textContent).toBe("invite.copied");
    vi.advanceTimersByTime(invite.COPIED_MS);
    expect(button.textContent).toBe("invite.copy");
  });

  it("without a clipboard, Copy selects the link and says how to copy it", async () => {
    const box = invite.inviteBox("tun29d", { writeText: () => Promise.reject(new Error("denied")) }) as unknown as FakeElement;
    const field = box.find("invite-link");
    await box.find("invite-copy").click();
    expect(field.selected).toBeGreaterThan(0);
    expect(box.find("invite-note").textContent).toBe("invite.select");
    expect(box.find("invite-copy").textContent).toBe("invite.copy");
  });
});
