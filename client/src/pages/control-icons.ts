// The icons of the replay viewer's and the analysis board's step buttons, drawn (the
// media-control characters are missing from many fonts).

import { svgIcon } from "./gamepage";

const ICONS = {
  start: "M3 3h2v10H3zM13 3v10L6 8z",
  back: "M10.5 3 5.5 8l5 5",
  play: "M4.5 2.5v11L13 8z",
  pause: "M4 3h3v10H4zM9 3h3v10H9z",
  forward: "M5.5 3l5 5-5 5",
  end: "M3 3v10l7-5zM11 3h2v10h-2z",
} as const;

export type ControlIconName = keyof typeof ICONS;

/** An icon as an inline SVG; the chevrons are stroked, the rest filled. */
export function controlIcon(name: ControlIconName): SVGSVGElement {
  const stroked = name === "back" || name === "forward";
  return svgIcon(ICONS[name], "replay-icon", stroked ? { width: 2 } : undefined);
}
