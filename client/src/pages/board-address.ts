// The analysis board's addresses (pages/analysis-board.ts): `#/analysis` the empty
// board, `#/analysis?position=<position string>` any position, `#/analysis?record=<id>&ply=<n>`
// action n of an archived game (the replay viewer links there). Pure: no DOM.

/** Where the board starts, as the address says. */
export type BoardSource =
  | { readonly kind: "empty" }
  | { readonly kind: "position"; readonly position: string }
  | { readonly kind: "record"; readonly id: string; readonly ply: number };

/** Reads `#/analysis?position=…` or `#/analysis?record=<id>&ply=<n>`; anything else is the empty board. */
export function sourceFromHash(hash: string): BoardSource {
  const at = hash.indexOf("?");
  const params = new URLSearchParams(at >= 0 ? hash.slice(at + 1) : "");
  const record = params.get("record")?.trim();
  if (record) {
    const ply = params.get("ply") ?? "";
    return { kind: "record", id: record, ply: /^\d+$/.test(ply) ? Number(ply) : 0 };
  }
  const position = params.get("position")?.trim();
  return position ? { kind: "position", position } : { kind: "empty" };
}

/** The address of a position: its string encoded, the column slashes kept as they are (they need no escape there). */
export function positionHash(position: string): string {
  return `#/analysis?position=${encodeURIComponent(position).replace(/%2F/gi, "/")}`;
}

/** The address of action `ply` of archived game `id` on the board. */
export function recordHash(id: string | number, ply: number): string {
  return `#/analysis?record=${encodeURIComponent(String(id))}&ply=${ply}`;
}
