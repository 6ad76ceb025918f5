// The analysis board's move tree as lichess lists it (move-tree.ts's `treeItems`): the
// main line flowing by turns, each alternative to a main-line action set apart under
// it, deeper variations in parentheses; the action on show marked and kept in sight.

import "./tree-panel.css";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { treeItems, type MoveTree, type TreeItem } from "../move-tree";

/**
 * Where a box scrolls to keep an item (from `top` to `bottom` in the box) in sight,
 * `margin` clear of the box's edge; null when it is in sight already.
 */
export function scrollToKeep(top: number, bottom: number, scrollTop: number, height: number, margin: number): number | null {
  if (top < scrollTop) return top - margin;
  if (bottom > scrollTop + height) return bottom - height + margin;
  return null;
}

export class TreePanel {
  readonly el = h("div", { class: "move-tree", "data-testid": "board-tree", "aria-label": t("table.moves") });

  /** `step` goes to a node of the tree (a click on an action). */
  constructor(step: (id: number) => void) {
    this.el.addEventListener("click", (ev) => {
      const move = (ev.target as Element).closest<HTMLElement>("[data-node]");
      if (move) step(Number(move.dataset.node));
    });
  }

  /** Lists `tree` with node `current` marked. */
  render(tree: MoveTree, current: number): void {
    const items = treeItems(tree);
    if (items.length === 0) {
      replace(this.el, h("p", { class: "tree-empty" }, t("board.treeEmpty")));
      return;
    }
    const draw = (list: readonly TreeItem[], depth: number): Node[] =>
      list.map((item) => {
        if (item.kind === "variation") {
          // Variations of the main line stand apart under the move they replace; deeper ones in parentheses.
          return depth === 0
            ? h("div", { class: "tree-variation", "data-testid": "tree-variation" }, draw(item.items, depth + 1))
            : h("span", { class: "tree-sub", "data-testid": "tree-variation" }, "(", draw(item.items, depth + 1), ")");
        }
        const here = item.id === current;
        return h(
          "span",
          { class: "tree-step" },
          item.number ? h("span", { class: "tree-n" }, item.number) : item.sep ? h("span", { class: "sep" }, item.sep) : null,
          h("button", { type: "button", class: `tree-move${here ? " current" : ""}`, "data-node": item.id, "data-token": item.token, tabindex: -1, "aria-current": here ? "step" : null, "data-testid": "tree-move" }, item.token),
        );
      });
    replace(this.el, draw(items, 0));
    const mark = this.el.querySelector<HTMLElement>(".tree-move.current");
    if (!mark) {
      this.el.scrollTop = 0;
      return;
    }
    // The box is the offset parent (positioned in the CSS): keep the current move in sight.
    const to = scrollToKeep(mark.offsetTop, mark.offsetTop + mark.offsetHeight, this.el.scrollTop, this.el.clientHeight, 4);
    if (to !== null) this.el.scrollTop = to;
  }
}
