//! The stable codes of refusals: what an error's `code` says, on the WebSocket protocol
//! (a union in `client/src/protocol.ts`) and in the HTTP API's `{"error", "code"}`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Declares [`Code`] and its wire words once.
macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $word:literal,)*) => {
        /// Why a request was refused, as a stable code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
        pub enum Code {
            $($(#[$doc])* #[serde(rename = $word)] $variant,)*
        }

        impl Code {
            /// The code as the wire writes it (`not_your_turn`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $word,)*
                }
            }
        }
    };
}

codes! {
    /// The message is not one of the protocol's.
    BadMessage = "bad_message",
    /// The message is over the size limit.
    TooLarge = "too_large",
    /// Too many messages: the connection's rate limit.
    RateLimited = "rate_limited",
    /// No table has this id.
    NoTable = "no_table",
    /// The table exists but this connection has not opened it.
    NotOpen = "not_open",
    /// The server's table limit is reached.
    TooManyTables = "too_many_tables",
    /// The player has as many open tables as they may create.
    TooManyOwnTables = "too_many_own_tables",
    /// A slash command that does not exist.
    UnknownCommand = "unknown_command",
    /// A slash command with the wrong arguments.
    CommandUsage = "command_usage",
    /// A chat line with nothing in it.
    EmptyChat = "empty_chat",
    /// A chat line over the length limit.
    ChatTooLong = "chat_too_long",
    /// A chat line with control characters (line breaks, tabs, escapes).
    ChatControl = "chat_control",
    /// A chat line with bidirectional overrides, embeddings or isolates.
    ChatBidi = "chat_bidi",
    /// A chat line with nothing visible in it.
    ChatInvisible = "chat_invisible",
    /// The seat asked for is taken.
    SeatTaken = "seat_taken",
    /// Both seats are taken.
    NoFreeSeat = "no_free_seat",
    /// The player sits at the table already.
    AlreadySeated = "already_seated",
    /// Only a seated player may do this.
    NotSeated = "not_seated",
    /// Not while a game runs.
    GameRunning = "game_running",
    /// A seated player tried to leave a running game.
    LeaveRunning = "leave_running",
    /// A start with a seat free.
    NeedTwoPlayers = "need_two_players",
    /// A start while a seated player is not at the table.
    OpponentAway = "opponent_away",
    /// A new game or an option change at a tournament's table.
    TournamentTable = "tournament_table",
    /// `/berserk` where it is not allowed.
    CannotBerserk = "cannot_berserk",
    /// No game runs.
    NoGame = "no_game",
    /// The other player must act.
    NotYourTurn = "not_your_turn",
    /// The action was sent for an older position.
    Stale = "stale",
    /// The action token could not be read.
    BadAction = "bad_action",
    /// The action breaks the rules.
    IllegalAction = "illegal_action",
    /// The player's time ran out before the action came.
    OutOfTime = "out_of_time",
    /// An option out of range.
    BadOption = "bad_option",
    /// An engine level that is not 1 to 10.
    BadLevel = "bad_level",
    /// This server has no engines.
    BotsDisabled = "bots_disabled",
    /// A rated game is for registered players: a guest may not sit at a rated table,
    /// nor a table be made rated while a guest sits there.
    RatedGuest = "rated_guest",
    /// The engine does not play rated games.
    RatedEngine = "rated_engine",
    /// No seek has that id (it was paired or cancelled).
    NoSeek = "no_seek",
    /// One's own seek cannot be accepted.
    OwnSeek = "own_seek",
    /// No challenge of this player has that id (accepted, declined or withdrawn).
    NoChallenge = "no_challenge",
    /// A position string that describes no legal position (`analyse`).
    BadPosition = "bad_position",
    /// A bot account taking a seek that does not welcome bots.
    BotPairing = "bot_pairing",
    /// One's own challenge cannot be accepted, nor oneself challenged.
    OwnChallenge = "own_challenge",
    /// Nobody of that name is online.
    PlayerOffline = "player_offline",
    /// The player has as many challenges out as they may.
    TooManyChallenges = "too_many_challenges",
    /// The player has as many correspondence seeks open as they may.
    TooManySeeks = "too_many_seeks",
    /// The player has not acted in this game.
    NothingToTakeBack = "nothing_to_take_back",
    /// The player has used every takeback of this game.
    TakebackLimit = "takeback_limit",
    /// No offer is waiting for this player's answer.
    NothingPending = "nothing_pending",
    /// The player's own offer is still waiting.
    AlreadyPending = "already_pending",
    /// A player tried to answer their own offer.
    OwnOffer = "own_offer",
    /// A claim while the opponent is present, or not away long enough.
    CannotClaim = "cannot_claim",
    /// An abort after both players made their first two actions.
    AbortTooLate = "abort_too_late",
    /// The game is over, and its result waits for the database.
    ResultPending = "result_pending",
    /// The database did not take the change.
    StoreUnavailable = "store_unavailable",
    /// Another node of the cluster runs the table now: nothing changed here, and the
    /// connection is cut off so that the client reconnects and finds it there.
    TableMoved = "table_moved",
    /// The table's queue is full.
    Busy = "busy",
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
