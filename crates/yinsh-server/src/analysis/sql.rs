//! Analysis in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::store::{ANALYSIS_ATTEMPTS, AnalysisDone, AnalysisJob, AnalysisStore, JobState, Lease};
use crate::protocol::TableOptions;
use crate::store::base::{StoreError, StoreFuture, StoreResult};
use crate::store::sql::{Backend, SqlStore, count, like_escaped};
use crate::vocab::GameId;

pub(crate) const JOB_COLUMNS: &str = "game_id, state, requested_at, worker, lease_until, attempts, done, \
     total, engine, settings, result, finished_at";

pub(crate) fn job_row(row: &AnyRow) -> StoreResult<AnalysisJob> {
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

impl AnalysisStore for SqlStore {
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
}
