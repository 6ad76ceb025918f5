// What the game pages share (the table, the replay viewer, the analysis board): the
// layout that fits the whole board on the screen (gamepage.css), the keys a field keeps
// and drawn icons. Their player bars are player-bar.ts's, the move list by turns
// move-list.ts's.

import "./gamepage.css";

/**
 * Keeps `--avail-h` of a game layout at the height left on the screen below its top (the
 * page opens at its top): the CSS sizes the board from it. Returns the function that stops.
 */
export function fitToScreen(layout: HTMLElement): () => void {
  const fit = () => {
    const top = layout.getBoundingClientRect().top + window.scrollY;
    layout.style.setProperty("--avail-h", `${Math.max(240, window.innerHeight - top - 8)}px`);
  };
  fit();
  const frame = requestAnimationFrame(fit); // once the fonts and the header are laid out
  window.addEventListener("resize", fit);
  return () => {
    cancelAnimationFrame(frame);
    window.removeEventListener("resize", fit);
  };
}

/** Whether a key press belongs to a field that uses the key itself (text, menus, sliders). */
export function keyTakenBy(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT";
}

/**
 * A 16×16 icon as an inline SVG of one path `d`: stroked with the text colour when
 * `stroke` says how wide, filled with it otherwise.
 */
export function svgIcon(d: string, className: string, stroke?: { width: number }): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", className);
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  if (stroke) {
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", String(stroke.width));
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
  } else {
    path.setAttribute("fill", "currentColor");
  }
  svg.append(path);
  return svg;
}
