//! The WebSocket protocol: every message a client sends or receives, as tagged JSON.
//!
//! The types are defined here once and exported to TypeScript (`client/src/protocol.ts`,
//! see [`typescript`]) so the web client cannot drift from the server. `docs/protocol.md`
//! shows example messages.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A seat colour on the wire: `"white"` or `"black"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum SeatColor {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl From<yinsh::Color> for SeatColor {
    fn from(c: yinsh::Color) -> SeatColor {
        match c {
            yinsh::Color::White => SeatColor::White,
            yinsh::Color::Black => SeatColor::Black,
        }
    }
}

impl From<SeatColor> for yinsh::Color {
    fn from(c: SeatColor) -> yinsh::Color {
        match c {
            SeatColor::White => yinsh::Color::White,
            SeatColor::Black => yinsh::Color::Black,
        }
    }
}

/// A pair of values, one per colour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Pair<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

/// The game variant of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum VariantName {
    /// Three rings to win.
    Standard,
    /// One ring to win.
    Blitz,
}

/// A time control: minutes on each clock and seconds added after each turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TimeSetting {
    /// Initial time on each clock, in whole minutes (1–180).
    pub minutes: u32,
    /// Increment after each completed turn, in seconds (0–60).
    pub increment: u32,
}

/// The options of a table; they can change only between games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableOptions {
    /// `standard` or `blitz`.
    pub variant: VariantName,
    /// Rings each player must remove to win, when they differ from the variant's
    /// (handicap, RULES.md V3): white's and black's target.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<Pair<u8>>,
    /// The game ends after this many ring moves (RULES.md V4); none when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u16>,
    /// The clocks; untimed when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeSetting>,
    /// Whether the finished game goes to the public archive.
    pub log: bool,
    /// Whether the game counts for the players' ratings: it needs two registered
    /// players, a clock, the variant's own targets and no turn limit, and is archived.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The position the games begin from, as a position string (docs/notation.md),
    /// when not the empty board ("play on from here"). Its targets and turn limit are
    /// the game's: a new table takes its variant, handicap and turn limit from it, and
    /// they cannot be changed. Such a game is never rated.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Whether an engine seat plays at full strength: it spends its clock as in a
    /// match (a minute or more over a decision in a long game) instead of at most 6
    /// seconds a decision, and thinks up to 10 seconds a decision in an untimed game
    /// instead of 1.5 (docs/engine.md, "Against people").
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub engine_full: bool,
}

impl Default for TableOptions {
    fn default() -> TableOptions {
        TableOptions {
            variant: VariantName::Standard,
            handicap: None,
            turn_limit: None,
            time: None,
            log: true,
            rated: false,
            position: None,
            engine_full: false,
        }
    }
}

/// One change of a table option, as `/option …` makes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "option", rename_all = "snake_case")]
pub enum OptionChange {
    /// `/option log on|off`.
    Log {
        /// Whether the game is archived.
        on: bool,
    },
    /// `/option time <min>[+<sec>]|off`.
    Time {
        /// The new time control; untimed when absent.
        #[ts(optional)]
        #[serde(default)]
        time: Option<TimeSetting>,
    },
    /// `/option variant standard|blitz` (clears a handicap).
    Variant {
        /// The variant.
        variant: VariantName,
    },
    /// `/option handicap <white-target> <black-target>`.
    Handicap {
        /// White's target.
        white: u8,
        /// Black's target.
        black: u8,
    },
    /// `/option rated on|off`.
    Rated {
        /// Whether the game counts for the ratings.
        on: bool,
    },
    /// `/option turns <n>|off`.
    Turns {
        /// The turn limit; none when absent.
        #[ts(optional)]
        #[serde(default)]
        limit: Option<u16>,
    },
    /// `/option engine quick|full`.
    Engine {
        /// Whether an engine seat plays at full strength (`full`) rather than at a
        /// person's pace (`quick`, the default).
        full: bool,
    },
}

/// A table command: what a chat slash command or a button asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// `/join [white|black]`: take a seat (the free one when no colour is given).
    Join {
        /// The seat wanted.
        #[ts(optional)]
        #[serde(default)]
        color: Option<SeatColor>,
    },
    /// `/leave`: give up your seat (not while your game runs: resign first).
    Leave,
    /// `/start`: begin the game (both seats taken; a seated player starts it).
    Start,
    /// `/option …`: change an option before the start.
    Option {
        /// The change.
        change: OptionChange,
    },
    /// `/bot [level]`: seat the engine in the free seat.
    Bot {
        /// Strength 1–10 (default 5).
        #[ts(optional)]
        #[serde(default)]
        level: Option<u8>,
    },
    /// `/resign`.
    Resign,
    /// `/draw`: offer a draw.
    Draw,
    /// `/takeback`: ask to undo your last turn.
    Takeback,
    /// `/accept`: accept the opponent's draw offer or takeback request.
    Accept,
    /// `/decline`: decline it.
    Decline,
    /// `/claim [draw]`: end the game when the opponent has been away longer than the
    /// grace period: a win, or a draw with `draw`.
    Claim {
        /// Claim a draw rather than the win (`false` when absent).
        #[serde(default)]
        draw: bool,
    },
    /// `/abort`: end the game without a result, while neither player has made two
    /// actions.
    Abort,
    /// `/who`: who is at the table.
    Who,
    /// `/help`: the list of commands.
    Help,
}

/// The last event a client saw of a table, to resume from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Since {
    /// The table's epoch (it changes when the server restarts).
    #[ts(type = "number")]
    pub epoch: u64,
    /// The last version seen.
    #[ts(type = "number")]
    pub version: u64,
}

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

/// A seek in the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub player: PlayerView,
    /// Their rating in the game's category (registered players).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// Whether that rating is provisional.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
    /// The game sought.
    pub options: TableOptions,
    /// The seek welcomes bot accounts (a bot's own seek always does).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bots: bool,
}

/// A challenge, as its two players see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChallengeView {
    /// Its id (an open challenge's link is `#/challenge/<id>`).
    pub id: String,
    /// The challenger.
    pub from: PlayerView,
    /// The player challenged; none for an open challenge.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<PlayerView>,
    /// The game offered.
    pub options: TableOptions,
    /// The challenger's colour; random when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<SeatColor>,
    /// When it was made, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
}

/// A player as others see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerView {
    /// The player's id (bots have none).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// The display name.
    pub name: String,
    /// The engine level, for a bot.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<u8>,
    /// Whether the player has a connection open to the table right now.
    pub online: bool,
    /// A guest (no account): shown as such. Absent for accounts and the engine.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// `BOT` for a bot account (a program playing through the bot API).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// What the lobby shows of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableSummary {
    /// The table id.
    pub id: String,
    /// Its options.
    pub options: TableOptions,
    /// Who sits where.
    pub seats: Pair<Option<PlayerView>>,
    /// How many spectators watch.
    pub spectators: u32,
    /// `waiting` or `playing`.
    pub status: TableStatus,
    /// The result of the table's last game, while the table waits for the next one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_result: Option<ResultView>,
}

/// The player of a session, as `GET /api/account` and the account endpoints give it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountView {
    /// The player's id.
    #[ts(type = "number")]
    pub id: i64,
    /// The name.
    pub name: String,
    /// Whether the player has an account (a guest otherwise).
    pub registered: bool,
    /// When the player first came, in milliseconds since 1970.
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<i64>,
}

/// One session of an account (`GET /api/account/sessions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionView {
    /// A short id, for `DELETE /api/account/sessions/{id}`.
    pub id: String,
    /// When it began, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Whether it is the session of the request.
    pub current: bool,
}

/// A personal API token of an account (`GET /api/token`); the token itself is never
/// shown again after it was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenView {
    /// Its id, for `DELETE /api/token/{id}`.
    #[ts(type = "number")]
    pub id: i64,
    /// What its owner called it.
    pub name: String,
    /// Its scopes (`bot:play`, `challenge:write`, `board:play`).
    pub scopes: Vec<String>,
    /// When it was made, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
    /// When it was last used (to the minute), if ever.
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used_at: Option<i64>,
}

/// What `POST /api/token` asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// A name to tell it by (1 to 40 characters).
    pub name: String,
    /// Its scopes, at least one.
    pub scopes: Vec<String>,
}

/// A token just made (`POST /api/token`): the only time the token is shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewToken {
    /// The token as listed.
    #[serde(flatten)]
    pub view: TokenView,
    /// The token, `yat_` and 64 hex digits: `Authorization: Bearer <token>`.
    pub token: String,
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

/// A player's rating in one category, as of now (`GET /api/player/<name>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CategoryRatingView {
    /// `standard-rapid`, `blitz-bullet`, …
    pub category: String,
    /// The rating, in whole points.
    pub rating: i32,
    /// Its deviation now (it grows between games).
    pub deviation: i32,
    /// Whether it is provisional (deviation ≥ 110): shown with a `?`.
    pub provisional: bool,
    /// Rated games played in the category.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// A player's rating after one rated game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RatingPointView {
    /// The game (its archive id).
    #[ts(type = "number")]
    pub game: i64,
    /// Its category.
    pub category: String,
    /// When it ended, in milliseconds since 1970.
    #[ts(type = "number")]
    pub at: i64,
    /// The rating after it.
    pub rating: i32,
}

/// The games of one player against another, from the first's side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HeadToHead {
    /// The other player.
    pub opponent: String,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// A registered player's page (`GET /api/player/<name>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerProfile {
    /// The name, as the player writes it.
    pub name: String,
    /// `BOT` for a bot account.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When they first came, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Whether they are connected now.
    pub online: bool,
    /// Their ratings, one per category played.
    pub ratings: Vec<CategoryRatingView>,
    /// Their rating after each rated game, oldest first.
    pub history: Vec<RatingPointView>,
    /// Their latest archived games, newest first.
    pub recent: Vec<ArchiveEntry>,
    /// Their archived games in all.
    #[ts(type = "number")]
    pub games: u64,
    /// Their games against the player named by `?vs=`, when asked.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<HeadToHead>,
}

/// One level of the engine and its estimated rating (`GET /api/engine`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EngineLevel {
    /// The level, 1 to 10.
    pub level: u8,
    /// Its estimated rating on the players' scale (docs/engine.md).
    pub rating: i32,
}

/// A position as the analysis judged it, for White.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct EvalView {
    /// The evaluation for White, in hundredths of a ring.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// A forced win: in this many actions, for White when positive, for Black when
    /// negative.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<i32>,
    /// The game is over: `white`, `black` or `draw`.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// White's chance to win (0 to 1; docs/engine.md, "The win chance").
    pub white_chance: f64,
}

/// One action of an analysed game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ActionAnalysis {
    /// The action played.
    pub action: String,
    /// The engine's choice in the position before, when there was a choice.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The engine's line from the position before (starting with `best`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// The position after the action.
    pub eval: EvalView,
    /// The mover's win chance the action gave away (0 to 1).
    pub loss: f64,
    /// `inaccuracy`, `mistake` or `blunder`, when it lost enough.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
}

/// One player's decisions in an analysed game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AnalysisSummary {
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
    /// Accuracy in percent (0 to 100).
    pub accuracy: f64,
}

/// The computer analysis of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AnalysisResult {
    /// The engine that analysed it.
    pub engine: String,
    /// Its settings (`1000000 nodes`).
    pub settings: String,
    /// Another engine or other settings than this server's made it (an older version):
    /// asking for the analysis again (`POST`) makes it anew.
    pub outdated: bool,
    /// The start position.
    pub start: EvalView,
    /// Every action.
    pub actions: Vec<ActionAnalysis>,
    /// Each player's summary.
    pub summary: Pair<AnalysisSummary>,
}

/// Where the analysis of a game is (`GET`/`POST /api/archive/{id}/analysis`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AnalysisState {
    /// The game.
    #[ts(type = "number")]
    pub game: i64,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// Positions searched so far.
    pub done: u32,
    /// Positions to search (known once a worker began).
    pub total: u32,
    /// The analysis, once done.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<AnalysisResult>,
}

/// The engine's view of one position, as a worker sends it: the best action, its line,
/// the score for the player to act (`cp` or a forced `win`) and that of the search's
/// iteration before its last (`shallow_cp` or `shallow_win`); or `over` with the winner
/// (`white`, `black`, `draw`) when the game is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct WorkView {
    /// The best action.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// Its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// The evaluation for the player to act, in hundredths of a ring.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// A forced win (positive) or loss (negative) in this many actions, for the player
    /// to act.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<i32>,
    /// `cp` of the search's iteration before its last (docs/engine.md, "Analysis").
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shallow_cp: Option<i32>,
    /// `win` of that iteration.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shallow_win: Option<i32>,
    /// The game is over: `white`, `black` or `draw`.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
}

/// A job for an analysis worker (`POST /api/worker/acquire`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkJob {
    /// The game.
    #[ts(type = "number")]
    pub game: i64,
    /// Its options (the rules: variant, handicap, turn limit).
    pub options: TableOptions,
    /// Its actions, in order.
    pub actions: Vec<String>,
    /// The nodes to search each position with.
    #[ts(type = "number")]
    pub nodes: u64,
    /// Until when the worker holds the job, in milliseconds since 1970 (report
    /// progress to keep it).
    #[ts(type = "number")]
    pub lease_until: i64,
}

/// What a worker hands in (`POST /api/worker/{game}/result`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct WorkResult {
    /// The engine (name and version).
    pub engine: String,
    /// The nodes it searched each position with (the job's).
    #[ts(type = "number")]
    pub nodes: u64,
    /// Its view of every position: the start, then after each action.
    pub views: Vec<WorkView>,
}

/// A position on the analysis board: everything a client needs to show it and let
/// the player to act choose (`POST /api/position`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BoardPosition {
    /// The position string, the pieces, the player to act and what they must do.
    #[serde(flatten)]
    pub frame: Frame,
    /// Rings each player must remove to win.
    pub targets: Pair<u8>,
    /// Ring moves played so far.
    pub ring_moves: u16,
    /// The number of ring moves after which the game is scored, if any.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u16>,
    /// The legal actions of the player to act (none once the game is over).
    pub legal: Vec<String>,
    /// How the game ended on the board, once it is over.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
}

/// What `POST /api/position` plays: actions from a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The start, a position string; the empty board of the standard game when absent.
    #[ts(optional)]
    #[serde(default)]
    pub position: Option<String>,
    /// Actions to play from it, in order (at most 600).
    #[serde(default)]
    pub actions: Vec<String>,
}

/// The answer of `POST /api/position`: the start and the position after each action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PositionLine {
    /// One more than the actions.
    pub positions: Vec<BoardPosition>,
}

/// A game record read by `POST /api/record/parse` (our record format or a
/// boardspace SGF file), for the analysis board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ParsedRecord {
    /// White's name (`?` when unknown).
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The date, `YYYY.MM.DD` with `?` for unknown parts.
    pub date: String,
    /// The result, when the game is finished.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// Its actions, in order.
    pub actions: Vec<String>,
    /// The game as a record in our format.
    pub record: String,
    /// The start and the position after each action.
    pub positions: Vec<BoardPosition>,
}

/// One row of a leaderboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LeaderboardEntry {
    /// The place, from 1.
    pub rank: u32,
    /// The player.
    pub name: String,
    /// The rating.
    pub rating: i32,
    /// Its deviation now.
    pub deviation: i32,
    /// Rated games played in the category.
    pub games: u32,
}

/// The best settled ratings of a category (`GET /api/leaderboard`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Leaderboard {
    /// The category.
    pub category: String,
    /// Best first.
    pub players: Vec<LeaderboardEntry>,
}

/// Whether a table's game runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum TableStatus {
    /// No game has started, or the last one is over and no new one yet.
    Waiting,
    /// A game runs.
    Playing,
}

/// Both clocks at the moment a message is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ClockView {
    /// White's remaining time in milliseconds.
    #[ts(type = "number")]
    pub white_ms: u64,
    /// Black's remaining time in milliseconds.
    #[ts(type = "number")]
    pub black_ms: u64,
    /// The clock that runs now, if any (count it down from the moment of arrival).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<SeatColor>,
    /// Seconds added after each completed turn.
    pub increment: u32,
}

/// The pieces on the board, as lists of points (`e5`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BoardView {
    /// Rings of each colour.
    pub rings: Pair<Vec<String>>,
    /// Markers of each colour.
    pub markers: Pair<Vec<String>>,
}

/// What the player to act must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum StageName {
    /// Place a ring.
    Place,
    /// Move a ring (or pass when none can move).
    Move,
    /// Choose a row to remove.
    RemoveRow,
    /// Choose a ring to remove.
    RemoveRing,
    /// The game is over.
    Over,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ResultView {
    /// The winner; a draw has none.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<SeatColor>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: String,
    /// `target reached`, `pool exhausted`, `no moves`, `turn limit`, `resignation`,
    /// `time`, `agreement` or `abandoned` (claimed after the opponent left, or
    /// adjudicated after both left).
    pub termination: String,
    /// In a rated game, each player's rating before and after it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Pair<RatingDiff>>,
}

/// One player's rating before and after a rated game (rounded to whole points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RatingDiff {
    /// Before the game.
    pub before: i32,
    /// After it.
    pub after: i32,
    /// Whether the rating after it is still provisional (deviation ≥ 110).
    pub provisional: bool,
}

/// A game as everyone at the table sees it; the legal actions are included so that
/// clients need no rules of their own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GameView {
    /// The game's id (its archive id once it is logged).
    #[ts(type = "number")]
    pub id: i64,
    /// The position string (docs/notation.md).
    pub position: String,
    /// The pieces.
    pub board: BoardView,
    /// The player to act.
    pub to_move: SeatColor,
    /// What they must do.
    pub stage: StageName,
    /// Markers left in the pool.
    pub pool: u32,
    /// Rings each player has removed.
    pub removed: Pair<u8>,
    /// Rings each player must remove to win.
    pub targets: Pair<u8>,
    /// Ring moves played so far.
    pub ring_moves: u16,
    /// The legal actions of the player to act, for that player only: filled in the
    /// snapshot a connection of theirs is sent, and given after each change of the game
    /// by a `legal` message; empty for everyone else, in events, and once the game is
    /// over or while it is paused.
    pub legal: Vec<String>,
    /// Every action played, in order.
    pub moves: Vec<String>,
    /// The clocks, for a timed game.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<ClockView>,
    /// The result, once the game is over.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// The player whose draw offer is pending.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<SeatColor>,
    /// The player whose takeback request is pending.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback_request: Option<SeatColor>,
    /// Takebacks granted to each player so far (at most 3 each per game).
    pub takebacks: Pair<u8>,
    /// Whether a seated player may still abort the game (neither has made two actions).
    pub abortable: bool,
    /// The player who may claim the game now (`/claim`): their opponent has been away
    /// longer than the grace period.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimable: Option<SeatColor>,
    /// Whether the clocks stand still because the database is not available.
    pub paused: bool,
}

/// A chat line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChatLine {
    /// Who wrote it.
    pub from: String,
    /// The writer is a guest (absent for accounts).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// The text, to be shown as text (never as markup).
    pub text: String,
    /// When, in milliseconds since 1970 (UTC).
    #[ts(type = "number")]
    pub at: i64,
}

/// Everything about a table: the answer to `open`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableView {
    /// The table id.
    pub id: String,
    /// Changes when the server restarts; resume with `since` only within one epoch.
    #[ts(type = "number")]
    pub epoch: u64,
    /// The version of the last event.
    #[ts(type = "number")]
    pub version: u64,
    /// The options.
    pub options: TableOptions,
    /// The seats.
    pub seats: Pair<Option<PlayerView>>,
    /// How many spectators watch.
    pub spectator_count: u32,
    /// The names of the spectators, sorted; the first 100 when there are more.
    pub spectators: Vec<String>,
    /// The most recent chat lines, oldest first.
    pub chat: Vec<ChatLine>,
    /// The current game, or the last one (over) until the next starts.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameView>,
    /// The node of the cluster that runs the table (none on a lone server). A client
    /// connected to another node may connect to it instead (`/ws?node=<id>`, through a
    /// proxy that routes on it), so that its requests need not be forwarded.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}

/// Something that happened at a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// A player took a seat.
    Joined {
        /// The seat.
        color: SeatColor,
        /// The player.
        player: PlayerView,
    },
    /// A seat was given up.
    Left {
        /// The seat.
        color: SeatColor,
    },
    /// A seated player's connection came or went.
    Presence {
        /// The seat.
        color: SeatColor,
        /// Whether they are connected now.
        online: bool,
    },
    /// The spectators changed (announced at most once a second).
    Spectators {
        /// How many watch.
        count: u32,
        /// Their names, sorted; the first 100 when there are more.
        names: Vec<String>,
    },
    /// The options changed.
    Options {
        /// The new options.
        options: TableOptions,
        /// Who changed them.
        by: String,
    },
    /// A game began.
    Started,
    /// A game action was played. The event carries no game view: a client applies it
    /// to the game it holds (the action appended to the moves, the board and the rest
    /// read from `position`), and the player to act is sent a `legal` message.
    Acted {
        /// Who played it.
        color: SeatColor,
        /// The action token.
        action: String,
        /// Actions played with this one: it is `moves[ply - 1]`.
        ply: u32,
        /// The position after it (docs/notation.md, "Position string"): the board, the
        /// player to act, what they must do, the rings removed, the targets and the ring
        /// moves (the pool is 51 less the markers on the board).
        position: String,
        /// Whether a seated player may still abort the game (absent: no longer).
        #[ts(as = "Option<bool>", optional)]
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        abortable: bool,
    },
    /// The last turn(s) were taken back.
    TookBack {
        /// How many actions were undone.
        actions: u32,
    },
    /// A draw was offered.
    DrawOffered {
        /// By whom.
        by: SeatColor,
    },
    /// A takeback was requested.
    TakebackRequested {
        /// By whom.
        by: SeatColor,
    },
    /// A draw offer or takeback request was declined (or withdrawn by playing on).
    Declined {
        /// By whom.
        by: SeatColor,
    },
    /// The game ended.
    GameOver {
        /// How.
        result: ResultView,
    },
    /// The game was aborted: it ends without a result and is not archived.
    Aborted {
        /// The player who aborted it; none when the server did (both players gone).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<SeatColor>,
    },
    /// A player's opponent has been away longer than the grace period: the player may
    /// claim the game (`/claim`) until the opponent comes back.
    Claimable {
        /// The player who may claim.
        by: SeatColor,
    },
    /// The database is not available: the clocks stand still and actions are refused
    /// until it is back.
    Interrupted,
    /// The database is back: the clocks run again from where they stood.
    Resumed,
    /// A chat line.
    Chat {
        /// The line.
        line: ChatLine,
    },
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
        /// `accepted`, `declined`, `canceled` (by the challenger, or they left).
        reason: String,
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
        code: String,
        /// The reason, in the connection's language.
        text: String,
    },
    /// The answer to `ping`.
    Pong {
        /// The request's id.
        #[ts(optional, type = "number")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
}

/// A logged game in the archive list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchiveEntry {
    /// The game id.
    #[ts(type = "number")]
    pub id: i64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's engine level, when the engine played white.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_bot: Option<u8>,
    /// Black's engine level, when the engine played black.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_bot: Option<u8>,
    /// White played as a guest (absent otherwise).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub white_guest: bool,
    /// Black played as a guest (absent otherwise).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub black_guest: bool,
    /// `BOT` when a bot account played white.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_title: Option<String>,
    /// `BOT` when a bot account played black.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_title: Option<String>,
    /// The options it was played with.
    pub options: TableOptions,
    /// When it started, in milliseconds since 1970 (UTC).
    #[ts(type = "number")]
    pub started_at: i64,
    /// When it ended.
    #[ts(type = "number")]
    pub finished_at: i64,
    /// The result.
    pub result: ResultView,
    /// How many actions were played.
    pub actions: u32,
    /// Imported from a record (`POST /api/import`), not played here: its names are the
    /// record's, nobody's account here (absent otherwise).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
}

/// One action of an archived game, with the clocks after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchivedAction {
    /// The action token.
    pub action: String,
    /// White's remaining time after it (timed games).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_ms: Option<u64>,
    /// Black's remaining time after it (timed games).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_ms: Option<u64>,
    /// When it was played, in milliseconds since 1970 (UTC).
    #[ts(type = "number")]
    pub at: i64,
}

/// The board at one moment of an archived game, for the replay viewer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Frame {
    /// Its position string (docs/notation.md): where the analysis board and "play on
    /// from here" begin.
    pub position: String,
    /// The pieces.
    pub board: BoardView,
    /// The player to act.
    pub to_move: SeatColor,
    /// What they must do (`over` at the end of a game decided on the board).
    pub stage: StageName,
    /// Markers left in the pool.
    pub pool: u32,
    /// Rings each player has removed.
    pub removed: Pair<u8>,
}

/// One archived game in full: `GET /api/archive/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchivedGame {
    /// What the list shows.
    #[serde(flatten)]
    pub entry: ArchiveEntry,
    /// Every action with its clocks.
    pub moves: Vec<ArchivedAction>,
    /// The position before the first action and after each one (one more than
    /// `moves`).
    pub frames: Vec<Frame>,
    /// The game record (docs/notation.md), as the download gives it.
    pub record: String,
}

/// The answer of `GET /api/archive`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchivePage {
    /// The games, newest first.
    pub games: Vec<ArchiveEntry>,
    /// How many games match in all.
    #[ts(type = "number")]
    pub total: u64,
}

/// Every protocol type in TypeScript, as `client/src/protocol.ts` holds them.
pub fn typescript() -> String {
    let cfg = ts_rs::Config::default();
    let mut out = String::from(
        "// The WebSocket and HTTP protocol types of the YINSH server.\n\
         // Generated from crates/yinsh-server/src/protocol.rs; do not edit by hand.\n\
         // Regenerate: UPDATE_PROTOCOL=1 cargo test -p yinsh-server protocol_types\n",
    );
    let decls = [
        SeatColor::decl(&cfg),
        Pair::<()>::decl(&cfg),
        VariantName::decl(&cfg),
        TimeSetting::decl(&cfg),
        TableOptions::decl(&cfg),
        OptionChange::decl(&cfg),
        Command::decl(&cfg),
        Since::decl(&cfg),
        ClientMessage::decl(&cfg),
        Request::decl(&cfg),
        SeekView::decl(&cfg),
        ChallengeView::decl(&cfg),
        PlayerView::decl(&cfg),
        TableSummary::decl(&cfg),
        TableStatus::decl(&cfg),
        ClockView::decl(&cfg),
        BoardView::decl(&cfg),
        StageName::decl(&cfg),
        ResultView::decl(&cfg),
        RatingDiff::decl(&cfg),
        GameView::decl(&cfg),
        ChatLine::decl(&cfg),
        TableView::decl(&cfg),
        TableEvent::decl(&cfg),
        ServerMessage::decl(&cfg),
        ArchiveEntry::decl(&cfg),
        ArchivedAction::decl(&cfg),
        Frame::decl(&cfg),
        ArchivedGame::decl(&cfg),
        ArchivePage::decl(&cfg),
        Stats::decl(&cfg),
        CategoryRatingView::decl(&cfg),
        RatingPointView::decl(&cfg),
        HeadToHead::decl(&cfg),
        PlayerProfile::decl(&cfg),
        EngineLevel::decl(&cfg),
        EvalView::decl(&cfg),
        ActionAnalysis::decl(&cfg),
        AnalysisSummary::decl(&cfg),
        AnalysisResult::decl(&cfg),
        AnalysisState::decl(&cfg),
        WorkView::decl(&cfg),
        WorkJob::decl(&cfg),
        WorkResult::decl(&cfg),
        BoardPosition::decl(&cfg),
        PositionRequest::decl(&cfg),
        PositionLine::decl(&cfg),
        ParsedRecord::decl(&cfg),
        LeaderboardEntry::decl(&cfg),
        Leaderboard::decl(&cfg),
        AccountView::decl(&cfg),
        SessionView::decl(&cfg),
        TokenView::decl(&cfg),
        TokenRequest::decl(&cfg),
        NewToken::decl(&cfg),
    ];
    for decl in decls {
        out.push_str("\nexport ");
        out.push_str(&decl);
        out.push('\n');
    }
    out
}
