//! Where players, sessions, games and every accepted action are kept.
//!
//! [`Store`] is the seam: the server only speaks to it. [`SqlStore`] implements it over
//! SQLite (the default, a file in the working directory) and PostgreSQL, with one
//! migrations folder per backend and the same queries for both.

mod sql;

use std::future::Future;
use std::pin::Pin;

pub use sql::SqlStore;

use crate::protocol::TableOptions;

/// What a store operation gives back when it fails.
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "store: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError(e.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError(e.to_string())
    }
}

/// The result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// A boxed future of a store operation (the trait is used as `dyn Store`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

/// A person known to the server (a guest, for now).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The id.
    pub id: i64,
    /// The display name.
    pub name: String,
}

/// Who sat in a seat of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    /// The player, for a person.
    pub player_id: Option<i64>,
    /// The display name.
    pub name: String,
    /// The engine level, for a bot.
    pub bot: Option<u8>,
}

/// A game as it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// The table it is played at.
    pub table_id: String,
    /// Its options.
    pub options: TableOptions,
    /// White.
    pub white: SeatRecord,
    /// Black.
    pub black: SeatRecord,
    /// When it started, in milliseconds since 1970.
    pub started_at: i64,
}

/// One accepted action with the clocks after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAction {
    /// The action token.
    pub token: String,
    /// White's remaining time, in a timed game.
    pub white_ms: Option<u64>,
    /// Black's remaining time, in a timed game.
    pub black_ms: Option<u64>,
    /// When it was accepted, in milliseconds since 1970.
    pub at: i64,
}

/// How a stored game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResult {
    /// `white`, `black`, or `None` for a draw.
    pub winner: Option<String>,
    /// The termination name (`target reached`, `time`, …).
    pub termination: String,
    /// When it ended, in milliseconds since 1970.
    pub finished_at: i64,
}

/// A game with all its actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    /// The game id.
    pub id: i64,
    /// How it started.
    pub game: NewGame,
    /// Every action, in order.
    pub actions: Vec<StoredAction>,
    /// The result, once finished.
    pub result: Option<StoredResult>,
}

/// A search of the archive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArchiveQuery {
    /// Only games where a player's name contains this (case-insensitive).
    pub player: Option<String>,
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

/// The storage the server needs. Every method is one transaction: it happens whole or
/// not at all.
pub trait Store: Send + Sync + 'static {
    /// Checks that the database answers.
    fn ping(&self) -> StoreFuture<'_, ()>;

    /// The player whose session token hashes to `token_hash`.
    fn session_player<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, Option<Player>>;

    /// Creates a guest called `name` with a session whose token hashes to `token_hash`.
    fn create_guest<'a>(&'a self, token_hash: &'a str, name: &'a str) -> StoreFuture<'a, Player>;

    /// Replaces the session whose token hashes to `old_hash` by one whose token hashes
    /// to `new_hash`, for the same player, and gives that player; `None` (and nothing
    /// changed) when no session has `old_hash`. The old token no longer identifies
    /// anyone afterwards. When two rotations of one session race, only one succeeds.
    ///
    /// The default refuses: a store that keeps sessions must implement it.
    fn rotate_session<'a>(
        &'a self,
        old_hash: &'a str,
        new_hash: &'a str,
    ) -> StoreFuture<'a, Option<Player>> {
        let _ = (old_hash, new_hash);
        Box::pin(async {
            Err(StoreError(
                "this store cannot rotate session tokens".to_owned(),
            ))
        })
    }

    /// Records a new game and gives its id.
    fn create_game<'a>(&'a self, game: &'a NewGame) -> StoreFuture<'a, i64>;

    /// Records the action number `ply` (from 0) of a game.
    fn append_action<'a>(
        &'a self,
        game_id: i64,
        ply: u32,
        action: &'a StoredAction,
    ) -> StoreFuture<'a, ()>;

    /// Forgets the actions from number `keep` on (a takeback).
    fn truncate_actions(&self, game_id: i64, keep: u32) -> StoreFuture<'_, ()>;

    /// Records the end of a game; a game that is not logged is deleted instead.
    fn finish_game<'a>(
        &'a self,
        game_id: i64,
        result: &'a StoredResult,
        log: bool,
    ) -> StoreFuture<'a, ()>;

    /// Every game that has not finished, with its actions.
    fn unfinished_games(&self) -> StoreFuture<'_, Vec<StoredGame>>;

    /// A page of finished, logged games.
    fn archive<'a>(&'a self, query: &'a ArchiveQuery) -> StoreFuture<'a, ArchiveList>;

    /// One game with its actions (finished and logged, or still running).
    fn game(&self, id: i64) -> StoreFuture<'_, Option<StoredGame>>;
}

/// Opens the store a database URL names: `sqlite://…` or `postgres://…`, running its
/// migrations.
pub async fn open(url: &str) -> StoreResult<std::sync::Arc<dyn Store>> {
    Ok(std::sync::Arc::new(SqlStore::connect(url).await?))
}
