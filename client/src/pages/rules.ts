// How to play (`#/rules`): a short form of docs/rules.md in the page's language, with
// small board diagrams drawn as inline SVG from the board's own geometry.

import "./rules.css";
import { LINES, POINTS, pointXY } from "../board/geometry";
import { h } from "../dom";
import { lang } from "../i18n";
import { RULES, type Diagram } from "./rules-text";

type Color = "white" | "black";

/** What a diagram shows: pieces, and marks that explain a move or a row. */
export interface DiagramSpec {
  rings: Record<Color, string[]>;
  markers: Record<Color, string[]>;
  /** Points a ring may land on (dashed circles). */
  targets?: string[];
  /** A ring move, drawn as an arrow. */
  arrow?: [string, string];
  /** A row, drawn as a band from end to end. */
  row?: [string, string];
  /** Points named beside them. */
  labels?: string[];
}

/** The diagrams of the page. Every point is a point of the board (a test checks). */
export const DIAGRAMS: Record<Diagram, DiagramSpec> = {
  setup: {
    rings: { white: ["e5", "g7", "d3", "h9", "c6"], black: ["f4", "e8", "g5", "i7", "d6"] },
    markers: { white: [], black: [] },
  },
  "move-before": {
    // White's ring on e2 holds the marker just put in; up the column: two empty
    // points, a group of three markers, then the first empty point behind it (e8).
    rings: { white: ["e2", "c5"], black: ["h8", "g4"] },
    markers: { white: ["e2", "e6"], black: ["e5", "e7"] },
    targets: ["e3", "e4", "e8"],
    arrow: ["e2", "e8"],
    labels: ["e2", "e3", "e4", "e8", "e9"],
  },
  "move-after": {
    rings: { white: ["e8", "c5"], black: ["h8", "g4"] },
    markers: { white: ["e2", "e5", "e7"], black: ["e6"] },
    labels: ["e2", "e8"],
  },
  row: {
    rings: { white: ["e5", "h6"], black: ["d6", "g8"] },
    markers: { white: ["c3", "d3", "e3", "f3", "g3", "f5"], black: ["b3", "h3", "d4", "e4"] },
    row: ["c3", "g3"],
    labels: ["c3", "g3"],
  },
};

const NS = "http://www.w3.org/2000/svg";
/** Distance between neighbouring points, in the diagram's units. */
const STEP = 10;

function svg(tag: string, attrs: Record<string, string | number>, ...children: Element[]): SVGElement {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

const at = (p: string) => pointXY(p, STEP);

/** One diagram: the whole board, small, with its pieces. */
export function drawDiagram(spec: DiagramSpec, label: string): SVGElement {
  const xs = POINTS.map((p) => at(p).x);
  const ys = POINTS.map((p) => at(p).y);
  const m = 7;
  const [x0, y0] = [Math.min(...xs) - m, Math.min(...ys) - m];
  const [w, hgt] = [Math.max(...xs) - x0 + m, Math.max(...ys) - y0 + m];
  const root = svg("svg", {
    class: "rules-diagram",
    viewBox: `${x0} ${y0} ${w} ${hgt}`,
    role: "img",
    "aria-label": label,
  });
  const lines = svg("g", { class: "lines" });
  for (const line of LINES) {
    const a = at(line.points[0]);
    const b = at(line.points[line.points.length - 1]);
    lines.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
  }
  root.append(lines);
  if (spec.row) {
    const [a, b] = spec.row.map(at);
    root.append(svg("line", { class: "row-band", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
  }
  for (const p of spec.targets ?? []) {
    const c = at(p);
    root.append(svg("circle", { class: "target", cx: c.x, cy: c.y, r: 3.4 }));
  }
  // Rings first: a ring's hole hides the lines, and a marker put into it shows on top.
  for (const color of ["white", "black"] as const) {
    for (const p of spec.rings[color]) {
      const c = at(p);
      root.append(
        svg(
          "g",
          { class: `ring ${color}`, "data-piece": "ring", "data-color": color, "data-at": p },
          svg("circle", { class: "outline", cx: c.x, cy: c.y, r: 3.9 }),
          svg("circle", { class: "body", cx: c.x, cy: c.y, r: 3.9 }),
        ),
      );
    }
  }
  for (const color of ["white", "black"] as const) {
    for (const p of spec.markers[color]) {
      const c = at(p);
      root.append(svg("circle", { class: `marker ${color}`, cx: c.x, cy: c.y, r: 2.6, "data-piece": "marker", "data-color": color, "data-at": p }));
    }
  }
  if (spec.arrow) {
    const [a, b] = spec.arrow.map(at);
    // Beside the line, so the pieces on it stay in sight.
    const dx = 5.5;
    const head = svg("path", { class: "arrow-head", d: `M ${b.x + dx} ${b.y + 3.2} l -2 -3.6 l 4 0 z` });
    root.append(svg("line", { class: "arrow", x1: a.x + dx, y1: a.y - 3, x2: b.x + dx, y2: b.y + 3.2 }), head);
  }
  for (const p of spec.labels ?? []) {
    const c = at(p);
    const text = svg("text", { class: "label", x: c.x - 5, y: c.y + 1.3, "text-anchor": "end" });
    text.textContent = p;
    root.append(text);
  }
  return root;
}

export function mountRules(root: HTMLElement): () => void {
  const text = RULES[lang()];
  const toc = h(
    "nav",
    { class: "rules-toc" },
    h("ol", {}, text.sections.map((s) => h("li", {}, h("a", { href: `#/rules`, "data-section": s.id }, s.heading)))),
  );
  // Hash links would leave the page (the router reads the hash): scroll instead.
  toc.addEventListener("click", (ev) => {
    const a = (ev.target as Element).closest<HTMLAnchorElement>("a[data-section]");
    if (!a) return;
    ev.preventDefault();
    document.getElementById(`rules-${a.dataset.section}`)?.scrollIntoView({ behavior: "smooth", block: "start" });
  });
  root.append(
    h(
      "article",
      { class: "rules", "data-testid": "rules", lang: lang() },
      h("h1", {}, text.title),
      h("p", { class: "rules-intro" }, text.intro),
      toc,
      text.sections.map((s) =>
        h(
          "section",
          { id: `rules-${s.id}`, class: "rules-section", "data-testid": `rules-${s.id}` },
          h("h2", {}, s.heading),
          h(
            "div",
            { class: s.figures ? "rules-body with-figures" : "rules-body" },
            h(
              "div",
              { class: "rules-words" },
              s.paragraphs.map((p) => h("p", {}, p)),
              s.list ? h("ul", {}, s.list.map((li) => h("li", {}, li))) : null,
              (s.after ?? []).map((p) => h("p", {}, p)),
            ),
            s.figures
              ? h(
                  "div",
                  { class: "rules-figures" },
                  s.figures.map((f) =>
                    h("figure", { "data-diagram": f.diagram }, drawDiagram(DIAGRAMS[f.diagram], f.caption), h("figcaption", {}, f.caption)),
                  ),
                )
              : null,
          ),
        ),
      ),
      h("p", { class: "rules-try" }, `${text.tryIt} `, h("a", { href: "#/", "data-testid": "rules-play" }, text.tryLink)),
    ),
  );
  return () => {};
}
