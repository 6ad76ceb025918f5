// Challenges: the form to challenge a player by name (or anyone with a link: an open
// challenge), the button that opens it from a player's page, and the panel, on every
// page, of the challenges to the player (Accept, Decline) and from them (Cancel, the
// link of an open one). `paired`, which ends a seek or a challenge accepted, takes the
// player to the new table wherever they are.

import "./challenges.css";
import "./invite.css";
import type { Connection, Refused } from "../connection";
import { h, replace } from "../dom";
import { onLangChange, t } from "../i18n";
import type { ChallengeView, PlayerView, SeatColor, TableOptions, VariantName } from "../protocol";
import { COPIED_MS, copyText } from "./invite";
import { ChallengeList, challengeUrl, isMe, myColor, type ChallengeEntry } from "./meet";
import { colorWords, gameLabel, nameEl } from "./meet-words";
import { paceOf, paceSelect } from "./options";
import { play } from "./sound";
import { setTitleCount } from "./title-count";

// ---- The challenges of this connection's player ----

interface Store {
  list: ChallengeList;
  listeners: Set<() => void>;
}

const stores = new WeakMap<Connection, Store>();

/**
 * The challenges to and from the player, kept from the connection's messages for as
 * long as the page lives. Made by `mountChallengeNotices` when the page starts (before
 * the first message); whoever asks later gets the same one.
 */
export function challengeStore(conn: Connection): Store {
  let store = stores.get(conn);
  if (store) return store;
  const s: Store = { list: new ChallengeList(), listeners: new Set() };
  const changed = () => s.listeners.forEach((l) => l());
  let pruning: number | undefined;
  const prune = () => {
    if (s.list.prune(Date.now())) changed();
    if (!s.list.all().some((e) => e.gone)) {
      window.clearInterval(pruning);
      pruning = undefined;
    }
  };
  conn.onMeet((msg) => {
    if (!s.list.receive(msg, Date.now())) return;
    if (msg.type === "challenge_gone" && pruning === undefined) pruning = window.setInterval(prune, 500);
    changed();
  });
  // `welcome`: a new connection, maybe of another player (after signing in); the server
  // sends the standing challenges again right after it.
  conn.onPlayer(() => {
    s.list.reset();
    changed();
  });
  stores.set(conn, s);
  return s;
}

// ---- The link of an open challenge ----

/** The link in a read-only field with Copy (the table's invitation box, for a challenge). */
export function linkBox(url: string, label: string): HTMLElement {
  const field = h("input", {
    type: "text",
    readonly: true,
    value: url,
    class: "invite-link",
    "aria-label": label,
    "data-testid": "challenge-link",
    spellcheck: "false",
  }) as HTMLInputElement;
  const button = h("button", { type: "button", class: "invite-copy", "data-testid": "challenge-copy" }, t("invite.copy"));
  const note = h("span", { class: "invite-note", role: "status" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  field.addEventListener("focus", () => field.select());
  button.addEventListener("click", async () => {
    const copied = await copyText(url);
    clearTimeout(timer);
    if (copied) {
      button.textContent = t("invite.copied");
      note.textContent = "";
      timer = setTimeout(() => (button.textContent = t("invite.copy")), COPIED_MS);
    } else {
      field.focus();
      field.select();
      note.textContent = t("invite.select");
    }
  });
  return h(
    "div",
    { class: "invite challenge-link-box" },
    h("span", { class: "invite-label" }, label),
    h("span", { class: "invite-row" }, field, button),
    note,
  );
}

/** Text with `{name}` in it, the name put in as an element (with its guest mark). */
export function withName(text: string, name: Node): (string | Node)[] {
  const at = text.indexOf("{name}");
  if (at < 0) return [text];
  return [text.slice(0, at), name, text.slice(at + "{name}".length)].filter((x) => x !== "");
}

// ---- The form ----

/** What the form sends: whom (none: open), the game and the challenger's colour. */
export interface ChallengeChoice {
  to?: string;
  options: TableOptions;
  color?: SeatColor;
}

/** The form's fields as a request: a name trimmed (none for an open challenge), days
 * per turn for correspondence (the pace's value, `paceSelect`) or else a clock when
 * timed, rated only with either. */
export function challengeChoice(f: {
  open: boolean;
  name: string;
  variant: VariantName;
  pace: string;
  timed: boolean;
  minutes: number;
  increment: number;
  rated: boolean;
  color: SeatColor | "random";
}): ChallengeChoice {
  const options: TableOptions = { variant: f.variant, log: true };
  const correspondence = paceOf(f.pace);
  if (correspondence) options.correspondence = correspondence;
  else if (f.timed) options.time = { minutes: f.minutes || 10, increment: f.increment || 0 };
  if (f.rated && (options.time || correspondence?.days !== undefined)) options.rated = true;
  const choice: ChallengeChoice = { options };
  if (!f.open) choice.to = f.name.trim();
  if (f.color !== "random") choice.color = f.color;
  return choice;
}

/** Opens the challenge form (a modal dialog), with a name filled in when given. */
export function openChallengeForm(conn: Connection, name = ""): HTMLDialogElement {
  const store = challengeStore(conn);
  const guest = conn.player ? !!conn.player.guest : true;

  const toPlayer = h("input", { type: "radio", name: "whom", value: "player", checked: true, "data-testid": "challenge-to-player" }) as HTMLInputElement;
  const toAnyone = h("input", { type: "radio", name: "whom", value: "open", "data-testid": "challenge-to-anyone" }) as HTMLInputElement;
  const nameField = h("input", {
    type: "text",
    value: name,
    maxlength: 40,
    autocomplete: "off",
    spellcheck: "false",
    placeholder: t("meet.namePlaceholder"),
    "aria-label": t("meet.name"),
    "data-testid": "challenge-name",
  }) as HTMLInputElement;
  const variant = h("select", { "data-testid": "challenge-variant", "aria-label": t("lobby.variant") }) as HTMLSelectElement;
  for (const v of ["standard", "blitz"] as const) variant.append(h("option", { value: v }, t(`variant.${v}`)));
  const pace = paceSelect(undefined, "challenge-days");
  const timed = h("input", { type: "checkbox", checked: true, "data-testid": "challenge-timed" }) as HTMLInputElement;
  const minutes = h("input", { type: "number", min: 1, max: 180, value: 10, "aria-label": t("lobby.minutes"), "data-testid": "challenge-minutes" }) as HTMLInputElement;
  const increment = h("input", { type: "number", min: 0, max: 60, value: 5, "aria-label": t("lobby.increment"), "data-testid": "challenge-increment" }) as HTMLInputElement;
  const rated = h("input", { type: "checkbox", disabled: guest, "data-testid": "challenge-rated" }) as HTMLInputElement;
  const ratedNote = h("span", { class: "hint", "data-testid": "challenge-rated-note" });
  const color = h("select", { "data-testid": "challenge-color", "aria-label": t("meet.color") }) as HTMLSelectElement;
  color.append(
    h("option", { value: "random" }, t("lobby.random")),
    h("option", { value: "white" }, t("color.white")),
    h("option", { value: "black" }, t("color.black")),
  );
  const message = h("p", { class: "message", role: "alert", "data-testid": "challenge-message" });
  const send = h("button", { type: "submit", class: "primary", "data-testid": "challenge-send" }, t("meet.send"));
  const close = h("button", { type: "button", "data-testid": "challenge-close" }, t("meet.close"));
  const result = h("div", { class: "challenge-result", "data-testid": "challenge-result", hidden: true });

  const sync = () => {
    nameField.disabled = toAnyone.checked;
    const correspondence = paceOf(pace.value);
    timed.disabled = !!correspondence;
    const clocked = correspondence ? correspondence.days !== undefined : timed.checked;
    rated.disabled = guest || !clocked;
    if (rated.disabled) rated.checked = false;
    ratedNote.textContent = guest ? t("meet.ratedGuest") : !clocked ? t("meet.ratedNeedsClock") : "";
    minutes.disabled = increment.disabled = !!correspondence || !timed.checked;
  };
  for (const el of [toPlayer, toAnyone, timed, pace]) el.addEventListener("change", sync);
  sync();

  const fields = h(
    "div",
    { class: "challenge-fields" },
    h(
      "fieldset",
      { class: "challenge-whom" },
      h("legend", {}, t("meet.whom")),
      h("label", { class: "whom-player" }, h("span", { class: "whom-choice" }, toPlayer, h("span", {}, t("meet.toPlayer"))), nameField),
      h("label", {}, h("span", { class: "whom-choice" }, toAnyone, h("span", {}, t("meet.toAnyone")))),
    ),
    h("label", {}, h("span", { class: "field-name" }, t("lobby.variant")), variant),
    h("label", {}, h("span", { class: "field-name" }, t("lobby.pace")), pace),
    h(
      "label",
      {},
      h("span", { class: "field-name" }, timed, " ", t("lobby.time")),
      // Minutes and increment stay together ("+ Sek." never alone on a line).
      h("span", { class: "time-units" }, h("span", { class: "opt-unit" }, minutes, " ", t("lobby.minutes")), " ", h("span", { class: "opt-unit" }, increment, " ", t("lobby.increment"))),
    ),
    h("label", {}, h("span", { class: "field-name" }, rated, " ", t("meet.ratedGame")), ratedNote),
    h("label", {}, h("span", { class: "field-name" }, t("meet.color")), color),
  );
  const form = h(
    "form",
    { class: "challenge-form", method: "dialog", novalidate: true },
    h("h2", {}, t("meet.challengeTitle")),
    fields,
    result,
    message,
    h("div", { class: "actions" }, send, close),
  ) as HTMLFormElement;
  const dialog = h("dialog", { class: "challenge-dialog", "data-testid": "challenge-dialog", "aria-label": t("meet.challengeTitle") }, form);

  close.addEventListener("click", () => dialog.close());
  // Another page (a pairing takes the player to the table): the form goes.
  const leave = () => dialog.close();
  window.addEventListener("hashchange", leave);
  dialog.addEventListener("close", () => {
    window.removeEventListener("hashchange", leave);
    dialog.remove();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void submit();
  });

  async function submit(): Promise<void> {
    message.textContent = "";
    const choice = challengeChoice({
      open: toAnyone.checked,
      name: nameField.value,
      variant: variant.value as VariantName,
      pace: pace.value,
      timed: timed.checked,
      minutes: Number(minutes.value),
      increment: Number(increment.value),
      rated: rated.checked,
      color: color.value as SeatColor | "random",
    });
    if (choice.to === "") {
      message.textContent = t("meet.needName");
      nameField.focus();
      return;
    }
    const before = new Set(store.list.all().map((e) => e.challenge.id));
    send.disabled = true;
    try {
      await conn.request({ type: "challenge", ...choice });
    } catch (err) {
      message.textContent = (err as Refused).text;
      send.disabled = false;
      return;
    }
    if (choice.to !== undefined) {
      // The panel shows it, waiting for the answer.
      dialog.close();
      return;
    }
    // An open challenge: its link, once its `challenge` message is here (it comes
    // before the reply, but need not).
    const shown = () => {
      const mine = store.list.outgoing(conn.player).find((x) => !x.challenge.to && !before.has(x.challenge.id));
      if (!mine) return false;
      fields.hidden = true;
      send.hidden = true;
      close.textContent = t("meet.done");
      result.hidden = false;
      replace(
        result,
        linkBox(challengeUrl(mine.challenge.id, location), t("meet.openLink")),
        h("p", { class: "hint" }, t("meet.openStands")),
      );
      return true;
    };
    if (!shown()) {
      const wait = () => {
        if (shown()) store.listeners.delete(wait);
      };
      store.listeners.add(wait);
      dialog.addEventListener("close", () => store.listeners.delete(wait));
    }
  }

  document.body.append(dialog);
  dialog.showModal();
  (name ? variant : nameField).focus();
  return dialog;
}

/**
 * A "Challenge <name>" button for a player's page: it opens the challenge form with the
 * name filled in. Hidden on one's own page. Returns the function that stops it.
 */
export function mountChallengeButton(container: HTMLElement, conn: Connection, name: string): () => void {
  const button = h(
    "button",
    { type: "button", class: "challenge-button", "data-testid": "challenge-player", onclick: () => openChallengeForm(conn, name) },
    t("meet.challengeName", { name }),
  );
  container.append(button);
  const stop = conn.onPlayer((me) => {
    button.hidden = me.name.toLowerCase() === name.toLowerCase();
  });
  return () => {
    stop();
    button.remove();
  };
}

// ---- The panel on every page ----

function goneWords(reason: string): string {
  switch (reason) {
    case "accepted":
      return t("meet.gone.accepted");
    case "declined":
      return t("meet.gone.declined");
    default:
      return t("meet.gone.canceled");
  }
}

/** Mounts the challenges panel (once, for the whole page) and the move to a table on `paired`. */
export function mountChallengeNotices(conn: Connection): () => void {
  const store = challengeStore(conn);
  let collapsed = false;
  let seen = new Set<string>();
  /** Per challenge: the refusal of the last answer, to show in its card. */
  const errors = new Map<string, string>();

  const toggle = h("button", { type: "button", class: "notices-toggle", "data-testid": "challenges-toggle" });
  const list = h("div", { class: "notices-list" });
  const panel = h("aside", { class: "notices", "data-testid": "challenges", "aria-live": "polite", hidden: true }, toggle, list);
  toggle.addEventListener("click", () => {
    collapsed = !collapsed;
    render();
  });

  async function answer(c: ChallengeView, type: "accept_challenge" | "decline_challenge" | "cancel_challenge"): Promise<void> {
    errors.delete(c.id);
    try {
      // Accepted: `paired` may come before this reply; it takes us to the table.
      await conn.request({ type, challenge: c.id });
    } catch (e) {
      errors.set(c.id, (e as Refused).text);
      render();
    }
  }

  function card(e: ChallengeEntry, me: PlayerView | null): HTMLElement {
    const c = e.challenge;
    const incoming = !isMe(c.from, me);
    const state = e.gone ? e.gone.reason : "standing";
    const title = incoming
      ? withName(t("meet.incoming"), nameEl(c.from))
      : c.to
        ? withName(t("meet.outgoing"), nameEl(c.to))
        : [t("meet.outgoingOpen")];
    const buttons = e.gone
      ? h("p", { class: `notice-gone ${e.gone.reason}`, "data-testid": "challenge-gone" }, goneWords(e.gone.reason))
      : incoming
        ? h(
            "div",
            { class: "notice-actions" },
            h("button", { type: "button", class: "primary", "data-testid": "challenge-accept", onclick: () => void answer(c, "accept_challenge") }, t("meet.accept")),
            h("button", { type: "button", "data-testid": "challenge-decline", onclick: () => void answer(c, "decline_challenge") }, t("meet.decline")),
          )
        : h(
            "div",
            { class: "notice-actions" },
            h("span", { class: "notice-waiting" }, t("meet.waiting")),
            h("button", { type: "button", "data-testid": "challenge-cancel", onclick: () => void answer(c, "cancel_challenge") }, t("meet.cancel")),
          );
    const error = errors.get(c.id);
    return h(
      "div",
      {
        class: `notice ${incoming ? "in" : "out"} ${state}`,
        "data-testid": "challenge-card",
        "data-challenge": c.id,
        "data-dir": incoming ? "in" : "out",
        "data-state": state,
      },
      h("p", { class: "notice-title" }, title),
      h("p", { class: "notice-game" }, `${gameLabel(c.options)} · ${colorWords(myColor(c, me))}`),
      !incoming && !c.to && !e.gone ? linkBox(challengeUrl(c.id, location), t("meet.linkLabel")) : null,
      error ? h("p", { class: "message", role: "alert" }, error) : null,
      buttons,
    );
  }

  function render(): void {
    const me = conn.player;
    const entries = [...store.list.incoming(me), ...store.list.outgoing(me)];
    // A new challenge to the player opens a folded panel.
    const fresh = store.list.incoming(me).filter((e) => !e.gone && !seen.has(e.challenge.id));
    if (fresh.length) {
      collapsed = false;
      play("challenge");
    }
    // The challenges that wait for the player's answer count in the tab's title.
    setTitleCount("challenges", store.list.incoming(me).filter((e) => !e.gone).length);
    seen = new Set(entries.map((e) => e.challenge.id));
    for (const id of errors.keys()) if (!seen.has(id)) errors.delete(id);
    panel.hidden = entries.length === 0;
    panel.classList.toggle("collapsed", collapsed);
    const standing = entries.filter((e) => !e.gone).length;
    toggle.textContent = t("meet.noticesTitle", { count: standing });
    toggle.setAttribute("aria-expanded", String(!collapsed));
    list.hidden = collapsed;
    replace(list, collapsed ? null : entries.map((e) => card(e, me)));
  }

  store.listeners.add(render);
  const stopLang = onLangChange(() => render());
  const stopPaired = conn.onMeet((msg) => {
    if (msg.type !== "paired") return;
    const hash = `#/table/${encodeURIComponent(msg.table)}`;
    if (location.hash !== hash) location.hash = hash;
  });
  document.body.append(panel);
  render();
  return () => {
    store.listeners.delete(render);
    stopLang();
    stopPaired();
    panel.remove();
  };
}
