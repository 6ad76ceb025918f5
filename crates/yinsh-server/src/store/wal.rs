//! SQLite's write-ahead log, kept small without making commits wait.
//!
//! By default SQLite checkpoints in the connection that commits: once the log passes
//! 1,000 pages, that commit also copies the log into the database file and syncs it, and
//! every table waiting for the store waits with it. Here a connection of its own
//! checkpoints in the background instead (`PASSIVE`: it never takes the write lock, so
//! commits go on meanwhile); once a checkpoint has copied the whole log, the next commit
//! starts the log again from its beginning, so the log holds about one interval's
//! writes. Should it still grow past a limit (a checkpoint that cannot keep up, a reader
//! holding an old snapshot), a `TRUNCATE` checkpoint empties it: commits wait for that
//! one, which is the price of a bounded file. `journal_size_limit` gives the space of a
//! log that grew back to the disk once it starts again, and the committing connection
//! keeps a far higher automatic checkpoint as a safety net, should this task be gone.

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor, Row};

use super::StoreResult;

/// How the log is kept small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalPolicy {
    /// A passive checkpoint this often, when something was written meanwhile.
    pub every: Duration,
    /// A log with more than this many bytes after a passive checkpoint is emptied.
    pub truncate_above: u64,
    /// The log file is cut back to this many bytes when it starts again
    /// (`journal_size_limit`).
    pub size_limit: u64,
    /// The committing connection checkpoints itself past this many pages
    /// (`wal_autocheckpoint`), which only happens when the background checkpoints stop.
    pub safety_pages: u32,
}

impl Default for WalPolicy {
    fn default() -> WalPolicy {
        WalPolicy {
            every: Duration::from_secs(1),
            truncate_above: 16 << 20,
            size_limit: 16 << 20,
            safety_pages: 32_768,
        }
    }
}

/// The pragmas of a committing connection under `policy`.
pub(super) fn pragmas(policy: &WalPolicy) -> [String; 2] {
    [
        format!("PRAGMA wal_autocheckpoint = {}", policy.safety_pages),
        format!("PRAGMA journal_size_limit = {}", policy.size_limit),
    ]
}

/// Checkpoints the database at `url` in the background under `policy` while `alive`
/// can be upgraded (the store holds it).
pub(super) async fn start(
    url: &str,
    policy: WalPolicy,
    alive: std::sync::Weak<()>,
) -> StoreResult<()> {
    let pool = AnyPoolOptions::new()
        .max_connections(1)
        .min_connections(0)
        .connect(url)
        .await?;
    let page_size: i64 = sqlx::query("PRAGMA page_size")
        .fetch_one(&pool)
        .await?
        .try_get(0)?;
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(policy.every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if alive.strong_count() == 0 {
                break;
            }
            // A log that holds nothing new costs this query only.
            match checkpoint(&pool, "PASSIVE").await {
                Ok(frames) if (frames * page_size) as u64 > policy.truncate_above => {
                    tracing::warn!(
                        "the SQLite log holds {frames} pages after a checkpoint: emptying it"
                    );
                    if let Err(e) = checkpoint(&pool, "TRUNCATE").await {
                        tracing::warn!("the SQLite log could not be emptied: {e}");
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("a SQLite checkpoint failed: {e}"),
            }
        }
        pool.close().await;
    });
    Ok(())
}

/// One checkpoint of `mode` (`PASSIVE`, `TRUNCATE`): the pages the log holds (copied
/// into the database or not).
pub(super) async fn checkpoint(pool: &AnyPool, mode: &str) -> StoreResult<i64> {
    let mut conn = pool.acquire().await?;
    let row = conn
        .fetch_one(format!("PRAGMA wal_checkpoint({mode})").as_str())
        .await?;
    Ok(row.try_get(1)?)
}
