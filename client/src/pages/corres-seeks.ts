// The lobby's correspondence seeks ("Games across days"): seeks for games of days per
// turn that the server keeps whether or not their player is online
// (`/api/seeks/correspondence`), as on lichess's correspondence lobby. A row shows the
// player (rating, `?` while provisional), the variant, the days per turn, rated or
// casual and how long it has stood, with Accept (someone else's) or Withdraw (one's
// own); the form below posts a seek. The list is not pushed: it is asked for when the
// lobby opens, every 30 s while the page is seen, after each change and after a
// reconnect. Accepting goes to the new table; the seeker, if connected, gets `paired`.

import "./corres-seeks.css";
import { api } from "../api";
import type { Connection } from "../connection";
import { h, replace } from "../dom";
import { lang, t, tn } from "../i18n";
import { DAYS_PER_TURN, type PlayerView, type SeatColor, type SeekView, type VariantName } from "../protocol";
import { corresOrder, corresPace, corresSeekBody } from "./corres-model";
import { isMe, ratingLabel } from "./meet";
import { nameEl } from "./meet-words";
import { tableHash } from "./new-table";
import { relativeTime } from "./notify-model";

/** How often the list is asked for while the lobby is seen. */
export const CORRES_POLL_MS = 30_000;

/** The refusal's text from an error answer, or a generic one with its status. */
function refusalText(answer: { status: number; error?: string }): string {
  return answer.error ?? t("corres.failed", { status: answer.status });
}

export function corresSeeks(conn: Connection): { el: HTMLElement; destroy: () => void } {
  let live = true;
  let seeks: SeekView[] = [];
  let loaded = false;
  /** The last request made: an older answer that comes later is dropped. */
  let asked = 0;

  const list = h("div", { class: "corres-list", "data-testid": "corres-seeks" });
  const message = h("p", { class: "message corres-message", role: "alert", "data-testid": "corres-message" });

  // ---- The form ----
  const variant = h("select", { "data-testid": "corres-variant", "aria-label": t("lobby.variant") }) as HTMLSelectElement;
  for (const v of ["standard", "blitz"] as const) variant.append(h("option", { value: v }, t(`variant.${v}`)));
  const days = h("select", { "data-testid": "corres-days", "aria-label": t("lobby.pace") }) as HTMLSelectElement;
  for (const d of DAYS_PER_TURN) days.append(h("option", { value: String(d) }, tn("games.daysPerTurn", d)));
  days.append(h("option", { value: "unlimited" }, t("corres.unlimited")));
  days.value = "3";
  const rated = h("input", { type: "checkbox", "data-testid": "corres-rated" }) as HTMLInputElement;
  const bots = h("input", { type: "checkbox", "data-testid": "corres-bots" }) as HTMLInputElement;
  const post = h("button", { type: "submit", class: "primary", "data-testid": "corres-post" }, t("corres.post"));
  const ratedLabel = h("label", { class: "corres-check", title: "" }, rated, h("span", {}, t("meet.rated")));
  const form = h(
    "form",
    { class: "corres-form", "data-testid": "corres-form", novalidate: true },
    variant,
    days,
    ratedLabel,
    h("label", { class: "corres-check", title: t("meet.botsHint") }, bots, h("span", {}, t("meet.bots"))),
    post,
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void make();
  });
  days.addEventListener("change", renderForm);

  const guest = (): boolean => (conn.player ? !!conn.player.guest : true);

  function renderForm(): void {
    // A guest's games are casual; an unlimited game is never rated.
    const noRating = guest() ? t("meet.ratedGuest") : days.value === "unlimited" ? t("corres.unlimitedCasual") : null;
    rated.disabled = noRating !== null;
    if (noRating !== null) rated.checked = false;
    ratedLabel.title = noRating ?? "";
  }

  async function load(): Promise<void> {
    const mine = ++asked;
    const answer = await api<{ seeks: SeekView[] }>("GET", "/api/seeks/correspondence");
    if (!live || mine !== asked) return;
    if (answer.ok && answer.body) {
      seeks = answer.body.seeks;
      loaded = true;
      render();
    } else if (!loaded) {
      replace(list, h("p", { class: "empty" }, t("corres.failed", { status: answer.status })));
    }
  }

  async function make(): Promise<void> {
    message.textContent = "";
    post.disabled = true;
    const body = corresSeekBody({ variant: variant.value as VariantName, days: days.value === "unlimited" ? "unlimited" : Number(days.value), rated: rated.checked, bots: bots.checked });
    const answer = await api<SeekView>("POST", "/api/seeks/correspondence", body);
    if (!live) return;
    post.disabled = false;
    if (!answer.ok) message.textContent = refusalText(answer);
    await load();
  }

  async function withdraw(id: string): Promise<void> {
    message.textContent = "";
    const answer = await api<null>("DELETE", `/api/seeks/correspondence/${encodeURIComponent(id)}`);
    if (!live) return;
    if (!answer.ok && answer.status !== 404) message.textContent = refusalText(answer);
    await load();
  }

  async function accept(id: string): Promise<void> {
    message.textContent = "";
    const answer = await api<{ table: string; color: SeatColor }>("POST", `/api/seeks/correspondence/${encodeURIComponent(id)}/accept`);
    if (!live) return;
    if (answer.ok && answer.body) {
      location.hash = tableHash(answer.body.table);
      return;
    }
    message.textContent = refusalText(answer);
    await load();
  }

  function row(s: SeekView, me: PlayerView | null, now: number): HTMLElement {
    const own = isMe(s.player, me);
    const button = own
      ? h("button", { type: "button", "data-testid": "corres-withdraw", onclick: () => void withdraw(s.id) }, t("corres.withdraw"))
      : h("button", { type: "button", class: "primary", "data-testid": "corres-accept", onclick: () => void accept(s.id) }, t("meet.accept"));
    return h(
      "div",
      { class: own ? "corres-row own" : "corres-row", "data-testid": "corres-seek", "data-seek": s.id, "data-own": String(own) },
      h("span", { class: "corres-who" }, nameEl(s.player, "corres-player"), h("span", { class: "corres-rating", "data-testid": "corres-rating" }, ratingLabel(s))),
      h(
        "span",
        { class: "corres-game" },
        h("span", { class: "corres-pace", "data-testid": "corres-pace" }, corresPace(s.options.correspondence?.days)),
        h("span", { class: "corres-kind" }, `${t(`variant.${s.options.variant}`)} · ${s.options.rated ? t("meet.rated") : t("meet.casual")}`),
      ),
      s.created_at !== undefined ? h("time", { class: "corres-age", datetime: new Date(s.created_at).toISOString() }, relativeTime(s.created_at, now, lang())) : null,
      button,
    );
  }

  function render(): void {
    renderForm();
    if (!loaded) return;
    const me = conn.player;
    const now = Date.now();
    replace(list, seeks.length ? corresOrder(seeks, me).map((s) => row(s, me, now)) : h("p", { class: "empty", "data-testid": "corres-empty" }, t("corres.empty")));
  }

  void load();
  const poll = window.setInterval(() => {
    if (!document.hidden) void load();
  }, CORRES_POLL_MS);
  // Signed in or out, or back after a reconnect: whose seeks are whose, and what is new.
  const stopPlayer = conn.onPlayer(() => {
    render();
    void load();
  });
  render();

  const el = h(
    "section",
    { class: "lobby-section corres", "data-testid": "corres" },
    h("h2", {}, t("corres.title")),
    h("p", { class: "hint" }, t("corres.explain")),
    list,
    form,
    message,
  );
  return {
    el,
    destroy: () => {
      live = false;
      window.clearInterval(poll);
      stopPlayer();
    },
  };
}
