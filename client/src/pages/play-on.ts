// "Play on from here": a new table that begins at the position on show — in the replay
// viewer at any frame, and on the analysis board — against the engine (any level,
// either colour) or a friend (the table's invitation link). The server takes the
// variant, targets and turn limit from the position, and such games are never rated.

import "./play-on.css";
import type { Connection, Refused } from "../connection";
import { h } from "../dom";
import { t } from "../i18n";
import type { TableOptions, TimeSetting } from "../protocol";
import { fillLevels } from "./engine-levels";
import { pickColor } from "./lobby-sections";
import { newTable, tableHash } from "./new-table";

/** The clocks offered (minutes + increment); the first choice is untimed. */
export const CLOCKS: readonly TimeSetting[] = [
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
];

/** Whether a game can go on from position string `fen`: a position that is not finished. */
export function canPlayOn(fen: string | null): fen is string {
  if (fen === null) return false;
  const fields = fen.trim().split(/\s+/);
  return fields.length >= 3 && fields[2] !== "end";
}

/** The options of a table that begins at `fen`, with the clock chosen (`""`: untimed). */
export function playOnOptions(fen: string, clock: string): TableOptions {
  const time = CLOCKS[Number(clock)];
  return { variant: "standard", log: true, position: fen, ...(clock !== "" && time ? { time } : {}) };
}

export interface PlayOn {
  /** The panel. */
  el: HTMLElement;
  /** The position a new game would begin from (`null`: none). */
  setPosition(fen: string | null): void;
}

/** The panel; its buttons start a game from the position last set. */
export function playOnPanel(conn: Connection): PlayOn {
  let position: string | null = null;
  const clock = h("select", { "data-testid": "play-on-clock", "aria-label": t("playOn.clock") }) as HTMLSelectElement;
  clock.append(h("option", { value: "" }, t("opt.untimed")));
  CLOCKS.forEach((c, i) => clock.append(h("option", { value: String(i) }, t("opt.time", { minutes: c.minutes, increment: c.increment }))));
  const color = h("select", { "data-testid": "play-on-color", "aria-label": t("lobby.playAs") }) as HTMLSelectElement;
  color.append(
    h("option", { value: "white" }, t("color.white")),
    h("option", { value: "black" }, t("color.black")),
    h("option", { value: "random" }, t("lobby.random")),
  );
  const level = h("select", { "data-testid": "play-on-level", "aria-label": t("lobby.level") }) as HTMLSelectElement;
  fillLevels(level, 3);
  const engine = h("button", { type: "button", class: "primary", "data-testid": "play-on-engine" }, t("lobby.playEngine"));
  const friend = h("button", { type: "button", "data-testid": "play-on-friend" }, t("playOn.friend"));
  const note = h("p", { class: "hint", "data-testid": "play-on-note" });
  const message = h("p", { class: "message", role: "alert" });

  async function start(withEngine: boolean): Promise<void> {
    if (!canPlayOn(position)) return;
    message.textContent = "";
    engine.disabled = friend.disabled = true;
    try {
      const seating = {
        color: pickColor(color.value as "white" | "black" | "random"),
        engine: withEngine ? Number(level.value) : null,
      };
      location.hash = tableHash(await newTable(conn, playOnOptions(position, clock.value), seating));
    } catch (e) {
      message.textContent = (e as Refused).text;
      update();
    }
  }
  engine.addEventListener("click", () => void start(true));
  friend.addEventListener("click", () => void start(false));

  function update(): void {
    const ok = canPlayOn(position);
    engine.disabled = friend.disabled = !ok;
    note.textContent = ok ? t("playOn.explain") : t("playOn.finished");
  }
  update();

  // Folded until asked for: the pages it sits in are full already.
  const el = h(
    "details",
    { class: "play-on", "data-testid": "play-on" },
    h("summary", { "data-testid": "play-on-open" }, t("playOn.title")),
    note,
    h(
      "div",
      { class: "play-on-choices" },
      h("label", {}, h("span", {}, t("playOn.clock")), clock),
      h("label", {}, h("span", {}, t("lobby.playAs")), color),
      h("label", {}, h("span", {}, t("lobby.level")), level),
    ),
    h("div", { class: "play-on-actions" }, engine, friend),
    message,
  );
  return {
    el,
    setPosition(fen) {
      position = fen;
      update();
    },
  };
}
