//! The correspondence seek list in SQLite and PostgreSQL: the SQL store's part for the
//! meeting place.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::store::{SeekStore, StoredSeek};
use crate::account::store::Player;
use crate::store::base::{StoreError, StoreFuture, StoreResult};
use crate::store::sql::{SqlStore, count};
use crate::vocab::PlayerId;

const COLUMNS: &str =
    "id, player_id, player_name, player_bot, rating, provisional, options, bots, created_at";

fn seek_row(row: &AnyRow) -> StoreResult<StoredSeek> {
    let options: String = row.try_get("options")?;
    let options = serde_json::from_str(&options)
        .map_err(|e| StoreError::corrupt(format!("a stored seek's options: {e}")))?;
    let flag = |name: &str| -> StoreResult<bool> { Ok(row.try_get::<i64, _>(name)? != 0) };
    let rating: Option<i64> = row.try_get("rating")?;
    Ok(StoredSeek {
        id: row.try_get("id")?,
        player: Player {
            id: PlayerId(row.try_get("player_id")?),
            name: row.try_get("player_name")?,
            bot: flag("player_bot")?,
        },
        rating: rating.map(|r| r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32),
        provisional: flag("provisional")?,
        options,
        bots: flag("bots")?,
        created_at: row.try_get("created_at")?,
    })
}

impl SeekStore for SqlStore {
    fn add_seek<'a>(&'a self, seek: &'a StoredSeek, limit: u32) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let options = serde_json::to_string(&seek.options)
                .map_err(|e| StoreError::corrupt(format!("a seek's options: {e}")))?;
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let row =
                sqlx::query("SELECT COUNT(*) AS n FROM correspondence_seeks WHERE player_id = $1")
                    .bind(seek.player.id.0)
                    .fetch_one(&mut *tx)
                    .await?;
            if count(&row, "n")? >= limit {
                return Ok(false);
            }
            sqlx::query(&format!(
                "INSERT INTO correspondence_seeks ({COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
            ))
            .bind(&seek.id)
            .bind(seek.player.id.0)
            .bind(&seek.player.name)
            .bind(i64::from(seek.player.bot))
            .bind(seek.rating.map(i64::from))
            .bind(i64::from(seek.provisional))
            .bind(&options)
            .bind(i64::from(seek.bots))
            .bind(seek.created_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    fn correspondence_seeks(&self) -> StoreFuture<'_, Vec<StoredSeek>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM correspondence_seeks ORDER BY created_at, id"
            ))
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(seek_row).collect()
        })
    }

    fn correspondence_seek<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredSeek>> {
        Box::pin(async move {
            let row = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM correspondence_seeks WHERE id = $1"
            ))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(seek_row).transpose()
        })
    }

    fn take_seek<'a>(
        &'a self,
        id: &'a str,
        taker: PlayerId,
    ) -> StoreFuture<'a, Option<StoredSeek>> {
        Box::pin(async move {
            // One statement: of two takers at once, one deletes the row, the other finds
            // it gone.
            let row = sqlx::query(&format!(
                "DELETE FROM correspondence_seeks WHERE id = $1 AND player_id <> $2 \
                 RETURNING {COLUMNS}"
            ))
            .bind(id)
            .bind(taker.0)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(seek_row).transpose()
        })
    }

    fn withdraw_seek<'a>(&'a self, id: &'a str, player: PlayerId) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let done =
                sqlx::query("DELETE FROM correspondence_seeks WHERE id = $1 AND player_id = $2")
                    .bind(id)
                    .bind(player.0)
                    .execute(&self.pool)
                    .await?;
            Ok(done.rows_affected() > 0)
        })
    }
}
