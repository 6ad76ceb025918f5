//! Why a request was refused: one [`Refusal`] per reason, with its stable wire code
//! ([`Refusal::code`]) and the arguments its message needs. The texts are in
//! [`crate::i18n`], which matches every variant in every language (a missing
//! translation does not compile).

use yinsh::Color;

use crate::i18n::{Arg, Msg};

mod texts;

/// A request refused; it changed nothing (except [`Refusal::OutOfTime`]: the game
/// ended on time when the action came).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The message is not one of the protocol's.
    BadMessage {
        /// What is wrong with it.
        reason: String,
    },
    /// The message is over the size limit.
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// Too many messages: the connection's rate limit.
    RateLimited,
    /// No table has this id.
    NoTable {
        /// The id asked for.
        table: String,
    },
    /// The table exists but this connection has not opened it.
    NotOpen {
        /// The table.
        table: String,
    },
    /// The server's table limit is reached.
    TooManyTables,
    /// The player has as many open tables as they may create.
    TooManyOwnTables {
        /// That many.
        limit: usize,
    },
    /// A slash command that does not exist.
    UnknownCommand {
        /// The command as typed.
        command: String,
    },
    /// A slash command with the wrong arguments.
    CommandUsage {
        /// How to write it.
        usage: &'static str,
    },
    /// A chat line with nothing in it.
    EmptyChat,
    /// A chat line over the length limit.
    ChatTooLong {
        /// The limit in characters.
        limit: usize,
    },
    /// A chat line with control characters (line breaks, tabs, escapes).
    ChatControl,
    /// A chat line with bidirectional overrides, embeddings or isolates.
    ChatBidi,
    /// A chat line with nothing visible in it.
    ChatInvisible,
    /// The seat asked for is taken.
    SeatTaken {
        /// The seat.
        color: Color,
    },
    /// Both seats are taken.
    NoFreeSeat,
    /// The player sits at the table already.
    AlreadySeated {
        /// Their seat.
        color: Color,
    },
    /// Only a seated player may do this.
    NotSeated,
    /// Not while a game runs.
    GameRunning,
    /// A seated player tried to leave a running game.
    LeaveRunning,
    /// A start with a seat free.
    NeedTwoPlayers,
    /// A start while a seated player is not at the table.
    OpponentAway,
    /// No game runs.
    NoGame,
    /// The other player must act.
    NotYourTurn,
    /// The action was sent for an older position.
    Stale,
    /// The action token could not be read.
    BadAction {
        /// Why.
        reason: String,
    },
    /// The action breaks the rules.
    IllegalAction {
        /// Which rule.
        reason: String,
    },
    /// The player's time ran out before the action came.
    OutOfTime,
    /// An option out of range.
    BadOption {
        /// Which and why.
        reason: &'static str,
    },
    /// An engine level that is not 1 to 10.
    BadLevel,
    /// This server has no engines.
    BotsDisabled,
    /// A rated game is for registered players: a guest may not sit at a rated table,
    /// nor a table be made rated while a guest sits there.
    RatedGuest,
    /// The engine does not play rated games.
    RatedEngine,
    /// No seek has that id (it was paired or cancelled).
    NoSeek,
    /// One's own seek cannot be accepted.
    OwnSeek,
    /// No challenge of this player has that id (accepted, declined or withdrawn).
    NoChallenge,
    /// A position string that describes no legal position (`analyse`).
    BadPosition,
    /// A bot account taking a seek that does not welcome bots.
    BotPairing,
    /// One's own challenge cannot be accepted, nor oneself challenged.
    OwnChallenge,
    /// Nobody of that name is online.
    PlayerOffline {
        /// The name asked for.
        name: String,
    },
    /// The player has as many challenges out as they may.
    TooManyChallenges {
        /// That many.
        limit: usize,
    },
    /// The player has not acted in this game.
    NothingToTakeBack,
    /// The player has used every takeback of this game.
    TakebackLimit {
        /// How many a player may have.
        limit: u8,
    },
    /// No offer is waiting for this player's answer.
    NothingPending,
    /// The player's own offer is still waiting.
    AlreadyPending,
    /// A player tried to answer their own offer.
    OwnOffer,
    /// A claim while the opponent is present, or not away long enough.
    CannotClaim {
        /// How long the opponent must have been away, in seconds.
        seconds: u64,
    },
    /// An abort after both players made their first two actions.
    AbortTooLate,
    /// The game is over, and its result waits for the database.
    ResultPending,
    /// The database did not take the change.
    StoreUnavailable,
    /// Another node of the cluster runs the table now: nothing changed here, and the
    /// connection is cut off so that the client reconnects and finds it there.
    TableMoved,
    /// The table's queue is full.
    Busy,
}

impl Refusal {
    /// The stable code sent as an error's `code`.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::BadMessage { .. } => "bad_message",
            Refusal::TooLarge { .. } => "too_large",
            Refusal::RateLimited => "rate_limited",
            Refusal::NoTable { .. } => "no_table",
            Refusal::NotOpen { .. } => "not_open",
            Refusal::TooManyTables => "too_many_tables",
            Refusal::TooManyOwnTables { .. } => "too_many_own_tables",
            Refusal::UnknownCommand { .. } => "unknown_command",
            Refusal::CommandUsage { .. } => "command_usage",
            Refusal::EmptyChat => "empty_chat",
            Refusal::ChatTooLong { .. } => "chat_too_long",
            Refusal::ChatControl => "chat_control",
            Refusal::ChatBidi => "chat_bidi",
            Refusal::ChatInvisible => "chat_invisible",
            Refusal::SeatTaken { .. } => "seat_taken",
            Refusal::NoFreeSeat => "no_free_seat",
            Refusal::AlreadySeated { .. } => "already_seated",
            Refusal::NotSeated => "not_seated",
            Refusal::GameRunning => "game_running",
            Refusal::LeaveRunning => "leave_running",
            Refusal::NeedTwoPlayers => "need_two_players",
            Refusal::OpponentAway => "opponent_away",
            Refusal::NoGame => "no_game",
            Refusal::NotYourTurn => "not_your_turn",
            Refusal::Stale => "stale",
            Refusal::BadAction { .. } => "bad_action",
            Refusal::IllegalAction { .. } => "illegal_action",
            Refusal::OutOfTime => "out_of_time",
            Refusal::BadOption { .. } => "bad_option",
            Refusal::BadLevel => "bad_level",
            Refusal::BotsDisabled => "bots_disabled",
            Refusal::RatedGuest => "rated_guest",
            Refusal::RatedEngine => "rated_engine",
            Refusal::NoSeek => "no_seek",
            Refusal::OwnSeek => "own_seek",
            Refusal::NoChallenge => "no_challenge",
            Refusal::BadPosition => "bad_position",
            Refusal::BotPairing => "bot_pairing",
            Refusal::OwnChallenge => "own_challenge",
            Refusal::PlayerOffline { .. } => "player_offline",
            Refusal::TooManyChallenges { .. } => "too_many_challenges",
            Refusal::NothingToTakeBack => "nothing_to_take_back",
            Refusal::TakebackLimit { .. } => "takeback_limit",
            Refusal::NothingPending => "nothing_pending",
            Refusal::AlreadyPending => "already_pending",
            Refusal::OwnOffer => "own_offer",
            Refusal::CannotClaim { .. } => "cannot_claim",
            Refusal::AbortTooLate => "abort_too_late",
            Refusal::ResultPending => "result_pending",
            Refusal::StoreUnavailable => "store_unavailable",
            Refusal::TableMoved => "table_moved",
            Refusal::Busy => "busy",
        }
    }

    /// The arguments of the message, by the names its templates use.
    pub fn args(&self) -> Vec<(&'static str, Arg)> {
        let text = |s: &str| Arg::Text(s.to_owned());
        let color = |c: &Color| Arg::Key(crate::i18n::color_key(*c));
        match self {
            Refusal::BadMessage { reason } | Refusal::BadAction { reason } => {
                vec![("reason", text(reason))]
            }
            Refusal::IllegalAction { reason } => vec![("reason", text(reason))],
            Refusal::BadOption { reason } => vec![("reason", text(reason))],
            Refusal::TooLarge { limit } | Refusal::TooManyOwnTables { limit } => {
                vec![("limit", Arg::Text(limit.to_string()))]
            }
            Refusal::ChatTooLong { limit } => vec![("limit", Arg::Text(limit.to_string()))],
            Refusal::TakebackLimit { limit } => vec![("limit", Arg::Text(limit.to_string()))],
            Refusal::NoTable { table } | Refusal::NotOpen { table } => {
                vec![("table", text(table))]
            }
            Refusal::UnknownCommand { command } => vec![("command", text(command))],
            Refusal::PlayerOffline { name } => vec![("name", text(name))],
            Refusal::TooManyChallenges { limit } => vec![("limit", Arg::Text(limit.to_string()))],
            Refusal::CommandUsage { usage } => vec![("usage", text(usage))],
            Refusal::SeatTaken { color: c } | Refusal::AlreadySeated { color: c } => {
                vec![("color", color(c))]
            }
            Refusal::CannotClaim { seconds } => vec![("seconds", Arg::Text(seconds.to_string()))],
            Refusal::RateLimited
            | Refusal::TooManyTables
            | Refusal::EmptyChat
            | Refusal::ChatControl
            | Refusal::ChatBidi
            | Refusal::ChatInvisible
            | Refusal::NoFreeSeat
            | Refusal::NotSeated
            | Refusal::GameRunning
            | Refusal::LeaveRunning
            | Refusal::NeedTwoPlayers
            | Refusal::OpponentAway
            | Refusal::NoGame
            | Refusal::NotYourTurn
            | Refusal::Stale
            | Refusal::OutOfTime
            | Refusal::BadLevel
            | Refusal::BotsDisabled
            | Refusal::RatedGuest
            | Refusal::RatedEngine
            | Refusal::NoSeek
            | Refusal::OwnSeek
            | Refusal::NoChallenge
            | Refusal::BadPosition
            | Refusal::BotPairing
            | Refusal::OwnChallenge
            | Refusal::NothingToTakeBack
            | Refusal::NothingPending
            | Refusal::AlreadyPending
            | Refusal::OwnOffer
            | Refusal::AbortTooLate
            | Refusal::ResultPending
            | Refusal::StoreUnavailable
            | Refusal::TableMoved
            | Refusal::Busy => Vec::new(),
        }
    }

    /// The text in `lang`.
    pub fn render(&self, lang: crate::i18n::Lang) -> String {
        Msg {
            key: self.code(),
            args: self.args(),
        }
        .render_in(lang, texts::refusal_template(lang, self))
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(crate::i18n::Lang::En))
    }
}
