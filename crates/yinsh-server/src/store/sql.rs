//! [`Store`] over SQLite or PostgreSQL through sqlx's `Any` driver: the same queries
//! (numbered `$n` parameters, which both accept), one migrations folder per backend.

use sqlx::any::{AnyPoolOptions, AnyRow};
use std::sync::Arc;

use sqlx::{AnyPool, Executor, Row};

use yinsh::ByColor;

use super::batch::Batcher;
use super::wal::WalPolicy;
use super::{
    ANALYSIS_ATTEMPTS, AnalysisDone, AnalysisJob, ArchiveList, ArchiveQuery, CategoryRating, Fence,
    GameWrite, JobState, Lease, NewAccount, NewGame, Player, PlayerInfo, Rated, RatingChange,
    RatingPoint, Registration, SeatRecord, SessionRecord, Store, StoreError, StoreFuture,
    StoreResult, StoredAction, StoredGame, StoredResult, TableOwner, Tally, TokenRecord,
};
use crate::protocol::TableOptions;
use crate::rating::{Rating, Score};
use crate::vocab::{GameId, Level, PlayerId};

/// The SQL store. Cheap to clone (a connection pool).
#[derive(Debug, Clone)]
pub struct SqlStore {
    pool: AnyPool,
    backend: Backend,
    /// The queue of actions stored together ([`super::batch`]).
    batcher: Batcher,
    /// Held while the store lives: its background tasks end when it is gone.
    _alive: Arc<()>,
}

/// Which database a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn of(url: &str) -> StoreResult<Backend> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Backend::Postgres)
        } else {
            Err(StoreError::unavailable(format!(
                "unsupported database URL '{url}': use sqlite://… or postgres://…"
            )))
        }
    }

    /// The statement that begins a transaction. On SQLite a transaction that reads
    /// before it writes takes the write lock at its `BEGIN`: one begun deferred takes
    /// it at its first write, and SQLite refuses that at once (`database is locked`, no
    /// busy wait) should another connection hold the lock that moment — as the log's
    /// checkpointer does for an instant while it reads the log's header as a commit
    /// changes it.
    fn begin(self) -> &'static str {
        match self {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        }
    }

    /// What a fenced write appends to its read of the owner row: on PostgreSQL a lock
    /// that makes a takeover of the table wait until the write's transaction ends;
    /// SQLite's writers take turns anyway.
    fn share_lock(self) -> &'static str {
        match self {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR SHARE",
        }
    }

    /// The database's clock in milliseconds since 1970, as SQL: leases are judged by
    /// one clock, whatever the nodes' clocks say.
    fn now_ms(self) -> &'static str {
        match self {
            Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
            Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }
}

const GAME_COLUMNS: &str = "id, table_id, options, white_id, white_name, white_bot, black_id, \
     black_name, black_bot, started_at, finished_at, winner, termination, action_count, \
     white_takebacks, black_takebacks";

impl SqlStore {
    /// Connects to `url` (`sqlite://path?mode=rwc`, `postgres://…`) and brings its schema
    /// up to date.
    pub async fn connect(url: &str) -> StoreResult<SqlStore> {
        SqlStore::connect_with(url, WalPolicy::default()).await
    }

    /// [`SqlStore::connect`], with SQLite's log kept under `wal` (ignored for
    /// PostgreSQL).
    pub async fn connect_with(url: &str, wal: WalPolicy) -> StoreResult<SqlStore> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of(url)?;
        let mut options = AnyPoolOptions::new()
            // SQLite has one writer at a time: one connection queues the writes in the
            // pool instead of making them sleep on the file lock.
            .max_connections(if backend == Backend::Sqlite { 1 } else { 8 })
            // Long enough for a queue of SQLite writes under load, short enough that
            // a player learns quickly when PostgreSQL is down.
            .acquire_timeout(std::time::Duration::from_secs(
                if backend == Backend::Sqlite { 10 } else { 3 },
            ));
        if backend == Backend::Sqlite {
            // WAL with NORMAL synchronisation: a commit survives the process being
            // killed (only a power loss can undo the last ones), and writers do not
            // block readers. The log is checkpointed beside the commits ([`super::wal`]).
            let pragmas = super::wal::pragmas(&wal);
            options = options.after_connect(move |conn, _| {
                let pragmas = pragmas.clone();
                Box::pin(async move {
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    for pragma in &pragmas {
                        conn.execute(pragma.as_str()).await?;
                    }
                    Ok(())
                })
            });
        }
        let pool = options.connect(url).await?;
        match backend {
            Backend::Sqlite => sqlx::migrate!("migrations/sqlite").run(&pool).await?,
            Backend::Postgres => sqlx::migrate!("migrations/postgres").run(&pool).await?,
        }
        let alive = Arc::new(());
        if backend == Backend::Sqlite {
            let mode: String = sqlx::query("PRAGMA journal_mode")
                .fetch_one(&pool)
                .await?
                .try_get(0)?;
            // A database in memory has no log.
            if mode.eq_ignore_ascii_case("wal") {
                super::wal::start(url, wal, Arc::downgrade(&alive)).await?;
            }
        }
        Ok(SqlStore {
            batcher: Batcher::start(pool.clone(), backend.share_lock()),
            pool,
            backend,
            _alive: alive,
        })
    }
}

fn seat(row: &AnyRow, color: &str) -> StoreResult<SeatRecord> {
    let bot: Option<i64> = row.try_get(format!("{color}_bot").as_str())?;
    let bot = match bot {
        None => None,
        Some(b) => Some(
            u8::try_from(b)
                .ok()
                .and_then(Level::new)
                .ok_or_else(|| StoreError::corrupt(format!("engine level {b}")))?,
        ),
    };
    let id: Option<i64> = row.try_get(format!("{color}_id").as_str())?;
    Ok(SeatRecord {
        player_id: id.map(PlayerId),
        name: row.try_get(format!("{color}_name").as_str())?,
        bot,
    })
}

fn game_row(row: &AnyRow) -> StoreResult<StoredGame> {
    let options: String = row.try_get("options")?;
    let options = serde_json::from_str(&options)
        .map_err(|e| StoreError::corrupt(format!("stored table options are unreadable: {e}")))?;
    let finished_at: Option<i64> = row.try_get("finished_at")?;
    let termination: Option<String> = row.try_get("termination")?;
    let result = match (finished_at, termination) {
        (Some(finished_at), Some(termination)) => Some(StoredResult {
            winner: row.try_get("winner")?,
            termination,
            finished_at,
        }),
        _ => None,
    };
    let takebacks = |color: &str| -> StoreResult<u8> {
        let n: i64 = row.try_get(format!("{color}_takebacks").as_str())?;
        Ok(n.clamp(0, i64::from(u8::MAX)) as u8)
    };
    Ok(StoredGame {
        id: GameId(row.try_get("id")?),
        game: NewGame {
            table_id: row.try_get("table_id")?,
            options,
            white: seat(row, "white")?,
            black: seat(row, "black")?,
            started_at: row.try_get("started_at")?,
        },
        actions: Vec::new(),
        takebacks: ByColor {
            white: takebacks("white")?,
            black: takebacks("black")?,
        },
        result,
    })
}

fn millis(v: Option<i64>) -> Option<u64> {
    v.map(|v| v.max(0) as u64)
}

impl SqlStore {
    async fn load_actions(&self, game: &mut StoredGame) -> StoreResult<()> {
        let rows = sqlx::query(
            "SELECT token, white_ms, black_ms, at FROM actions WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game.id.0)
        .fetch_all(&self.pool)
        .await?;
        game.actions = rows
            .iter()
            .map(|r| {
                Ok(StoredAction {
                    token: r.try_get("token")?,
                    white_ms: millis(r.try_get("white_ms")?),
                    black_ms: millis(r.try_get("black_ms")?),
                    at: r.try_get("at")?,
                })
            })
            .collect::<StoreResult<_>>()?;
        Ok(())
    }
}

/// `text` with LIKE's `%`, `_` and the escape `\` escaped.
fn like_escaped(text: &str) -> String {
    let mut p = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p
}

/// `text` as a LIKE pattern that matches it anywhere (lower case), with `\` escaping.
fn contains_pattern(text: &str) -> String {
    format!("%{}%", like_escaped(&text.to_lowercase()))
}

type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

fn insert_action(game: i64, ply: u32, action: &StoredAction) -> Query<'_> {
    sqlx::query(
        "INSERT INTO actions (game_id, ply, token, white_ms, black_ms, at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(game)
    .bind(i64::from(ply))
    .bind(&action.token)
    .bind(action.white_ms.map(|v| v as i64))
    .bind(action.black_ms.map(|v| v as i64))
    .bind(action.at)
}

fn finish(game: i64, result: &StoredResult) -> Query<'_> {
    sqlx::query(
        "UPDATE games SET finished_at = $1, winner = $2, termination = $3, \
         action_count = (SELECT COUNT(*) FROM actions WHERE game_id = $4) \
         WHERE id = $4 AND finished_at IS NULL",
    )
    .bind(result.finished_at)
    .bind(result.winner.as_deref())
    .bind(&result.termination)
    .bind(game)
}

type Tx<'t> = sqlx::Transaction<'t, sqlx::Any>;

fn count(row: &AnyRow, column: &str) -> StoreResult<u32> {
    let n: i64 = row.try_get(column)?;
    Ok(n.clamp(0, i64::from(u32::MAX)) as u32)
}

fn category_rating(row: &AnyRow) -> StoreResult<CategoryRating> {
    Ok(CategoryRating {
        category: row.try_get("category")?,
        rating: Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
            games: count(row, "games")?,
            last_game_ms: row.try_get("last_game_at")?,
        },
        wins: count(row, "wins")?,
        draws: count(row, "draws")?,
        losses: count(row, "losses")?,
    })
}

const JOB_COLUMNS: &str = "game_id, state, requested_at, worker, lease_until, attempts, done, \
     total, engine, settings, result, finished_at";

/// A player from a row with `id`, `name` and `bot`.
fn player_row(row: &AnyRow) -> StoreResult<Player> {
    let bot: i64 = row.try_get("bot")?;
    Ok(Player {
        id: PlayerId(row.try_get("id")?),
        name: row.try_get("name")?,
        bot: bot != 0,
    })
}

fn token_record(row: &AnyRow) -> StoreResult<TokenRecord> {
    Ok(TokenRecord {
        id: row.try_get("id")?,
        player: PlayerId(row.try_get("player_id")?),
        name: row.try_get("name")?,
        scopes: row.try_get("scopes")?,
        created_at: row.try_get("created_at")?,
        last_used_at: row.try_get("last_used_at")?,
    })
}

fn job_row(row: &AnyRow) -> StoreResult<AnalysisJob> {
    let state: String = row.try_get("state")?;
    Ok(AnalysisJob {
        game: GameId(row.try_get("game_id")?),
        state: JobState::from_name(&state)
            .ok_or_else(|| StoreError::corrupt(format!("analysis job state '{state}'")))?,
        requested_at: row.try_get("requested_at")?,
        worker: row.try_get("worker")?,
        lease_until: row.try_get("lease_until")?,
        attempts: count(row, "attempts")?,
        done: count(row, "done")?,
        total: count(row, "total")?,
        engine: row.try_get("engine")?,
        settings: row.try_get("settings")?,
        result: row.try_get("result")?,
        finished_at: row.try_get("finished_at")?,
    })
}

const RATING_COLUMNS: &str =
    "category, rating, deviation, volatility, games, wins, draws, losses, last_game_at";

impl SqlStore {
    /// Finishes `game` with `result` in `tx` and, when it is a rated game between two
    /// accounts finished now (not before: a retry), rates both players.
    async fn finish_and_rate(
        &self,
        tx: &mut Tx<'_>,
        game: i64,
        result: &StoredResult,
    ) -> StoreResult<Rated> {
        let finished = finish(game, result)
            .execute(&mut **tx)
            .await?
            .rows_affected();
        if finished == 0 {
            // Finished before (a retry of a write that was stored): the same changes.
            return self.rating_changes(tx, game).await;
        }
        let row = sqlx::query(
            "SELECT g.options, g.white_id, g.black_id, \
             (SELECT COUNT(*) FROM players p WHERE p.password_hash IS NOT NULL \
              AND (p.id = g.white_id OR p.id = g.black_id)) AS accounts \
             FROM games g WHERE g.id = $1",
        )
        .bind(game)
        .fetch_one(&mut **tx)
        .await?;
        let options: String = row.try_get("options")?;
        let options: TableOptions = serde_json::from_str(&options).map_err(|e| {
            StoreError::corrupt(format!("stored table options are unreadable: {e}"))
        })?;
        let ids: (Option<i64>, Option<i64>) = (row.try_get("white_id")?, row.try_get("black_id")?);
        let accounts: i64 = row.try_get("accounts")?;
        let (Some(white), Some(black)) = ids else {
            return Ok(None);
        };
        let category = crate::rating::category(&options);
        let Some(category) = category.filter(|_| options.rated && accounts == 2 && white != black)
        else {
            return Ok(None);
        };
        let score = match result.winner.as_deref() {
            Some("white") => Score::White,
            Some("black") => Score::Black,
            _ => Score::Draw,
        };
        // Locked in the order of their ids, so that two games ending at once for the
        // same players wait for each other instead of deadlocking.
        let (first, second) = (white.min(black), white.max(black));
        let a = self.lock_rating(tx, first, &category).await?;
        let b = self.lock_rating(tx, second, &category).await?;
        let (w, b) = if first == white { (a, b) } else { (b, a) };
        let (nw, nb) = crate::rating::rate(&w, &b, score, result.finished_at);
        let change = |player: i64, before: &Rating, after: &Rating| RatingChange {
            player: PlayerId(player),
            category: category.clone(),
            before: before.rating,
            after: after.rating,
            deviation: after.deviation,
        };
        let changes = yinsh::ByColor {
            white: change(white, &w, &nw),
            black: change(black, &b, &nb),
        };
        let after = yinsh::ByColor {
            white: nw,
            black: nb,
        };
        for (color, change, after) in [
            ("white", &changes.white, &after.white),
            ("black", &changes.black, &after.black),
        ] {
            let own = match (score, color) {
                (Score::Draw, _) => "draws",
                (Score::White, "white") | (Score::Black, "black") => "wins",
                _ => "losses",
            };
            sqlx::query(&format!(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, \
                 games = games + 1, {own} = {own} + 1, last_game_at = $4 \
                 WHERE player_id = $5 AND category = $6"
            ))
            .bind(after.rating)
            .bind(after.deviation)
            .bind(after.volatility)
            .bind(result.finished_at)
            .bind(change.player.0)
            .bind(&change.category)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_changes (game_id, color, player_id, category, \
                 rating_before, rating_after, deviation_after, at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(game)
            .bind(color)
            .bind(change.player.0)
            .bind(&change.category)
            .bind(change.before)
            .bind(change.after)
            .bind(change.deviation)
            .bind(result.finished_at)
            .execute(&mut **tx)
            .await?;
        }
        Ok(Some(changes))
    }

    /// The rating of `player` in `category` (made if it is their first game there),
    /// locked until `tx` ends.
    async fn lock_rating(
        &self,
        tx: &mut Tx<'_>,
        player: i64,
        category: &str,
    ) -> StoreResult<Rating> {
        let new = Rating::default();
        sqlx::query(
            "INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, \
             wins, draws, losses) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0) \
             ON CONFLICT (player_id, category) DO NOTHING",
        )
        .bind(player)
        .bind(category)
        .bind(new.rating)
        .bind(new.deviation)
        .bind(new.volatility)
        .execute(&mut **tx)
        .await?;
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE",
            // One writer at a time: the transaction has the database to itself.
            Backend::Sqlite => "",
        };
        let row = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 AND category = $2{lock}"
        ))
        .bind(player)
        .bind(category)
        .fetch_one(&mut **tx)
        .await?;
        Ok(category_rating(&row)?.rating)
    }

    /// The rating changes stored with `game`'s result.
    async fn rating_changes(&self, tx: &mut Tx<'_>, game: i64) -> StoreResult<Rated> {
        let rows = sqlx::query(
            "SELECT color, player_id, category, rating_before, rating_after, deviation_after \
             FROM rating_changes WHERE game_id = $1",
        )
        .bind(game)
        .fetch_all(&mut **tx)
        .await?;
        let mut white = None;
        let mut black = None;
        for row in &rows {
            let color: String = row.try_get("color")?;
            let change = RatingChange {
                player: PlayerId(row.try_get("player_id")?),
                category: row.try_get("category")?,
                before: row.try_get("rating_before")?,
                after: row.try_get("rating_after")?,
                deviation: row.try_get("deviation_after")?,
            };
            match color.as_str() {
                "white" => white = Some(change),
                "black" => black = Some(change),
                _ => return Err(StoreError::corrupt(format!("rating change of '{color}'"))),
            }
        }
        Ok(white
            .zip(black)
            .map(|(white, black)| yinsh::ByColor { white, black }))
    }
}

/// Refuses the transaction `tx` unless `fence` holds: called after its first write, so
/// that on SQLite it holds the write lock (nobody can change the owner row before it
/// commits) and on PostgreSQL the row is locked against a takeover until it commits.
async fn check_fence(tx: &mut Tx<'_>, fence: Option<&Fence>, lock: &str) -> StoreResult<()> {
    let Some(fence) = fence else {
        return Ok(());
    };
    let sql = format!(
        "SELECT 1 AS one FROM table_owners \
         WHERE table_id = $1 AND node_id = $2 AND incarnation = $3{lock}"
    );
    let row = sqlx::query(&sql)
        .bind(fence.table.as_str())
        .bind(fence.node.as_str())
        .bind(fence.incarnation)
        .fetch_optional(&mut **tx)
        .await?;
    match row {
        Some(_) => Ok(()),
        None => Err(StoreError::moved(fence)),
    }
}

async fn delete_game(tx: &mut sqlx::Transaction<'_, sqlx::Any>, game: i64) -> StoreResult<()> {
    sqlx::query("DELETE FROM actions WHERE game_id = $1")
        .bind(game)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM games WHERE id = $1")
        .bind(game)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Store for SqlStore {
    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            sqlx::query("SELECT 1").execute(&self.pool).await?;
            Ok(())
        })
    }

    fn session_player<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, Option<Player>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT p.id, p.name, p.bot FROM sessions s JOIN players p ON p.id = s.player_id \
                 WHERE s.token_hash = $1",
            )
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
            row.map(|r| player_row(&r)).transpose()
        })
    }

    fn create_guest<'a>(&'a self, token_hash: &'a str, name: &'a str) -> StoreFuture<'a, Player> {
        Box::pin(async move {
            let now = crate::now_ms();
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let id: i64 =
                sqlx::query("INSERT INTO players (name, created_at) VALUES ($1, $2) RETURNING id")
                    .bind(name)
                    .bind(now)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get("id")?;
            sqlx::query(
                "INSERT INTO sessions (token_hash, player_id, created_at) VALUES ($1, $2, $3)",
            )
            .bind(token_hash)
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Player {
                id: PlayerId(id),
                name: name.to_owned(),
                bot: false,
            })
        })
    }

    fn rotate_session<'a>(
        &'a self,
        old_hash: &'a str,
        new_hash: &'a str,
    ) -> StoreFuture<'a, Option<Player>> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            // Deleting first claims the old session: of two rotations at once, the
            // second deletes nothing (PostgreSQL makes it wait for the first to commit;
            // SQLite has one writer at a time).
            let Some(row) =
                sqlx::query("DELETE FROM sessions WHERE token_hash = $1 RETURNING player_id")
                    .bind(old_hash)
                    .fetch_optional(&mut *tx)
                    .await?
            else {
                return Ok(None);
            };
            let player_id: i64 = row.try_get("player_id")?;
            sqlx::query(
                "INSERT INTO sessions (token_hash, player_id, created_at) VALUES ($1, $2, $3)",
            )
            .bind(new_hash)
            .bind(player_id)
            .bind(crate::now_ms())
            .execute(&mut *tx)
            .await?;
            let row = sqlx::query("SELECT id, name, bot FROM players WHERE id = $1")
                .bind(player_id)
                .fetch_one(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(Some(player_row(&row)?))
        })
    }

    fn register<'a>(
        &'a self,
        token_hash: &'a str,
        account: &'a NewAccount,
    ) -> StoreFuture<'a, Registration> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let Some(row) = sqlx::query(
                "SELECT p.id, p.password_hash FROM sessions s JOIN players p \
                 ON p.id = s.player_id WHERE s.token_hash = $1",
            )
            .bind(token_hash)
            .fetch_optional(&mut *tx)
            .await?
            else {
                return Ok(Registration::NoSession);
            };
            let id: i64 = row.try_get("id")?;
            let hash: Option<String> = row.try_get("password_hash")?;
            if hash.is_some() {
                return Ok(Registration::AlreadyRegistered);
            }
            sqlx::query(
                "UPDATE players SET name = $1, skeleton = $2, password_hash = $3 WHERE id = $4",
            )
            .bind(&account.name)
            .bind(&account.skeleton)
            .bind(&account.password_hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Registration::Registered(Player {
                id: PlayerId(id),
                name: account.name.clone(),
                bot: false,
            }))
        })
    }

    fn account<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<(Player, String)>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT id, name, bot, password_hash FROM players \
                 WHERE LOWER(name) = LOWER($1) AND password_hash IS NOT NULL",
            )
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
            row.map(|r| {
                let player = player_row(&r)?;
                Ok((player, r.try_get("password_hash")?))
            })
            .transpose()
        })
    }

    fn session_info<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, Option<PlayerInfo>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT p.id, p.name, p.bot, p.created_at, p.password_hash FROM sessions s \
                 JOIN players p ON p.id = s.player_id WHERE s.token_hash = $1",
            )
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
            row.map(|r| {
                let hash: Option<String> = r.try_get("password_hash")?;
                Ok(PlayerInfo {
                    player: player_row(&r)?,
                    registered: hash.is_some(),
                    created_at: r.try_get("created_at")?,
                })
            })
            .transpose()
        })
    }

    fn create_session<'a>(&'a self, token_hash: &'a str, player: PlayerId) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO sessions (token_hash, player_id, created_at) VALUES ($1, $2, $3)",
            )
            .bind(token_hash)
            .bind(player.0)
            .bind(crate::now_ms())
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn sessions(&self, player: PlayerId) -> StoreFuture<'_, Vec<SessionRecord>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT token_hash, created_at FROM sessions WHERE player_id = $1 \
                 ORDER BY created_at, token_hash",
            )
            .bind(player.0)
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(SessionRecord {
                        token_hash: r.try_get("token_hash")?,
                        created_at: r.try_get("created_at")?,
                    })
                })
                .collect()
        })
    }

    fn end_sessions<'a>(&'a self, player: PlayerId, hashes: &'a [String]) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let mut ended = 0;
            for hash in hashes {
                ended +=
                    sqlx::query("DELETE FROM sessions WHERE player_id = $1 AND token_hash = $2")
                        .bind(player.0)
                        .bind(hash)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
            }
            tx.commit().await?;
            Ok(ended)
        })
    }

    fn import_game<'a>(
        &'a self,
        game: &'a NewGame,
        actions: &'a [StoredAction],
        result: &'a StoredResult,
    ) -> StoreFuture<'a, GameId> {
        Box::pin(async move {
            let options = serde_json::to_string(&game.options)
                .map_err(|e| StoreError::corrupt(format!("table options: {e}")))?;
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO games (table_id, options, white_id, white_name, white_bot, \
                 black_id, black_name, black_bot, started_at) \
                 VALUES ($1, $2, NULL, $3, NULL, NULL, $4, NULL, $5) RETURNING id",
            )
            .bind(&game.table_id)
            .bind(options)
            .bind(&game.white.name)
            .bind(&game.black.name)
            .bind(game.started_at)
            .fetch_one(&mut *tx)
            .await?;
            for (ply, action) in actions.iter().enumerate() {
                insert_action(id, ply as u32, action)
                    .execute(&mut *tx)
                    .await?;
            }
            finish(id, result).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(GameId(id))
        })
    }

    fn backup<'a>(&'a self, path: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if self.backend != Backend::Sqlite {
                return Err(StoreError::unavailable(
                    "back a PostgreSQL database up with pg_dump (docs/deploy.md)",
                ));
            }
            // One consistent snapshot, taken while writers go on (WAL).
            sqlx::query("VACUUM INTO $1")
                .bind(path)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn bots_among<'a>(&'a self, players: &'a [PlayerId]) -> StoreFuture<'a, Vec<PlayerId>> {
        Box::pin(async move {
            if players.is_empty() {
                return Ok(Vec::new());
            }
            let marks: Vec<String> = (1..=players.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT id FROM players WHERE bot = 1 AND id IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query(&sql);
            for p in players {
                query = query.bind(p.0);
            }
            let rows = query.fetch_all(&self.pool).await?;
            rows.iter()
                .map(|r| Ok(PlayerId(r.try_get("id")?)))
                .collect()
        })
    }

    fn upgrade_to_bot(&self, player: PlayerId) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            // One statement: an account, no bot yet, and no game of its own.
            let done = sqlx::query(
                "UPDATE players SET bot = 1 WHERE id = $1 AND password_hash IS NOT NULL \
                 AND bot = 0 AND NOT EXISTS \
                 (SELECT 1 FROM games WHERE white_id = $1 OR black_id = $1)",
            )
            .bind(player.0)
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn create_token<'a>(
        &'a self,
        player: PlayerId,
        name: &'a str,
        scopes: &'a str,
        hash: &'a str,
        now: i64,
    ) -> StoreFuture<'a, TokenRecord> {
        Box::pin(async move {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO api_tokens (player_id, name, token_hash, scopes, created_at) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(player.0)
            .bind(name)
            .bind(hash)
            .bind(scopes)
            .bind(now)
            .fetch_one(&self.pool)
            .await?;
            Ok(TokenRecord {
                id,
                player,
                name: name.to_owned(),
                scopes: scopes.to_owned(),
                created_at: now,
                last_used_at: None,
            })
        })
    }

    fn tokens(&self, player: PlayerId) -> StoreFuture<'_, Vec<TokenRecord>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, player_id, name, scopes, created_at, last_used_at FROM api_tokens \
                 WHERE player_id = $1 ORDER BY created_at, id",
            )
            .bind(player.0)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(token_record).collect()
        })
    }

    fn revoke_token(&self, player: PlayerId, id: i64) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let done = sqlx::query("DELETE FROM api_tokens WHERE player_id = $1 AND id = $2")
                .bind(player.0)
                .bind(id)
                .execute(&self.pool)
                .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    fn use_token<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
    ) -> StoreFuture<'a, Option<(TokenRecord, Player)>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT t.id, t.player_id, t.name, t.scopes, t.created_at, t.last_used_at, \
                 p.name AS player_name, p.bot FROM api_tokens t \
                 JOIN players p ON p.id = t.player_id WHERE t.token_hash = $1",
            )
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let mut token = token_record(&row)?;
            let bot: i64 = row.try_get("bot")?;
            let player = Player {
                id: token.player,
                name: row.try_get("player_name")?,
                bot: bot != 0,
            };
            if token.last_used_at.is_none_or(|at| now - at >= 60_000) {
                sqlx::query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2")
                    .bind(now)
                    .bind(token.id)
                    .execute(&self.pool)
                    .await?;
                token.last_used_at = Some(now);
            }
            Ok(Some((token, player)))
        })
    }

    fn set_password<'a>(&'a self, player: PlayerId, hash: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "UPDATE players SET password_hash = $1 WHERE id = $2 AND password_hash IS NOT NULL",
            )
            .bind(hash)
            .bind(player.0)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn create_game<'a>(
        &'a self,
        game: &'a NewGame,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, GameId> {
        Box::pin(async move {
            let options = serde_json::to_string(&game.options)
                .map_err(|e| StoreError::corrupt(format!("table options: {e}")))?;
            // A game without a fence (a lone server) is stored with the others that
            // start meanwhile, in one statement ([`super::batch`]).
            if fence.is_none() {
                if let Some(done) = self.batcher.create(game, options.clone()) {
                    let id = done.await.unwrap_or_else(|_| {
                        Err(StoreError::unavailable("the store's writer ended"))
                    })?;
                    return Ok(GameId(id));
                }
            }
            let sql = super::batch::game_statement(1);
            let query = super::batch::bind_game(sqlx::query(&sql), game, &options);
            let row = match fence {
                None => query.fetch_one(&self.pool).await?,
                Some(_) => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    let row = query.fetch_one(&mut *tx).await?;
                    check_fence(&mut tx, fence, self.backend.share_lock()).await?;
                    tx.commit().await?;
                    row
                }
            };
            Ok(GameId(row.try_get("id")?))
        })
    }

    fn write_game<'a>(
        &'a self,
        game: GameId,
        write: &'a GameWrite,
        log: bool,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, Rated> {
        Box::pin(async move {
            let id = game.0;
            let mut rated = None;
            let lock = self.backend.share_lock();
            match write {
                // The hot path of the server: stored with the actions of other tables
                // that arrive meanwhile, in one statement ([`super::batch`]).
                GameWrite::Action {
                    ply,
                    action,
                    result: None,
                } => match self.batcher.insert(id, *ply, action, fence) {
                    Some(done) => done.await.unwrap_or_else(|_| {
                        Err(StoreError::unavailable("the store's writer ended"))
                    })?,
                    None => {
                        let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                        insert_action(id, *ply, action).execute(&mut *tx).await?;
                        check_fence(&mut tx, fence, lock).await?;
                        tx.commit().await?;
                    }
                },
                GameWrite::Action {
                    ply,
                    action,
                    result: Some(result),
                } => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    if log {
                        insert_action(id, *ply, action).execute(&mut *tx).await?;
                        rated = self.finish_and_rate(&mut tx, id, result).await?;
                    } else {
                        delete_game(&mut tx, id).await?;
                    }
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
                GameWrite::Takeback { keep, takebacks } => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    sqlx::query("DELETE FROM actions WHERE game_id = $1 AND ply >= $2")
                        .bind(id)
                        .bind(i64::from(*keep))
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "UPDATE games SET white_takebacks = $1, black_takebacks = $2 \
                         WHERE id = $3",
                    )
                    .bind(i64::from(takebacks.white))
                    .bind(i64::from(takebacks.black))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
                GameWrite::Result(result) if log => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    rated = self.finish_and_rate(&mut tx, id, result).await?;
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
                GameWrite::Result(_) | GameWrite::Abort => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    delete_game(&mut tx, id).await?;
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
            }
            Ok(rated)
        })
    }

    fn unfinished_games(&self) -> StoreFuture<'_, Vec<StoredGame>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE finished_at IS NULL ORDER BY id"
            ))
            .fetch_all(&self.pool)
            .await?;
            let mut games = rows.iter().map(game_row).collect::<StoreResult<Vec<_>>>()?;
            for game in &mut games {
                self.load_actions(game).await?;
            }
            Ok(games)
        })
    }

    fn archive<'a>(&'a self, query: &'a ArchiveQuery) -> StoreFuture<'a, ArchiveList> {
        Box::pin(async move {
            // No name holds a NUL (PostgreSQL text cannot): nothing matches. Sent on,
            // PostgreSQL would refuse the query and SQLite end the pattern there.
            if query.player.as_deref().is_some_and(|p| p.contains('\0')) {
                return Ok(ArchiveList {
                    games: Vec::new(),
                    action_counts: Vec::new(),
                    total: 0,
                });
            }
            let mut filter = String::from("finished_at IS NOT NULL");
            let mut n = 0;
            let mut param = || {
                n += 1;
                format!("${n}")
            };
            let pattern = query.player.as_deref().map(contains_pattern);
            if pattern.is_some() {
                let p = param();
                filter.push_str(&format!(
                    " AND (LOWER(white_name) LIKE {p} ESCAPE '\\' \
                     OR LOWER(black_name) LIKE {p} ESCAPE '\\')"
                ));
            }
            if query.player_id.is_some() {
                let p = param();
                filter.push_str(&format!(" AND (white_id = {p} OR black_id = {p})"));
            }
            if query.from.is_some() {
                filter.push_str(&format!(" AND started_at >= {}", param()));
            }
            if query.to.is_some() {
                filter.push_str(&format!(" AND started_at < {}", param()));
            }
            let (limit, offset) = (param(), param());
            let list = format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE {filter} \
                 ORDER BY started_at DESC, id DESC LIMIT {limit} OFFSET {offset}"
            );
            let count = format!("SELECT COUNT(*) AS n FROM games WHERE {filter}");

            let mut list_q = sqlx::query(&list);
            let mut count_q = sqlx::query(&count);
            if let Some(p) = &pattern {
                list_q = list_q.bind(p.clone());
                count_q = count_q.bind(p.clone());
            }
            for bound in [query.player_id.map(|p| p.0), query.from, query.to]
                .into_iter()
                .flatten()
            {
                list_q = list_q.bind(bound);
                count_q = count_q.bind(bound);
            }
            let list_q = list_q
                .bind(i64::from(query.limit.clamp(1, 100)))
                .bind(i64::from(query.offset));
            let rows = list_q.fetch_all(&self.pool).await?;
            let total: i64 = count_q.fetch_one(&self.pool).await?.try_get("n")?;
            let mut games = Vec::with_capacity(rows.len());
            let mut action_counts = Vec::with_capacity(rows.len());
            for row in &rows {
                games.push(game_row(row)?);
                let count: i64 = row.try_get("action_count")?;
                action_counts.push(count.clamp(0, i64::from(u32::MAX)) as u32);
            }
            Ok(ArchiveList {
                games,
                action_counts,
                total: total.max(0) as u64,
            })
        })
    }

    fn player_named<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<PlayerInfo>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT id, name, bot, created_at FROM players \
                 WHERE LOWER(name) = LOWER($1) AND password_hash IS NOT NULL",
            )
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
            row.map(|r| {
                Ok(PlayerInfo {
                    player: player_row(&r)?,
                    registered: true,
                    created_at: r.try_get("created_at")?,
                })
            })
            .transpose()
        })
    }

    fn ratings(&self, player: PlayerId) -> StoreFuture<'_, Vec<CategoryRating>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 AND games > 0 \
                 ORDER BY category"
            ))
            .bind(player.0)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(category_rating).collect()
        })
    }

    fn rating_history(&self, player: PlayerId) -> StoreFuture<'_, Vec<RatingPoint>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT game_id, category, at, rating_after, deviation_after \
                 FROM rating_changes WHERE player_id = $1 ORDER BY at, game_id",
            )
            .bind(player.0)
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(RatingPoint {
                        game: GameId(r.try_get("game_id")?),
                        category: r.try_get("category")?,
                        at: r.try_get("at")?,
                        rating: r.try_get("rating_after")?,
                        deviation: r.try_get("deviation_after")?,
                    })
                })
                .collect()
        })
    }

    fn head_to_head(&self, player: PlayerId, other: PlayerId) -> StoreFuture<'_, Tally> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT \
                 COALESCE(SUM(CASE WHEN (white_id = $1 AND winner = 'white') \
                   OR (black_id = $1 AND winner = 'black') THEN 1 ELSE 0 END), 0) AS wins, \
                 COALESCE(SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END), 0) AS draws, \
                 COALESCE(SUM(CASE WHEN (white_id = $1 AND winner = 'black') \
                   OR (black_id = $1 AND winner = 'white') THEN 1 ELSE 0 END), 0) AS losses \
                 FROM games WHERE finished_at IS NOT NULL \
                 AND ((white_id = $1 AND black_id = $2) OR (white_id = $2 AND black_id = $1))",
            )
            .bind(player.0)
            .bind(other.0)
            .fetch_one(&self.pool)
            .await?;
            Ok(Tally {
                wins: count(&row, "wins")?,
                draws: count(&row, "draws")?,
                losses: count(&row, "losses")?,
            })
        })
    }

    fn leaderboard<'a>(
        &'a self,
        category: &'a str,
        deviation: f64,
        games: u32,
        limit: u32,
    ) -> StoreFuture<'a, Vec<(Player, CategoryRating)>> {
        Box::pin(async move {
            let columns = RATING_COLUMNS
                .split(", ")
                .map(|c| format!("r.{c}"))
                .collect::<Vec<_>>()
                .join(", ");
            let rows = sqlx::query(&format!(
                "SELECT p.id, p.name, p.bot, {columns} FROM ratings r \
                 JOIN players p ON p.id = r.player_id \
                 WHERE r.category = $1 AND r.deviation <= $2 AND r.games >= $3 \
                 ORDER BY r.rating DESC, p.id LIMIT $4"
            ))
            .bind(category)
            .bind(deviation)
            .bind(i64::from(games))
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| Ok((player_row(r)?, category_rating(r)?)))
                .collect()
        })
    }

    fn request_analysis(&self, game: GameId, now: i64) -> StoreFuture<'_, Option<AnalysisJob>> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let archived = sqlx::query(
                "SELECT id, options FROM games WHERE id = $1 AND finished_at IS NOT NULL",
            )
            .bind(game.0)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = archived else {
                return Ok(None);
            };
            let options: String = row.try_get("options")?;
            let options: TableOptions = serde_json::from_str(&options).map_err(|e| {
                StoreError::corrupt(format!("stored table options are unreadable: {e}"))
            })?;
            if !options.log {
                return Ok(None);
            }
            sqlx::query(
                "INSERT INTO analysis_jobs (game_id, state, requested_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(game.0)
            .bind(JobState::Queued.name())
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let row = sqlx::query(&format!(
                "SELECT {JOB_COLUMNS} FROM analysis_jobs WHERE game_id = $1"
            ))
            .bind(game.0)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            job_row(&row).map(Some)
        })
    }

    fn analysis_queue(&self) -> StoreFuture<'_, u64> {
        Box::pin(async move {
            let row =
                sqlx::query("SELECT COUNT(*) AS n FROM analysis_jobs WHERE state IN ($1, $2)")
                    .bind(JobState::Queued.name())
                    .bind(JobState::Running.name())
                    .fetch_one(&self.pool)
                    .await?;
            Ok(u64::from(count(&row, "n")?))
        })
    }

    fn analysis_job(&self, game: GameId) -> StoreFuture<'_, Option<AnalysisJob>> {
        Box::pin(async move {
            let row = sqlx::query(&format!(
                "SELECT {JOB_COLUMNS} FROM analysis_jobs WHERE game_id = $1"
            ))
            .bind(game.0)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(job_row).transpose()
        })
    }

    fn acquire_analysis<'a>(
        &'a self,
        lease: &'a Lease<'a>,
    ) -> StoreFuture<'a, Option<AnalysisJob>> {
        Box::pin(async move {
            // Several workers may ask at once: PostgreSQL locks the row it takes and
            // skips the ones others took; SQLite has one writer at a time.
            let lock = match self.backend {
                Backend::Postgres => " FOR UPDATE SKIP LOCKED",
                Backend::Sqlite => "",
            };
            loop {
                let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                let row = sqlx::query(&format!(
                    "SELECT {JOB_COLUMNS} FROM analysis_jobs \
                     WHERE state = $1 OR (state = $2 AND lease_until < $3) \
                     ORDER BY requested_at, game_id LIMIT 1{lock}"
                ))
                .bind(JobState::Queued.name())
                .bind(JobState::Running.name())
                .bind(lease.now)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                let mut job = job_row(&row)?;
                if job.attempts >= ANALYSIS_ATTEMPTS {
                    sqlx::query(
                        "UPDATE analysis_jobs SET state = $1, worker = NULL, lease_until = NULL \
                         WHERE game_id = $2",
                    )
                    .bind(JobState::Failed.name())
                    .bind(job.game.0)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    continue;
                }
                sqlx::query(
                    "UPDATE analysis_jobs SET state = $1, worker = $2, lease_until = $3, \
                     attempts = attempts + 1, done = 0 WHERE game_id = $4",
                )
                .bind(JobState::Running.name())
                .bind(lease.worker)
                .bind(lease.until)
                .bind(job.game.0)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                job.state = JobState::Running;
                job.worker = Some(lease.worker.to_owned());
                job.lease_until = Some(lease.until);
                job.attempts += 1;
                job.done = 0;
                return Ok(Some(job));
            }
        })
    }

    fn analysis_progress<'a>(
        &'a self,
        game: GameId,
        lease: &'a Lease<'a>,
        done: u32,
        total: u32,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let n = sqlx::query(
                "UPDATE analysis_jobs SET done = $1, total = $2, lease_until = $3 \
                 WHERE game_id = $4 AND state = $5 AND worker = $6",
            )
            .bind(i64::from(done))
            .bind(i64::from(total))
            .bind(lease.until)
            .bind(game.0)
            .bind(JobState::Running.name())
            .bind(lease.worker)
            .execute(&self.pool)
            .await?
            .rows_affected();
            Ok(n == 1)
        })
    }

    fn finish_analysis<'a>(
        &'a self,
        game: GameId,
        worker: &'a str,
        done: &'a AnalysisDone<'a>,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let n = sqlx::query(
                "UPDATE analysis_jobs SET state = $1, engine = $2, settings = $3, result = $4, \
                 finished_at = $5, done = total, worker = NULL, lease_until = NULL \
                 WHERE game_id = $6 AND state = $7 AND worker = $8",
            )
            .bind(JobState::Done.name())
            .bind(done.engine)
            .bind(done.settings)
            .bind(done.result)
            .bind(done.at)
            .bind(game.0)
            .bind(JobState::Running.name())
            .bind(worker)
            .execute(&self.pool)
            .await?
            .rows_affected();
            Ok(n == 1)
        })
    }

    fn analyse_again<'a>(
        &'a self,
        game: GameId,
        engine: &'a str,
        settings: &'a str,
        now: i64,
    ) -> StoreFuture<'a, Option<AnalysisJob>> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            sqlx::query(
                "UPDATE analysis_jobs SET state = $1, requested_at = $2, worker = NULL, \
                 lease_until = NULL, attempts = 0, done = 0, total = 0, engine = NULL, \
                 settings = NULL, result = NULL, finished_at = NULL \
                 WHERE game_id = $3 AND state = $4 AND engine = $5 AND settings = $6",
            )
            .bind(JobState::Queued.name())
            .bind(now)
            .bind(game.0)
            .bind(JobState::Done.name())
            .bind(engine)
            .bind(settings)
            .execute(&mut *tx)
            .await?;
            let row = sqlx::query(&format!(
                "SELECT {JOB_COLUMNS} FROM analysis_jobs WHERE game_id = $1"
            ))
            .bind(game.0)
            .fetch_optional(&mut *tx)
            .await?;
            tx.commit().await?;
            row.as_ref().map(job_row).transpose()
        })
    }

    fn release_analysis<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let pattern = format!("{}%", like_escaped(prefix));
            let n = sqlx::query(
                "UPDATE analysis_jobs SET state = $1, worker = NULL, lease_until = NULL \
                 WHERE state = $2 AND worker LIKE $3 ESCAPE '\\'",
            )
            .bind(JobState::Queued.name())
            .bind(JobState::Running.name())
            .bind(pattern)
            .execute(&self.pool)
            .await?
            .rows_affected();
            Ok(n)
        })
    }

    fn abandon_analysis<'a>(&'a self, game: GameId, worker: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "UPDATE analysis_jobs SET state = $1, worker = NULL, lease_until = NULL \
                 WHERE game_id = $2 AND state = $3 AND worker = $4",
            )
            .bind(JobState::Queued.name())
            .bind(game.0)
            .bind(JobState::Running.name())
            .bind(worker)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn recent_colors(&self, player: PlayerId, n: u32) -> StoreFuture<'_, Vec<yinsh::Color>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT white_id FROM games WHERE white_id = $1 OR black_id = $1 \
                 ORDER BY id DESC LIMIT $2",
            )
            .bind(player.0)
            .bind(i64::from(n))
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let white: Option<i64> = r.try_get("white_id")?;
                    Ok(if white == Some(player.0) {
                        yinsh::Color::White
                    } else {
                        yinsh::Color::Black
                    })
                })
                .collect()
        })
    }

    fn game(&self, id: GameId) -> StoreFuture<'_, Option<StoredGame>> {
        Box::pin(async move {
            let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
                .bind(id.0)
                .fetch_optional(&self.pool)
                .await?;
            let Some(row) = row else { return Ok(None) };
            let mut game = game_row(&row)?;
            self.load_actions(&mut game).await?;
            Ok(Some(game))
        })
    }

    fn unfinished_games_at<'a>(&'a self, tables: &'a [String]) -> StoreFuture<'a, Vec<StoredGame>> {
        Box::pin(async move {
            let mut games = Vec::new();
            // A few hundred tables at a time: no statement with thousands of parameters.
            for chunk in tables.chunks(500) {
                let places = (1..=chunk.len())
                    .map(|n| format!("${n}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games \
                     WHERE finished_at IS NULL AND table_id IN ({places}) ORDER BY id"
                );
                let mut query = sqlx::query(&sql);
                for table in chunk {
                    query = query.bind(table.as_str());
                }
                for row in query.fetch_all(&self.pool).await? {
                    games.push(game_row(&row)?);
                }
            }
            for game in &mut games {
                self.load_actions(game).await?;
            }
            Ok(games)
        })
    }

    fn renew_node<'a>(&'a self, node: &'a str, boot: u64, ttl_ms: i64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            // A new run of the node is alive from now; the same run keeps its time.
            let sql = format!(
                "INSERT INTO cluster_nodes (node_id, alive_until, boot, since) \
                 VALUES ($1, {now} + $2, $3, {now}) \
                 ON CONFLICT (node_id) DO UPDATE SET alive_until = excluded.alive_until, \
                 since = CASE WHEN cluster_nodes.boot = excluded.boot \
                 THEN cluster_nodes.since ELSE excluded.since END, \
                 boot = excluded.boot",
                now = self.backend.now_ms()
            );
            sqlx::query(&sql)
                .bind(node)
                .bind(ttl_ms)
                .bind(boot as i64)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn end_node<'a>(&'a self, node: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE cluster_nodes SET alive_until = 0 WHERE node_id = $1")
                .bind(node)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn cluster_id<'a>(&'a self, fresh: &'a str) -> StoreFuture<'a, String> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO cluster_settings (name, value) VALUES ('id', $1) \
                 ON CONFLICT (name) DO NOTHING",
            )
            .bind(fresh)
            .execute(&self.pool)
            .await?;
            let id: String =
                sqlx::query_scalar("SELECT value FROM cluster_settings WHERE name = 'id'")
                    .fetch_one(&self.pool)
                    .await?;
            Ok(id)
        })
    }

    fn live_nodes(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT node_id FROM cluster_nodes WHERE alive_until > {now} \
                 ORDER BY since, node_id",
                now = self.backend.now_ms()
            );
            let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
            rows.iter()
                .map(|r| r.try_get("node_id").map_err(StoreError::from))
                .collect()
        })
    }

    fn claim_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let done = sqlx::query(
                "INSERT INTO table_owners (table_id, node_id, incarnation) VALUES ($1, $2, 1) \
                 ON CONFLICT (table_id) DO NOTHING",
            )
            .bind(table)
            .bind(node)
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn release_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("DELETE FROM table_owners WHERE table_id = $1 AND node_id = $2")
                .bind(table)
                .bind(node)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn table_owner<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<TableOwner>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT table_id, node_id, incarnation, node_id AS previous FROM table_owners \
                 WHERE table_id = $1",
            )
            .bind(table)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(owner_row).transpose()
        })
    }

    fn tables_of<'a>(&'a self, node: &'a str) -> StoreFuture<'a, Vec<TableOwner>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT table_id, node_id, incarnation, node_id AS previous FROM table_owners \
                 WHERE node_id = $1 ORDER BY table_id",
            )
            .bind(node)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(owner_row).collect()
        })
    }

    fn take_over<'a>(
        &'a self,
        node: &'a str,
        own: bool,
        limit: u32,
    ) -> StoreFuture<'a, Vec<TableOwner>> {
        Box::pin(async move {
            // Rows another node is taking over at this moment are skipped, not waited
            // for (PostgreSQL); SQLite has one writer at a time anyway.
            let lock = match self.backend {
                Backend::Postgres => " FOR UPDATE SKIP LOCKED",
                Backend::Sqlite => "",
            };
            // One transaction: the rows are chosen (and, on PostgreSQL, locked), then
            // given to `node`.
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let sql = format!(
                "SELECT o.table_id, o.node_id, o.incarnation FROM table_owners o \
                 WHERE (o.node_id <> $1 AND NOT EXISTS ( \
                          SELECT 1 FROM cluster_nodes n \
                          WHERE n.node_id = o.node_id AND n.alive_until >= {now})) \
                    OR (o.node_id = $1 AND $2 = 1) \
                 ORDER BY o.table_id LIMIT $3{lock}",
                now = self.backend.now_ms()
            );
            let rows = sqlx::query(&sql)
                .bind(node)
                .bind(i64::from(own))
                .bind(i64::from(limit))
                .fetch_all(&mut *tx)
                .await?;
            let mut owners = Vec::with_capacity(rows.len());
            for row in &rows {
                let before = TableOwner {
                    table: row.try_get("table_id")?,
                    node: row.try_get("node_id")?,
                    incarnation: row.try_get("incarnation")?,
                    previous: String::new(),
                };
                owners.push(TableOwner {
                    node: node.to_owned(),
                    incarnation: before.incarnation + 1,
                    previous: before.node,
                    table: before.table,
                });
            }
            // Each row changes hands only if it is still as it was read (the same
            // incarnation): a row another node took meanwhile stays that node's.
            let mut taken = std::collections::HashSet::new();
            for chunk in owners.chunks(250) {
                let places = (0..chunk.len())
                    .map(|i| {
                        let (t, n) = (2 * i + 2, 2 * i + 3);
                        format!("(CAST(${t} AS TEXT), CAST(${n} AS BIGINT))")
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let sql = format!(
                    "UPDATE table_owners SET node_id = $1, incarnation = incarnation + 1 \
                     WHERE (table_id, incarnation) IN (VALUES {places}) RETURNING table_id"
                );
                let mut query = sqlx::query(&sql).bind(node);
                for owner in chunk {
                    query = query.bind(owner.table.as_str()).bind(owner.incarnation - 1);
                }
                for row in query.fetch_all(&mut *tx).await? {
                    taken.insert(row.try_get::<String, _>("table_id")?);
                }
            }
            tx.commit().await?;
            owners.retain(|o| taken.contains(&o.table));
            Ok(owners)
        })
    }
}

fn owner_row(row: &AnyRow) -> StoreResult<TableOwner> {
    Ok(TableOwner {
        table: row.try_get("table_id")?,
        node: row.try_get("node_id")?,
        incarnation: row.try_get("incarnation")?,
        previous: row.try_get("previous")?,
    })
}
