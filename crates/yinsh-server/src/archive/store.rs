//! What the archive reads: finished, logged games, and games imported from records.

use crate::game::store::{NewGame, StoredAction, StoredGame, StoredResult};
use crate::store::base::StoreFuture;
use crate::vocab::{GameId, PlayerId};

/// A search of the archive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArchiveQuery {
    /// Only games where a player's name contains this (case-insensitive).
    pub player: Option<String>,
    /// Only games of this player.
    pub player_id: Option<PlayerId>,
    /// Only games that started at or after this time (milliseconds since 1970).
    pub from: Option<i64>,
    /// Only games that started before this time.
    pub to: Option<i64>,
    /// At most this many games (1–100).
    pub limit: u32,
    /// Skip this many (newest first).
    pub offset: u32,
}

/// A page of the archive: games without their actions, and the total count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveList {
    /// The games, newest first (their `actions` are empty; see `action_counts`, which
    /// the store counts when a game finishes).
    pub games: Vec<StoredGame>,
    /// The number of actions of each game.
    pub action_counts: Vec<u32>,
    /// How many games match in all.
    pub total: u64,
}

/// The archive.
/// Every method is one transaction: it happens whole or not at all.
pub trait ArchiveStore: Send + Sync + 'static {
    /// A page of finished, logged games.
    fn archive<'a>(&'a self, query: &'a ArchiveQuery) -> StoreFuture<'a, ArchiveList>;

    /// Stores a finished game imported from a record, with its actions and result, in
    /// one transaction (never a half game the server would take for a running one);
    /// its id.
    fn import_game<'a>(
        &'a self,
        game: &'a NewGame,
        actions: &'a [StoredAction],
        result: &'a StoredResult,
    ) -> StoreFuture<'a, GameId>;
}
