//! Archive in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;

use super::store::{ArchiveList, ArchiveQuery, ArchiveStore};
use crate::game::sql::{GAME_COLUMNS, finish, game_row, insert_action};
use crate::game::store::{NewGame, StoredAction, StoredResult};
use crate::store::base::{StoreError, StoreFuture};
use crate::store::sql::{SqlStore, like_escaped};
use crate::vocab::GameId;

/// `text` as a LIKE pattern that matches it anywhere (lower case), with `\` escaping.
pub(crate) fn contains_pattern(text: &str) -> String {
    format!("%{}%", like_escaped(&text.to_lowercase()))
}

impl ArchiveStore for SqlStore {
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
}
