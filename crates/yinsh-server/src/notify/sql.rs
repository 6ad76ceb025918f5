//! Notifications in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::KEPT;
use super::protocol::{Notice, NoticeKind, NotificationList, NotificationView};
use super::store::NotificationStore;
use crate::store::base::{StoreError, StoreFuture, StoreResult};
use crate::store::sql::{SqlStore, count};
use crate::vocab::PlayerId;

/// The one channel kept so far: the site's inbox.
const SITE: &str = "site";

fn view(row: &AnyRow) -> StoreResult<NotificationView> {
    let body: String = row.try_get("body")?;
    let notice: Notice = serde_json::from_str(&body)
        .map_err(|e| StoreError::corrupt(format!("a stored notification is unreadable: {e}")))?;
    let read_at: Option<i64> = row.try_get("read_at")?;
    Ok(NotificationView {
        id: row.try_get("id")?,
        at: row.try_get("created_at")?,
        read: read_at.is_some(),
        notice,
    })
}

const UNREAD: &str =
    "SELECT COUNT(*) AS n FROM notifications WHERE player_id = $1 AND read_at IS NULL";

async fn unread<'e, E>(executor: E, player: PlayerId) -> StoreResult<u32>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(UNREAD)
        .bind(player.0)
        .fetch_one(executor)
        .await?;
    count(&row, "n")
}

impl NotificationStore for SqlStore {
    fn notify<'a>(
        &'a self,
        player: PlayerId,
        notice: &'a Notice,
        at: i64,
    ) -> StoreFuture<'a, Option<(NotificationView, u32)>> {
        Box::pin(async move {
            let kind = notice.kind().name();
            let about = notice.about();
            let body = serde_json::to_string(notice)
                .map_err(|e| StoreError::corrupt(format!("a notification: {e}")))?;
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let off = sqlx::query(
                "SELECT 1 AS off FROM notifications_off \
                 WHERE player_id = $1 AND kind = $2 AND channel = $3",
            )
            .bind(player.0)
            .bind(kind)
            .bind(SITE)
            .fetch_optional(&mut *tx)
            .await?;
            if off.is_some() {
                return Ok(None);
            }
            sqlx::query(
                "DELETE FROM notifications WHERE player_id = $1 AND kind = $2 AND about = $3 \
                 AND read_at IS NULL",
            )
            .bind(player.0)
            .bind(kind)
            .bind(&about)
            .execute(&mut *tx)
            .await?;
            let row = sqlx::query(
                "INSERT INTO notifications (player_id, kind, about, body, created_at) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(player.0)
            .bind(kind)
            .bind(&about)
            .bind(&body)
            .bind(at)
            .fetch_one(&mut *tx)
            .await?;
            let id: i64 = row.try_get("id")?;
            // The newest KEPT stay.
            sqlx::query(
                "DELETE FROM notifications WHERE player_id = $1 AND id <= \
                 (SELECT id FROM notifications WHERE player_id = $1 \
                 ORDER BY id DESC LIMIT 1 OFFSET $2)",
            )
            .bind(player.0)
            .bind(i64::from(KEPT))
            .execute(&mut *tx)
            .await?;
            let unread = unread(&mut *tx, player).await?;
            tx.commit().await?;
            let view = NotificationView {
                id,
                at,
                read: false,
                notice: notice.clone(),
            };
            Ok(Some((view, unread)))
        })
    }

    fn notifications(&self, player: PlayerId, limit: u32) -> StoreFuture<'_, NotificationList> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, created_at, read_at, body FROM notifications WHERE player_id = $1 \
                 ORDER BY id DESC LIMIT $2",
            )
            .bind(player.0)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            Ok(NotificationList {
                unread: unread(&self.pool, player).await?,
                notifications: rows.iter().map(view).collect::<StoreResult<_>>()?,
            })
        })
    }

    fn mark_read<'a>(
        &'a self,
        player: PlayerId,
        ids: Option<&'a [i64]>,
        at: i64,
    ) -> StoreFuture<'a, u32> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            match ids {
                None => {
                    sqlx::query(
                        "UPDATE notifications SET read_at = $1 \
                         WHERE player_id = $2 AND read_at IS NULL",
                    )
                    .bind(at)
                    .bind(player.0)
                    .execute(&mut *tx)
                    .await?;
                }
                Some(ids) => {
                    for id in ids {
                        sqlx::query(
                            "UPDATE notifications SET read_at = $1 \
                             WHERE player_id = $2 AND id = $3 AND read_at IS NULL",
                        )
                        .bind(at)
                        .bind(player.0)
                        .bind(*id)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
            }
            let unread = unread(&mut *tx, player).await?;
            tx.commit().await?;
            Ok(unread)
        })
    }

    fn mark_read_about<'a>(
        &'a self,
        player: PlayerId,
        kinds: &'a [NoticeKind],
        about: &'a str,
        at: i64,
    ) -> StoreFuture<'a, Option<u32>> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let mut marked = 0;
            for kind in kinds {
                marked += sqlx::query(
                    "UPDATE notifications SET read_at = $1 WHERE player_id = $2 \
                     AND kind = $3 AND about = $4 AND read_at IS NULL",
                )
                .bind(at)
                .bind(player.0)
                .bind(kind.name())
                .bind(about)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            }
            if marked == 0 {
                return Ok(None);
            }
            let unread = unread(&mut *tx, player).await?;
            tx.commit().await?;
            Ok(Some(unread))
        })
    }

    fn notices_off(&self, player: PlayerId) -> StoreFuture<'_, Vec<NoticeKind>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT kind FROM notifications_off WHERE player_id = $1 AND channel = $2",
            )
            .bind(player.0)
            .bind(SITE)
            .fetch_all(&self.pool)
            .await?;
            let mut off = Vec::new();
            for row in rows {
                let name: String = row.try_get("kind")?;
                // A kind this server no longer has is left out.
                off.extend(NoticeKind::from_name(&name));
            }
            off.sort();
            Ok(off)
        })
    }

    fn set_notices_off<'a>(
        &'a self,
        player: PlayerId,
        off: &'a [NoticeKind],
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            sqlx::query("DELETE FROM notifications_off WHERE player_id = $1 AND channel = $2")
                .bind(player.0)
                .bind(SITE)
                .execute(&mut *tx)
                .await?;
            let mut kinds: Vec<NoticeKind> = off.to_vec();
            kinds.sort();
            kinds.dedup();
            for kind in kinds {
                sqlx::query(
                    "INSERT INTO notifications_off (player_id, kind, channel) VALUES ($1, $2, $3)",
                )
                .bind(player.0)
                .bind(kind.name())
                .bind(SITE)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }
}
