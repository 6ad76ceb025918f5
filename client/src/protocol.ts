// The WebSocket and HTTP protocol types of the YINSH server.
// Generated from crates/yinsh-server/src/protocol/ and each domain's protocol.rs;
// do not edit by hand.
// Regenerate: UPDATE_PROTOCOL=1 cargo test -p yinsh-server protocol_types

export type SeatColor = "white" | "black";

export type Title = "BOT";

export type VariantName = "standard" | "blitz";

export type Pair<T> = { 
/**
 * White's value.
 */
white: T, 
/**
 * Black's value.
 */
black: T, };

export type Code = "bad_message" | "too_large" | "rate_limited" | "no_table" | "not_open" | "too_many_tables" | "too_many_own_tables" | "unknown_command" | "command_usage" | "empty_chat" | "chat_too_long" | "chat_control" | "chat_bidi" | "chat_invisible" | "seat_taken" | "no_free_seat" | "already_seated" | "not_seated" | "game_running" | "leave_running" | "need_two_players" | "opponent_away" | "tournament_table" | "cannot_berserk" | "no_game" | "not_your_turn" | "stale" | "bad_action" | "illegal_action" | "out_of_time" | "bad_option" | "bad_level" | "bots_disabled" | "rated_guest" | "rated_engine" | "no_seek" | "own_seek" | "no_challenge" | "bad_position" | "bot_pairing" | "own_challenge" | "player_offline" | "too_many_challenges" | "too_many_seeks" | "nothing_to_take_back" | "takeback_limit" | "nothing_pending" | "already_pending" | "own_offer" | "cannot_claim" | "abort_too_late" | "result_pending" | "store_unavailable" | "table_moved" | "busy";

export type ClientMessage = { 
/**
 * Echoed in the `reply`, `error` or `pong` this message causes (`lobby` and
 * `open` answer with a `lobby` or `snapshot` message, `open` also with a
 * `reply`).
 */
id?: number, } & ({ "type": "hello", 
/**
 * The language code.
 */
lang: string, } | { "type": "lobby" } | { "type": "create_table", 
/**
 * Its options.
 */
options: TableOptions, } | { "type": "open", 
/**
 * The table id.
 */
table: string, 
/**
 * The last event seen, to resume after a reconnect.
 */
since?: Since, } | { "type": "close", 
/**
 * The table id.
 */
table: string, } | { "type": "chat", 
/**
 * The table id.
 */
table: string, 
/**
 * The text (at most 500 characters).
 */
text: string, } | { "type": "say", 
/**
 * The table id.
 */
table: string, 
/**
 * The text (at most 500 characters).
 */
text: string, } | { "type": "command", 
/**
 * The table id.
 */
table: string, } & ({ "command": "join", 
/**
 * The seat wanted.
 */
color?: SeatColor, } | { "command": "leave" } | { "command": "start" } | { "command": "option", 
/**
 * The change.
 */
change: OptionChange, } | { "command": "bot", 
/**
 * Strength 1–10 (default 5).
 */
level?: number, } | { "command": "resign" } | { "command": "draw" } | { "command": "takeback" } | { "command": "accept" } | { "command": "decline" } | { "command": "claim", 
/**
 * Claim a draw rather than the win (`false` when absent).
 */
draw: boolean, } | { "command": "abort" } | { "command": "berserk" } | { "command": "who" } | { "command": "help" }) | { "type": "act", 
/**
 * The table id.
 */
table: string, 
/**
 * The action token.
 */
action: string, 
/**
 * The number of actions already played that the client saw; an action sent
 * for an older state is refused rather than applied to a newer one.
 */
ply?: number, } | { "type": "ping" } | { "type": "seek", 
/**
 * The game sought.
 */
options: TableOptions, 
/**
 * Bot accounts may be paired with this seek too (they are not otherwise).
 */
bots?: boolean, } | { "type": "cancel_seek" } | { "type": "accept_seek", 
/**
 * The seek's id.
 */
seek: string, } | { "type": "challenge", 
/**
 * The player challenged; an open challenge when absent.
 */
to?: string, 
/**
 * The game offered.
 */
options: TableOptions, 
/**
 * The challenger's colour; drawn at random when absent.
 */
color?: SeatColor, } | { "type": "accept_challenge", 
/**
 * Its id.
 */
challenge: string, } | { "type": "decline_challenge", 
/**
 * Its id.
 */
challenge: string, } | { "type": "cancel_challenge", 
/**
 * Its id.
 */
challenge: string, } | { "type": "watch_analysis", 
/**
 * The game (its archive id).
 */
game: number, } | { "type": "analyse", 
/**
 * The position string (docs/notation.md).
 */
position: string, } | { "type": "stop_analyse" });

export type Request = { "type": "hello", 
/**
 * The language code.
 */
lang: string, } | { "type": "lobby" } | { "type": "create_table", 
/**
 * Its options.
 */
options: TableOptions, } | { "type": "open", 
/**
 * The table id.
 */
table: string, 
/**
 * The last event seen, to resume after a reconnect.
 */
since?: Since, } | { "type": "close", 
/**
 * The table id.
 */
table: string, } | { "type": "chat", 
/**
 * The table id.
 */
table: string, 
/**
 * The text (at most 500 characters).
 */
text: string, } | { "type": "say", 
/**
 * The table id.
 */
table: string, 
/**
 * The text (at most 500 characters).
 */
text: string, } | { "type": "command", 
/**
 * The table id.
 */
table: string, } & ({ "command": "join", 
/**
 * The seat wanted.
 */
color?: SeatColor, } | { "command": "leave" } | { "command": "start" } | { "command": "option", 
/**
 * The change.
 */
change: OptionChange, } | { "command": "bot", 
/**
 * Strength 1–10 (default 5).
 */
level?: number, } | { "command": "resign" } | { "command": "draw" } | { "command": "takeback" } | { "command": "accept" } | { "command": "decline" } | { "command": "claim", 
/**
 * Claim a draw rather than the win (`false` when absent).
 */
draw: boolean, } | { "command": "abort" } | { "command": "berserk" } | { "command": "who" } | { "command": "help" }) | { "type": "act", 
/**
 * The table id.
 */
table: string, 
/**
 * The action token.
 */
action: string, 
/**
 * The number of actions already played that the client saw; an action sent
 * for an older state is refused rather than applied to a newer one.
 */
ply?: number, } | { "type": "ping" } | { "type": "seek", 
/**
 * The game sought.
 */
options: TableOptions, 
/**
 * Bot accounts may be paired with this seek too (they are not otherwise).
 */
bots?: boolean, } | { "type": "cancel_seek" } | { "type": "accept_seek", 
/**
 * The seek's id.
 */
seek: string, } | { "type": "challenge", 
/**
 * The player challenged; an open challenge when absent.
 */
to?: string, 
/**
 * The game offered.
 */
options: TableOptions, 
/**
 * The challenger's colour; drawn at random when absent.
 */
color?: SeatColor, } | { "type": "accept_challenge", 
/**
 * Its id.
 */
challenge: string, } | { "type": "decline_challenge", 
/**
 * Its id.
 */
challenge: string, } | { "type": "cancel_challenge", 
/**
 * Its id.
 */
challenge: string, } | { "type": "watch_analysis", 
/**
 * The game (its archive id).
 */
game: number, } | { "type": "analyse", 
/**
 * The position string (docs/notation.md).
 */
position: string, } | { "type": "stop_analyse" };

export type PlayerView = { 
/**
 * The player's id (bots have none).
 */
id?: number, 
/**
 * The display name.
 */
name: string, 
/**
 * The engine level, for a bot.
 */
bot?: number, 
/**
 * Whether the player has a connection open to the table right now.
 */
online: boolean, 
/**
 * A guest (no account): shown as such. Absent for accounts and the engine.
 */
guest?: boolean, 
/**
 * `BOT` for a bot account (a program playing through the bot API).
 */
title?: Title, };

export type Stats = { 
/**
 * People connected now (a person with several tabs open counts once).
 */
players_online: number, 
/**
 * Open tables.
 */
tables: number, 
/**
 * Games running.
 */
games: number, 
/**
 * The names of the registered players online (guests are only counted), sorted,
 * at most 100.
 */
accounts_online: Array<string>, };

export type ServerMessage = { "type": "welcome", 
/**
 * You.
 */
player: PlayerView, 
/**
 * The language replies are written in.
 */
lang: string, 
/**
 * The server's version.
 */
server: string, 
/**
 * The node of the cluster this connection is served by (none on a lone
 * server).
 */
node?: string, } | { "type": "lobby", 
/**
 * Every table.
 */
tables: Array<TableSummary>, 
/**
 * Every seek, oldest first.
 */
seeks: Array<SeekView>, } | { "type": "lobby_seek", 
/**
 * The seek.
 */
seek: SeekView, } | { "type": "lobby_seek_removed", 
/**
 * Its id.
 */
seek: string, } | { "type": "challenge", 
/**
 * The challenge.
 */
challenge: ChallengeView, } | { "type": "challenge_gone", 
/**
 * Its id.
 */
challenge: string, 
/**
 * Why.
 */
reason: GoneReason, } | { "type": "analysis", 
/**
 * The analysis.
 */
state: AnalysisState, } | { "type": "engine_line", 
/**
 * The id of the `analyse` request this search answers (lines of a search it
 * replaced may still arrive just after the reply: they have another id).
 */
id?: number, 
/**
 * The position, as asked.
 */
position: string, 
/**
 * The depth searched, in decisions.
 */
depth: number, 
/**
 * The evaluation, for White.
 */
eval: EvalView, 
/**
 * The best line, the engine's choice first.
 */
line: Array<string>, 
/**
 * Who plays each action of `line` (a removal keeps the mover), so that a
 * client can write the line by turns.
 */
movers: Array<SeatColor>, 
/**
 * Positions searched.
 */
nodes: number, 
/**
 * Time searched, in milliseconds.
 */
time_ms: number, 
/**
 * The last line of this search.
 */
done: boolean, } | { "type": "paired", 
/**
 * The table.
 */
table: string, 
/**
 * Your colour.
 */
color: SeatColor, 
/**
 * Whether the game waits for your action first.
 */
my_turn: boolean, } | { "type": "lobby_table", 
/**
 * Its summary.
 */
table: TableSummary, } | { "type": "lobby_removed", 
/**
 * Its id.
 */
table: string, } | { "type": "snapshot", 
/**
 * The table.
 */
table: TableView, } | { "type": "event", 
/**
 * The table id.
 */
table: string, 
/**
 * This event's version.
 */
version: number, 
/**
 * What happened.
 */
event: TableEvent, 
/**
 * The game after it, when the event changed the game otherwise than by an
 * action (`acted` carries what changed itself); without `legal`.
 */
game?: GameView, 
/**
 * The clocks at the moment of the event, while a timed game runs (also in
 * `game` when that is sent).
 */
clocks?: ClockView, } | { "type": "legal", 
/**
 * The table id.
 */
table: string, 
/**
 * The version of the event after which these are the legal actions.
 */
version: number, 
/**
 * The legal actions.
 */
actions: Array<string>, } | { "type": "clocks", 
/**
 * The table id.
 */
table: string, 
/**
 * The clocks.
 */
clocks: ClockView, } | { "type": "thinking", 
/**
 * The table id.
 */
table: string, 
/**
 * The version of the event after which the engine is to act.
 */
version: number, 
/**
 * The engine's seat.
 */
color: SeatColor, 
/**
 * The depth searched so far, in decisions (0 when the engine does not say).
 */
depth: number, 
/**
 * Positions searched so far.
 */
nodes: number, 
/**
 * Time thought so far, in milliseconds.
 */
ms: number, } | { "type": "reply", 
/**
 * The request's id.
 */
id?: number, 
/**
 * The table concerned.
 */
table?: string, 
/**
 * A stable key of the message (for clients that translate themselves).
 */
key: string, 
/**
 * The message.
 */
text: string, } | { "type": "error", 
/**
 * The request's id.
 */
id?: number, 
/**
 * The table concerned.
 */
table?: string, 
/**
 * A stable error code (`not_your_turn`, `illegal_action`, …).
 */
code: Code, 
/**
 * The reason, in the connection's language.
 */
text: string, } | { "type": "notified", 
/**
 * The notification.
 */
notification: NotificationView, 
/**
 * How many are unread.
 */
unread: number, } | { "type": "unread", 
/**
 * How many.
 */
unread: number, } | { "type": "my_turn", 
/**
 * How many.
 */
count: number, } | { "type": "pong", 
/**
 * The request's id.
 */
id?: number, };

export type TimeSetting = { 
/**
 * Initial time on each clock, in whole minutes (1–180).
 */
minutes: number, 
/**
 * Increment after each completed turn, in seconds (0–60).
 */
increment: number, };

export type Correspondence = { 
/**
 * Days per turn, one of [`DAYS_PER_TURN`]; unlimited when absent.
 */
days?: number, };

export const DAYS_PER_TURN: readonly number[] = [1, 2, 3, 5, 7, 10, 14]; // a correspondence turn's allowances

export type TableOptions = { 
/**
 * `standard` or `blitz`.
 */
variant: VariantName, 
/**
 * Rings each player must remove to win, when they differ from the variant's
 * (handicap, RULES.md V3): white's and black's target.
 */
handicap?: Pair<number>, 
/**
 * The game ends after this many ring moves (RULES.md V4); none when absent.
 */
turn_limit?: number, 
/**
 * The clocks; untimed when absent.
 */
time?: TimeSetting, 
/**
 * Correspondence play (days per turn, or unlimited), instead of `time`: the game
 * waits for players who are away, and is never adjudicated for it.
 */
correspondence?: Correspondence, 
/**
 * Whether the finished game goes to the public archive.
 */
log: boolean, 
/**
 * Whether the game counts for the players' ratings: it needs two registered
 * players, a clock, the variant's own targets and no turn limit, and is archived.
 */
rated?: boolean, 
/**
 * The position the games begin from, as a position string (docs/notation.md),
 * when not the empty board ("play on from here"). Its targets and turn limit are
 * the game's: a new table takes its variant, handicap and turn limit from it, and
 * they cannot be changed. Such a game is never rated.
 */
position?: string, 
/**
 * Whether an engine seat plays at full strength: it spends its clock as in a
 * match (a minute or more over a decision in a long game) instead of at most 6
 * seconds a decision, and thinks up to 10 seconds a decision in an untimed game
 * instead of 1.5 (docs/engine.md, "Against people").
 */
engine_full?: boolean, 
/**
 * The tournament whose game this is (its id), set by the tournament as it opens
 * the table (docs/tournaments.md): such a table plays that one game, and a
 * player's options with it are refused.
 */
tournament?: string, };

export type OptionChange = { "option": "log", 
/**
 * Whether the game is archived.
 */
on: boolean, } | { "option": "time", 
/**
 * The new time control; untimed when absent.
 */
time?: TimeSetting, } | { "option": "variant", 
/**
 * The variant.
 */
variant: VariantName, } | { "option": "handicap", 
/**
 * White's target.
 */
white: number, 
/**
 * Black's target.
 */
black: number, } | { "option": "rated", 
/**
 * Whether the game counts for the ratings.
 */
on: boolean, } | { "option": "correspondence", 
/**
 * Days per turn, or unlimited; live play when absent.
 */
correspondence?: Correspondence, } | { "option": "turns", 
/**
 * The turn limit; none when absent.
 */
limit?: number, } | { "option": "engine", 
/**
 * Whether an engine seat plays at full strength (`full`) rather than at a
 * person's pace (`quick`, the default).
 */
full: boolean, };

export type Command = { "command": "join", 
/**
 * The seat wanted.
 */
color?: SeatColor, } | { "command": "leave" } | { "command": "start" } | { "command": "option", 
/**
 * The change.
 */
change: OptionChange, } | { "command": "bot", 
/**
 * Strength 1–10 (default 5).
 */
level?: number, } | { "command": "resign" } | { "command": "draw" } | { "command": "takeback" } | { "command": "accept" } | { "command": "decline" } | { "command": "claim", 
/**
 * Claim a draw rather than the win (`false` when absent).
 */
draw: boolean, } | { "command": "abort" } | { "command": "berserk" } | { "command": "who" } | { "command": "help" };

export type Since = { 
/**
 * The table's epoch (it changes when the server restarts).
 */
epoch: number, 
/**
 * The last version seen.
 */
version: number, };

export type TableSummary = { 
/**
 * The table id.
 */
id: string, 
/**
 * Its options.
 */
options: TableOptions, 
/**
 * Who sits where.
 */
seats: Pair<PlayerView | null>, 
/**
 * How many spectators watch.
 */
spectators: number, 
/**
 * `waiting` or `playing`.
 */
status: TableStatus, 
/**
 * The result of the table's last game, while the table waits for the next one.
 */
last_result?: ResultView, };

export type TableStatus = "waiting" | "playing";

export type ClockView = { 
/**
 * White's remaining time in milliseconds.
 */
white_ms: number, 
/**
 * Black's remaining time in milliseconds.
 */
black_ms: number, 
/**
 * The clock that runs now, if any (count it down from the moment of arrival).
 */
running?: SeatColor, 
/**
 * Seconds added after each completed turn.
 */
increment: number, 
/**
 * Days per turn, in a correspondence game: each turn begins with the whole
 * allowance on the clock of the player to act.
 */
days?: number, 
/**
 * In a correspondence game with days per turn, each player's vacation hours left
 * this year (`null`: a player without vacation, a guest or a bot). They are spent
 * an hour at a time when the player's turn would otherwise be lost on time.
 */
vacation?: Pair<number | null>, 
/**
 * In a tournament game with a clock, whether each player berserked (halved their
 * clock, without increment); absent in other games, where nobody can.
 */
berserk?: Pair<boolean>, };

export type BoardView = { 
/**
 * Rings of each colour.
 */
rings: Pair<Array<string>>, 
/**
 * Markers of each colour.
 */
markers: Pair<Array<string>>, };

export type StageName = "place" | "move" | "remove_row" | "remove_ring" | "over";

export type Ending = "target reached" | "pool exhausted" | "no moves" | "turn limit" | "resignation" | "time" | "agreement" | "abandoned";

export type ScoreText = "1-0" | "0-1" | "1/2-1/2";

export type RatingDiff = { 
/**
 * Before the game.
 */
before: number, 
/**
 * After it.
 */
after: number, 
/**
 * Whether the rating after it is still provisional (deviation ≥ 110).
 */
provisional: boolean, };

export type ResultView = { 
/**
 * The winner; a draw has none.
 */
winner?: SeatColor, 
/**
 * `1-0`, `0-1` or `1/2-1/2`.
 */
score: ScoreText, 
/**
 * `target reached`, `pool exhausted`, `no moves`, `turn limit`, `resignation`,
 * `time`, `agreement` or `abandoned` (claimed after the opponent left, or
 * adjudicated after both left).
 */
termination: Ending, 
/**
 * In a rated game, each player's rating before and after it.
 */
ratings?: Pair<RatingDiff>, };

export type GameView = { 
/**
 * The game's id (its archive id once it is logged).
 */
id: number, 
/**
 * The position string (docs/notation.md).
 */
position: string, 
/**
 * The pieces.
 */
board: BoardView, 
/**
 * The player to act.
 */
to_move: SeatColor, 
/**
 * What they must do.
 */
stage: StageName, 
/**
 * Markers left in the pool.
 */
pool: number, 
/**
 * Rings each player has removed.
 */
removed: Pair<number>, 
/**
 * Rings each player must remove to win.
 */
targets: Pair<number>, 
/**
 * Ring moves played so far.
 */
ring_moves: number, 
/**
 * The legal actions of the player to act, for that player only: filled in the
 * snapshot a connection of theirs is sent, and given after each change of the game
 * by a `legal` message; empty for everyone else, in events, and once the game is
 * over or while it is paused.
 */
legal: Array<string>, 
/**
 * Every action played, in order.
 */
moves: Array<string>, 
/**
 * The clocks, for a timed game.
 */
clocks?: ClockView, 
/**
 * The result, once the game is over.
 */
result?: ResultView, 
/**
 * The player whose draw offer is pending.
 */
draw_offer?: SeatColor, 
/**
 * The player whose takeback request is pending.
 */
takeback_request?: SeatColor, 
/**
 * Takebacks granted to each player so far (at most 3 each per game).
 */
takebacks: Pair<number>, 
/**
 * Whether a seated player may still abort the game (neither has made two actions).
 */
abortable: boolean, 
/**
 * The player who may claim the game now (`/claim`): their opponent has been away
 * longer than the grace period.
 */
claimable?: SeatColor, 
/**
 * Whether the clocks stand still because the database is not available.
 */
paused: boolean, };

export type ChatLine = { 
/**
 * Who wrote it.
 */
from: string, 
/**
 * The writer is a guest (absent for accounts).
 */
guest?: boolean, 
/**
 * The text, to be shown as text (never as markup).
 */
text: string, 
/**
 * When, in milliseconds since 1970 (UTC).
 */
at: number, };

export type TableView = { 
/**
 * The table id.
 */
id: string, 
/**
 * Changes when the server restarts; resume with `since` only within one epoch.
 */
epoch: number, 
/**
 * The version of the last event.
 */
version: number, 
/**
 * The options.
 */
options: TableOptions, 
/**
 * The seats.
 */
seats: Pair<PlayerView | null>, 
/**
 * How many spectators watch.
 */
spectator_count: number, 
/**
 * The names of the spectators, sorted; the first 100 when there are more.
 */
spectators: Array<string>, 
/**
 * The most recent chat lines, oldest first.
 */
chat: Array<ChatLine>, 
/**
 * The current game, or the last one (over) until the next starts.
 */
game?: GameView, 
/**
 * The node of the cluster that runs the table (none on a lone server). A client
 * connected to another node may connect to it instead (`/ws?node=<id>`, through a
 * proxy that routes on it), so that its requests need not be forwarded.
 */
node?: string, };

export type TableEvent = { "kind": "joined", 
/**
 * The seat.
 */
color: SeatColor, 
/**
 * The player.
 */
player: PlayerView, } | { "kind": "left", 
/**
 * The seat.
 */
color: SeatColor, } | { "kind": "presence", 
/**
 * The seat.
 */
color: SeatColor, 
/**
 * Whether they are connected now.
 */
online: boolean, } | { "kind": "spectators", 
/**
 * How many watch.
 */
count: number, 
/**
 * Their names, sorted; the first 100 when there are more.
 */
names: Array<string>, } | { "kind": "options", 
/**
 * The new options.
 */
options: TableOptions, 
/**
 * Who changed them.
 */
by: string, } | { "kind": "started" } | { "kind": "acted", 
/**
 * Who played it.
 */
color: SeatColor, 
/**
 * The action token.
 */
action: string, 
/**
 * Actions played with this one: it is `moves[ply - 1]`.
 */
ply: number, 
/**
 * The position after it (docs/notation.md, "Position string"): the board, the
 * player to act, what they must do, the rings removed, the targets and the ring
 * moves (the pool is 51 less the markers on the board).
 */
position: string, 
/**
 * Whether a seated player may still abort the game (absent: no longer).
 */
abortable?: boolean, } | { "kind": "took_back", 
/**
 * How many actions were undone.
 */
actions: number, } | { "kind": "draw_offered", 
/**
 * By whom.
 */
by: SeatColor, } | { "kind": "takeback_requested", 
/**
 * By whom.
 */
by: SeatColor, } | { "kind": "declined", 
/**
 * By whom.
 */
by: SeatColor, } | { "kind": "game_over", 
/**
 * How.
 */
result: ResultView, } | { "kind": "berserk", 
/**
 * Who.
 */
color: SeatColor, } | { "kind": "aborted", 
/**
 * The player who aborted it; none when the server did (both players gone).
 */
by?: SeatColor, } | { "kind": "claimable", 
/**
 * The player who may claim.
 */
by: SeatColor, } | { "kind": "vacation", 
/**
 * The player on vacation.
 */
color: SeatColor, 
/**
 * Hours spent now.
 */
hours: number, 
/**
 * Their hours left this year.
 */
left: number, } | { "kind": "interrupted" } | { "kind": "resumed" } | { "kind": "chat", 
/**
 * The line.
 */
line: ChatLine, };

export type SeekView = { 
/**
 * Its id.
 */
id: string, 
/**
 * Who seeks.
 */
player: PlayerView, 
/**
 * Their rating in the game's category (registered players).
 */
rating?: number, 
/**
 * Whether that rating is provisional.
 */
provisional?: boolean, 
/**
 * The game sought.
 */
options: TableOptions, 
/**
 * The seek welcomes bot accounts (a bot's own seek always does).
 */
bots?: boolean, 
/**
 * When it was made, in milliseconds since 1970 (a correspondence seek).
 */
created_at?: number, };

export type ChallengeView = { 
/**
 * Its id (an open challenge's link is `#/challenge/<id>`).
 */
id: string, 
/**
 * The challenger.
 */
from: PlayerView, 
/**
 * The player challenged; none for an open challenge.
 */
to?: PlayerView, 
/**
 * The game offered.
 */
options: TableOptions, 
/**
 * The challenger's colour; random when absent.
 */
color?: SeatColor, 
/**
 * When it was made, in milliseconds since 1970.
 */
created_at: number, };

export type GoneReason = "accepted" | "declined" | "canceled";

export type Scope = "bot:play" | "challenge:write" | "board:play" | "tournament:write";

export type AccountView = { 
/**
 * The player's id.
 */
id: number, 
/**
 * The name.
 */
name: string, 
/**
 * Whether the player has an account (a guest otherwise).
 */
registered: boolean, 
/**
 * When the player first came, in milliseconds since 1970.
 */
created_at?: number, };

export type SessionView = { 
/**
 * A short id, for `DELETE /api/account/sessions/{id}`.
 */
id: string, 
/**
 * When it began, in milliseconds since 1970.
 */
created_at: number, 
/**
 * Whether it is the session of the request.
 */
current: boolean, };

export type TokenView = { 
/**
 * Its id, for `DELETE /api/token/{id}`.
 */
id: number, 
/**
 * What its owner called it.
 */
name: string, 
/**
 * Its scopes (`bot:play`, `challenge:write`, `board:play`).
 */
scopes: Array<Scope>, 
/**
 * When it was made, in milliseconds since 1970.
 */
created_at: number, 
/**
 * When it was last used (to the minute), if ever.
 */
last_used_at?: number, };

export type TokenRequest = { 
/**
 * A name to tell it by (1 to 40 characters).
 */
name: string, 
/**
 * Its scopes, at least one.
 */
scopes: Array<Scope>, };

export type NewToken = { 
/**
 * The token, `yat_` and 64 hex digits: `Authorization: Bearer <token>`.
 */
token: string, 
/**
 * Its id, for `DELETE /api/token/{id}`.
 */
id: number, 
/**
 * What its owner called it.
 */
name: string, 
/**
 * Its scopes (`bot:play`, `challenge:write`, `board:play`).
 */
scopes: Array<Scope>, 
/**
 * When it was made, in milliseconds since 1970.
 */
created_at: number, 
/**
 * When it was last used (to the minute), if ever.
 */
last_used_at?: number, };

export type TimeClass = "bullet" | "quick" | "rapid" | "classical" | "correspondence";

export type RatingCategory = "standard-bullet" | "standard-quick" | "standard-rapid" | "standard-classical" | "standard-correspondence" | "blitz-bullet" | "blitz-quick" | "blitz-rapid" | "blitz-classical" | "blitz-correspondence";

export const TIME_CLASSES: readonly TimeClass[] = ["bullet", "quick", "rapid", "classical", "correspondence"]; // fastest first

export const EXPECTED_TURNS = 30; // a game's expected length: minutes × 60 + EXPECTED_TURNS × increment seconds

export const TIME_CLASS_BELOW: Readonly<Record<Exclude<TimeClass, "classical" | "correspondence">, number>> = { bullet: 180, quick: 480, rapid: 1500 }; // the expected length (seconds) each class stays under

export const RATING_CATEGORIES: readonly RatingCategory[] = ["standard-bullet", "standard-quick", "standard-rapid", "standard-classical", "standard-correspondence", "blitz-bullet", "blitz-quick", "blitz-rapid", "blitz-classical", "blitz-correspondence"]; // in the order pages show them

export type CategoryRatingView = { 
/**
 * `standard-rapid`, `blitz-bullet`, …
 */
category: RatingCategory, 
/**
 * The rating, in whole points.
 */
rating: number, 
/**
 * Its deviation now (it grows between games).
 */
deviation: number, 
/**
 * Whether it is provisional (deviation ≥ 110): shown with a `?`.
 */
provisional: boolean, 
/**
 * Rated games played in the category.
 */
games: number, 
/**
 * Won.
 */
wins: number, 
/**
 * Drawn.
 */
draws: number, 
/**
 * Lost.
 */
losses: number, };

export type RatingPointView = { 
/**
 * The game (its archive id).
 */
game: number, 
/**
 * Its category.
 */
category: RatingCategory, 
/**
 * When it ended, in milliseconds since 1970.
 */
at: number, 
/**
 * The rating after it.
 */
rating: number, };

export type HeadToHead = { 
/**
 * The other player.
 */
opponent: string, 
/**
 * Won.
 */
wins: number, 
/**
 * Drawn.
 */
draws: number, 
/**
 * Lost.
 */
losses: number, };

export type PlayerProfile = { 
/**
 * The name, as the player writes it.
 */
name: string, 
/**
 * `BOT` for a bot account.
 */
title?: Title, 
/**
 * When they first came, in milliseconds since 1970.
 */
created_at: number, 
/**
 * Whether they are connected now.
 */
online: boolean, 
/**
 * Their ratings, one per category played.
 */
ratings: Array<CategoryRatingView>, 
/**
 * Their rating after each rated game, oldest first.
 */
history: Array<RatingPointView>, 
/**
 * Their latest archived games, newest first.
 */
recent: Array<ArchiveEntry>, 
/**
 * Their archived games in all.
 */
games: number, 
/**
 * Their games against the player named by `?vs=`, when asked.
 */
head_to_head?: HeadToHead, };

export type EngineLevel = { 
/**
 * The level, 1 to 10.
 */
level: number, 
/**
 * Its estimated rating on the players' scale (docs/engine.md).
 */
rating: number, };

export type LeaderboardEntry = { 
/**
 * The place, from 1.
 */
rank: number, 
/**
 * The player.
 */
name: string, 
/**
 * The rating.
 */
rating: number, 
/**
 * Its deviation now.
 */
deviation: number, 
/**
 * Rated games played in the category.
 */
games: number, };

export type Leaderboard = { 
/**
 * The category.
 */
category: RatingCategory, 
/**
 * Best first.
 */
players: Array<LeaderboardEntry>, };

export type Over = "white" | "black" | "draw";

export type Mark = "inaccuracy" | "mistake" | "blunder";

export type JobState = "queued" | "running" | "done" | "failed";

export type EvalView = { 
/**
 * The evaluation for White, in hundredths of a ring.
 */
cp?: number, 
/**
 * A forced win: in this many actions, for White when positive, for Black when
 * negative.
 */
win?: number, 
/**
 * The game is over: `white`, `black` or `draw`.
 */
over?: Over, 
/**
 * White's chance to win (0 to 1; docs/engine.md, "The win chance").
 */
white_chance: number, };

export type ActionAnalysis = { 
/**
 * The action played.
 */
action: string, 
/**
 * The engine's choice in the position before, when there was a choice.
 */
best?: string, 
/**
 * The engine's line from the position before (starting with `best`).
 */
line?: Array<string>, 
/**
 * The position after the action.
 */
eval: EvalView, 
/**
 * The mover's win chance the action gave away (0 to 1).
 */
loss: number, 
/**
 * `inaccuracy`, `mistake` or `blunder`, when it lost enough.
 */
mark?: Mark, };

export type AnalysisSummary = { 
/**
 * Inaccuracies.
 */
inaccuracies: number, 
/**
 * Mistakes.
 */
mistakes: number, 
/**
 * Blunders.
 */
blunders: number, 
/**
 * Accuracy in percent (0 to 100).
 */
accuracy: number, };

export type AnalysisResult = { 
/**
 * The engine that analysed it.
 */
engine: string, 
/**
 * Its settings (`1000000 nodes`).
 */
settings: string, 
/**
 * Another engine or other settings than this server's made it (an older version):
 * asking for the analysis again (`POST`) makes it anew.
 */
outdated: boolean, 
/**
 * The start position.
 */
start: EvalView, 
/**
 * Every action.
 */
actions: Array<ActionAnalysis>, 
/**
 * Each player's summary.
 */
summary: Pair<AnalysisSummary>, };

export type AnalysisState = { 
/**
 * The game.
 */
game: number, 
/**
 * Where the job is.
 */
state: JobState, 
/**
 * Positions searched so far.
 */
done: number, 
/**
 * Positions to search (known once a worker began).
 */
total: number, 
/**
 * The analysis, once done.
 */
result?: AnalysisResult, };

export type WorkView = { 
/**
 * The best action.
 */
best?: string, 
/**
 * Its line.
 */
line?: Array<string>, 
/**
 * The evaluation for the player to act, in hundredths of a ring.
 */
cp?: number, 
/**
 * A forced win (positive) or loss (negative) in this many actions, for the player
 * to act.
 */
win?: number, 
/**
 * `cp` of the search's iteration before its last (docs/engine.md, "Analysis").
 */
shallow_cp?: number, 
/**
 * `win` of that iteration.
 */
shallow_win?: number, 
/**
 * The game is over: `white`, `black` or `draw`.
 */
over?: Over, };

export type WorkJob = { 
/**
 * The game.
 */
game: number, 
/**
 * Its options (the rules: variant, handicap, turn limit).
 */
options: TableOptions, 
/**
 * Its actions, in order.
 */
actions: Array<string>, 
/**
 * The nodes to search each position with.
 */
nodes: number, 
/**
 * Until when the worker holds the job, in milliseconds since 1970 (report
 * progress to keep it).
 */
lease_until: number, };

export type WorkResult = { 
/**
 * The engine (name and version).
 */
engine: string, 
/**
 * The nodes it searched each position with (the job's).
 */
nodes: number, 
/**
 * Its view of every position: the start, then after each action.
 */
views: Array<WorkView>, };

export type BoardPosition = { 
/**
 * Rings each player must remove to win.
 */
targets: Pair<number>, 
/**
 * Ring moves played so far.
 */
ring_moves: number, 
/**
 * The number of ring moves after which the game is scored, if any.
 */
turn_limit?: number, 
/**
 * The legal actions of the player to act (none once the game is over).
 */
legal: Array<string>, 
/**
 * How the game ended on the board, once it is over.
 */
result?: ResultView, 
/**
 * Its position string (docs/notation.md): where the analysis board and "play on
 * from here" begin.
 */
position: string, 
/**
 * The pieces.
 */
board: BoardView, 
/**
 * The player to act.
 */
to_move: SeatColor, 
/**
 * What they must do (`over` at the end of a game decided on the board).
 */
stage: StageName, 
/**
 * Markers left in the pool.
 */
pool: number, 
/**
 * Rings each player has removed.
 */
removed: Pair<number>, };

export type PositionRequest = { 
/**
 * The start, a position string; the empty board of the standard game when absent.
 */
position?: string, 
/**
 * Actions to play from it, in order (at most 600).
 */
actions: Array<string>, };

export type PositionLine = { 
/**
 * One more than the actions.
 */
positions: Array<BoardPosition>, };

export type ParsedRecord = { 
/**
 * White's name (`?` when unknown).
 */
white: string, 
/**
 * Black's name.
 */
black: string, 
/**
 * The date, `YYYY.MM.DD` with `?` for unknown parts.
 */
date: string, 
/**
 * The result, when the game is finished.
 */
result?: ResultView, 
/**
 * Its actions, in order.
 */
actions: Array<string>, 
/**
 * The game as a record in our format.
 */
record: string, 
/**
 * The start and the position after each action.
 */
positions: Array<BoardPosition>, };

export type ArchiveEntry = { 
/**
 * The game id.
 */
id: number, 
/**
 * White's name.
 */
white: string, 
/**
 * Black's name.
 */
black: string, 
/**
 * White's engine level, when the engine played white.
 */
white_bot?: number, 
/**
 * Black's engine level, when the engine played black.
 */
black_bot?: number, 
/**
 * White played as a guest (absent otherwise).
 */
white_guest?: boolean, 
/**
 * Black played as a guest (absent otherwise).
 */
black_guest?: boolean, 
/**
 * `BOT` when a bot account played white.
 */
white_title?: Title, 
/**
 * `BOT` when a bot account played black.
 */
black_title?: Title, 
/**
 * The options it was played with.
 */
options: TableOptions, 
/**
 * When it started, in milliseconds since 1970 (UTC).
 */
started_at: number, 
/**
 * When it ended.
 */
finished_at: number, 
/**
 * The result.
 */
result: ResultView, 
/**
 * How many actions were played.
 */
actions: number, 
/**
 * Imported from a record (`POST /api/import`), not played here: its names are the
 * record's, nobody's account here (absent otherwise).
 */
imported?: boolean, };

export type ArchivedAction = { 
/**
 * The action token.
 */
action: string, 
/**
 * White's remaining time after it (timed games).
 */
white_ms?: number, 
/**
 * Black's remaining time after it (timed games).
 */
black_ms?: number, 
/**
 * When it was played, in milliseconds since 1970 (UTC).
 */
at: number, };

export type Frame = { 
/**
 * Its position string (docs/notation.md): where the analysis board and "play on
 * from here" begin.
 */
position: string, 
/**
 * The pieces.
 */
board: BoardView, 
/**
 * The player to act.
 */
to_move: SeatColor, 
/**
 * What they must do (`over` at the end of a game decided on the board).
 */
stage: StageName, 
/**
 * Markers left in the pool.
 */
pool: number, 
/**
 * Rings each player has removed.
 */
removed: Pair<number>, };

export type ArchivedGame = { 
/**
 * Every action with its clocks.
 */
moves: Array<ArchivedAction>, 
/**
 * The position before the first action and after each one (one more than
 * `moves`).
 */
frames: Array<Frame>, 
/**
 * The game record (docs/notation.md), as the download gives it.
 */
record: string, 
/**
 * The game id.
 */
id: number, 
/**
 * White's name.
 */
white: string, 
/**
 * Black's name.
 */
black: string, 
/**
 * White's engine level, when the engine played white.
 */
white_bot?: number, 
/**
 * Black's engine level, when the engine played black.
 */
black_bot?: number, 
/**
 * White played as a guest (absent otherwise).
 */
white_guest?: boolean, 
/**
 * Black played as a guest (absent otherwise).
 */
black_guest?: boolean, 
/**
 * `BOT` when a bot account played white.
 */
white_title?: Title, 
/**
 * `BOT` when a bot account played black.
 */
black_title?: Title, 
/**
 * The options it was played with.
 */
options: TableOptions, 
/**
 * When it started, in milliseconds since 1970 (UTC).
 */
started_at: number, 
/**
 * When it ended.
 */
finished_at: number, 
/**
 * The result.
 */
result: ResultView, 
/**
 * How many actions were played.
 */
actions: number, 
/**
 * Imported from a record (`POST /api/import`), not played here: its names are the
 * record's, nobody's account here (absent otherwise).
 */
imported?: boolean, };

export type ArchivePage = { 
/**
 * The games, newest first.
 */
games: Array<ArchiveEntry>, 
/**
 * How many games match in all.
 */
total: number, };

export type NowPlayingList = { 
/**
 * The games.
 */
nowPlaying: Array<NowPlaying>, 
/**
 * How many of them wait for the player's action.
 */
myTurn: number, };

export type NowPlaying = { 
/**
 * The table it is played at (`#/table/{id}`, the bot API's game id).
 */
gameId: string, 
/**
 * The same: a table's id is all a player needs to play at it.
 */
fullId: string, 
/**
 * The player's colour.
 */
color: SeatColor, 
/**
 * Whether the game waits for the player's action.
 */
isMyTurn: boolean, 
/**
 * Whether the player has acted in it yet.
 */
hasMoved: boolean, 
/**
 * The time left to the player to act, in seconds (none in an untimed game, or
 * unlimited correspondence).
 */
secondsLeft?: number, 
/**
 * Days per turn, in a correspondence game (none for unlimited and live games).
 */
daysPerTurn?: number, 
/**
 * `bullet`, `blitz`, `rapid`, `classical`, `correspondence` or `unlimited`.
 */
speed: string, 
/**
 * The rating category (as `speed` for a game without one).
 */
perf: string, 
/**
 * Whether it is rated.
 */
rated: boolean, 
/**
 * The variant.
 */
variant: VariantKey, 
/**
 * The last action played (empty before the first).
 */
lastMove: string, 
/**
 * Actions played so far.
 */
actions: number, 
/**
 * The opponent.
 */
opponent: Opponent, };

export type VariantKey = { 
/**
 * `standard` or `blitz`.
 */
key: VariantName, 
/**
 * Its name.
 */
name: string, };

export type Opponent = { 
/**
 * An account's id: its name in lower case, as lichess's (none for a guest or the
 * engine).
 */
id?: string, 
/**
 * The name shown.
 */
username: string, 
/**
 * Their rating in the game's category (none for guests and the engine).
 */
rating?: number, 
/**
 * Whether that rating is provisional.
 */
provisional?: boolean, 
/**
 * The engine's level, for the engine.
 */
ai?: number, };

export type NoticeKind = "your_turn" | "challenge" | "game_over" | "deadline" | "analysis_ready" | "tournament";

export type Outcome = "win" | "loss" | "draw";

export type Notice = { "kind": "your_turn", 
/**
 * The table.
 */
table: string, 
/**
 * The opponent's name.
 */
opponent: string, } | { "kind": "challenge", 
/**
 * The challenge's id.
 */
challenge: string, 
/**
 * Who challenged.
 */
from: string, } | { "kind": "game_over", 
/**
 * The table.
 */
table: string, 
/**
 * The game (its archive page once logged).
 */
game: number, 
/**
 * The opponent's name.
 */
opponent: string, 
/**
 * How it ended for you.
 */
outcome: Outcome, } | { "kind": "deadline", 
/**
 * The table.
 */
table: string, 
/**
 * The opponent's name.
 */
opponent: string, 
/**
 * 24 or 1.
 */
hours: number, } | { "kind": "analysis_ready", 
/**
 * The game.
 */
game: number, } | { "kind": "tournament", 
/**
 * Its id.
 */
tournament: string, 
/**
 * Its name.
 */
name: string, };

export type NotificationView = { 
/**
 * Its id, for `POST /api/notifications/read`.
 */
id: number, 
/**
 * When, in milliseconds since 1970.
 */
at: number, 
/**
 * Whether it was read.
 */
read: boolean, 
/**
 * What it says.
 */
notice: Notice, };

export type NotificationList = { 
/**
 * How many are unread.
 */
unread: number, 
/**
 * The newest of them (at most [`crate::notify::KEPT`]).
 */
notifications: Array<NotificationView>, };

export type MarkRead = { 
/**
 * Their ids.
 */
ids?: Array<number>, };

export type NotifySettings = { 
/**
 * The kinds switched off (none: every kind is on).
 */
off: Array<NoticeKind>, };

export type MailView = { 
/**
 * Whether this server sends mail at all.
 */
enabled: boolean, 
/**
 * The address, if one was given.
 */
address?: string, 
/**
 * Whether it was verified (mail goes only to a verified address).
 */
verified: boolean, 
/**
 * The kinds of notification mailed.
 */
kinds: Array<NoticeKind>, 
/**
 * Turns come as one daily digest instead of a mail each.
 */
digest: boolean, };

export type NewAddress = { 
/**
 * The address.
 */
address: string, };

export type MailSettings = { 
/**
 * The kinds of notification mailed.
 */
kinds: Array<NoticeKind>, 
/**
 * Turns as one daily digest instead of a mail each.
 */
digest: boolean, };

export type Forgot = { 
/**
 * The account's verified address.
 */
address: string, };

export type ArenaClock = { 
/**
 * Seconds on each clock.
 */
limit: number, 
/**
 * Seconds added after each turn.
 */
increment: number, };

export type ArenaVariant = { 
/**
 * `standard` or `blitz`.
 */
key: string, 
/**
 * `Standard` or `Blitz`.
 */
name: string, };

export type ArenaPerf = { 
/**
 * `standard-quick`, …
 */
key: string, 
/**
 * Its time class: `quick`, …
 */
name: string, };

export type ArenaView = { 
/**
 * Its id.
 */
id: string, 
/**
 * Always `arena`.
 */
system: string, 
/**
 * Its name.
 */
fullName: string, 
/**
 * Who made it (`yinsh`: the server's schedule).
 */
createdBy: string, 
/**
 * How long it runs.
 */
minutes: number, 
/**
 * Its games' clock.
 */
clock: ArenaClock, 
/**
 * Its games' variant.
 */
variant: ArenaVariant, 
/**
 * The rating category, for a rated arena's games.
 */
perf?: ArenaPerf, 
/**
 * Whether its games count for the ratings.
 */
rated: boolean, 
/**
 * Whether bot accounts may join.
 */
bots: boolean, 
/**
 * Players who joined.
 */
nbPlayers: number, 
/**
 * When it begins (ms since 1970).
 */
startsAt: number, 
/**
 * When it ends.
 */
finishesAt: number, 
/**
 * 10 not begun, 20 under way, 30 over (lichess's numbers).
 */
status: number, 
/**
 * Under way.
 */
isStarted: boolean, 
/**
 * Over.
 */
isFinished: boolean, 
/**
 * Until it begins, before it does.
 */
secondsToStart?: number, 
/**
 * Until it ends, while it runs.
 */
secondsToFinish?: number, };

export type SheetView = { 
/**
 * The points of each game, one digit or number a game, newest first.
 */
scores: string, 
/**
 * Their next game scores double.
 */
fire: boolean, };

export type GameCounts = { 
/**
 * Played.
 */
game: number, 
/**
 * Won.
 */
win: number, };

export type StandingLine = { 
/**
 * Place, from 1.
 */
rank: number, 
/**
 * The player.
 */
name: string, 
/**
 * `BOT` for a bot account.
 */
title?: string, 
/**
 * Their rating as they joined.
 */
rating: number, 
/**
 * Their points.
 */
score: number, 
/**
 * Their sheet.
 */
sheet: SheetView, 
/**
 * Games played and won.
 */
nb: GameCounts, 
/**
 * Their performance rating, once they played.
 */
performance?: number, 
/**
 * Withdrawn after the start.
 */
withdraw?: boolean, 
/**
 * The table of the game they play now.
 */
playing?: string, };

export type Standing = { 
/**
 * This page, from 1.
 */
page: number, 
/**
 * Pages in all.
 */
pages: number, 
/**
 * Its lines.
 */
players: Array<StandingLine>, };

export type ArenaFull = { 
/**
 * A page of the standings.
 */
standing: Standing, 
/**
 * The first three, once it is over.
 */
podium?: Array<StandingLine>, 
/**
 * Seconds a player waits after a game before the next pairing.
 */
pairDelaySeconds: number, 
/**
 * The asker's own line, when they joined (a page's session).
 */
me?: StandingLine, 
/**
 * Its id.
 */
id: string, 
/**
 * Always `arena`.
 */
system: string, 
/**
 * Its name.
 */
fullName: string, 
/**
 * Who made it (`yinsh`: the server's schedule).
 */
createdBy: string, 
/**
 * How long it runs.
 */
minutes: number, 
/**
 * Its games' clock.
 */
clock: ArenaClock, 
/**
 * Its games' variant.
 */
variant: ArenaVariant, 
/**
 * The rating category, for a rated arena's games.
 */
perf?: ArenaPerf, 
/**
 * Whether its games count for the ratings.
 */
rated: boolean, 
/**
 * Whether bot accounts may join.
 */
bots: boolean, 
/**
 * Players who joined.
 */
nbPlayers: number, 
/**
 * When it begins (ms since 1970).
 */
startsAt: number, 
/**
 * When it ends.
 */
finishesAt: number, 
/**
 * 10 not begun, 20 under way, 30 over (lichess's numbers).
 */
status: number, 
/**
 * Under way.
 */
isStarted: boolean, 
/**
 * Over.
 */
isFinished: boolean, 
/**
 * Until it begins, before it does.
 */
secondsToStart?: number, 
/**
 * Until it ends, while it runs.
 */
secondsToFinish?: number, };

export type ArenaList = { 
/**
 * Not begun, soonest first.
 */
created: Array<ArenaView>, 
/**
 * Under way.
 */
started: Array<ArenaView>, 
/**
 * The last finished.
 */
finished: Array<ArenaView>, };
