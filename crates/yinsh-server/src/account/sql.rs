//! Account in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::store::{
    AccountStore, NewAccount, Player, PlayerInfo, Registration, SessionRecord, SessionStore,
    TokenRecord, TokenStore,
};
use crate::store::base::{StoreFuture, StoreResult};
use crate::store::sql::SqlStore;
use crate::vocab::PlayerId;

/// A player from a row with `id`, `name` and `bot`.
pub(crate) fn player_row(row: &AnyRow) -> StoreResult<Player> {
    let bot: i64 = row.try_get("bot")?;
    Ok(Player {
        id: PlayerId(row.try_get("id")?),
        name: row.try_get("name")?,
        bot: bot != 0,
    })
}

pub(crate) fn token_record(row: &AnyRow) -> StoreResult<TokenRecord> {
    Ok(TokenRecord {
        id: row.try_get("id")?,
        player: PlayerId(row.try_get("player_id")?),
        name: row.try_get("name")?,
        scopes: row.try_get("scopes")?,
        created_at: row.try_get("created_at")?,
        last_used_at: row.try_get("last_used_at")?,
    })
}

impl SessionStore for SqlStore {
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
}

impl AccountStore for SqlStore {
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
}

impl TokenStore for SqlStore {
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
}
