//! Where players, sessions, games and every accepted action are kept.
//!
//! [`Store`] is the seam: the server only speaks to it. [`SqlStore`] implements it over
//! SQLite (the default, a file in the working directory) and PostgreSQL, with one
//! migrations folder per backend and the same queries for both.

mod batch;
mod sql;
mod wal;

use std::future::Future;
use std::pin::Pin;

pub use sql::SqlStore;
pub use wal::WalPolicy;

use yinsh::ByColor;

use crate::protocol::TableOptions;
use crate::rating::Rating;
use crate::vocab::{GameId, Level, PlayerId};

/// What kind of failure a [`StoreError`] is: what the caller may do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StoreErrorKind {
    /// The database is not reachable or refused to work: a connection, pool, I/O or TLS
    /// failure, a timeout, a busy or read-only database, an error of the database other
    /// than a constraint. The same request may succeed later.
    Unavailable,
    /// The write would break a unique or foreign-key constraint (a name or a token that
    /// is taken, a row that refers to none). Retrying the same write fails again; a
    /// different one (another name) may succeed.
    Conflict,
    /// What is stored cannot be read: a row that does not decode, a column of the wrong
    /// type, table options that are not JSON, a schema this server does not know (its
    /// migrations do not match the database's).
    Corrupt,
    /// The table is no longer this node's: another node of the cluster took it over
    /// (its [`Fence`] is stale). Nothing was written; the table must close here.
    Moved,
}

impl StoreErrorKind {
    /// `unavailable`, `conflict` or `corrupt`.
    pub const fn name(self) -> &'static str {
        match self {
            StoreErrorKind::Unavailable => "unavailable",
            StoreErrorKind::Conflict => "conflict",
            StoreErrorKind::Corrupt => "corrupt",
            StoreErrorKind::Moved => "moved",
        }
    }
}

impl std::fmt::Display for StoreErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a store operation gives back when it fails: its [`StoreErrorKind`] and the
/// database's own description (for the log, never for clients: it can name the host
/// and the schema).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    /// What kind of failure it is.
    pub kind: StoreErrorKind,
    message: String,
}

impl StoreError {
    /// An error of `kind` described by `message`.
    pub fn new(kind: StoreErrorKind, message: impl Into<String>) -> StoreError {
        StoreError {
            kind,
            message: message.into(),
        }
    }

    /// The database is not reachable or refused to work.
    pub fn unavailable(message: impl Into<String>) -> StoreError {
        StoreError::new(StoreErrorKind::Unavailable, message)
    }

    /// A unique or foreign-key constraint refused the write.
    pub fn conflict(message: impl Into<String>) -> StoreError {
        StoreError::new(StoreErrorKind::Conflict, message)
    }

    /// What is stored cannot be read.
    pub fn corrupt(message: impl Into<String>) -> StoreError {
        StoreError::new(StoreErrorKind::Corrupt, message)
    }

    /// The table's fence is stale: another node owns it now.
    pub fn moved(fence: &Fence) -> StoreError {
        StoreError::new(
            StoreErrorKind::Moved,
            format!(
                "table {} is no longer node {}'s at incarnation {}",
                fence.table, fence.node, fence.incarnation
            ),
        )
    }

    /// The description, without the kind.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "store ({}): {}", self.kind, self.message)
    }
}

impl std::error::Error for StoreError {}

/// The kind of an sqlx error: constraint violations are conflicts; rows, columns and
/// values that do not decode are corrupt data; everything else (connections, the pool,
/// I/O, TLS, timeouts, the database's other errors) means the database is unavailable.
fn kind_of(e: &sqlx::Error) -> StoreErrorKind {
    use sqlx::error::ErrorKind;
    match e {
        sqlx::Error::Database(db) => match db.kind() {
            ErrorKind::UniqueViolation | ErrorKind::ForeignKeyViolation => StoreErrorKind::Conflict,
            _ => StoreErrorKind::Unavailable,
        },
        sqlx::Error::RowNotFound
        | sqlx::Error::TypeNotFound { .. }
        | sqlx::Error::ColumnIndexOutOfBounds { .. }
        | sqlx::Error::ColumnNotFound(_)
        | sqlx::Error::ColumnDecode { .. }
        | sqlx::Error::Encode(_)
        | sqlx::Error::Decode(_)
        | sqlx::Error::AnyDriverError(_) => StoreErrorKind::Corrupt,
        sqlx::Error::Migrate(m) => migrate_kind(m),
        // Configuration, InvalidArgument, Io, Tls, Protocol, PoolTimedOut, PoolClosed,
        // WorkerCrashed, BeginFailed, … and whatever later versions add.
        _ => StoreErrorKind::Unavailable,
    }
}

/// The kind of a migration error: the kind of the database error when a migration
/// could not run; otherwise the database's migration history does not match this
/// server's migrations (a newer schema, an edited or half-applied migration), which
/// makes the stored data unreadable to it.
fn migrate_kind(e: &sqlx::migrate::MigrateError) -> StoreErrorKind {
    use sqlx::migrate::MigrateError;
    match e {
        MigrateError::Execute(e) | MigrateError::ExecuteMigration(e, _) => kind_of(e),
        _ => StoreErrorKind::Corrupt,
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError::new(kind_of(&e), e.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::new(migrate_kind(&e), e.to_string())
    }
}

/// What the tables know of the store, shared by all of them: once one table's write
/// found the store unavailable, the others refuse their changes at once instead of each
/// waiting for the database's time-out, until a write or a probe succeeds again.
#[derive(Debug, Clone, Default)]
pub struct Outage(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Outage {
    /// Whether the last write or probe found the store unavailable.
    pub fn is_down(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Notes what a write or probe of the store answered.
    pub fn observe<T>(&self, result: &StoreResult<T>) {
        let down = matches!(result, Err(e) if e.kind == StoreErrorKind::Unavailable);
        if result.is_ok() || down {
            self.0.store(down, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The error of a write not tried because the store is known to be down.
    pub fn refusal() -> StoreError {
        StoreError::unavailable("the store is down (found by another table)")
    }
}

/// The result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// A boxed future of a store operation (the trait is used as `dyn Store`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

/// A person known to the server (a guest, for now).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// The id.
    pub id: PlayerId,
    /// The display name.
    pub name: String,
    /// Whether it is a bot account (the bot API; marked BOT where it is named).
    pub bot: bool,
}

/// An account to be: a registering guest's chosen name and password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    /// The name, as written.
    pub name: String,
    /// Its skeleton ([`crate::account::skeleton`]).
    pub skeleton: String,
    /// The password's hash (a PHC string).
    pub password_hash: String,
}

/// What [`Store::register`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registration {
    /// The guest is an account now.
    Registered(Player),
    /// The session's player has an account already.
    AlreadyRegistered,
    /// No session has that token.
    NoSession,
}

/// A player as the account page shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The player.
    pub player: Player,
    /// Whether they registered (a guest otherwise).
    pub registered: bool,
    /// When they first came, in milliseconds since 1970.
    pub created_at: i64,
}

/// A personal API token of an account (its hash stays in the store; the token itself
/// is shown once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRecord {
    /// Its id.
    pub id: i64,
    /// The account.
    pub player: PlayerId,
    /// What its owner called it.
    pub name: String,
    /// Its scopes, space-separated.
    pub scopes: String,
    /// When it was made, in milliseconds since 1970.
    pub created_at: i64,
    /// When it was last used (to the minute), if ever.
    pub last_used_at: Option<i64>,
}

/// One session of a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// The hash of its token.
    pub token_hash: String,
    /// When it began, in milliseconds since 1970.
    pub created_at: i64,
}

/// Who sat in a seat of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    /// The player, for a person.
    pub player_id: Option<PlayerId>,
    /// The display name.
    pub name: String,
    /// The engine level, for a bot.
    pub bot: Option<Level>,
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
    pub id: GameId,
    /// How it started.
    pub game: NewGame,
    /// Every action, in order.
    pub actions: Vec<StoredAction>,
    /// Takebacks granted to each player.
    pub takebacks: ByColor<u8>,
    /// The result, once finished.
    pub result: Option<StoredResult>,
}

/// Which accounts seated at some games are bot accounts. The stored seats do not say,
/// and need not: an account becomes a bot before its first game and stays one, so a bot
/// account played every one of its games as a bot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BotAccounts(std::collections::HashSet<PlayerId>);

impl BotAccounts {
    /// The bot accounts among the seats of `games` (one query).
    pub async fn of<'a>(
        store: &dyn Store,
        games: impl IntoIterator<Item = &'a NewGame>,
    ) -> Result<BotAccounts, StoreError> {
        let ids: Vec<PlayerId> = games
            .into_iter()
            .flat_map(|g| [g.white.player_id, g.black.player_id])
            .flatten()
            .collect();
        if ids.is_empty() {
            return Ok(BotAccounts::default());
        }
        Ok(BotAccounts(
            store.bots_among(&ids).await?.into_iter().collect(),
        ))
    }

    /// Whether `player` is one of them.
    pub fn contains(&self, player: PlayerId) -> bool {
        self.0.contains(&player)
    }

    /// Whether a bot account sat at `seat`.
    pub fn seat(&self, seat: &SeatRecord) -> bool {
        seat.player_id.is_some_and(|id| self.contains(id))
    }

    /// Which seats of `game` bot accounts sat at.
    pub fn seats(&self, game: &NewGame) -> ByColor<bool> {
        ByColor {
            white: self.seat(&game.white),
            black: self.seat(&game.black),
        }
    }
}

/// The `table_id` of games imported from records (no table here played them).
pub const IMPORTED: &str = "import";

/// A change to a stored game, made in one transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameWrite {
    /// The action number `ply` (from 0), and the result when it ends the game on the
    /// board.
    Action {
        /// Its number.
        ply: u32,
        /// The action with the clocks after it.
        action: StoredAction,
        /// The result it brings, if any.
        result: Option<StoredResult>,
    },
    /// A takeback: the actions from number `keep` on are forgotten (the clocks are
    /// those after the last one kept), and each player's count of takebacks is now
    /// `takebacks`.
    Takeback {
        /// Actions kept.
        keep: u32,
        /// Takebacks granted so far.
        takebacks: ByColor<u8>,
    },
    /// The game ended.
    Result(StoredResult),
    /// The game was aborted: it is deleted, with its actions.
    Abort,
}

/// One player's rating change in a rated game, stored with its result.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub player: PlayerId,
    /// The rating category ([`crate::rating::category`]).
    pub category: String,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
}

impl RatingChange {
    /// As the players see it: whole points, and whether it is still provisional.
    pub fn view(&self) -> crate::protocol::RatingDiff {
        crate::protocol::RatingDiff {
            before: self.before.round() as i32,
            after: self.after.round() as i32,
            provisional: self.deviation >= crate::rating::PROVISIONAL_DEVIATION,
        }
    }
}

/// Both players' rating changes as they see them.
pub fn rated_view(rated: &Rated) -> Option<crate::protocol::Pair<crate::protocol::RatingDiff>> {
    rated.as_ref().map(|r| crate::protocol::Pair {
        white: r.white.view(),
        black: r.black.view(),
    })
}

/// What a [`Store::write_game`] did beyond the write: the rating changes of a rated
/// game that ended (the same ones when a result is written again).
pub type Rated = Option<ByColor<RatingChange>>;

/// A player's rating in one category, with their results in it.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryRating {
    /// The category.
    pub category: String,
    /// The rating, as of the last game.
    pub rating: Rating,
    /// Rated games won in the category.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// A player's rating after one rated game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingPoint {
    /// The game.
    pub game: GameId,
    /// Its category.
    pub category: String,
    /// When it ended, in milliseconds since 1970.
    pub at: i64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// Games won, drawn and lost (by one player against another, or in a category).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// Where an analysis job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    /// Waiting for a worker.
    Queued,
    /// A worker holds it under a lease.
    Running,
    /// Analysed: the result is there.
    Done,
    /// Given up after too many attempts.
    Failed,
}

impl JobState {
    /// `queued`, `running`, `done`, `failed`.
    pub const fn name(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }

    fn from_name(name: &str) -> Option<JobState> {
        [
            JobState::Queued,
            JobState::Running,
            JobState::Done,
            JobState::Failed,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// The computer analysis of one archived game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisJob {
    /// The game.
    pub game: GameId,
    /// Where it is.
    pub state: JobState,
    /// When it was asked for, in milliseconds since 1970.
    pub requested_at: i64,
    /// The worker holding it (while running).
    pub worker: Option<String>,
    /// Until when the worker holds it, in milliseconds since 1970.
    pub lease_until: Option<i64>,
    /// Workers it was given to so far.
    pub attempts: u32,
    /// Positions searched so far, as the worker last said.
    pub done: u32,
    /// Positions to search.
    pub total: u32,
    /// The engine that analysed it (name and version).
    pub engine: Option<String>,
    /// Its settings (`1000000 nodes`).
    pub settings: Option<String>,
    /// The engine's view of every position (JSON), once done.
    pub result: Option<String>,
    /// When it was done, in milliseconds since 1970.
    pub finished_at: Option<i64>,
}

/// An analysis given to a worker: who, until when, at what time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease<'a> {
    /// The worker's name.
    pub worker: &'a str,
    /// Now, in milliseconds since 1970.
    pub now: i64,
    /// Until when it holds the job.
    pub until: i64,
}

/// What a worker hands in for the job it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisDone<'a> {
    /// The engine (name and version).
    pub engine: &'a str,
    /// Its settings.
    pub settings: &'a str,
    /// The views of every position, as JSON.
    pub result: &'a str,
    /// When, in milliseconds since 1970.
    pub at: i64,
}

/// Workers a job is given to before it is given up.
pub const ANALYSIS_ATTEMPTS: u32 = 3;

fn analysis_default<T: Send + 'static>() -> StoreFuture<'static, T> {
    Box::pin(async { Err(StoreError::unavailable("this store has no analysis")) })
}

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
            Err(StoreError::unavailable(
                "this store cannot rotate session tokens",
            ))
        })
    }

    /// Makes the guest of the session whose token hashes to `token_hash` an account
    /// named `account.name`. A name (ignoring case) or skeleton that is taken is a
    /// [`StoreErrorKind::Conflict`].
    fn register<'a>(
        &'a self,
        token_hash: &'a str,
        account: &'a NewAccount,
    ) -> StoreFuture<'a, Registration> {
        let _ = (token_hash, account);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// The account called `name` (ignoring case) and its password hash.
    fn account<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<(Player, String)>> {
        let _ = name;
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// The player of the session whose token hashes to `token_hash`, with what the
    /// account page shows.
    fn session_info<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, Option<PlayerInfo>> {
        let _ = token_hash;
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// A new session of `player` whose token hashes to `token_hash`.
    fn create_session<'a>(&'a self, token_hash: &'a str, player: PlayerId) -> StoreFuture<'a, ()> {
        let _ = (token_hash, player);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// The sessions of `player`, oldest first.
    fn sessions(&self, player: PlayerId) -> StoreFuture<'_, Vec<SessionRecord>> {
        let _ = player;
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// Ends the sessions of `player` whose token hashes are `hashes`; how many ended.
    fn end_sessions<'a>(&'a self, player: PlayerId, hashes: &'a [String]) -> StoreFuture<'a, u64> {
        let _ = (player, hashes);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// A new API token of `player`, named `name`, with `scopes` (space-separated),
    /// whose token hashes to `hash`.
    fn create_token<'a>(
        &'a self,
        player: PlayerId,
        name: &'a str,
        scopes: &'a str,
        hash: &'a str,
        now: i64,
    ) -> StoreFuture<'a, TokenRecord> {
        let _ = (player, name, scopes, hash, now);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// The API tokens of `player`, oldest first.
    fn tokens(&self, player: PlayerId) -> StoreFuture<'_, Vec<TokenRecord>> {
        let _ = player;
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// Revokes (deletes) token `id` of `player`; whether there was one.
    fn revoke_token(&self, player: PlayerId, id: i64) -> StoreFuture<'_, bool> {
        let _ = (player, id);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// The token whose hash is `hash` and its account (its name as it is now), noting
    /// the use at `now` (kept to the minute: at most one write a minute per token).
    fn use_token<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
    ) -> StoreFuture<'a, Option<(TokenRecord, Player)>> {
        let _ = (hash, now);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// Stores a finished game imported from a record, with its actions and result, in
    /// one transaction (never a half game the server would take for a running one);
    /// its id.
    fn import_game<'a>(
        &'a self,
        game: &'a NewGame,
        actions: &'a [StoredAction],
        result: &'a StoredResult,
    ) -> StoreFuture<'a, GameId> {
        let _ = (game, actions, result);
        Box::pin(async { Err(StoreError::unavailable("this store imports no games")) })
    }

    /// Writes a consistent copy of the whole database to the new file `path`, while the
    /// server runs (SQLite's `VACUUM INTO`; a PostgreSQL database is backed up with
    /// `pg_dump`, docs/deploy.md).
    fn backup<'a>(&'a self, path: &'a str) -> StoreFuture<'a, ()> {
        let _ = path;
        Box::pin(async { Err(StoreError::unavailable("this store makes no backups")) })
    }

    /// Which of `players` are bot accounts.
    fn bots_among<'a>(&'a self, players: &'a [PlayerId]) -> StoreFuture<'a, Vec<PlayerId>> {
        let _ = players;
        Box::pin(async { Ok(Vec::new()) })
    }

    /// Makes the account `player` a bot account, for good, if it has played no game;
    /// whether it did.
    fn upgrade_to_bot(&self, player: PlayerId) -> StoreFuture<'_, bool> {
        let _ = player;
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// Gives the account `player` the password hash `hash`.
    fn set_password<'a>(&'a self, player: PlayerId, hash: &'a str) -> StoreFuture<'a, ()> {
        let _ = (player, hash);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// Records a new game and gives its id. With a `fence`, only while the table is
    /// still that node's at that incarnation (else [`StoreErrorKind::Moved`]).
    fn create_game<'a>(
        &'a self,
        game: &'a NewGame,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, GameId>;

    /// Makes `write` to a running game, whole or not at all. A game that ends and is
    /// not `log`ged is deleted instead of finished. The result of a rated game between
    /// two accounts updates both players' ratings in the same transaction, once per
    /// game: written again (a retry), it changes nothing and gives the same changes.
    /// With a `fence`, the write is made only while the table is still that node's at
    /// that incarnation, checked in the same transaction (else
    /// [`StoreErrorKind::Moved`], nothing written).
    fn write_game<'a>(
        &'a self,
        game: GameId,
        write: &'a GameWrite,
        log: bool,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, Rated>;

    /// The account called `name` (ignoring case), with what its page shows.
    fn player_named<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<PlayerInfo>> {
        let _ = name;
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// The ratings of `player`, one per category played.
    fn ratings(&self, player: PlayerId) -> StoreFuture<'_, Vec<CategoryRating>> {
        let _ = player;
        Box::pin(async { Err(StoreError::unavailable("this store has no ratings")) })
    }

    /// The rating of `player` after each of their rated games, oldest first.
    fn rating_history(&self, player: PlayerId) -> StoreFuture<'_, Vec<RatingPoint>> {
        let _ = player;
        Box::pin(async { Err(StoreError::unavailable("this store has no ratings")) })
    }

    /// The finished, logged games of `player` against `other`, from `player`'s side.
    fn head_to_head(&self, player: PlayerId, other: PlayerId) -> StoreFuture<'_, Tally> {
        let _ = (player, other);
        Box::pin(async { Err(StoreError::unavailable("this store has no accounts")) })
    }

    /// The best ratings of `category` whose stored deviation is at most `deviation`
    /// after at least `games` games: at most `limit`, best first.
    fn leaderboard<'a>(
        &'a self,
        category: &'a str,
        deviation: f64,
        games: u32,
        limit: u32,
    ) -> StoreFuture<'a, Vec<(Player, CategoryRating)>> {
        let _ = (category, deviation, games, limit);
        Box::pin(async { Err(StoreError::unavailable("this store has no ratings")) })
    }

    /// Asks for the analysis of the finished, logged game `game` at `now`: its job (the
    /// one there is, if it was asked for before); `None` for a game that is not in the
    /// archive.
    fn request_analysis(&self, game: GameId, now: i64) -> StoreFuture<'_, Option<AnalysisJob>> {
        let _ = (game, now);
        analysis_default()
    }

    /// How many analyses are asked for and not done: waiting for a worker or running.
    fn analysis_queue(&self) -> StoreFuture<'_, u64> {
        analysis_default()
    }

    /// The analysis job of `game`, if one was asked for.
    fn analysis_job(&self, game: GameId) -> StoreFuture<'_, Option<AnalysisJob>> {
        let _ = game;
        analysis_default()
    }

    /// Gives the oldest job waiting (or whose lease ran out) to `lease.worker` until
    /// `lease.until`; jobs given out [`ANALYSIS_ATTEMPTS`] times are failed instead.
    /// `None` when no job waits.
    fn acquire_analysis<'a>(
        &'a self,
        lease: &'a Lease<'a>,
    ) -> StoreFuture<'a, Option<AnalysisJob>> {
        let _ = lease;
        analysis_default()
    }

    /// `lease.worker` has searched `done` of `total` positions of `game` and holds it
    /// until `lease.until`; `false` (and nothing changed) when it does not hold it.
    fn analysis_progress<'a>(
        &'a self,
        game: GameId,
        lease: &'a Lease<'a>,
        done: u32,
        total: u32,
    ) -> StoreFuture<'a, bool> {
        let _ = (game, lease, done, total);
        analysis_default()
    }

    /// `worker` hands in the analysis of `game`; `false` (and nothing changed) when it
    /// does not hold the job (its lease ran out and another worker has it, or it is
    /// done).
    fn finish_analysis<'a>(
        &'a self,
        game: GameId,
        worker: &'a str,
        done: &'a AnalysisDone<'a>,
    ) -> StoreFuture<'a, bool> {
        let _ = (game, worker, done);
        analysis_default()
    }

    /// Puts the done analysis of `game` back in the queue at `now` when `engine` with
    /// `settings` made it (when asked for again after the server's engine or settings
    /// changed): the job as it is then, `None` when there is none. A job another request
    /// put back already, or one made otherwise, is left as it is.
    fn analyse_again<'a>(
        &'a self,
        game: GameId,
        engine: &'a str,
        settings: &'a str,
        now: i64,
    ) -> StoreFuture<'a, Option<AnalysisJob>> {
        let _ = (game, engine, settings, now);
        analysis_default()
    }

    /// `worker` could not analyse `game`: the job waits for another worker (or fails
    /// after [`ANALYSIS_ATTEMPTS`]).
    fn abandon_analysis<'a>(&'a self, game: GameId, worker: &'a str) -> StoreFuture<'a, ()> {
        let _ = (game, worker);
        analysis_default()
    }

    /// Gives back the running jobs of the workers whose names start with `prefix` (the
    /// in-process workers of a server that was stopped or killed): they wait again.
    fn release_analysis<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, u64> {
        let _ = prefix;
        analysis_default()
    }

    /// The colours `player` had in their last `n` games, newest first.
    fn recent_colors(&self, player: PlayerId, n: u32) -> StoreFuture<'_, Vec<yinsh::Color>> {
        let _ = (player, n);
        Box::pin(async { Ok(Vec::new()) })
    }

    /// Every game that has not finished, with its actions.
    fn unfinished_games(&self) -> StoreFuture<'_, Vec<StoredGame>>;

    /// A page of finished, logged games.
    fn archive<'a>(&'a self, query: &'a ArchiveQuery) -> StoreFuture<'a, ArchiveList>;

    /// One game with its actions (finished and logged, or still running).
    fn game(&self, id: GameId) -> StoreFuture<'_, Option<StoredGame>>;

    /// The unfinished games played at `tables`, with their actions (a node taking
    /// those tables over).
    fn unfinished_games_at<'a>(&'a self, tables: &'a [String]) -> StoreFuture<'a, Vec<StoredGame>> {
        Box::pin(async move {
            let mut games = self.unfinished_games().await?;
            games.retain(|g| tables.contains(&g.game.table_id));
            Ok(games)
        })
    }

    /// The id of the cluster on this database: `fresh` if no node has set one yet (it
    /// then is), else the one set first.
    fn cluster_id<'a>(&'a self, fresh: &'a str) -> StoreFuture<'a, String> {
        let _ = fresh;
        cluster_default()
    }

    /// Renews the lease of cluster node `node` in its run `boot`: it holds for `ttl_ms`
    /// from now, by the database's clock. A run's first renewal marks when it came
    /// alive ([`Store::live_nodes`] lists the oldest first); later ones, even after the
    /// lease ran out meanwhile, keep that time.
    fn renew_node<'a>(&'a self, node: &'a str, boot: u64, ttl_ms: i64) -> StoreFuture<'a, ()> {
        let _ = (node, boot, ttl_ms);
        cluster_default()
    }

    /// Gives up the lease of `node` at once (a node that stops), so that its tables can
    /// be taken over without waiting for it to expire.
    fn end_node<'a>(&'a self, node: &'a str) -> StoreFuture<'a, ()> {
        let _ = node;
        cluster_default()
    }

    /// The nodes whose lease holds now, by the database's clock: the run alive longest
    /// first (then by id).
    fn live_nodes(&self) -> StoreFuture<'_, Vec<String>> {
        cluster_default()
    }

    /// Makes `node` the owner of the new table `table` (incarnation 1); `false` when the
    /// id is taken.
    fn claim_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, bool> {
        let _ = (table, node);
        cluster_default()
    }

    /// The table closed: `node` lets go of it (nothing when it is not the owner).
    fn release_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, ()> {
        let _ = (table, node);
        cluster_default()
    }

    /// Who owns `table` now.
    fn table_owner<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<TableOwner>> {
        let _ = table;
        cluster_default()
    }

    /// The tables `node` owns.
    fn tables_of<'a>(&'a self, node: &'a str) -> StoreFuture<'a, Vec<TableOwner>> {
        let _ = node;
        cluster_default()
    }

    /// Takes over, for `node`, up to `limit` tables whose owner's lease has run out —
    /// and, with `own`, the tables `node` itself owns (a node that restarts under the
    /// same id takes its tables back). Each gets a new incarnation. Two nodes taking
    /// over at once never get the same table.
    fn take_over<'a>(
        &'a self,
        node: &'a str,
        own: bool,
        limit: u32,
    ) -> StoreFuture<'a, Vec<TableOwner>> {
        let _ = (node, own, limit);
        cluster_default()
    }
}

/// Who owns a table of a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableOwner {
    /// The table.
    pub table: String,
    /// The owning node.
    pub node: String,
    /// Raised every time the table changes hands (or its owner restarts).
    pub incarnation: i64,
    /// The node that owned it before (the node itself, but for a table just taken
    /// over from another).
    pub previous: String,
}

/// What a node's writes to a table's game carry in a cluster: the table, the node
/// and the incarnation it runs. The store makes a fenced write only while the table's
/// owner row still says so, so a node that lost a table (frozen, or cut off from the
/// database past its lease) can never write to the game its new owner runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The table.
    pub table: String,
    /// The node that runs it.
    pub node: String,
    /// The incarnation it runs.
    pub incarnation: i64,
}

fn cluster_default<T: Send + 'static>() -> StoreFuture<'static, T> {
    Box::pin(async { Err(StoreError::unavailable("this store has no cluster leases")) })
}

/// Opens the store a database URL names: `sqlite://…` or `postgres://…`, running its
/// migrations.
pub async fn open(url: &str) -> StoreResult<std::sync::Arc<dyn Store>> {
    Ok(std::sync::Arc::new(SqlStore::connect(url).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::sqlite::SqlitePoolOptions;

    /// The kind of the error that `sql` gives on a database with a table of unique
    /// names and one of rows that refer to them.
    async fn kind_of_sql(sql: &str) -> StoreErrorKind {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        sqlx::raw_sql(
            "PRAGMA foreign_keys = ON; \
             CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE); \
             CREATE TABLE s (p_id BIGINT NOT NULL REFERENCES p (id)); \
             INSERT INTO p (id, name) VALUES (1, 'taken');",
        )
        .execute(&pool)
        .await
        .unwrap();
        let e = sqlx::raw_sql(sql).execute(&pool).await.unwrap_err();
        let store_error = StoreError::from(e);
        // The database's own words are kept for the log.
        assert!(
            store_error.to_string().starts_with("store ("),
            "{store_error}"
        );
        store_error.kind
    }

    #[tokio::test]
    async fn database_errors_by_kind() {
        use StoreErrorKind::{Conflict, Unavailable};
        for (sql, want) in [
            ("INSERT INTO p (id, name) VALUES (2, 'taken')", Conflict),
            ("INSERT INTO p (id, name) VALUES (1, 'other')", Conflict),
            ("INSERT INTO s (p_id) VALUES (99)", Conflict),
            ("INSERT INTO p (id, name) VALUES (3, NULL)", Unavailable),
            ("SELECT * FROM nowhere", Unavailable),
            ("THIS IS NOT SQL", Unavailable),
        ] {
            assert_eq!(kind_of_sql(sql).await, want, "{sql}");
        }
    }

    #[tokio::test]
    async fn rows_that_do_not_decode_are_corrupt() {
        let pool = SqlitePoolOptions::new()
            .connect("sqlite::memory:")
            .await
            .unwrap();
        let row = sqlx::query("SELECT 'text' AS n")
            .fetch_one(&pool)
            .await
            .unwrap();
        use sqlx::Row;
        let e: StoreError = row.try_get::<i64, _>("n").unwrap_err().into();
        assert_eq!(e.kind, StoreErrorKind::Corrupt, "{e}");
        let e: StoreError = row.try_get::<String, _>("missing").unwrap_err().into();
        assert_eq!(e.kind, StoreErrorKind::Corrupt, "{e}");
        let e: StoreError = sqlx::query("SELECT 1 WHERE 0")
            .fetch_one(&pool)
            .await
            .map(drop)
            .unwrap_err()
            .into();
        assert_eq!(e.kind, StoreErrorKind::Corrupt, "{e}");
        // A closed pool: the database is not reachable.
        pool.close().await;
        let e: StoreError = sqlx::query("SELECT 1")
            .fetch_one(&pool)
            .await
            .map(drop)
            .unwrap_err()
            .into();
        assert_eq!(e.kind, StoreErrorKind::Unavailable, "{e}");
    }

    #[test]
    fn other_errors_by_kind() {
        use StoreErrorKind::{Corrupt, Unavailable};
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        for (e, want) in [
            (sqlx::Error::PoolTimedOut, Unavailable),
            (sqlx::Error::PoolClosed, Unavailable),
            (sqlx::Error::WorkerCrashed, Unavailable),
            (sqlx::Error::Io(io), Unavailable),
            (sqlx::Error::Protocol("garbled".to_owned()), Unavailable),
            (sqlx::Error::Configuration("bad URL".into()), Unavailable),
            (sqlx::Error::RowNotFound, Corrupt),
            (sqlx::Error::ColumnNotFound("name".to_owned()), Corrupt),
            (sqlx::Error::Decode("not a number".into()), Corrupt),
            (
                sqlx::Error::Migrate(Box::new(sqlx::migrate::MigrateError::VersionMissing(3))),
                Corrupt,
            ),
            (
                sqlx::Error::Migrate(Box::new(sqlx::migrate::MigrateError::Execute(
                    sqlx::Error::PoolTimedOut,
                ))),
                Unavailable,
            ),
        ] {
            let text = e.to_string();
            let e = StoreError::from(e);
            assert_eq!(e.kind, want, "{text}");
            assert_eq!(e.message(), text);
            assert_eq!(e.to_string(), format!("store ({}): {text}", want.name()));
        }
        let e = StoreError::corrupt("stored table options are unreadable");
        assert_eq!(e.kind, Corrupt);
        assert_eq!(
            e.to_string(),
            "store (corrupt): stored table options are unreadable"
        );
        assert_eq!(StoreError::conflict("x").kind, StoreErrorKind::Conflict);
        assert_eq!(StoreError::unavailable("x").kind, Unavailable);
        assert_eq!(
            StoreError::from(sqlx::migrate::MigrateError::VersionMismatch(1)).kind,
            Corrupt
        );
    }
}
