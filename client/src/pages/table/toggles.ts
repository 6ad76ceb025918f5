// The table's switches for sound, notifications and confirming turns. Sound (sound.ts)
// is remembered in this browser and unlocked by the first gesture on the page; "Notify
// me" asks for the browser's permission on that click, and then notifies of one's turn
// while the tab is hidden; "Confirm turn" (on by default in correspondence games, off
// in live ones, remembered in this browser for each) holds a turn until it is
// confirmed.

import "./toggles.css";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { svgIcon } from "../gamepage";
import { setSoundOn, soundOn, unlockSound } from "../sound";

/** Where the notifications switch is remembered. */
const NOTIFY_KEY = "yinsh.notify";

/** Where "Confirm turn" is remembered, for correspondence and for live games. */
const CONFIRM_KEYS = { correspondence: "yinsh.confirmTurn.correspondence", live: "yinsh.confirmTurn.live" } as const;

/** The two kinds of games "Confirm turn" is chosen for. */
export type Pace = keyof typeof CONFIRM_KEYS;

/** Whether turns in games of `pace` wait for "Confirm turn": as chosen in this browser, else on in correspondence games only. */
export function confirmWanted(pace: Pace, storage: Pick<Storage, "getItem"> | null = safeStorage()): boolean {
  try {
    const stored = storage?.getItem(CONFIRM_KEYS[pace]);
    if (stored === "on" || stored === "off") return stored === "on";
  } catch {
    // Not remembered: the default.
  }
  return pace === "correspondence";
}

/** Remembers in this browser whether turns in games of `pace` wait for "Confirm turn". */
export function setConfirmWanted(pace: Pace, on: boolean): void {
  try {
    localStorage.setItem(CONFIRM_KEYS[pace], on ? "on" : "off");
  } catch {
    // Only for this page then.
  }
}

/** Small drawn icons (emoji fonts are missing on many systems). */
const ICONS = {
  sound: "M2 6h3l4-3v10L5 10H2zM11 5.5a3.5 3.5 0 0 1 0 5M12.5 3.5a6 6 0 0 1 0 9",
  mute: "M2 6h3l4-3v10L5 10H2zM11 6l4 4M15 6l-4 4",
  bell: "M8 2a4 4 0 0 0-4 4v3L2.5 11.5h11L12 9V6a4 4 0 0 0-4-4zM6.5 13a1.5 1.5 0 0 0 3 0",
} as const;

function icon(name: keyof typeof ICONS): SVGSVGElement {
  return svgIcon(ICONS[name], "icon", { width: 1.5 });
}

/** Whether notifications were switched on in this browser. */
export function notifyWanted(storage: Pick<Storage, "getItem"> | null = safeStorage()): boolean {
  try {
    return storage?.getItem(NOTIFY_KEY) === "on";
  } catch {
    return false;
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** What the notifications button says: pressed only when on and allowed; why not, when the browser refuses. */
export function notifyState(on: boolean, permission: NotificationPermission | null): { pressed: boolean; title: "game.notifyDenied" | "game.notifyExplain" } {
  return {
    pressed: on && permission === "granted",
    title: permission === "denied" ? "game.notifyDenied" : "game.notifyExplain",
  };
}

export class Toggles {
  readonly sound = h("button", { type: "button", class: "toggle", "data-testid": "sound", onclick: () => this.toggleSound() });
  readonly notify = h("button", { type: "button", class: "toggle", "data-testid": "notify", onclick: () => void this.toggleNotify() });
  readonly confirm = h("button", { type: "button", class: "toggle", "data-testid": "confirm-toggle", onclick: () => this.toggleConfirm() });
  private notifyOn = notifyWanted();
  private pace: Pace = "live";
  private confirmOn = confirmWanted("live");
  private readonly onGesture = () => unlockSound();

  /**
   * `table` names the notifications; `note` tells the player something briefly (a
   * refused permission); `confirmChanged` is called when "Confirm turn" is switched.
   */
  constructor(
    private readonly table: string,
    private readonly note: (text: string) => void,
    private readonly confirmChanged: () => void = () => {},
  ) {
    document.addEventListener("pointerdown", this.onGesture);
    document.addEventListener("keydown", this.onGesture);
    this.draw();
  }

  private draw(): void {
    const on = soundOn();
    replace(this.sound, icon(on ? "sound" : "mute"));
    this.sound.setAttribute("aria-label", t("game.sound"));
    this.sound.setAttribute("aria-pressed", String(on));
    this.sound.title = on ? t("game.soundOn") : t("game.soundOff");
    const can = typeof Notification !== "undefined";
    this.notify.hidden = !can;
    replace(this.notify, icon("bell"), h("span", { class: "toggle-label" }, t("game.notify")));
    const state = notifyState(this.notifyOn && can, can ? Notification.permission : null);
    this.notify.setAttribute("aria-pressed", String(state.pressed));
    this.notify.title = t(state.title);
    replace(this.confirm, t("game.confirmTurn"));
    this.confirm.setAttribute("aria-pressed", String(this.confirmOn));
    this.confirm.title = t(this.pace === "correspondence" ? "game.confirmTurnCorrespondence" : "game.confirmTurnLive");
  }

  /** The table's game is of `pace`: "Confirm turn" shows (and switches) the choice for it. */
  setPace(pace: Pace): void {
    if (pace === this.pace) return;
    this.pace = pace;
    this.confirmOn = confirmWanted(pace);
    this.draw();
  }

  /** Whether a turn waits for "Confirm turn" at this table. */
  get confirming(): boolean {
    return this.confirmOn;
  }

  private toggleConfirm(): void {
    this.confirmOn = !this.confirmOn;
    setConfirmWanted(this.pace, this.confirmOn);
    this.draw();
    this.confirmChanged();
  }

  private toggleSound(): void {
    setSoundOn(!soundOn());
    unlockSound();
    this.draw();
  }

  private async toggleNotify(): Promise<void> {
    if (typeof Notification === "undefined") return;
    let next = !this.notifyOn;
    // Permission is asked for only here, on the player's click.
    if (next && Notification.permission === "default") {
      try {
        next = (await Notification.requestPermission()) === "granted";
      } catch {
        next = false;
      }
    }
    if (next && Notification.permission !== "granted") {
      next = false;
      this.note(t("game.notifyDenied"));
    }
    this.notifyOn = next;
    try {
      localStorage.setItem(NOTIFY_KEY, next ? "on" : "off");
    } catch {
      // Only for this page then.
    }
    this.draw();
  }

  /** Tells the player it is their turn (`last`: the opponent's last turn), while the tab is hidden and they want it. */
  notifyTurn(last: string | null): void {
    if (!this.notifyOn || !document.hidden || typeof Notification === "undefined" || Notification.permission !== "granted") return;
    try {
      const n = new Notification(t("game.notifyTitle", { id: this.table }), { body: last ? t("game.notifyBody", { move: last }) : undefined, tag: `yinsh-${this.table}` });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker.
    }
  }

  destroy(): void {
    document.removeEventListener("pointerdown", this.onGesture);
    document.removeEventListener("keydown", this.onGesture);
  }
}
