import { beforeEach, describe, expect, it, vi } from "vitest";

// In a cluster a connection follows its tables to the node that runs them: tested
// with a stand-in for the browser's WebSocket.
vi.mock("./i18n", () => ({ t: (key: string) => key }));
vi.mock("./pages/meet", () => ({ updateSeeks: () => undefined }));

import { Connection } from "./connection";

type Sent = { id?: number; type: string; [field: string]: unknown };

class FakeSocket {
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: Sent[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text) as Sent);
  }

  close(): void {
    this.readyState = FakeSocket.CLOSED;
    queueMicrotask(() => this.onclose?.());
  }

  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }

  receive(msg: object): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

const me = { id: 1, name: "Ann", online: true };

/** `socket`, served by node `servedBy`, opens, and table `t1` (which node `runs`
 * runs) is opened and answered on it. */
function openTable(socket: FakeSocket, servedBy: string, runs: string): void {
  socket.open();
  socket.receive({ type: "welcome", player: me, lang: "en", server: "0.1.0", node: servedBy });
  const open = socket.sent.find((m) => m.type === "open" && m.table === "t1");
  socket.receive({ type: "snapshot", table: { id: "t1", epoch: 5, version: 3, node: runs } });
  socket.receive({ type: "reply", id: open?.id, key: "opened", text: "", table: "t1" });
}

/** Lets the sockets' close handlers run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a connection in a cluster", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("location", { protocol: "http:", host: "site" });
  });

  it("moves to the node that runs its tables, once, and resumes them there", async () => {
    const conn = new Connection("en");
    conn.watchTable("t1", () => undefined);
    openTable(FakeSocket.made[0], "n2", "n1");
    await settle();
    expect(FakeSocket.made).toHaveLength(2);
    const moved = FakeSocket.made[1];
    expect(moved.url).toBe("ws://site/ws?lang=en&node=n1");
    expect(conn.state).toBe("open");
    // Landed elsewhere all the same (no proxy that routes on it): it stays.
    openTable(moved, "n2", "n1");
    expect(moved.sent).toContainEqual({ type: "open", table: "t1", since: { epoch: 5, version: 3 } });
    await settle();
    expect(FakeSocket.made).toHaveLength(2);
  });

  it("stays where its tables run, and where they run at several nodes", async () => {
    const conn = new Connection("en");
    conn.watchTable("t1", () => undefined);
    openTable(FakeSocket.made[0], "n1", "n1");
    conn.watchTable("t2", () => undefined);
    const socket = FakeSocket.made[0];
    socket.receive({ type: "snapshot", table: { id: "t2", epoch: 5, version: 1, node: "n3" } });
    await settle();
    expect(FakeSocket.made).toHaveLength(1);
  });

  it("does not give up the player's challenge for a move, and moves once it is gone", async () => {
    const conn = new Connection("en");
    conn.watchTable("t1", () => undefined);
    const socket = FakeSocket.made[0];
    socket.open();
    socket.receive({ type: "welcome", player: me, lang: "en", server: "0.1.0", node: "n2" });
    socket.receive({ type: "challenge", challenge: { id: "c1", from: me, options: {}, created_at: 1 } });
    const open = socket.sent.find((m) => m.type === "open");
    socket.receive({ type: "snapshot", table: { id: "t1", epoch: 5, version: 3, node: "n1" } });
    socket.receive({ type: "reply", id: open?.id, key: "opened", text: "", table: "t1" });
    await settle();
    expect(FakeSocket.made).toHaveLength(1);
    socket.receive({ type: "challenge_gone", challenge: "c1", reason: "accepted" });
    await settle();
    expect(FakeSocket.made).toHaveLength(2);
    expect(FakeSocket.made[1].url).toContain("node=n1");
  });
});

describe("the player's news", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("location", { protocol: "http:", host: "site" });
  });

  it("goes to every listener of `onNotice` until it stops, and to no table", () => {
    const conn = new Connection("en");
    const heard: { type: string }[] = [];
    const also: { type: string }[] = [];
    const table: { type: string }[] = [];
    conn.watchTable("t1", (msg) => table.push(msg));
    const stop = conn.onNotice((msg) => heard.push(msg));
    conn.onNotice((msg) => also.push(msg));
    const socket = FakeSocket.made[0];
    socket.open();
    socket.receive({ type: "welcome", player: me, lang: "en", server: "0.1.0" });
    const notification = { id: 3, at: 1, read: false, notice: { kind: "your_turn", table: "t1", opponent: "Bob" } };
    socket.receive({ type: "notified", notification, unread: 2 });
    socket.receive({ type: "unread", unread: 1 });
    socket.receive({ type: "my_turn", count: 4 });
    expect(heard).toEqual([
      { type: "notified", notification, unread: 2 },
      { type: "unread", unread: 1 },
      { type: "my_turn", count: 4 },
    ]);
    expect(also).toHaveLength(3);
    expect(table).toEqual([]);
    stop();
    socket.receive({ type: "my_turn", count: 0 });
    expect(heard).toHaveLength(3);
    expect(also).toHaveLength(4);
  });
});
