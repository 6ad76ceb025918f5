// The lobby: the open tables, live; creating a table; playing the engine in one click.

import type { Connection, Refused } from "../connection";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { PlayerView, TableOptions, TableSummary } from "../protocol";
import { describeOptions } from "./options";

export function mountLobby(root: HTMLElement, conn: Connection): () => void {
  const tables = new Map<string, TableSummary>();
  // The list scrolls sideways within itself when it is wider than a phone's screen, rather
  // than widening the whole page (which a phone then shows zoomed out).
  const list = h("div", { class: "tables", "data-testid": "tables" });
  const message = h("p", { class: "message", role: "alert" });

  const form = optionsForm();
  const create = h(
    "button",
    { type: "submit", class: "primary", "data-testid": "create-table" },
    t("lobby.create"),
  );
  const level = h("select", { "data-testid": "engine-level", "aria-label": t("lobby.level") }) as HTMLSelectElement;
  for (let l = 1; l <= 10; l++) level.append(h("option", { value: l }, `${t("lobby.level")} ${l}`));
  level.value = "3";
  const playEngine = h(
    "button",
    { type: "button", "data-testid": "play-engine" },
    t("lobby.playEngine"),
  );

  form.el.append(h("div", { class: "actions" }, create, level, playEngine));
  form.el.addEventListener("submit", (e) => {
    e.preventDefault();
    void open(form.read(), null);
  });
  playEngine.addEventListener("click", () => void open(form.read(), Number(level.value)));

  /** Creates a table, sits down (and seats the engine), and goes there. */
  async function open(options: TableOptions, engineLevel: number | null): Promise<void> {
    message.textContent = "";
    try {
      const created = await conn.request({ type: "create_table", options });
      const table = created.table!;
      if (engineLevel !== null) {
        // Open first: the table's commands need it; the table page opens it again.
        await conn.request({ type: "open", table });
        await conn.request({ type: "command", table, command: "join", color: "white" });
        await conn.request({ type: "command", table, command: "bot", level: engineLevel });
        await conn.request({ type: "command", table, command: "start" });
      }
      location.hash = `#/table/${encodeURIComponent(table)}`;
    } catch (e) {
      message.textContent = (e as Refused).text;
    }
  }

  function seat(p: PlayerView | null | undefined): string {
    if (!p) return t("seat.free");
    return p.bot ? `${t("table.bot")} ${p.bot}` : p.name;
  }

  function render(): void {
    const rows = [...tables.values()];
    if (rows.length === 0) {
      replace(list, h("p", { class: "empty" }, t("lobby.empty")));
      return;
    }
    replace(
      list,
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, t("lobby.seats")),
            h("th", {}, t("lobby.options")),
            h("th", {}, t("lobby.spectators")),
            h("th", {}, t("lobby.status")),
            h("th", {}),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((s) => {
            const free = !s.seats.white || !s.seats.black;
            return h(
              "tr",
              { "data-testid": "table-row", "data-table": s.id },
              h("td", {}, `${seat(s.seats.white)} – ${seat(s.seats.black)}`),
              h("td", {}, describeOptions(s.options)),
              h("td", {}, s.spectators),
              h("td", {}, t(`status.${s.status}`)),
              h(
                "td",
                {},
                h(
                  "a",
                  { class: "button", href: `#/table/${encodeURIComponent(s.id)}` },
                  free && s.status === "waiting" ? t("lobby.sit") : t("lobby.watch"),
                ),
              ),
            );
          }),
        ),
      ),
    );
  }

  const stop = conn.watchLobby((msg) => {
    if (msg.type === "lobby") {
      tables.clear();
      for (const s of msg.tables) tables.set(s.id, s);
    } else if (msg.type === "lobby_table") {
      tables.set(msg.table.id, msg.table);
    } else if (msg.type === "lobby_removed") {
      tables.delete(msg.table);
    }
    render();
  });
  render();

  root.append(
    h(
      "section",
      { class: "lobby" },
      h("h1", {}, t("lobby.title")),
      list,
      h("h2", {}, t("lobby.create")),
      form.el,
      message,
      sessionBox(),
    ),
  );
  return stop;
}

/** "Sign out other devices": the session gets a new token (`POST /api/session/rotate`);
 * every other holder of the old cookie becomes a new guest, this browser keeps the name
 * (its own connection is closed by the server and comes back with the new cookie). */
function sessionBox(): HTMLElement {
  const result = h("p", { role: "status", "data-testid": "rotate-result" });
  const button = h("button", { type: "button", "data-testid": "rotate-session" }, t("session.rotate"));
  button.onclick = async () => {
    button.disabled = true;
    try {
      const response = await fetch("/api/session/rotate", { method: "POST" });
      if (response.ok) {
        result.textContent = t("session.rotated");
      } else {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        result.textContent = t("session.failed", { reason: body?.error ?? String(response.status) });
      }
    } catch (e) {
      result.textContent = t("session.failed", { reason: String(e) });
    } finally {
      button.disabled = false;
    }
  };
  return h("div", { class: "session" }, h("h2", {}, t("session.title")), h("p", {}, t("session.explain")), button, result);
}

/** The table options form (also used at the table between games). */
export function optionsForm(initial?: TableOptions): { el: HTMLFormElement; read: () => TableOptions } {
  const o: TableOptions = initial ?? { variant: "standard", log: true, time: { minutes: 10, increment: 5 } };
  const variant = h("select", { name: "variant", "data-testid": "opt-variant" }) as HTMLSelectElement;
  for (const v of ["standard", "blitz"] as const) variant.append(h("option", { value: v }, t(`variant.${v}`)));
  variant.value = o.variant;
  const timed = h("input", { type: "checkbox", name: "timed", "data-testid": "opt-timed" }) as HTMLInputElement;
  timed.checked = !!o.time;
  const minutes = h("input", { type: "number", min: 1, max: 180, value: o.time?.minutes ?? 10, name: "minutes", "data-testid": "opt-minutes", "aria-label": t("lobby.minutes") }) as HTMLInputElement;
  const increment = h("input", { type: "number", min: 0, max: 60, value: o.time?.increment ?? 0, name: "increment", "data-testid": "opt-increment", "aria-label": t("lobby.increment") }) as HTMLInputElement;
  const log = h("input", { type: "checkbox", name: "log", "data-testid": "opt-log" }) as HTMLInputElement;
  log.checked = o.log;
  const handicapOn = h("input", { type: "checkbox", name: "handicap", "data-testid": "opt-handicap" }) as HTMLInputElement;
  handicapOn.checked = !!o.handicap;
  const hw = h("input", { type: "number", min: 1, max: 5, value: o.handicap?.white ?? 3, "aria-label": t("color.white"), "data-testid": "opt-handicap-white" }) as HTMLInputElement;
  const hb = h("input", { type: "number", min: 1, max: 5, value: o.handicap?.black ?? 3, "aria-label": t("color.black"), "data-testid": "opt-handicap-black" }) as HTMLInputElement;
  const turns = h("input", { type: "number", min: 1, max: 1000, value: o.turn_limit ?? "", placeholder: t("lobby.none"), name: "turns", "data-testid": "opt-turns", "aria-label": t("lobby.turnLimit") }) as HTMLInputElement;

  const el = h(
    "form",
    { class: "options" },
    h("label", {}, t("lobby.variant"), " ", variant),
    h("label", {}, timed, " ", t("lobby.time"), " ", minutes, " ", t("lobby.minutes"), " ", increment, " ", t("lobby.increment")),
    h("label", {}, log, " ", t("lobby.log")),
    h("label", {}, handicapOn, " ", t("lobby.handicap"), " ", hw, " – ", hb),
    h("label", {}, t("lobby.turnLimit"), " ", turns),
  ) as HTMLFormElement;

  const read = (): TableOptions => {
    const options: TableOptions = { variant: variant.value as TableOptions["variant"], log: log.checked };
    if (timed.checked) options.time = { minutes: Number(minutes.value) || 10, increment: Number(increment.value) || 0 };
    if (handicapOn.checked) options.handicap = { white: Number(hw.value) || 3, black: Number(hb.value) || 3 };
    if (turns.value.trim() !== "") options.turn_limit = Number(turns.value);
    return options;
  };
  return { el, read };
}
