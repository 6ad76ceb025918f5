// The page of an open challenge's link, `#/challenge/<id>`: who challenges, the game,
// and Accept (`paired` then takes both players to the table). The challenger sees their
// own link waiting, with the box to copy it; a challenge that ended says so.

import "./challenges.css";
import type { Connection, Refused } from "../connection";
import { h, replace } from "../dom";
import { t } from "../i18n";
import type { ChallengeView } from "../protocol";
import { challengeStore, linkBox, withName } from "./challenges";
import { challengeUrl, isMe, myColor } from "./meet";
import { colorWords, gameLabel, nameEl } from "./meet-words";

/** What the page shows: loading, the challenge, gone (404), or an error. */
type Loaded = { kind: "loading" } | { kind: "challenge"; challenge: ChallengeView } | { kind: "gone" } | { kind: "error"; text: string };

export function mountChallengeLink(root: HTMLElement, conn: Connection, id: string): () => void {
  const life = new AbortController();
  const store = challengeStore(conn);
  let loaded: Loaded = { kind: "loading" };
  let refusal = "";
  let accepting = false;

  const body = h("div", { class: "challenge-page-body" });
  const page = h(
    "section",
    { class: "challenge-page", "data-testid": "challenge-page" },
    h("h1", {}, t("meet.linkTitle")),
    body,
    h("p", {}, h("a", { href: "#/" }, t("table.back"))),
  );
  root.append(page);

  async function load(): Promise<void> {
    try {
      const response = await fetch(`/api/challenge/${encodeURIComponent(id)}`, { signal: life.signal });
      if (response.status === 404) loaded = { kind: "gone" };
      else if (!response.ok) loaded = { kind: "error", text: String(response.status) };
      else loaded = { kind: "challenge", challenge: (await response.json()) as ChallengeView };
    } catch (e) {
      if (life.signal.aborted) return;
      loaded = { kind: "error", text: String(e) };
    }
    render();
  }

  async function accept(): Promise<void> {
    refusal = "";
    accepting = true;
    render();
    try {
      // `paired` (maybe before this reply) takes us to the table.
      await conn.request({ type: "accept_challenge", challenge: id });
    } catch (e) {
      const err = e as Refused;
      if (err.code === "no_challenge") loaded = { kind: "gone" };
      else refusal = err.text;
    }
    accepting = false;
    if (!life.signal.aborted) render();
  }

  function render(): void {
    const me = conn.player;
    switch (loaded.kind) {
      case "loading":
        replace(body, h("p", { class: "hint" }, t("meet.loading")));
        return;
      case "gone":
        replace(body, h("p", { class: "challenge-gone", "data-testid": "challenge-link-gone" }, t("meet.linkGone")));
        return;
      case "error":
        replace(body, h("p", { class: "message", role: "alert" }, t("meet.linkError", { error: loaded.text })));
        return;
    }
    const c = loaded.challenge;
    // The challenger learns that it ended (`challenge_gone`); others find out on Accept.
    const gone = store.list.get(c.id)?.gone;
    if (gone && gone.reason !== "accepted") {
      loaded = { kind: "gone" };
      render();
      return;
    }
    const own = isMe(c.from, me);
    const forOther = !!c.to && !isMe(c.to, me) && !own;
    const who = own
      ? h("p", { class: "challenge-who", "data-testid": "challenge-link-waiting" }, t("meet.linkWaiting"))
      : forOther
        ? h("p", { class: "challenge-who" }, withName(t("meet.linkForOther"), nameEl(c.to!)))
        : h("p", { class: "challenge-who", "data-testid": "challenge-link-from" }, withName(t("meet.linkFrom"), nameEl(c.from)));
    replace(
      body,
      h(
        "div",
        { class: "challenge-card" },
        who,
        h("p", { class: "challenge-game", "data-testid": "challenge-link-game" }, gameLabel(c.options)),
        h("p", { class: "challenge-colors" }, colorWords(myColor(c, me))),
        own ? linkBox(challengeUrl(c.id, location), t("meet.openLink")) : null,
        refusal ? h("p", { class: "message", role: "alert", "data-testid": "challenge-link-message" }, refusal) : null,
        own || forOther
          ? null
          : h(
              "button",
              { type: "button", class: "primary", "data-testid": "challenge-link-accept", disabled: accepting || !me, onclick: () => void accept() },
              t("meet.accept"),
            ),
      ),
    );
  }

  const onStore = () => render();
  store.listeners.add(onStore);
  // Who we are decides between Accept and the challenger's waiting view.
  const stopPlayer = conn.onPlayer(() => render());
  render();
  void load();
  return () => {
    life.abort();
    store.listeners.delete(onStore);
    stopPlayer();
  };
}
