// The tournaments (`#/tournaments`, GET /api/tournament): the arenas under way, those
// coming with a countdown, the last finished, each opening its page; and, for an
// account, the form that makes an arena (POST /api/tournament). The lobby's
// "Tournaments" box (`arenaBox`) shows the next few.

import "./tournaments.css";
import { api, apiForm } from "../api";
import type { Connection } from "../connection";
import { h, replace } from "../dom";
import { t, tn } from "../i18n";
import type { ArenaList, ArenaView } from "../protocol";
import { arenaForm, clockText, momentText, nextArenas, secondsLeft, type ArenaChoice } from "./tournament-model";

/** How often the list is asked for while it is seen. */
const POLL_MS = 10_000;

/** The address of an arena's page. */
export function arenaHash(id: string): string {
  return `#/tournament/${encodeURIComponent(id)}`;
}

/** One arena as a row: name, clock and length, players, the countdown. */
function arenaRow(arena: ArenaView, countdowns: Map<ArenaView, HTMLElement>): HTMLElement {
  const when = h("span", { class: "arena-when", "data-testid": "arena-when" });
  countdowns.set(arena, when);
  const kind = [clockText(arena), tn("arena.minutes", arena.minutes), arena.variant.name, arena.rated ? t("rating.rated") : t("rating.casual")].join(" · ");
  return h(
    "a",
    { class: "arena-row", href: arenaHash(arena.id), "data-testid": "arena-row", "data-arena": arena.id },
    h("span", { class: "arena-name" }, arena.fullName),
    h("span", { class: "arena-kind" }, kind),
    h("span", { class: "arena-players" }, tn("arena.players", arena.nbPlayers)),
    when,
  );
}

/** Keeps the countdowns of `rows` going from the list that came at `receivedAt`. */
function tick(countdowns: Map<ArenaView, HTMLElement>, receivedAt: number): void {
  const now = Date.now();
  for (const [arena, el] of countdowns) el.textContent = momentText(arena, secondsLeft(arena, receivedAt, now));
}

/** The list, asked for now, every [`POLL_MS`] and on `again()`. */
function arenaList(onList: (list: ArenaList, receivedAt: number) => void, onError: (text: string) => void): { again: () => void; stop: () => void } {
  let live = true;
  let asked = 0;
  async function load(): Promise<void> {
    const mine = ++asked;
    const answer = await api<ArenaList>("GET", "/api/tournament");
    if (!live || mine !== asked) return;
    if (answer.ok && answer.body) onList(answer.body, Date.now());
    else onError(answer.error ?? t("arena.failed", { status: answer.status }));
  }
  void load();
  const poll = window.setInterval(() => void load(), POLL_MS);
  return {
    again: () => void load(),
    stop: () => {
      live = false;
      window.clearInterval(poll);
    },
  };
}

/** The lobby's box of the arenas under way and coming. */
export function arenaBox(): { el: HTMLElement; destroy: () => void } {
  const body = h("div", { class: "arena-box-list", "data-testid": "lobby-arenas" });
  const countdowns = new Map<ArenaView, HTMLElement>();
  let receivedAt = 0;
  const list = arenaList(
    (arenas, at) => {
      receivedAt = at;
      countdowns.clear();
      const next = nextArenas(arenas, 3);
      replace(body, next.length ? next.map((a) => arenaRow(a, countdowns)) : h("p", { class: "hint" }, t("arena.none")));
      tick(countdowns, receivedAt);
    },
    () => {},
  );
  const timer = window.setInterval(() => tick(countdowns, receivedAt), 1000);
  const el = h("section", { class: "lobby-box arena-box" }, h("h2", {}, h("a", { href: "#/tournaments", "data-testid": "lobby-arenas-all" }, t("arena.title"))), body);
  return {
    el,
    destroy: () => {
      list.stop();
      window.clearInterval(timer);
    },
  };
}

/** A select of `values`, each shown by `label`, with `chosen` selected. */
function select(name: string, values: number[], chosen: number, label: (v: number) => string): HTMLSelectElement {
  const el = h("select", { name, "data-testid": `arena-${name}` }, values.map((v) => h("option", { value: String(v) }, label(v)))) as HTMLSelectElement;
  el.value = String(chosen);
  return el;
}

/** The form that makes an arena; `made` gets the new arena's id. */
function createForm(made: (id: string) => void): HTMLElement {
  const name = h("input", { name: "name", maxlength: 30, placeholder: t("arena.namePlaceholder"), "data-testid": "arena-name" }) as HTMLInputElement;
  const minutes = select("minutes", [20, 30, 45, 60, 90, 120, 180], 45, (v) => tn("arena.minutes", v));
  const clock = select("clock", [1, 2, 3, 5, 10, 15], 3, (v) => tn("arena.clockMinutes", v));
  const increment = select("increment", [0, 1, 2, 3, 5, 10], 2, (v) => tn("arena.incrementSeconds", v));
  const wait = select("wait", [0, 5, 15, 30, 60], 5, (v) => (v === 0 ? t("arena.startNow") : tn("arena.startIn", v)));
  const variant = h("select", { name: "variant", "data-testid": "arena-variant" }, h("option", { value: "standard" }, t("variant.standard")), h("option", { value: "blitz" }, t("variant.blitz"))) as HTMLSelectElement;
  const rated = h("input", { type: "checkbox", name: "rated", checked: "", "data-testid": "arena-rated" }) as HTMLInputElement;
  rated.checked = true;
  const bots = h("input", { type: "checkbox", name: "bots", "data-testid": "arena-bots" }) as HTMLInputElement;
  const message = h("p", { class: "message", role: "alert", "data-testid": "arena-message" });
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "arena-create" }, t("arena.create"));
  const labelled = (text: string, input: HTMLElement) => h("label", {}, h("span", {}, text), input);
  const form = h(
    "form",
    { class: "arena-form", "data-testid": "arena-form" },
    labelled(t("arena.name"), name),
    labelled(t("arena.length"), minutes),
    labelled(t("arena.clock"), clock),
    labelled(t("arena.increment"), increment),
    labelled(t("arena.starts"), wait),
    labelled(t("lobby.variant"), variant),
    h("label", { class: "check" }, rated, h("span", {}, t("rating.rated"))),
    h("label", { class: "check" }, bots, h("span", {}, t("arena.allowBots"))),
    h("div", { class: "actions" }, submit),
    message,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    message.textContent = "";
    const choice: ArenaChoice = {
      name: name.value,
      minutes: Number(minutes.value),
      clockMinutes: Number(clock.value),
      increment: Number(increment.value),
      wait: Number(wait.value),
      variant: variant.value === "blitz" ? "blitz" : "standard",
      rated: rated.checked,
      bots: bots.checked,
    };
    const answer = await apiForm<ArenaView>("/api/tournament", arenaForm(choice));
    submit.disabled = false;
    if (answer.ok && answer.body) made(answer.body.id);
    else message.textContent = answer.error ?? t("arena.failed", { status: answer.status });
  });
  return form;
}

export function mountTournaments(root: HTMLElement, conn: Connection): () => void {
  const status = h("p", { class: "arena-status", role: "status", "data-testid": "arenas-status" }, t("archive.loading"));
  const shelves = {
    started: h("div", { class: "arena-list", "data-testid": "arenas-started" }),
    created: h("div", { class: "arena-list", "data-testid": "arenas-created" }),
    finished: h("div", { class: "arena-list", "data-testid": "arenas-finished" }),
  };
  const countdowns = new Map<ArenaView, HTMLElement>();
  let receivedAt = 0;
  const list = arenaList(
    (arenas, at) => {
      receivedAt = at;
      status.hidden = true;
      countdowns.clear();
      for (const key of ["started", "created", "finished"] as const) {
        const rows = arenas[key];
        replace(shelves[key], rows.length ? rows.map((a) => arenaRow(a, countdowns)) : h("p", { class: "hint" }, t("arena.none")));
      }
      tick(countdowns, receivedAt);
    },
    (text) => {
      status.textContent = text;
      status.hidden = false;
    },
  );
  const timer = window.setInterval(() => tick(countdowns, receivedAt), 1000);
  const side = h("aside", { class: "arena-side" });
  const drawSide = () => {
    const me = conn.player;
    replace(
      side,
      h("h2", {}, t("arena.new")),
      me && !me.guest ? createForm((id) => (location.hash = arenaHash(id))) : h("p", { class: "hint", "data-testid": "arena-sign-in" }, t("arena.signInToCreate"), " ", h("a", { href: "#/account" }, t("nav.signIn"))),
    );
  };
  drawSide();
  const stopPlayer = conn.onPlayer(drawSide);
  root.append(
    h(
      "section",
      { class: "arenas-page", "data-testid": "tournaments" },
      h("h1", {}, t("arena.title")),
      h("p", { class: "hint arena-explain" }, t("arena.explain")),
      status,
      h(
        "div",
        { class: "arenas-grid" },
        h(
          "div",
          { class: "arena-shelves" },
          h("section", {}, h("h2", {}, t("arena.running")), shelves.started),
          h("section", {}, h("h2", {}, t("arena.coming")), shelves.created),
          h("section", {}, h("h2", {}, t("arena.finished")), shelves.finished),
        ),
        side,
      ),
    ),
  );
  return () => {
    list.stop();
    stopPlayer();
    window.clearInterval(timer);
  };
}
