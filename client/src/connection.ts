// The WebSocket connection to the server: requests with ids and their answers,
// automatic reconnection, and resuming every open table from the last event seen; in a
// cluster, the connection follows its tables to the node that runs them.
// The analysis board's live engine search is asked for again after a reconnect. The
// player's notifications and turn count are handed to whoever follows them.

import { t } from "./i18n";
import type {
  AnalysisState,
  Code,
  PlayerView,
  Request,
  SeekView,
  ServerMessage,
  TableSummary,
  TableView,
} from "./protocol";
import { updateSeeks } from "./pages/meet";

export type ConnectionState = "connecting" | "open" | "offline";

/** A line of the live engine (`engine_line`): its search of one position so far. */
export type EngineLine = Extract<ServerMessage, { type: "engine_line" }>;

/** The analysis board's search, as asked for (`analyse`). */
interface LiveSearch {
  readonly position: string;
  readonly onLine: (line: EngineLine) => void;
  readonly onRefused: (err: Refused) => void;
  /** Told when the server answers that the engine is busy with others' searches first. */
  readonly onQueued: () => void;
  /** The id of the `analyse` request last sent for it: its lines carry it. */
  id?: number;
}

/** A request the server refused: its error code and the reason in our language; or
 * one that could not be sent (`offline`: no connection). */
export class Refused extends Error {
  constructor(
    readonly code: Code | "offline",
    readonly text: string,
  ) {
    super(text);
  }
}

/** What a successful request answers: the reply's key, text and table (if any). */
export interface Answer {
  key: string;
  text: string;
  table?: string;
}

/** Receives the messages of one table: its snapshot, then its events (with the clocks after a resume and the legal actions of the player to act). */
export type TableListener = (msg: ServerMessage) => void;

/** The messages about meeting people: the lobby's seeks, challenges and pairings. */
export type MeetMessage = Extract<
  ServerMessage,
  { type: "lobby" | "lobby_seek" | "lobby_seek_removed" | "challenge" | "challenge_gone" | "paired" }
>;

/** The messages about the player's news: a notification kept (`notified`), the unread
 * count changed (`unread`), the count of games waiting for the player (`my_turn`). */
export type NoticeMessage = Extract<ServerMessage, { type: "notified" | "unread" | "my_turn" }>;

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (err: Refused) => void;
}

interface OpenTable {
  listener: TableListener;
  epoch?: number;
  version?: number;
  /** The node of a cluster that runs it (from its snapshot). */
  node?: string;
}

/** The refusal of a request made while the connection is down. */
function offline(): Refused {
  return new Refused("offline", t("conn.offline"));
}

/** Reconnection delays, growing to a few seconds. */
const BACKOFF = [250, 500, 1000, 2000, 4000];

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private tables = new Map<string, OpenTable>();
  private lobbyListener: ((msg: ServerMessage) => void) | null = null;
  /**
   * The lobby as this connection knows it, once it asked: the server keeps sending its
   * changes for as long as the connection lives, so a lobby page mounted again (another
   * page and back, a switch of language) starts from it instead of asking again, which
   * the server refuses within two seconds of the last time (`rate_limited`).
   */
  private lobbyTables: Map<string, TableSummary> | null = null;
  // ---- quick pairing and challenges ----
  /** The lobby's seeks, kept with `lobbyTables` (oldest first). */
  private lobbySeeks: Map<string, SeekView> | null = null;
  /** Whoever follows seeks, challenges and pairings (pushed to every connection of the
   * player, whatever page is shown). */
  private meetListeners = new Set<(msg: MeetMessage) => void>();
  // ---- notifications ----
  /** Whoever follows the player's notifications and turns (pushed to every connection
   * of the player, whatever page is shown). */
  private noticeListeners = new Set<(msg: NoticeMessage) => void>();
  private stateListeners = new Set<(state: ConnectionState) => void>();
  private playerListeners = new Set<(player: PlayerView) => void>();
  // ---- computer analysis ----
  /** Who follows the analysis of which archived game (asked for again after a reconnect). */
  private analysisListeners = new Map<number, Set<(state: AnalysisState) => void>>();
  // ---- analysis board ----
  /** The live engine's search this connection asked for (one at a time, as the server runs it). */
  private liveSearch: LiveSearch | null = null;
  // ---- clusters ----
  /** The node of a cluster this connection is served by (from `welcome`). */
  private servedBy: string | null = null;
  /** The node asked for on connecting (`/ws?node=`): where the open tables run. */
  private wantedNode: string | null = null;
  /** Whether to connect to `wantedNode` once no request waits for its answer. */
  private moveWanted = false;
  /** Whether the socket closing now is a move to `wantedNode`. */
  private moving = false;
  /** The ids of the challenges this player made that stand (they end with the
   * player's last connection, so a move waits for them). */
  private myChallenges = new Set<string>();
  private attempts = 0;
  private lang: string;
  state: ConnectionState = "connecting";
  player: PlayerView | null = null;

  constructor(lang: string) {
    this.lang = lang;
    this.connect();
  }

  private url(): string {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const node = this.wantedNode ? `&node=${encodeURIComponent(this.wantedNode)}` : "";
    return `${scheme}://${location.host}/ws?lang=${encodeURIComponent(this.lang)}${node}`;
  }

  /** Connects; `quiet` for a move to another node, which is no outage to show. */
  private connect(quiet = false): void {
    if (!quiet) this.setState("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.setState("open");
      // Resubscribe: the lobby, and every open table from the last version seen.
      this.lobbyTables = null;
      this.lobbySeeks = null;
      if (this.lobbyListener) this.send({ type: "lobby" });
      for (const [table, open] of this.tables) {
        const since =
          open.epoch !== undefined && open.version !== undefined
            ? { epoch: open.epoch, version: open.version }
            : undefined;
        this.send({ type: "open", table, since });
      }
      // ---- computer analysis ----
      for (const game of this.analysisListeners.keys()) this.send({ type: "watch_analysis", game });
      // ---- analysis board ----
      // A search ends with the connection that asked for it.
      if (this.liveSearch) this.askLive(this.liveSearch);
    };
    ws.onmessage = (e) => this.receive(JSON.parse(String(e.data)) as ServerMessage);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) p.reject(offline());
      this.pending.clear();
      if (this.moving) {
        this.moving = false;
        this.connect(true);
        return;
      }
      this.setState("offline");
      const delay = BACKOFF[Math.min(this.attempts, BACKOFF.length - 1)];
      this.attempts += 1;
      setTimeout(() => this.connect(), delay);
    };
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    for (const l of this.stateListeners) l(state);
  }

  private receive(msg: ServerMessage): void {
    switch (msg.type) {
      case "welcome":
        this.servedBy = msg.node ?? null;
        // The challenges that stand come again after it.
        this.myChallenges.clear();
        this.player = msg.player;
        for (const l of this.playerListeners) l(msg.player);
        return;
      case "lobby":
        this.lobbyTables = new Map(msg.tables.map((s) => [s.id, s]));
        this.lobbySeeks = new Map(); // quick pairing and challenges
        updateSeeks(this.lobbySeeks, msg);
        this.lobbyListener?.(msg);
        this.meetListeners.forEach((l) => l(msg));
        return;
      case "lobby_table":
        this.lobbyTables?.set(msg.table.id, msg.table);
        this.lobbyListener?.(msg);
        return;
      case "lobby_removed":
        this.lobbyTables?.delete(msg.table);
        this.lobbyListener?.(msg);
        return;
      // ---- quick pairing and challenges ----
      case "lobby_seek":
      case "lobby_seek_removed":
        if (this.lobbySeeks) updateSeeks(this.lobbySeeks, msg);
        this.lobbyListener?.(msg);
        this.meetListeners.forEach((l) => l(msg));
        return;
      case "challenge":
      case "challenge_gone":
      case "paired":
        // ---- clusters ----
        if (msg.type === "challenge" && msg.challenge.from.id === this.player?.id) this.myChallenges.add(msg.challenge.id);
        if (msg.type === "challenge_gone") this.myChallenges.delete(msg.challenge);
        this.meetListeners.forEach((l) => l(msg));
        if (msg.type !== "challenge") this.followTables();
        return;
      // ---- notifications ----
      case "notified":
      case "unread":
      case "my_turn":
        this.noticeListeners.forEach((l) => l(msg));
        return;
      // ---- computer analysis ----
      case "analysis":
        this.analysisListeners.get(msg.state.game)?.forEach((l) => l(msg.state));
        return;
      // ---- analysis board ----
      case "engine_line":
        // Only this search's lines: one of a search it replaced may still come.
        if (this.liveSearch && msg.id === this.liveSearch.id) this.liveSearch.onLine(msg);
        return;
      case "snapshot": {
        this.track(msg.table.id, msg.table.epoch, msg.table.version);
        const open = this.tables.get(msg.table.id);
        if (open) open.node = msg.table.node;
        open?.listener(msg);
        this.followTables();
        return;
      }
      case "clocks":
      case "legal":
      case "thinking":
        this.tables.get(msg.table)?.listener(msg);
        return;
      case "event": {
        const open = this.tables.get(msg.table);
        if (open) {
          open.version = msg.version;
          open.listener(msg);
        }
        return;
      }
      case "reply":
      case "error":
      case "pong": {
        if (msg.id === undefined) {
          // A refused `open` sent on (re)connecting: the table page shows why.
          if (msg.type === "error" && msg.table) this.tables.get(msg.table)?.listener(msg);
          return;
        }
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.type === "error") p.reject(new Refused(msg.code, msg.text));
        else if (msg.type === "reply") p.resolve({ key: msg.key, text: msg.text, table: msg.table });
        else p.resolve({ key: "pong", text: "" });
        if (this.moveWanted && this.pending.size === 0) this.move();
        return;
      }
    }
  }

  // ---- clusters ----

  /**
   * In a cluster a connection goes where its tables are: when every table it has open
   * runs at one other node, it connects to that node instead (`/ws?node=<id>`, which
   * the site's proxy routes on), so that the server need not forward its requests
   * there; its tables resume from the last event seen. Once per node: a connection
   * that asked for a node and still landed elsewhere (no such proxy, or that node is
   * down) stays where it is. Not while the player has a seek or a challenge standing,
   * which would end with the connection.
   */
  private followTables(): void {
    if (this.servedBy === null) return;
    // A seek or a challenge of the player's ends with the connection (the last one):
    // none is given up for a move.
    const me = this.player?.id;
    const seeking = [...(this.lobbySeeks?.values() ?? [])].some((s) => s.player.id === me);
    if (seeking || this.myChallenges.size > 0) return;
    const nodes = new Set([...this.tables.values()].map((open) => open.node));
    if (nodes.size !== 1) return;
    const [node] = nodes;
    if (!node || node === this.servedBy || node === this.wantedNode) return;
    this.wantedNode = node;
    this.moveWanted = true;
    // Not while a request waits for its answer (an `open` does, until its reply).
    if (this.pending.size === 0) this.move();
  }

  private move(): void {
    this.moveWanted = false;
    // Without an open socket a reconnection is on its way, to the node wanted.
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.moving = true;
    this.ws.close();
  }

  private track(table: string, epoch: number, version: number): void {
    const open = this.tables.get(table);
    if (open) {
      open.epoch = epoch;
      open.version = version;
    }
  }

  private send(request: Request, id?: number): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(id === undefined ? request : { id, ...request }));
    return true;
  }

  /** Sends `request`; resolves with the reply, rejects with a `Refused`. */
  request(request: Request): Promise<Answer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (!this.send(request, id)) {
        this.pending.delete(id);
        reject(offline());
      }
    });
  }

  /** Changes the language of the server's replies (and of later connections). */
  setLang(lang: string): void {
    this.lang = lang;
    this.request({ type: "hello", lang }).catch(() => undefined);
  }

  /** Watches the lobby until the returned function is called. */
  watchLobby(listener: (msg: ServerMessage) => void): () => void {
    this.lobbyListener = listener;
    if (this.lobbyTables) listener({ type: "lobby", tables: [...this.lobbyTables.values()], seeks: this.seeks() ?? [] });
    else this.send({ type: "lobby" });
    return () => {
      if (this.lobbyListener === listener) this.lobbyListener = null;
    };
  }

  // ---- quick pairing and challenges ----

  /** The lobby's seeks as last heard, oldest first; null before the lobby was asked for. */
  seeks(): SeekView[] | null {
    return this.lobbySeeks ? [...this.lobbySeeks.values()] : null;
  }

  /** Calls `listener` with every seek, challenge and pairing message until the returned
   * function is called. */
  onMeet(listener: (msg: MeetMessage) => void): () => void {
    this.meetListeners.add(listener);
    return () => this.meetListeners.delete(listener);
  }

  // ---- notifications ----

  /**
   * Calls `listener` with every `notified`, `unread` and `my_turn` message until the
   * returned function is called. The server sends none on connecting: whoever shows the
   * counts asks the HTTP API for them after each `welcome` (`onPlayer`).
   */
  onNotice(listener: (msg: NoticeMessage) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  // ---- computer analysis ----

  /**
   * Follows the analysis of archived game `game` (`watch_analysis`): `listener` gets its
   * state now and at each step until the returned function is called. After a reconnect
   * the connection asks again. (The server has no way to stop following: it forgets the
   * oldest of more than 16.)
   */
  watchAnalysis(game: number, listener: (state: AnalysisState) => void): () => void {
    let listeners = this.analysisListeners.get(game);
    if (!listeners) this.analysisListeners.set(game, (listeners = new Set()));
    listeners.add(listener);
    // Not connected yet: connecting asks for it. (Asked again, the server sends the state
    // again, to every listener: no harm.)
    if (this.state === "open") this.request({ type: "watch_analysis", game }).catch(() => undefined);
    return () => {
      const set = this.analysisListeners.get(game);
      set?.delete(listener);
      if (set && set.size === 0) this.analysisListeners.delete(game);
    };
  }

  // ---- analysis board ----

  /**
   * Has the live engine think about `position` (`analyse`), instead of whatever it was
   * asked before: `onLine` gets each `engine_line` of this search (one after each
   * depth; lines of the search it replaced are dropped by their request id),
   * `onRefused` the server's refusal (`bad_position`, `bots_disabled`), `onQueued` the
   * news that other searches hold the engine first. After a reconnect it is asked
   * again. The returned function stops it (`stop_analyse`), unless another search has
   * replaced it meanwhile.
   */
  analyse(position: string, onLine: (line: EngineLine) => void, onRefused: (err: Refused) => void, onQueued: () => void = () => {}): () => void {
    const search: LiveSearch = { position, onLine, onRefused, onQueued };
    this.liveSearch = search;
    this.askLive(search);
    return () => {
      if (this.liveSearch !== search) return;
      this.liveSearch = null;
      this.send({ type: "stop_analyse" });
    };
  }

  private askLive(search: LiveSearch): void {
    // Not connected yet: connecting asks for it.
    if (this.state !== "open") return;
    search.id = this.nextId; // the id `request` gives it
    this.request({ type: "analyse", position: search.position }).then(
      (answer) => {
        if (this.liveSearch === search && answer.key === "analysis_queued") search.onQueued();
      },
      (err: Refused) => {
        if (this.liveSearch === search && err.code !== "offline") search.onRefused(err);
      },
    );
  }

  /** Watches a table (snapshot, then events, resumed after reconnects) until the
   * returned function is called. */
  watchTable(table: string, listener: TableListener): () => void {
    this.tables.set(table, { listener });
    // Not connected yet: opening on connect opens this table too.
    if (this.state === "open") {
      this.request({ type: "open", table }).catch((e: Refused) => {
        if (e.code !== "offline") listener({ type: "error", table, code: e.code, text: e.text });
      });
    }
    return () => {
      this.tables.delete(table);
      this.send({ type: "close", table });
    };
  }

  /**
   * Connects again now, with the cookie the browser has now (after a log-in, a log-out
   * or a registration, which give the browser another session). Open tables resume.
   */
  reconnect(): void {
    this.attempts = 0;
    // Without a socket a reconnection is already on its way.
    if (this.ws && this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
  }

  /** Calls `listener` with each connection state change. */
  onState(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    listener(this.state);
    return () => this.stateListeners.delete(listener);
  }

  /** Calls `listener` with who we are, now (if known) and after each (re)connect. */
  onPlayer(listener: (player: PlayerView) => void): () => void {
    this.playerListeners.add(listener);
    if (this.player) listener(this.player);
    return () => this.playerListeners.delete(listener);
  }
}

export type { TableView };
