// Quick pairing in the lobby, as lichess.org's lobby has it: a grid of clocks to click
// (a seek for that game: the server pairs it with the next one alike), the variant and
// rated or casual, a custom clock, "Looking for an opponent… (m:ss)" with Cancel while
// the seek stands, and the other players' seeks to accept. `paired` (handled by
// challenges.ts, on every page) takes the player to the new table.

import "./quick.css";
import type { Connection, Refused } from "../connection";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { PlayerView, SeekView, TimeSetting, VariantName } from "../protocol";
import { openChallengeForm } from "./challenges";
import {
  INCREMENT,
  MINUTES,
  PRESETS,
  SeekTracker,
  customTime,
  isMe,
  ratingLabel,
  sameGame,
  seekOptions,
  speedOf,
  timeLabel,
  waited,
} from "./meet";
import { clockWords, gameLabel, nameEl } from "./meet-words";

/** The variant and mode last chosen, kept across visits. */
const PREFS = "yinsh.quick";

interface Prefs {
  variant: VariantName;
  rated: boolean;
  /** Bot accounts may be paired with my seeks. */
  bots: boolean;
}

function loadPrefs(): Prefs {
  try {
    const p = JSON.parse(localStorage.getItem(PREFS) ?? "{}") as Partial<Prefs>;
    return { variant: p.variant === "blitz" ? "blitz" : "standard", rated: p.rated === true, bots: p.bots === true };
  } catch {
    return { variant: "standard", rated: false, bots: false };
  }
}

function savePrefs(p: Prefs): void {
  try {
    localStorage.setItem(PREFS, JSON.stringify(p));
  } catch {
    // Not kept; still chosen now.
  }
}

/** The player's own seek for this connection: it outlives the lobby page (the seek
 * stands while the connection does), so the lobby shows it again when it comes back. */
const trackers = new WeakMap<Connection, { tracker: SeekTracker; listeners: Set<() => void> }>();

function trackerOf(conn: Connection): { tracker: SeekTracker; listeners: Set<() => void> } {
  let entry = trackers.get(conn);
  if (!entry) {
    const e = { tracker: new SeekTracker(), listeners: new Set<() => void>() };
    const changed = () => e.listeners.forEach((l) => l());
    conn.onMeet((msg) => {
      e.tracker.receive(msg, conn.player, Date.now());
      changed();
    });
    // A seek lives as long as its connection.
    conn.onState((state) => {
      if (state !== "open") {
        e.tracker.end();
        changed();
      }
    });
    trackers.set(conn, e);
    entry = e;
  }
  return entry;
}

/** A choice of two or more, as a row of buttons (one pressed). */
function segmented<V extends string>(
  label: string,
  testid: string,
  choices: { value: V; text: string }[],
  onPick: (v: V) => void,
): { el: HTMLElement; set: (v: V) => void; disable: (v: V, why: string | null) => void } {
  const buttons = choices.map((c) =>
    h(
      "button",
      { type: "button", class: "seg", "data-value": c.value, "data-testid": `${testid}-${c.value}`, onclick: () => onPick(c.value) },
      c.text,
    ),
  );
  const el = h("div", { class: "segmented", role: "group", "aria-label": label }, buttons);
  return {
    el,
    set: (v) => buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.value === v))),
    disable: (v, why) => {
      const b = buttons.find((x) => x.dataset.value === v)!;
      b.disabled = why !== null;
      if (why) b.title = why;
      else b.removeAttribute("title");
    },
  };
}

/** The quick pairing box for the lobby: presets, the own seek, the others' seeks. */
export function quickPairing(conn: Connection): { el: HTMLElement; destroy: () => void } {
  const { tracker, listeners } = trackerOf(conn);
  /** False once the lobby is gone: late answers draw nothing. */
  let live = true;
  const prefs = loadPrefs();
  const guest = (): boolean => (conn.player ? !!conn.player.guest : true);
  const rated = (): boolean => prefs.rated && !guest();

  // ---- Variant and mode ----
  const variantSwitch = segmented<VariantName>(
    t("lobby.variant"),
    "quick-variant",
    [
      { value: "standard", text: t("variant.standard") },
      { value: "blitz", text: t("variant.blitz") },
    ],
    (v) => {
      prefs.variant = v;
      savePrefs(prefs);
      render();
    },
  );
  const modeSwitch = segmented<"casual" | "rated">(
    t("meet.mode"),
    "quick-mode",
    [
      { value: "casual", text: t("meet.casual") },
      { value: "rated", text: t("meet.rated") },
    ],
    (v) => {
      prefs.rated = v === "rated";
      savePrefs(prefs);
      render();
    },
  );
  // Bots are paired only with people who say so (the server's rule too).
  const botsBox = h("input", { type: "checkbox", "data-testid": "quick-bots" }) as HTMLInputElement;
  botsBox.checked = prefs.bots;
  botsBox.addEventListener("change", () => {
    prefs.bots = botsBox.checked;
    savePrefs(prefs);
  });
  const botsSwitch = h("label", { class: "quick-bots", title: t("meet.botsHint") }, botsBox, " ", t("meet.bots"));
  const guestNote = h(
    "p",
    { class: "quick-note", "data-testid": "quick-rated-note", hidden: true },
    t("meet.ratedGuest"),
    " ",
    h("a", { href: "#/account" }, t("nav.signIn")),
  );

  // ---- The presets ----
  const presetButtons = PRESETS.map((p) =>
    h(
      "button",
      { type: "button", class: "quick-preset", "data-testid": `preset-${timeLabel(p)}`, "data-preset": timeLabel(p), onclick: () => void pick(p) },
      h("span", { class: "quick-clock" }, timeLabel(p)),
      h("span", { class: "quick-speed" }, t(`meet.speed.${speedOf(p)}`)),
    ),
  );
  const customButton = h(
    "button",
    { type: "button", class: "quick-preset custom", "data-testid": "preset-custom", "aria-expanded": "false" },
    h("span", { class: "quick-clock" }, t("meet.custom")),
    h("span", { class: "quick-speed" }, t("meet.customHint")),
  );
  const minutes = h("input", { type: "number", min: MINUTES.min, max: MINUTES.max, value: 20, "data-testid": "custom-minutes", "aria-label": t("lobby.minutes") }) as HTMLInputElement;
  const increment = h("input", { type: "number", min: INCREMENT.min, max: INCREMENT.max, value: 10, "data-testid": "custom-increment", "aria-label": t("lobby.increment") }) as HTMLInputElement;
  const customForm = h(
    "form",
    { class: "quick-custom", "data-testid": "custom-form", novalidate: true, hidden: true },
    h("span", { class: "opt-unit" }, minutes, " ", t("lobby.minutes")),
    h("span", { class: "opt-unit" }, increment, " ", t("lobby.increment")),
    h("button", { type: "submit", class: "primary", "data-testid": "custom-seek" }, t("meet.customSeek")),
  ) as HTMLFormElement;
  customButton.addEventListener("click", () => {
    customForm.hidden = !customForm.hidden;
    customButton.setAttribute("aria-expanded", String(!customForm.hidden));
    if (!customForm.hidden) minutes.focus();
  });
  customForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const time = customTime(minutes.value, increment.value);
    if (!time) {
      message.textContent = t("meet.customInvalid");
      return;
    }
    void seek(time);
  });

  // ---- Seeking ----
  const seekingText = h("span", { class: "quick-seeking-text" });
  const seekingGame = h("span", { class: "quick-seeking-game", "data-testid": "seeking-game" });
  const cancel = h("button", { type: "button", "data-testid": "cancel-seek", onclick: () => void cancelSeek() }, t("meet.cancel"));
  const seekingBar = h(
    "div",
    { class: "quick-seeking", "data-testid": "seeking", role: "status", hidden: true },
    h("span", { class: "spinner", "aria-hidden": "true" }),
    h("span", { class: "quick-seeking-words" }, seekingText, seekingGame),
    cancel,
  );
  const message = h("p", { class: "message quick-message", role: "alert", "data-testid": "quick-message" });

  /** A preset: seeks that game, or, when it is the game sought already, stops (as on lichess.org). */
  function pick(time: TimeSetting): void {
    const now = tracker.seeking();
    if (now && sameGame(now.options, seekOptions(time, prefs.variant, rated()))) void cancelSeek();
    else void seek(time);
  }

  async function seek(time: TimeSetting): Promise<void> {
    message.textContent = "";
    const options = seekOptions(time, prefs.variant, rated());
    tracker.sent(options, Date.now());
    render();
    try {
      await conn.request(prefs.bots ? { type: "seek", options, bots: true } : { type: "seek", options });
      tracker.answered(true);
    } catch (e) {
      tracker.answered(false);
      if (live) message.textContent = (e as Refused).text;
    }
    if (live) render();
  }

  async function cancelSeek(): Promise<void> {
    message.textContent = "";
    tracker.end();
    render();
    // `no_seek`: it ended already (paired a moment ago, or the connection dropped).
    await conn.request({ type: "cancel_seek" }).catch(() => undefined);
  }

  // ---- The others' seeks ----
  const seekList = h("div", { class: "seek-list", "data-testid": "seeks" });

  function seekRow(s: SeekView, me: PlayerView | null): HTMLElement {
    const own = isMe(s.player, me);
    const accept = own
      ? h("span", { class: "seek-own" }, t("meet.yourSeek"))
      : h("button", { type: "button", class: "primary", "data-testid": "accept-seek", onclick: () => void acceptSeek(s.id) }, t("meet.accept"));
    return h(
      "div",
      { class: own ? "seek-row own" : "seek-row", "data-testid": "seek-row", "data-seek": s.id, "data-own": String(own) },
      nameEl(s.player, "seek-player"),
      h("span", { class: "seek-rating", "data-testid": "seek-rating" }, ratingLabel(s)),
      h(
        "span",
        { class: "seek-game" },
        h("span", { class: "seek-clock" }, s.options.time ? clockWords(s.options.time) : t("opt.untimed")),
        h("span", { class: "seek-kind" }, `${t(`variant.${s.options.variant}`)} · ${s.options.rated ? t("meet.rated") : t("meet.casual")}`),
      ),
      accept,
    );
  }

  const seeksMessage = h("p", { class: "message quick-message", role: "alert", "data-testid": "seeks-message" });

  async function acceptSeek(id: string): Promise<void> {
    seeksMessage.textContent = "";
    try {
      // `paired` comes first (maybe before this reply) and takes us to the table.
      await conn.request({ type: "accept_seek", seek: id });
    } catch (e) {
      if (live) seeksMessage.textContent = (e as Refused).text;
    }
  }

  // ---- Drawing ----
  function renderSeeking(): void {
    const s = tracker.seeking();
    seekingBar.hidden = !s;
    for (const b of presetButtons) {
      const p = PRESETS.find((x) => timeLabel(x) === b.dataset.preset)!;
      const on = !!s && sameGame(s.options, seekOptions(p, prefs.variant, rated()));
      b.setAttribute("aria-pressed", String(on));
    }
    if (!s) return;
    seekingText.textContent = t("meet.seeking", { time: waited(Date.now() - s.since) });
    seekingGame.textContent = gameLabel(s.options);
  }

  function renderSeeks(): void {
    const seeks = conn.seeks() ?? [];
    const me = conn.player;
    replace(
      seekList,
      seeks.length ? seeks.map((s) => seekRow(s, me)) : h("p", { class: "empty", "data-testid": "seeks-empty" }, t("meet.seeksEmpty")),
    );
  }

  function render(): void {
    variantSwitch.set(prefs.variant);
    modeSwitch.set(rated() ? "rated" : "casual");
    modeSwitch.disable("rated", guest() ? t("meet.ratedGuest") : null);
    guestNote.hidden = !guest();
    renderSeeking();
    renderSeeks();
  }

  const tick = window.setInterval(() => {
    if (tracker.seeking()) renderSeeking();
  }, 1000);
  const onChange = () => render();
  listeners.add(onChange);
  const stopPlayer = conn.onPlayer(() => render());
  render();

  const challengeButton = h(
    "button",
    { type: "button", class: "quick-challenge", "data-testid": "open-challenge-form", onclick: () => openChallengeForm(conn) },
    t("meet.challengeButton"),
  );

  const el = h(
    "section",
    { class: "quick", "data-testid": "quick" },
    h(
      "div",
      { class: "quick-pairing" },
      h(
        "div",
        { class: "quick-head" },
        h("h2", {}, t("meet.quickTitle")),
        h("div", { class: "quick-switches" }, variantSwitch.el, modeSwitch.el, botsSwitch),
      ),
      guestNote,
      h("div", { class: "quick-grid", "data-testid": "presets" }, presetButtons, customButton),
      customForm,
      seekingBar,
      message,
    ),
    h(
      "div",
      { class: "quick-seeks" },
      h("div", { class: "quick-head" }, h("h2", {}, t("meet.seeksTitle")), challengeButton),
      seekList,
      seeksMessage,
    ),
  );
  return {
    el,
    destroy: () => {
      live = false;
      listeners.delete(onChange);
      stopPlayer();
      window.clearInterval(tick);
    },
  };
}
