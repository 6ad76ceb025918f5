// The site's sounds, synthesized with the Web Audio API (no audio files): a move, a
// row taken, low time, the end of a game, a challenge to the player. A switch on the page turns them off; the
// choice is remembered in this browser.

const STORAGE = "yinsh.sound";

export type Sound = "move" | "capture" | "low" | "end" | "challenge";

/** Whether sounds are on (the default). */
export function soundOn(): boolean {
  try {
    return localStorage.getItem(STORAGE) !== "off";
  } catch {
    return true;
  }
}

export function setSoundOn(on: boolean): void {
  try {
    localStorage.setItem(STORAGE, on ? "on" : "off");
  } catch {
    // Not remembered; still switched for this page.
  }
  muted = !on;
}

let muted = !soundOn();
let ctx: AudioContext | null = null;

/** The audio context, made on first use; browsers let it sound only after a user gesture. */
function context(): AudioContext | null {
  try {
    if (!ctx) {
      const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
      if (!Ctor) return null;
      ctx = new Ctor();
    }
    if (ctx.state === "suspended") void ctx.resume().catch(() => undefined);
    return ctx;
  } catch {
    return null;
  }
}

/** Lets the page sound later: call from a user gesture (a click anywhere). */
export function unlockSound(): void {
  if (!muted) context();
}

/** One short tone: frequency in Hz, start and length in seconds from now. */
function tone(c: AudioContext, freq: number, start: number, length: number, type: OscillatorType, volume: number): void {
  const osc = c.createOscillator();
  const gain = c.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const t0 = c.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(volume, t0 + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(c.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

/** Plays a sound, unless they are off or the browser has no audio. */
export function play(sound: Sound): void {
  if (muted) return;
  const c = context();
  if (!c || c.state !== "running") return;
  try {
    switch (sound) {
      case "move": // a wooden click
        tone(c, 520, 0, 0.07, "triangle", 0.25);
        tone(c, 260, 0, 0.09, "sine", 0.2);
        break;
      case "capture": // two falling notes
        tone(c, 660, 0, 0.12, "triangle", 0.22);
        tone(c, 440, 0.1, 0.2, "triangle", 0.22);
        break;
      case "low": // two short beeps
        tone(c, 880, 0, 0.08, "square", 0.08);
        tone(c, 880, 0.14, 0.08, "square", 0.08);
        break;
      case "challenge": // a knock: two quick rising notes
        tone(c, 587, 0, 0.1, "triangle", 0.22);
        tone(c, 784, 0.12, 0.16, "triangle", 0.22);
        break;
      case "end": // a rising chord
        tone(c, 392, 0, 0.35, "sine", 0.2);
        tone(c, 494, 0.12, 0.35, "sine", 0.18);
        tone(c, 587, 0.24, 0.5, "sine", 0.18);
        break;
    }
  } catch {
    // A sound is never worth an error.
  }
}
