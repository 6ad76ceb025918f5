// The account page's personal API tokens: a program shows one to the HTTP API
// (`Authorization: Bearer yat_…`) to act for the account within its scopes. Listed
// with their scopes and use, made with a name and scopes (the token is shown once,
// to copy), revoked with a click (docs/protocol.md, "API tokens").

import "./account.css";
import { h, replace } from "../dom";
import { t, type Key } from "../i18n";
import type { NewToken, Scope, TokenView } from "../protocol";
import { api } from "../api";
import { formatDate } from "./archive";

/** The scopes a token may carry, with what each lets a program do. */
export const SCOPES: readonly { scope: Scope; label: Key }[] = [
  { scope: "bot:play", label: "tokens.scopeBot" },
  { scope: "challenge:write", label: "tokens.scopeChallenge" },
  { scope: "board:play", label: "tokens.scopeBoard" },
  { scope: "tournament:write", label: "tokens.scopeTournament" },
];

/** Why a token asked for would be refused; null when the server will take it. */
export function tokenProblem(name: string, scopes: readonly string[]): Key | null {
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > 40) return "tokens.nameLength";
  if (scopes.length === 0) return "tokens.noScope";
  return null;
}

/** The panel; `alive` says whether the page is still shown (answers after are dropped). */
export function tokensPanel(alive: () => boolean): HTMLElement {
  const list = h("ul", { class: "sessions tokens", "data-testid": "token-list" });
  const name = h("input", { type: "text", maxlength: 40, required: true, "data-testid": "token-name", autocomplete: "off" }) as HTMLInputElement;
  const boxes = SCOPES.map(({ scope, label }) => {
    const box = h("input", { type: "checkbox", value: scope, "data-testid": `token-scope-${scope}` }) as HTMLInputElement;
    return { box, row: h("label", { class: "token-scope" }, box, h("code", {}, scope), ` ${t(label)}`) };
  });
  const message = h("p", { class: "form-message", role: "alert", "data-testid": "token-message" });
  const create = h("button", { type: "submit", class: "primary", "data-testid": "token-create" }, t("tokens.create"));
  const secret = h("code", { class: "token-secret", "data-testid": "token-secret" });
  const copy = h("button", { type: "button", "data-testid": "token-copy" }, t("tokens.copy"));
  const fresh = h("div", { class: "token-new", "data-testid": "token-new", hidden: true }, h("p", {}, t("tokens.shownOnce")), secret, copy);
  copy.onclick = () => {
    void navigator.clipboard?.writeText(secret.textContent ?? "").then(() => (copy.textContent = t("tokens.copied")));
  };
  const form = h(
    "form",
    { class: "token-form", "data-testid": "token-form" },
    h("label", {}, t("tokens.name"), name),
    h("fieldset", {}, h("legend", {}, t("tokens.scopes")), ...boxes.map((b) => b.row)),
    create,
    message,
  ) as HTMLFormElement;

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const scopes = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
    const problem = tokenProblem(name.value, scopes);
    if (problem) {
      message.textContent = t(problem);
      return;
    }
    create.disabled = true;
    const answer = await api<NewToken>("POST", "/api/token", { name: name.value, scopes });
    create.disabled = false;
    if (!alive()) return;
    if (!answer.ok || !answer.body) {
      message.textContent = answer.error ?? t("account.failed", { status: answer.status });
      return;
    }
    message.textContent = "";
    name.value = "";
    for (const b of boxes) b.box.checked = false;
    secret.textContent = answer.body.token;
    copy.textContent = t("tokens.copy");
    fresh.hidden = false;
    void load();
  });

  async function load(): Promise<void> {
    const answer = await api<TokenView[]>("GET", "/api/token");
    if (!alive() || !answer.ok || !answer.body) return;
    replace(
      list,
      answer.body.length === 0 ? h("li", { class: "empty" }, t("tokens.none")) : null,
      ...answer.body.map((token) => {
        const revoke = h("button", { type: "button", "data-testid": "token-revoke" }, t("tokens.revoke"));
        revoke.onclick = async () => {
          revoke.disabled = true;
          await api("DELETE", `/api/token/${token.id}`);
          void load();
        };
        const used = token.last_used_at === undefined ? t("tokens.unused") : t("tokens.used", { date: formatDate(token.last_used_at) });
        return h(
          "li",
          { "data-testid": "token", "data-id": String(token.id) },
          h("strong", { "data-testid": "token-label" }, token.name),
          " ",
          h("span", { class: "token-scopes" }, token.scopes.join(", ")),
          h("br"),
          h("span", { class: "hint" }, `${t("tokens.made", { date: formatDate(token.created_at) })} · ${used}`),
          " ",
          revoke,
        );
      }),
    );
  }
  void load();

  return h("div", { class: "account-form", "data-testid": "tokens" }, h("h2", {}, t("tokens.title")), h("p", { class: "hint" }, t("tokens.hint")), list, fresh, form);
}
