//! Why a request was refused: one [`Refusal`] per reason, with its stable wire code
//! ([`Refusal::code`]) and the arguments its message needs. The texts are in
//! [`crate::i18n`], which matches every variant in every language (a missing
//! translation does not compile).

use yinsh::Color;

use crate::i18n::{Arg, Msg};

mod code;
mod texts;

pub use code::Code;

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
    /// A new game or an option change at a tournament's table: the tournament pairs
    /// its games.
    TournamentTable,
    /// `/berserk` where it is not allowed: not a timed tournament game, after one's
    /// first action, or twice.
    CannotBerserk,
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
    /// The player has as many correspondence seeks open as they may.
    TooManySeeks {
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
    pub fn code(&self) -> Code {
        match self {
            Refusal::BadMessage { .. } => Code::BadMessage,
            Refusal::TooLarge { .. } => Code::TooLarge,
            Refusal::RateLimited => Code::RateLimited,
            Refusal::NoTable { .. } => Code::NoTable,
            Refusal::NotOpen { .. } => Code::NotOpen,
            Refusal::TooManyTables => Code::TooManyTables,
            Refusal::TooManyOwnTables { .. } => Code::TooManyOwnTables,
            Refusal::UnknownCommand { .. } => Code::UnknownCommand,
            Refusal::CommandUsage { .. } => Code::CommandUsage,
            Refusal::EmptyChat => Code::EmptyChat,
            Refusal::ChatTooLong { .. } => Code::ChatTooLong,
            Refusal::ChatControl => Code::ChatControl,
            Refusal::ChatBidi => Code::ChatBidi,
            Refusal::ChatInvisible => Code::ChatInvisible,
            Refusal::SeatTaken { .. } => Code::SeatTaken,
            Refusal::NoFreeSeat => Code::NoFreeSeat,
            Refusal::AlreadySeated { .. } => Code::AlreadySeated,
            Refusal::NotSeated => Code::NotSeated,
            Refusal::GameRunning => Code::GameRunning,
            Refusal::LeaveRunning => Code::LeaveRunning,
            Refusal::NeedTwoPlayers => Code::NeedTwoPlayers,
            Refusal::OpponentAway => Code::OpponentAway,
            Refusal::TournamentTable => Code::TournamentTable,
            Refusal::CannotBerserk => Code::CannotBerserk,
            Refusal::NoGame => Code::NoGame,
            Refusal::NotYourTurn => Code::NotYourTurn,
            Refusal::Stale => Code::Stale,
            Refusal::BadAction { .. } => Code::BadAction,
            Refusal::IllegalAction { .. } => Code::IllegalAction,
            Refusal::OutOfTime => Code::OutOfTime,
            Refusal::BadOption { .. } => Code::BadOption,
            Refusal::BadLevel => Code::BadLevel,
            Refusal::BotsDisabled => Code::BotsDisabled,
            Refusal::RatedGuest => Code::RatedGuest,
            Refusal::RatedEngine => Code::RatedEngine,
            Refusal::NoSeek => Code::NoSeek,
            Refusal::OwnSeek => Code::OwnSeek,
            Refusal::NoChallenge => Code::NoChallenge,
            Refusal::BadPosition => Code::BadPosition,
            Refusal::BotPairing => Code::BotPairing,
            Refusal::OwnChallenge => Code::OwnChallenge,
            Refusal::PlayerOffline { .. } => Code::PlayerOffline,
            Refusal::TooManyChallenges { .. } => Code::TooManyChallenges,
            Refusal::TooManySeeks { .. } => Code::TooManySeeks,
            Refusal::NothingToTakeBack => Code::NothingToTakeBack,
            Refusal::TakebackLimit { .. } => Code::TakebackLimit,
            Refusal::NothingPending => Code::NothingPending,
            Refusal::AlreadyPending => Code::AlreadyPending,
            Refusal::OwnOffer => Code::OwnOffer,
            Refusal::CannotClaim { .. } => Code::CannotClaim,
            Refusal::AbortTooLate => Code::AbortTooLate,
            Refusal::ResultPending => Code::ResultPending,
            Refusal::StoreUnavailable => Code::StoreUnavailable,
            Refusal::TableMoved => Code::TableMoved,
            Refusal::Busy => Code::Busy,
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
            Refusal::TooManyChallenges { limit } | Refusal::TooManySeeks { limit } => {
                vec![("limit", Arg::Text(limit.to_string()))]
            }
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
            | Refusal::TournamentTable
            | Refusal::CannotBerserk
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
            key: self.code().as_str(),
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
