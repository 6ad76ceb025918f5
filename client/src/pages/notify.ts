// The player's news in the header, on every page (as on lichess): the count of games
// waiting for the player's move (a link to My games), the bell with the unread count
// and its panel of the newest notifications, and "(n) " before the tab's title while
// games wait. The server pushes changes (`notified`, `unread`, `my_turn`) but sends no
// counts on connecting: they are asked for (`GET /api/notifications`,
// `GET /api/account/playing`) after each `welcome`.

import "./notify.css";
import { api } from "../api";
import type { Connection } from "../connection";
import { h, replace, svgEl } from "../dom";
import { lang, t, tn } from "../i18n";
import type { NotificationList, NotificationView, NowPlayingList } from "../protocol";
import { onTitleCount, setTitleCount, titleCount } from "./title-count";
import { EMPTY_INBOX, SHOWN, applyNotice, markedRead, noticeHref, noticeSentence, relativeTime, titleWithCount, type Inbox } from "./notify-model";

// ---- The inbox of this connection's player ----

export interface InboxStore {
  inbox: Inbox;
  /** Whether the last request for the list failed. */
  failed: boolean;
  /** Told after every change. */
  listeners: Set<() => void>;
  /** Asks for the list again (when the panel opens on a list that may be out of date). */
  loadList(): Promise<void>;
  /** Marks notifications `ids` read (all without), here at once and at the server. */
  markRead(ids?: number[]): Promise<void>;
}

const stores = new WeakMap<Connection, InboxStore>();

/** How many times a request is made again when a push came while it was answered. */
const RETRIES = 3;

/**
 * The player's inbox, kept from the connection's messages and asked for after each
 * `welcome` (a reconnect, or another player after signing in). Made once per connection;
 * whoever asks later gets the same one.
 */
export function inboxStore(conn: Connection): InboxStore {
  const known = stores.get(conn);
  if (known) return known;
  // Pushes counted, so that an answer made before one of them is not taken for newer.
  let listPushes = 0;
  let turnPushes = 0;
  const changed = () => store.listeners.forEach((l) => l());
  const set = (inbox: Inbox) => {
    store.inbox = inbox;
    changed();
  };

  async function loadList(): Promise<void> {
    for (let i = 0; i < RETRIES; i++) {
      const before = listPushes;
      const answer = await api<NotificationList>("GET", `/api/notifications?limit=${SHOWN}`);
      if (listPushes !== before) continue;
      store.failed = !answer.ok || !answer.body;
      if (answer.ok && answer.body) set({ ...store.inbox, unread: answer.body.unread, notifications: answer.body.notifications.slice(0, SHOWN), stale: false });
      else changed();
      return;
    }
  }

  async function loadTurns(): Promise<void> {
    for (let i = 0; i < RETRIES; i++) {
      const before = turnPushes;
      const answer = await api<NowPlayingList>("GET", "/api/account/playing");
      if (turnPushes !== before) continue;
      if (answer.ok && answer.body) set({ ...store.inbox, myTurn: answer.body.myTurn });
      return;
    }
  }

  const store: InboxStore = {
    inbox: EMPTY_INBOX,
    failed: false,
    listeners: new Set(),
    loadList,
    async markRead(ids?: number[]): Promise<void> {
      listPushes++;
      set(markedRead(store.inbox, ids));
      const answer = await api<{ unread: number }>("POST", "/api/notifications/read", ids ? { ids } : {});
      if (answer.ok && answer.body) set({ ...store.inbox, unread: answer.body.unread });
    },
  };
  conn.onNotice((msg) => {
    if (msg.type === "my_turn") turnPushes++;
    else listPushes++;
    set(applyNotice(store.inbox, msg));
  });
  let player: number | undefined;
  conn.onPlayer((me) => {
    // Another player (signed in or out): nothing of the last one's stays.
    if (me.id !== player) set(EMPTY_INBOX);
    player = me.id;
    void loadList();
    void loadTurns();
  });
  stores.set(conn, store);
  return store;
}

// ---- The header's parts ----

/** A bell, drawn (no font has one everywhere). */
function bellIcon(): SVGSVGElement {
  return svgEl(
    "svg",
    { viewBox: "0 0 16 16", class: "inbox-icon", "aria-hidden": "true" },
    svgEl("path", {
      d: "M8 1.3c-.5 0-.9.4-.9.9v.5A4.3 4.3 0 0 0 3.7 7v3.1L2.3 11.8v.9h11.4v-.9l-1.4-1.7V7a4.3 4.3 0 0 0-3.4-4.3v-.5c0-.5-.4-.9-.9-.9zM6.3 13.6a1.7 1.7 0 0 0 3.4 0z",
      fill: "currentColor",
    }),
  );
}

/** A ring, YINSH's piece: the mark of the games waiting for a move. */
function ringIcon(): SVGSVGElement {
  return svgEl("svg", { viewBox: "0 0 16 16", class: "inbox-icon", "aria-hidden": "true" }, svgEl("circle", { cx: 8, cy: 8, r: 5, fill: "none", stroke: "currentColor", "stroke-width": 2.6 }));
}

export interface InboxHeader {
  /** The count of games waiting for the player's move, a link to My games (hidden at 0). */
  myTurn: HTMLElement;
  /** The bell and its panel. */
  bell: HTMLElement;
  /** Draws them again (a switch of language). */
  render(): void;
}

/** The header's count of games to move in, its bell and panel, and the tab title's count. */
export function inboxHeader(conn: Connection): InboxHeader {
  const store = inboxStore(conn);
  let open = false;
  /** Whether the list is being asked for. */
  let refreshing = false;

  const turnCount = h("span", { class: "inbox-number" });
  const myTurn = h("a", { class: "my-turn", href: "#/games", "data-testid": "my-turn-count", hidden: true }, ringIcon(), turnCount);

  const count = h("span", { class: "inbox-count", "data-testid": "bell-count", hidden: true });
  const button = h("button", { type: "button", class: "inbox-bell", "data-testid": "bell", "aria-expanded": "false", "aria-controls": "inbox-panel" }, bellIcon(), count);
  const heading = h("h2", { class: "inbox-title", id: "inbox-title" });
  const markAll = h("button", { type: "button", class: "inbox-mark-all", "data-testid": "mark-all-read" });
  const list = h("ul", { class: "inbox-list" });
  const panel = h(
    "div",
    { class: "inbox-panel", id: "inbox-panel", role: "region", "aria-labelledby": "inbox-title", "data-testid": "notifications", hidden: true },
    h("div", { class: "inbox-head" }, heading, markAll),
    list,
  );
  const bell = h("span", { class: "inbox" }, button, panel);

  function item(n: NotificationView, now: number): HTMLElement {
    const link = h(
      "a",
      { class: "inbox-item", href: noticeHref(n.notice), "data-testid": "notification", "data-kind": n.notice.kind, "data-read": String(n.read) },
      h("span", { class: "inbox-dot", "aria-hidden": "true" }),
      h("span", { class: "inbox-text" }, noticeSentence(n.notice), n.read ? null : h("span", { class: "inbox-sr" }, ` (${t("notify.unread")})`)),
      h("time", { class: "inbox-time", datetime: new Date(n.at).toISOString() }, relativeTime(n.at, now, lang())),
    );
    link.addEventListener("click", () => {
      if (!n.read) void store.markRead([n.id]);
      close(false);
    });
    return h("li", {}, link);
  }

  /** The list drawn last (not drawn again for a count's change: the focus stays). */
  let drawn: NotificationView[] | null = null;
  let drawnFailed = false;

  function render(force = true): void {
    const { unread, myTurn: waiting, notifications } = store.inbox;
    myTurn.hidden = waiting === 0;
    turnCount.textContent = String(waiting);
    const turns = tn("notify.myTurn", waiting);
    myTurn.title = turns;
    myTurn.setAttribute("aria-label", turns);
    count.hidden = unread === 0;
    count.textContent = unread > 99 ? "99+" : String(unread);
    const label = unread > 0 ? tn("notify.bellUnread", unread) : t("notify.bell");
    button.title = label;
    button.setAttribute("aria-label", label);
    button.setAttribute("aria-expanded", String(open));
    button.classList.toggle("unread", unread > 0);
    panel.hidden = !open;
    heading.textContent = t("notify.bell");
    markAll.textContent = t("notify.markAllRead");
    markAll.disabled = unread === 0;
    if (!open) {
      drawn = null;
      return;
    }
    if (!force && drawn === notifications && drawnFailed === store.failed) return;
    drawn = notifications;
    drawnFailed = store.failed;
    const now = Date.now();
    if (notifications.length > 0) replace(list, notifications.map((n) => item(n, now)));
    else replace(list, h("li", { class: "inbox-empty" }, store.failed ? t("notify.failed") : t("notify.empty")));
  }

  function close(refocus: boolean): void {
    if (!open) return;
    open = false;
    document.removeEventListener("pointerdown", outside, true);
    document.removeEventListener("keydown", escape);
    render(false);
    if (refocus) button.focus();
  }

  const outside = (e: Event) => {
    if (!bell.contains(e.target as Node)) close(false);
  };
  const escape = (e: KeyboardEvent) => {
    if (e.key === "Escape") close(bell.contains(document.activeElement));
  };

  button.addEventListener("click", () => {
    if (open) {
      close(false);
      return;
    }
    open = true;
    document.addEventListener("pointerdown", outside, true);
    document.addEventListener("keydown", escape);
    render();
    if ((store.inbox.stale || store.failed) && !refreshing) {
      refreshing = true;
      void store.loadList().finally(() => (refreshing = false));
    }
  });
  markAll.addEventListener("click", () => void store.markRead());
  window.addEventListener("hashchange", () => close(false));

  // Read elsewhere while the panel is open: which ones, the list says.
  store.listeners.add(() => {
    render(false);
    if (open && store.inbox.stale && !refreshing) {
      refreshing = true;
      void store.loadList().finally(() => (refreshing = false));
    }
  });
  keepTitleCount(store);
  render();
  return { myTurn, bell, render };
}

/**
 * Keeps "(n) " before the tab's title while n things wait for the player — games to
 * move in (not at a table, whose own title says whose turn it is there) and challenges
 * to them (title-count.ts) — whatever title a page sets.
 */
function keepTitleCount(store: InboxStore): void {
  const update = () => {
    const wanted = titleWithCount(document.title, titleCount());
    if (document.title !== wanted) document.title = wanted;
  };
  const turns = () => {
    const atTable = location.hash.startsWith("#/table/");
    setTitleCount("turns", atTable ? 0 : store.inbox.myTurn);
  };
  // A page setting its title replaces the title element's text: the count goes back on.
  const title = document.querySelector("title") ?? document.head.appendChild(h("title", {}, document.title));
  new MutationObserver(update).observe(title, { childList: true, characterData: true, subtree: true });
  onTitleCount(update);
  store.listeners.add(turns);
  window.addEventListener("hashchange", turns);
  turns();
  update();
}
