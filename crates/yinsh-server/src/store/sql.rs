//! The SQL store: one pool over SQLite or PostgreSQL through sqlx's `Any` driver, the
//! same queries for both (numbered `$n` parameters, which both accept), one migrations
//! folder per backend. Each domain implements its store trait for [`SqlStore`] in its
//! own `sql.rs`; what they share is here.

use sqlx::any::{AnyPoolOptions, AnyRow};
use std::sync::Arc;

use sqlx::{AnyPool, Executor, Row};

use super::base::{Database, StoreError, StoreFuture, StoreResult};
use super::batch::Batcher;
use super::wal::WalPolicy;
use crate::cluster::store::Fence;

/// The SQL store. Cheap to clone (a connection pool).
#[derive(Debug, Clone)]
pub struct SqlStore {
    pub(crate) pool: AnyPool,
    pub(crate) backend: Backend,
    /// The queue of actions stored together ([`super::batch`]).
    pub(crate) batcher: Batcher,
    /// Held while the store lives: its background tasks end when it is gone.
    _alive: Arc<()>,
}

/// Which database a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Backend {
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
    pub(crate) fn begin(self) -> &'static str {
        match self {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        }
    }

    /// What a fenced write appends to its read of the owner row: on PostgreSQL a lock
    /// that makes a takeover of the table wait until the write's transaction ends;
    /// SQLite's writers take turns anyway.
    pub(crate) fn share_lock(self) -> &'static str {
        match self {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR SHARE",
        }
    }

    /// The database's clock in milliseconds since 1970, as SQL: leases are judged by
    /// one clock, whatever the nodes' clocks say.
    pub(crate) fn now_ms(self) -> &'static str {
        match self {
            Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
            Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }
}

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

pub(crate) fn millis(v: Option<i64>) -> Option<u64> {
    v.map(|v| v.max(0) as u64)
}

pub(crate) type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

pub(crate) type Tx<'t> = sqlx::Transaction<'t, sqlx::Any>;

pub(crate) fn count(row: &AnyRow, column: &str) -> StoreResult<u32> {
    let n: i64 = row.try_get(column)?;
    Ok(n.clamp(0, i64::from(u32::MAX)) as u32)
}

/// Refuses the transaction `tx` unless `fence` holds: called after its first write, so
/// that on SQLite it holds the write lock (nobody can change the owner row before it
/// commits) and on PostgreSQL the row is locked against a takeover until it commits.
pub(crate) async fn check_fence(
    tx: &mut Tx<'_>,
    fence: Option<&Fence>,
    lock: &str,
) -> StoreResult<()> {
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
        None => Err(fence.moved()),
    }
}

impl Database for SqlStore {
    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            sqlx::query("SELECT 1").execute(&self.pool).await?;
            Ok(())
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
}

/// `text` with LIKE's `%`, `_` and the escape `\` escaped.
pub(crate) fn like_escaped(text: &str) -> String {
    let mut p = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p
}
