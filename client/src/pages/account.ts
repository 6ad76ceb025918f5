// The account page (#/account): for a guest, creating an account (keeping the guest's
// seats and games) or logging in; for an account, logging out, the password and the
// sessions, the personal API tokens (tokens.ts), which notifications the bell brings
// (notify-settings.ts) and the email address and what is mailed (mail-settings.ts,
// also "Forgot your password?" beside the log-in). Everything goes through the
// server's /api/account, /api/token, /api/notifications and /api/account/mail endpoints.

import "./account.css";
import { h, replace } from "../dom";
import { t, type Key } from "../i18n";
import type { AccountView, SessionView } from "../protocol";
import { formatDate } from "./archive";
import { tokensPanel } from "./tokens";
import { notifySettingsPanel } from "./notify-settings";
import { playSettingsPanel } from "./play-settings";
import { forgotPassword, mailSettingsPanel } from "./mail-settings";
import { api } from "../api";

/** Why a wanted name or password will be refused, as the server's rules say; null if fine. */
export function nameProblem(name: string): Key | null {
  if (name.length < 2 || name.length > 20) return "account.nameLength";
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return "account.nameChars";
  return null;
}

export function passwordProblem(password: string): Key | null {
  if ([...password].length < 8) return "account.passwordShort";
  if (new TextEncoder().encode(password).length > 256) return "account.passwordLong";
  return null;
}

/** What the page says for a refused request, by its status (the server's text otherwise). */
export function refusalText(status: number, serverText: string | undefined): string {
  switch (status) {
    case 401:
      return t("account.wrong");
    case 409:
      return serverText === "that name is taken" ? t("account.taken") : t("account.already");
    case 429:
      return t("account.tooMany");
    case 403:
      return t("account.forbidden");
    default:
      return serverText ?? t("account.failed", { status });
  }
}

/**
 * Mounts the page; `changed` is called after a register, log-in or log-out (the server
 * closes the connection of the old session, which comes back as the new player).
 */
export function mountAccount(root: HTMLElement, changed: () => void): () => void {
  const page = h("section", { class: "account-page", "data-testid": "account-page" });
  root.append(page);
  let alive = true;

  /** A form with a name (optional) and a password field, and its submit button. */
  function credentialsForm(testid: string, titleKey: Key, submitKey: Key, withName: boolean, autocomplete: string, passwordKey: Key = "account.password") {
    const name = h("input", { type: "text", name: "name", autocomplete: "username", required: true, maxlength: 20, "data-testid": `${testid}-name` }) as HTMLInputElement;
    const password = h("input", { type: "password", name: "password", autocomplete, required: true, "data-testid": `${testid}-password` }) as HTMLInputElement;
    const message = h("p", { class: "form-message", role: "alert", "data-testid": `${testid}-message` });
    const submit = h("button", { type: "submit", class: "primary", "data-testid": `${testid}-submit` }, t(submitKey));
    const form = h(
      "form",
      { class: "account-form", "data-testid": testid },
      h("h2", {}, t(titleKey)),
      withName ? h("label", {}, t("account.name"), name) : null,
      h("label", {}, t(passwordKey), password),
      submit,
      message,
    ) as HTMLFormElement;
    return { form, name, password, message, submit };
  }

  async function show(): Promise<void> {
    const me = await api<AccountView>("GET", "/api/account");
    if (!alive) return;
    if (me.ok && me.body?.registered) showAccount(me.body);
    else showGuest(me.body?.name ?? null);
  }

  function showGuest(guestName: string | null): void {
    const register = credentialsForm("register", "account.registerTitle", "account.register", true, "new-password");
    const login = credentialsForm("login", "account.loginTitle", "account.login", true, "current-password");
    register.form.append(h("p", { class: "hint" }, t("account.registerHint")));
    register.form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const problem = nameProblem(register.name.value) ?? passwordProblem(register.password.value);
      if (problem) {
        register.message.textContent = t(problem);
        return;
      }
      register.submit.disabled = true;
      const answer = await api<AccountView>("POST", "/api/account/register", { name: register.name.value, password: register.password.value });
      register.submit.disabled = false;
      if (!answer.ok) {
        register.message.textContent = refusalText(answer.status, answer.error);
        return;
      }
      changed();
      void show();
    });
    login.form.addEventListener("submit", async (e) => {
      e.preventDefault();
      login.submit.disabled = true;
      const answer = await api<AccountView>("POST", "/api/account/login", { name: login.name.value, password: login.password.value });
      login.submit.disabled = false;
      if (!answer.ok) {
        login.message.textContent = refusalText(answer.status, answer.error);
        login.password.value = "";
        return;
      }
      changed();
      void show();
    });
    replace(
      page,
      h("h1", {}, t("account.title")),
      guestName ? h("p", { "data-testid": "account-guest" }, t("account.guestNow", { name: guestName })) : null,
      h("div", { class: "account-forms" }, register.form, h("div", { class: "account-login" }, login.form, forgotPassword())),
    );
  }

  function showAccount(me: AccountView): void {
    const logout = h("button", { type: "button", class: "logout", "data-testid": "logout" }, t("account.logout"));
    logout.onclick = async () => {
      logout.disabled = true;
      await api("POST", "/api/account/logout");
      changed();
      void show();
    };
    const change = credentialsForm("password", "account.passwordTitle", "account.changePassword", false, "new-password", "account.newPassword");
    const old = h("input", { type: "password", name: "old", autocomplete: "current-password", required: true, "data-testid": "password-old" }) as HTMLInputElement;
    change.form.insertBefore(h("label", {}, t("account.oldPassword"), old), change.form.children[1]);
    change.form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const problem = passwordProblem(change.password.value);
      if (problem) {
        change.message.textContent = t(problem);
        return;
      }
      const answer = await api("POST", "/api/account/password", { old: old.value, new: change.password.value });
      old.value = "";
      change.password.value = "";
      change.message.textContent = answer.ok ? t("account.passwordChanged") : refusalText(answer.status, answer.error);
      if (answer.ok) void loadSessions();
    });
    const sessions = h("ul", { class: "sessions", "data-testid": "sessions" });
    const endOthers = h("button", { type: "button", "data-testid": "end-others" }, t("account.endOthers"));
    endOthers.onclick = async () => {
      await api("DELETE", "/api/account/sessions");
      void loadSessions();
    };
    async function loadSessions(): Promise<void> {
      const answer = await api<SessionView[]>("GET", "/api/account/sessions");
      if (!alive || !answer.ok || !answer.body) return;
      replace(
        sessions,
        answer.body.map((s) => {
          const end = h("button", { type: "button", "data-testid": "end-session" }, t("account.endSession"));
          end.onclick = async () => {
            await api("DELETE", `/api/account/sessions/${encodeURIComponent(s.id)}`);
            void loadSessions();
          };
          return h(
            "li",
            { "data-testid": "session", "data-current": String(s.current) },
            t("account.since", { date: formatDate(s.created_at) }),
            s.current ? h("strong", {}, ` · ${t("account.thisDevice")}`) : end,
          );
        }),
      );
    }
    replace(
      page,
      h("h1", {}, t("account.title")),
      h("p", { "data-testid": "account-name" }, t("account.signedIn", { name: me.name }), me.created_at ? ` · ${t("account.member", { date: formatDate(me.created_at) })}` : ""),
      logout,
      h("div", { class: "account-forms" }, change.form, h("div", { class: "account-form" }, h("h2", {}, t("account.sessions")), sessions, endOthers), tokensPanel(() => alive), notifySettingsPanel(() => alive), mailSettingsPanel(() => alive), playSettingsPanel()),
    );
    void loadSessions();
  }

  void show();
  return () => {
    alive = false;
  };
}
