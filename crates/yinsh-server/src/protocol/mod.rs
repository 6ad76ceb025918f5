//! The WebSocket protocol: every message a client sends or receives, as tagged JSON.
//!
//! Each domain defines its own messages beside it (`table::protocol`,
//! `meet::protocol`, `account::protocol`, `rating::protocol`, `analysis::protocol`,
//! `archive::protocol`); this edge re-exports them (one line a domain), names the
//! requests a client sends ([`Request`]) and the messages the server sends
//! ([`ServerMessage`]), and holds the vocabulary every domain shares. The types are
//! defined once and exported to TypeScript (`client/src/protocol.ts`, see
//! [`typescript`]) so the web client cannot drift from the server. `docs/protocol.md`
//! shows example messages.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub mod vocab;

pub use crate::account::protocol::*;
pub use crate::analysis::protocol::*;
pub use crate::archive::protocol::*;
pub use crate::game::protocol::*;
pub use crate::meet::protocol::*;
pub use crate::notify::protocol::*;
pub use crate::rating::protocol::*;
pub use crate::refusal::Code;
pub use crate::table::protocol::*;
pub use crate::tournament::protocol::*;
pub use vocab::{Pair, PlayerView, SeatColor, Title, VariantName};

/// What a client sends: a request, with an optional id echoed in the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ClientMessage {
    /// Echoed in the `reply`, `error` or `pong` this message causes (`lobby` and
    /// `open` answer with a `lobby` or `snapshot` message, `open` also with a
    /// `reply`).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// The request.
    #[serde(flatten)]
    pub request: Request,
}

/// The requests a client can make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Sets the language of replies (`en`, `nl`, `pl`, `de`).
    Hello {
        /// The language code.
        lang: String,
    },
    /// Subscribes to the lobby: a `lobby` snapshot, then `lobby_table` and
    /// `lobby_removed` updates.
    Lobby,
    /// Creates a table; the answer is a `reply` with its id in `table`.
    CreateTable {
        /// Its options.
        options: TableOptions,
    },
    /// Watches a table: a `snapshot` (or, with `since`, the events missed), then every
    /// event. Needed before anything else at that table.
    Open {
        /// The table id.
        table: String,
        /// The last event seen, to resume after a reconnect.
        #[ts(optional)]
        #[serde(default)]
        since: Option<Since>,
    },
    /// Stops watching a table (a seat is kept).
    Close {
        /// The table id.
        table: String,
    },
    /// A chat line; one starting with `/` is a command.
    Chat {
        /// The table id.
        table: String,
        /// The text (at most 500 characters).
        text: String,
    },
    /// A chat line said as written, also one that starts with `/` (never a command:
    /// what a program says, as the bot API's chat).
    Say {
        /// The table id.
        table: String,
        /// The text (at most 500 characters).
        text: String,
    },
    /// A table command (the buttons).
    Command {
        /// The table id.
        table: String,
        /// The command.
        #[serde(flatten)]
        command: Command,
    },
    /// A game action in the notation of RULES.md (`e5`, `e5-e9`, `xc3-c7`, `xe5`,
    /// `pass`).
    Act {
        /// The table id.
        table: String,
        /// The action token.
        action: String,
        /// The number of actions already played that the client saw; an action sent
        /// for an older state is refused rather than applied to a newer one.
        #[ts(optional)]
        #[serde(default)]
        ply: Option<u32>,
    },
    /// Asks for a `pong`.
    Ping,
    /// Quick pairing: seeks an opponent for a game with these options (a variant, a
    /// clock, rated or casual; nothing else). Replaces the player's earlier seek; it
    /// ends when paired (a `paired` message), cancelled, or the connection closes.
    Seek {
        /// The game sought.
        options: TableOptions,
        /// Bot accounts may be paired with this seek too (they are not otherwise).
        #[ts(as = "Option<bool>", optional)]
        #[serde(default)]
        bots: bool,
    },
    /// Cancels the player's seek.
    CancelSeek,
    /// Accepts another player's seek from the lobby: paired at once.
    AcceptSeek {
        /// The seek's id.
        seek: String,
    },
    /// Challenges the player online under `to` (ignoring case), or, without `to`,
    /// whoever opens the challenge's link first. Both get a `challenge` message.
    Challenge {
        /// The player challenged; an open challenge when absent.
        #[ts(optional)]
        #[serde(default)]
        to: Option<String>,
        /// The game offered.
        options: TableOptions,
        /// The challenger's colour; drawn at random when absent.
        #[ts(optional)]
        #[serde(default)]
        color: Option<SeatColor>,
    },
    /// Accepts a challenge (to oneself, or an open one): paired at once.
    AcceptChallenge {
        /// Its id.
        challenge: String,
    },
    /// Declines a challenge to oneself.
    DeclineChallenge {
        /// Its id.
        challenge: String,
    },
    /// Withdraws one's own challenge.
    CancelChallenge {
        /// Its id.
        challenge: String,
    },
    /// Follows the analysis of an archived game: an `analysis` message now and at
    /// each step (progress, done) until the connection closes.
    WatchAnalysis {
        /// The game (its archive id).
        #[ts(type = "number")]
        game: i64,
    },
    /// Asks the engine about a position of the analysis board: `engine_line`
    /// messages as its search deepens, the last one `done`. A new `analyse` or a
    /// `stop_analyse` ends the search before; so does closing the connection.
    Analyse {
        /// The position string (docs/notation.md).
        position: String,
    },
    /// Stops this connection's `analyse`.
    StopAnalyse,
}

/// How busy the server is (`GET /api/stats`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Stats {
    /// People connected now (a person with several tabs open counts once).
    pub players_online: u32,
    /// Open tables.
    pub tables: u32,
    /// Games running.
    pub games: u32,
    /// The names of the registered players online (guests are only counted), sorted,
    /// at most 100.
    #[serde(default)]
    pub accounts_online: Vec<String>,
}

/// What the server sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The first message on a connection: who you are.
    Welcome {
        /// You.
        player: PlayerView,
        /// The language replies are written in.
        lang: String,
        /// The server's version.
        server: String,
        /// The node of the cluster this connection is served by (none on a lone
        /// server).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<String>,
    },
    /// The open tables and seeks (after `lobby`).
    Lobby {
        /// Every table.
        tables: Vec<TableSummary>,
        /// Every seek, oldest first.
        #[serde(default)]
        seeks: Vec<SeekView>,
    },
    /// A seek was made (to lobby watchers).
    LobbySeek {
        /// The seek.
        seek: SeekView,
    },
    /// A seek ended: paired, cancelled, or its player left.
    LobbySeekRemoved {
        /// Its id.
        seek: String,
    },
    /// A challenge to or from you (on every connection of both players; again on
    /// connecting while it stands).
    Challenge {
        /// The challenge.
        challenge: ChallengeView,
    },
    /// A challenge to or from you ended.
    ChallengeGone {
        /// Its id.
        challenge: String,
        /// Why.
        reason: GoneReason,
    },
    /// Where the analysis of a game this connection watches is (`watch_analysis`);
    /// without its result, which `GET /api/archive/{id}/analysis` gives once done.
    Analysis {
        /// The analysis.
        state: AnalysisState,
    },
    /// The engine's line in a position this connection asked about (`analyse`), after
    /// each depth of its search.
    EngineLine {
        /// The id of the `analyse` request this search answers (lines of a search it
        /// replaced may still arrive just after the reply: they have another id).
        #[ts(optional, type = "number")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// The position, as asked.
        position: String,
        /// The depth searched, in decisions.
        depth: u32,
        /// The evaluation, for White.
        eval: EvalView,
        /// The best line, the engine's choice first.
        line: Vec<String>,
        /// Who plays each action of `line` (a removal keeps the mover), so that a
        /// client can write the line by turns.
        movers: Vec<SeatColor>,
        /// Positions searched.
        #[ts(type = "number")]
        nodes: u64,
        /// Time searched, in milliseconds.
        #[ts(type = "number")]
        time_ms: u64,
        /// The last line of this search.
        done: bool,
    },
    /// A seek or challenge of yours was paired: the game at `table` has begun, you
    /// play `color` (open the table to play; the clocks wait for you).
    Paired {
        /// The table.
        table: String,
        /// Your colour.
        color: SeatColor,
        /// Whether the game waits for your action first.
        my_turn: bool,
    },
    /// A table was created or changed.
    LobbyTable {
        /// Its summary.
        table: TableSummary,
    },
    /// A table closed.
    LobbyRemoved {
        /// Its id.
        table: String,
    },
    /// Everything about a table (after `open`, or when a resume is not possible).
    Snapshot {
        /// The table.
        table: TableView,
    },
    /// Something happened at a table. Versions count up by one per event.
    Event {
        /// The table id.
        table: String,
        /// This event's version.
        #[ts(type = "number")]
        version: u64,
        /// What happened.
        event: TableEvent,
        /// The game after it, when the event changed the game otherwise than by an
        /// action (`acted` carries what changed itself); without `legal`.
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<GameView>,
        /// The clocks at the moment of the event, while a timed game runs (also in
        /// `game` when that is sent).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<ClockView>,
    },
    /// To the connections of the player to act, after the events that changed the game
    /// (and after a resume): what they may play now. Not versioned; it belongs to the
    /// event `version` and is stale once a later event changed the game.
    Legal {
        /// The table id.
        table: String,
        /// The version of the event after which these are the legal actions.
        #[ts(type = "number")]
        version: u64,
        /// The legal actions.
        actions: Vec<String>,
    },
    /// The clocks now, after a resume (the events replayed carry the clocks of their
    /// time). Not versioned.
    Clocks {
        /// The table id.
        table: String,
        /// The clocks.
        clocks: ClockView,
    },
    /// An engine seat is thinking about the position after event `version`: how far
    /// its search has got (after each depth that took a moment; none for quick
    /// decisions). To everyone at the table; not versioned. It tells neither the
    /// evaluation nor the line, which would help the engine's opponent.
    Thinking {
        /// The table id.
        table: String,
        /// The version of the event after which the engine is to act.
        #[ts(type = "number")]
        version: u64,
        /// The engine's seat.
        color: SeatColor,
        /// The depth searched so far, in decisions (0 when the engine does not say).
        depth: u32,
        /// Positions searched so far.
        #[ts(type = "number")]
        nodes: u64,
        /// Time thought so far, in milliseconds.
        #[ts(type = "number")]
        ms: u64,
    },
    /// A request succeeded; `text` says so in the connection's language.
    Reply {
        /// The request's id.
        #[ts(optional, type = "number")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// The table concerned.
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<String>,
        /// A stable key of the message (for clients that translate themselves).
        key: String,
        /// The message.
        text: String,
    },
    /// A request was refused and changed nothing (except `out_of_time`: the game
    /// ended on time when the action came).
    Error {
        /// The request's id.
        #[ts(optional, type = "number")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// The table concerned.
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<String>,
        /// A stable error code (`not_your_turn`, `illegal_action`, …).
        code: Code,
        /// The reason, in the connection's language.
        text: String,
    },
    /// A notification for you, just kept (on every connection of yours), and how many
    /// of yours are unread now.
    Notified {
        /// The notification.
        notification: NotificationView,
        /// How many are unread.
        unread: u32,
    },
    /// How many of your notifications are unread (after some were read, on another
    /// page too).
    Unread {
        /// How many.
        unread: u32,
    },
    /// How many of your running games wait for your action (after whose turn it is
    /// changed in one of them).
    MyTurn {
        /// How many.
        count: u32,
    },
    /// The answer to `ping`.
    Pong {
        /// The request's id.
        #[ts(optional, type = "number")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
}

/// Every protocol type in TypeScript, as `client/src/protocol.ts` holds them.
pub fn typescript() -> String {
    let cfg = ts_rs::Config::default();
    let mut out = String::from(
        "// The WebSocket and HTTP protocol types of the YINSH server.\n\
         // Generated from crates/yinsh-server/src/protocol/ and each domain's protocol.rs;\n\
         // do not edit by hand.\n\
         // Regenerate: UPDATE_PROTOCOL=1 cargo test -p yinsh-server protocol_types\n",
    );
    let shared = vec![
        SeatColor::decl(&cfg),
        Title::decl(&cfg),
        VariantName::decl(&cfg),
        Pair::<()>::decl(&cfg),
        Code::decl(&cfg),
        ClientMessage::decl(&cfg),
        Request::decl(&cfg),
        PlayerView::decl(&cfg),
        Stats::decl(&cfg),
        ServerMessage::decl(&cfg),
    ];
    let decls = shared
        .into_iter()
        .chain(crate::table::protocol::typescript(&cfg))
        .chain(crate::meet::protocol::typescript(&cfg))
        .chain(crate::account::protocol::typescript(&cfg))
        .chain(crate::rating::protocol::typescript(&cfg))
        .chain(crate::analysis::protocol::typescript(&cfg))
        .chain(crate::archive::protocol::typescript(&cfg))
        .chain(crate::game::protocol::typescript(&cfg))
        .chain(crate::notify::protocol::typescript(&cfg))
        .chain(crate::mail::protocol::typescript(&cfg))
        .chain(crate::tournament::protocol::typescript(&cfg));
    for decl in decls {
        out.push_str("\nexport ");
        out.push_str(&decl);
        out.push('\n');
    }
    out
}
