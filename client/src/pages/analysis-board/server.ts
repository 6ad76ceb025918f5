// What the analysis board asks the server: positions (`POST /api/position`: the server
// is the rules authority, each new action goes there from the position it is played
// in), an archived game and a record to read.

import { t } from "../../i18n";
import type { ArchivedGame, BoardPosition, ParsedRecord, PositionLine, PositionRequest } from "../../protocol";
import { errorText } from "../archive";

/** The most actions one `POST /api/position` takes (the server's limit). */
export const MAX_ACTIONS = 600;

/** The position `request.position` (the empty board when none) and the one after each of its actions. */
export async function postPosition(request: PositionRequest, signal: AbortSignal): Promise<BoardPosition[]> {
  const response = await fetch("/api/position", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok) throw new Error(await errorText(response));
  return ((await response.json()) as PositionLine).positions;
}

/** The start and the position after each action, asked in pieces of at most MAX_ACTIONS. */
export async function positionsAlong(start: string | undefined, actions: readonly string[], signal: AbortSignal): Promise<BoardPosition[]> {
  const out: BoardPosition[] = [];
  let from = start;
  let done = 0;
  do {
    const chunk = actions.slice(done, done + MAX_ACTIONS);
    const positions = await postPosition({ position: from, actions: chunk }, signal);
    out.push(...(out.length > 0 ? positions.slice(1) : positions));
    from = positions[positions.length - 1].position;
    done += chunk.length;
  } while (done < actions.length);
  return out;
}

/** An archived game (`GET /api/archive/{id}`). */
export async function archivedGame(id: string, signal: AbortSignal): Promise<ArchivedGame> {
  const response = await fetch(`/api/archive/${encodeURIComponent(id)}`, { signal });
  if (response.status === 404) throw new Error(t("replay.notFound"));
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()) as ArchivedGame;
}

/** A record in our format or a boardspace SGF file, read by the server (`POST /api/record/parse`). */
export async function parseRecord(text: string, signal: AbortSignal): Promise<ParsedRecord> {
  const response = await fetch("/api/record/parse", { method: "POST", headers: { "content-type": "text/plain; charset=utf-8" }, body: text, signal });
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()) as ParsedRecord;
}
