//! What a tournament keeps: the event, who joined, and each game with its result. The
//! standings are never stored: they are the games scored in the order they ended, so
//! a restart or another node rebuilds them exactly.

use serde::{Deserialize, Serialize};

use crate::protocol::{TimeSetting, VariantName};
use crate::store::base::StoreFuture;
use crate::vocab::{GameId, PlayerId};

/// Where an event is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Open to join, not begun.
    Created,
    /// Under way.
    Started,
    /// Over (games still running at the end count when they end).
    Finished,
}

impl Status {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Started => "started",
            Status::Finished => "finished",
        }
    }

    /// As stored, read back.
    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "created" => Some(Status::Created),
            "started" => Some(Status::Started),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// What the creator of an arena chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaSettings {
    /// How long it runs, in minutes.
    pub minutes: u32,
    /// The clock of its games.
    pub clock: TimeSetting,
    /// The variant.
    pub variant: VariantName,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// Whether bot accounts may join.
    pub bots: bool,
}

/// An arena as kept.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredArena {
    /// Its id (eight letters and digits).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Who made it, and their name (`None`: the server's schedule).
    pub created_by: Option<(PlayerId, String)>,
    /// What the creator chose.
    pub settings: ArenaSettings,
    /// When it begins and ends, in milliseconds since 1970.
    pub starts_at: i64,
    /// When it ends.
    pub ends_at: i64,
    /// Where it is in its life.
    pub status: Status,
    /// When it was made.
    pub created_at: i64,
}

/// A player who joined.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEntrant {
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// Whether theirs is a bot account.
    pub bot: bool,
    /// Their rating in the event's category as they joined (rounded).
    pub rating: i64,
    /// When they joined.
    pub joined_at: i64,
    /// Withdrawn after the start: not paired until they join again.
    pub paused: bool,
}

/// How a tournament game ended, as kept with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// White won.
    White,
    /// Black won.
    Black,
    /// A draw.
    Draw,
    /// It never began (aborted): it scores nothing.
    Aborted,
}

impl Ending {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::White => "white",
            Ending::Black => "black",
            Ending::Draw => "draw",
            Ending::Aborted => "aborted",
        }
    }

    /// As stored, read back.
    pub fn parse(text: &str) -> Option<Ending> {
        match text {
            "white" => Some(Ending::White),
            "black" => Some(Ending::Black),
            "draw" => Some(Ending::Draw),
            "aborted" => Some(Ending::Aborted),
            _ => None,
        }
    }
}

/// The end of a tournament game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// The game, when one was stored.
    pub game: Option<GameId>,
    /// How it ended.
    pub ending: Ending,
    /// The turns played (ring placements and ring moves, both players').
    pub turns: u32,
    /// Whether each berserked.
    pub berserk: yinsh::ByColor<bool>,
    /// When it ended.
    pub ended_at: i64,
}

/// A tournament game as kept.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPairing {
    /// Its table.
    pub table: String,
    /// White.
    pub white: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// When it was paired.
    pub started_at: i64,
    /// Its end, once it ended.
    pub end: Option<GameEnd>,
}

/// A tournament game whose end the director has not heard, as the store has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unheard {
    /// Its table.
    pub table: String,
    /// When it was paired.
    pub started_at: i64,
    /// Its stored game, if one was stored (an aborted game is not kept), and whether
    /// that game is finished.
    pub game: Option<(GameId, bool)>,
}

/// What a join did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    /// The player is in now.
    Joined,
    /// They had withdrawn after the start: they are back.
    Back,
    /// They were in already.
    Already,
}

/// Tournaments. Every method is one transaction.
pub trait TournamentStore: Send + Sync + 'static {
    /// Keeps the new `arena`, unless its creator has `limit` events not finished
    /// already or one has its id (a scheduled arena made before): whether it was kept.
    fn create_arena<'a>(&'a self, arena: &'a StoredArena, limit: u32) -> StoreFuture<'a, bool>;

    /// Arena `id`.
    fn arena<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredArena>>;

    /// The arenas not finished, and the `finished` last finished: soonest first.
    fn arenas(&self, finished: u32) -> StoreFuture<'_, Vec<StoredArena>>;

    /// Moves arena `id` on to `status`.
    fn set_status<'a>(&'a self, id: &'a str, status: Status) -> StoreFuture<'a, ()>;

    /// Adds `entrant` to `id` (or unpauses them).
    fn join<'a>(&'a self, id: &'a str, entrant: &'a StoredEntrant) -> StoreFuture<'a, Joined>;

    /// Takes `player` out of `id` before it began: whether they were in.
    fn leave<'a>(&'a self, id: &'a str, player: PlayerId) -> StoreFuture<'a, bool>;

    /// Pauses or unpauses `player` in `id`: whether they were in.
    fn pause<'a>(&'a self, id: &'a str, player: PlayerId, paused: bool) -> StoreFuture<'a, bool>;

    /// Everyone who joined `id`, in the order they joined.
    fn entrants<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredEntrant>>;

    /// Keeps a new game of `id` (before its table opens): whether it was kept, which it
    /// is not when either player is in an unended game of `id` already.
    fn add_pairing<'a>(&'a self, id: &'a str, pairing: &'a StoredPairing) -> StoreFuture<'a, bool>;

    /// Keeps the end of the game at `table` of `id`: whether it had not ended yet (an
    /// end kept twice counts once).
    fn end_pairing<'a>(
        &'a self,
        id: &'a str,
        table: &'a str,
        end: GameEnd,
    ) -> StoreFuture<'a, bool>;

    /// Every game of `id`: the ended ones in the order they ended, then those still
    /// running.
    fn pairings<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredPairing>>;

    /// The games of `id` paired at `paired_before` or earlier whose end is not kept,
    /// each with what the store has of it.
    fn unheard<'a>(&'a self, id: &'a str, paired_before: i64) -> StoreFuture<'a, Vec<Unheard>>;
}
