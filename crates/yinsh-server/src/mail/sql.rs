//! Mail in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::store::{MailAddress, MailStore, NewMail, NewToken, OutboxMail, Owner, Purpose};
use crate::notify::protocol::NoticeKind;
use crate::store::base::{StoreFuture, StoreResult};
use crate::store::sql::{SqlStore, count};
use crate::vocab::PlayerId;

/// The kind of mail the digest is, in `mail_kinds`' terms: it goes to those who have
/// "your turn" mailed.
const YOUR_TURN: &str = "your_turn";

async fn kinds_of<'e, E>(executor: E, player: PlayerId) -> StoreResult<Vec<NoticeKind>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query("SELECT kind FROM mail_kinds WHERE player_id = $1")
        .bind(player.0)
        .fetch_all(executor)
        .await?;
    let mut kinds = Vec::new();
    for row in rows {
        let name: String = row.try_get("kind")?;
        // A kind this version does not know (written by a newer one) is left alone.
        if let Some(kind) = NoticeKind::from_name(&name) {
            kinds.push(kind);
        }
    }
    kinds.sort_by_key(|k| NoticeKind::ALL.iter().position(|a| a == k));
    Ok(kinds)
}

/// Whether a mail to `player` of `kind` about `about` was kept since `since`.
async fn mailed(
    conn: &mut sqlx::AnyConnection,
    player: PlayerId,
    kind: &str,
    about: &str,
    since: i64,
) -> StoreResult<bool> {
    let recent = sqlx::query(
        "SELECT COUNT(*) AS n FROM mail_outbox WHERE player_id = $1 AND kind = $2 \
         AND about = $3 AND created_at >= $4",
    )
    .bind(player.0)
    .bind(kind)
    .bind(about)
    .bind(since)
    .fetch_one(&mut *conn)
    .await?;
    Ok(count(&recent, "n")? > 0)
}

/// `kinds` mailed to `player` (none of them chosen before).
async fn insert_kinds(
    conn: &mut sqlx::AnyConnection,
    player: PlayerId,
    kinds: &[NoticeKind],
) -> StoreResult<()> {
    for kind in kinds {
        sqlx::query("INSERT INTO mail_kinds (player_id, kind) VALUES ($1, $2)")
            .bind(player.0)
            .bind(kind.name())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

fn address_row(row: &AnyRow, kinds: Vec<NoticeKind>) -> StoreResult<MailAddress> {
    let verified: Option<i64> = row.try_get("verified_at")?;
    let digest: i64 = row.try_get("digest")?;
    Ok(MailAddress {
        address: row.try_get("address")?,
        lang: row.try_get("lang")?,
        verified: verified.is_some(),
        kinds,
        digest: digest != 0,
    })
}

async fn insert_token<'e, E>(executor: E, token: &NewToken<'_>) -> StoreResult<()>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO mail_tokens \
         (token_hash, player_id, purpose, address, kind, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(token.hash)
    .bind(token.player.0)
    .bind(token.purpose.name())
    .bind(token.address)
    .bind(token.kind.map(|k| k.name()))
    .bind(token.at)
    .bind(token.expires_at)
    .execute(executor)
    .await?;
    Ok(())
}

/// The working link of `purpose` that hashes to `hash`: its player, address and kind.
async fn working_token<'e, E>(
    executor: E,
    hash: &str,
    purpose: Purpose,
    now: i64,
) -> StoreResult<Option<(PlayerId, String, Option<String>)>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT player_id, address, kind FROM mail_tokens \
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL \
         AND (expires_at IS NULL OR expires_at > $3)",
    )
    .bind(hash)
    .bind(purpose.name())
    .bind(now)
    .fetch_optional(executor)
    .await?;
    row.map(|row| {
        Ok((
            PlayerId(row.try_get("player_id")?),
            row.try_get("address")?,
            row.try_get("kind")?,
        ))
    })
    .transpose()
}

fn outbox_row(row: &AnyRow) -> StoreResult<OutboxMail> {
    let player: Option<i64> = row.try_get("player_id")?;
    let attempts: i64 = row.try_get("attempts")?;
    Ok(OutboxMail {
        id: row.try_get("id")?,
        attempts: attempts.clamp(0, i64::from(u32::MAX)) as u32,
        mail: NewMail {
            dedupe: row.try_get("dedupe")?,
            player: player.map(PlayerId),
            address: row.try_get("address")?,
            kind: row.try_get("kind")?,
            about: row.try_get("about")?,
            subject: row.try_get("subject")?,
            text: row.try_get("text_body")?,
            html: row.try_get("html_body")?,
            unsubscribe: row.try_get("unsubscribe")?,
        },
    })
}

const OUTBOX_COLUMNS: &str = "id, dedupe, player_id, address, kind, about, subject, text_body, \
                              html_body, unsubscribe, attempts";

impl MailStore for SqlStore {
    fn mail_address(&self, player: PlayerId) -> StoreFuture<'_, Option<MailAddress>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT address, lang, verified_at, digest FROM mail_addresses \
                 WHERE player_id = $1",
            )
            .bind(player.0)
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let kinds = kinds_of(&self.pool, player).await?;
            address_row(&row, kinds).map(Some)
        })
    }

    fn set_mail_address<'a>(
        &'a self,
        player: PlayerId,
        address: &'a str,
        lang: &'a str,
        token: &'a NewToken<'a>,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let row =
                sqlx::query("SELECT address, verified_at FROM mail_addresses WHERE player_id = $1")
                    .bind(player.0)
                    .fetch_optional(&mut *tx)
                    .await?;
            let verified_already = match &row {
                Some(row) => {
                    let old: String = row.try_get("address")?;
                    let verified: Option<i64> = row.try_get("verified_at")?;
                    verified.is_some() && old.eq_ignore_ascii_case(address)
                }
                None => false,
            };
            if verified_already {
                sqlx::query("UPDATE mail_addresses SET lang = $1 WHERE player_id = $2")
                    .bind(lang)
                    .bind(player.0)
                    .execute(&mut *tx)
                    .await?;
            } else {
                // A new address waits for its verification; what is mailed stays.
                if row.is_some() {
                    sqlx::query(
                        "UPDATE mail_addresses SET address = $1, lang = $2, verified_at = NULL \
                         WHERE player_id = $3",
                    )
                    .bind(address)
                    .bind(lang)
                    .bind(player.0)
                    .execute(&mut *tx)
                    .await?;
                } else {
                    sqlx::query(
                        "INSERT INTO mail_addresses (player_id, address, lang) VALUES ($1, $2, $3)",
                    )
                    .bind(player.0)
                    .bind(address)
                    .bind(lang)
                    .execute(&mut *tx)
                    .await?;
                }
                // The links sent to the old address stop working.
                sqlx::query(
                    "UPDATE mail_tokens SET used_at = $1 WHERE player_id = $2 \
                     AND purpose = 'verify' AND used_at IS NULL",
                )
                .bind(token.at)
                .bind(player.0)
                .execute(&mut *tx)
                .await?;
                insert_token(&mut *tx, token).await?;
            }
            tx.commit().await?;
            Ok(!verified_already)
        })
    }

    fn remove_mail_address(&self, player: PlayerId) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            for statement in [
                "DELETE FROM mail_addresses WHERE player_id = $1",
                "DELETE FROM mail_kinds WHERE player_id = $1",
                "DELETE FROM mail_tokens WHERE player_id = $1",
            ] {
                sqlx::query(statement)
                    .bind(player.0)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn set_mail_settings<'a>(
        &'a self,
        player: PlayerId,
        kinds: &'a [NoticeKind],
        digest: bool,
        lang: &'a str,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let changed = sqlx::query(
                "UPDATE mail_addresses SET digest = $1, lang = $2 WHERE player_id = $3",
            )
            .bind(i64::from(digest))
            .bind(lang)
            .bind(player.0)
            .execute(&mut *tx)
            .await?;
            if changed.rows_affected() == 0 {
                return Ok(false);
            }
            sqlx::query("DELETE FROM mail_kinds WHERE player_id = $1")
                .bind(player.0)
                .execute(&mut *tx)
                .await?;
            insert_kinds(&mut tx, player, kinds).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    fn add_mail_token<'a>(&'a self, token: &'a NewToken<'a>) -> StoreFuture<'a, ()> {
        Box::pin(async move { insert_token(&self.pool, token).await })
    }

    fn mail_tokens_since<'a>(
        &'a self,
        player: Option<PlayerId>,
        address: &'a str,
        purpose: Purpose,
        since: i64,
    ) -> StoreFuture<'a, u32> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT COUNT(*) AS n FROM mail_tokens WHERE purpose = $1 AND created_at >= $2 \
                 AND (player_id = $3 OR LOWER(address) = LOWER($4))",
            )
            .bind(purpose.name())
            .bind(since)
            .bind(player.map_or(-1, |p| p.0))
            .bind(address)
            .fetch_one(&self.pool)
            .await?;
            count(&row, "n")
        })
    }

    fn mail_token<'a>(
        &'a self,
        hash: &'a str,
        purpose: Purpose,
        now: i64,
    ) -> StoreFuture<'a, Option<PlayerId>> {
        Box::pin(async move {
            Ok(working_token(&self.pool, hash, purpose, now)
                .await?
                .map(|(player, _, _)| player))
        })
    }

    fn verify_mail<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
        defaults: &'a [NoticeKind],
    ) -> StoreFuture<'a, Option<String>> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let Some((player, address, _)) =
                working_token(&mut *tx, hash, Purpose::Verify, now).await?
            else {
                return Ok(None);
            };
            let verified = sqlx::query(
                "UPDATE mail_addresses SET verified_at = COALESCE(verified_at, $1) \
                 WHERE player_id = $2 AND LOWER(address) = LOWER($3)",
            )
            .bind(now)
            .bind(player.0)
            .bind(&address)
            .execute(&mut *tx)
            .await?;
            if verified.rows_affected() == 0 {
                return Ok(None);
            }
            let chosen = sqlx::query("SELECT COUNT(*) AS n FROM mail_kinds WHERE player_id = $1")
                .bind(player.0)
                .fetch_one(&mut *tx)
                .await?;
            if count(&chosen, "n")? == 0 {
                insert_kinds(&mut tx, player, defaults).await?;
            }
            tx.commit().await?;
            Ok(Some(address))
        })
    }

    fn reset_password<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
        password: &'a str,
    ) -> StoreFuture<'a, Option<PlayerId>> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            // Used in the same statement that finds it: of two uses at once, one works.
            let used = sqlx::query(
                "UPDATE mail_tokens SET used_at = $1 WHERE token_hash = $2 AND purpose = 'reset' \
                 AND used_at IS NULL AND expires_at > $1 RETURNING player_id",
            )
            .bind(now)
            .bind(hash)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = used else { return Ok(None) };
            let player = PlayerId(row.try_get("player_id")?);
            sqlx::query(
                "UPDATE players SET password_hash = $1 WHERE id = $2 AND password_hash IS NOT NULL",
            )
            .bind(password)
            .bind(player.0)
            .execute(&mut *tx)
            .await?;
            // Every other reset link of theirs stops working too.
            sqlx::query(
                "UPDATE mail_tokens SET used_at = $1 WHERE player_id = $2 AND purpose = 'reset' \
                 AND used_at IS NULL",
            )
            .bind(now)
            .bind(player.0)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Some(player))
        })
    }

    fn unsubscribe<'a>(&'a self, hash: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let Some((player, _, kind)) =
                working_token(&mut *tx, hash, Purpose::Unsubscribe, i64::MIN).await?
            else {
                return Ok(false);
            };
            match kind {
                Some(kind) => {
                    sqlx::query("DELETE FROM mail_kinds WHERE player_id = $1 AND kind = $2")
                        .bind(player.0)
                        .bind(&kind)
                        .execute(&mut *tx)
                        .await?;
                }
                None => {
                    sqlx::query("DELETE FROM mail_kinds WHERE player_id = $1")
                        .bind(player.0)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("UPDATE mail_addresses SET digest = 0 WHERE player_id = $1")
                        .bind(player.0)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    fn verified_owner<'a>(&'a self, address: &'a str) -> StoreFuture<'a, Option<Owner>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT a.player_id, p.name, a.address, a.lang FROM mail_addresses a \
                 JOIN players p ON p.id = a.player_id \
                 WHERE LOWER(a.address) = LOWER($1) AND a.verified_at IS NOT NULL \
                 AND p.password_hash IS NOT NULL ORDER BY a.verified_at LIMIT 1",
            )
            .bind(address)
            .fetch_optional(&self.pool)
            .await?;
            row.map(|row| {
                Ok(Owner {
                    player: PlayerId(row.try_get("player_id")?),
                    name: row.try_get("name")?,
                    address: row.try_get("address")?,
                    lang: row.try_get("lang")?,
                })
            })
            .transpose()
        })
    }

    fn mailed_since<'a>(
        &'a self,
        player: PlayerId,
        kind: &'a str,
        about: &'a str,
        since: i64,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut conn = self.pool.acquire().await?;
            mailed(&mut conn, player, kind, about, since).await
        })
    }

    fn enqueue_mail<'a>(
        &'a self,
        mail: &'a NewMail,
        now: i64,
        quiet_since: Option<i64>,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            if let (Some(since), Some(player)) = (quiet_since, mail.player)
                && mailed(&mut tx, player, &mail.kind, &mail.about, since).await?
            {
                return Ok(false);
            }
            if let Some(dedupe) = &mail.dedupe {
                let taken = sqlx::query("SELECT 1 AS taken FROM mail_outbox WHERE dedupe = $1")
                    .bind(dedupe)
                    .fetch_optional(&mut *tx)
                    .await?;
                if taken.is_some() {
                    return Ok(false);
                }
            }
            sqlx::query(
                "INSERT INTO mail_outbox (dedupe, player_id, address, kind, about, subject, \
                 text_body, html_body, unsubscribe, created_at, next_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)",
            )
            .bind(&mail.dedupe)
            .bind(mail.player.map(|p| p.0))
            .bind(&mail.address)
            .bind(&mail.kind)
            .bind(&mail.about)
            .bind(&mail.subject)
            .bind(&mail.text)
            .bind(&mail.html)
            .bind(&mail.unsubscribe)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    fn claim_mail(&self, now: i64, until: i64, limit: u32) -> StoreFuture<'_, Vec<OutboxMail>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {OUTBOX_COLUMNS} FROM mail_outbox \
                 WHERE sent_at IS NULL AND failed_at IS NULL AND next_at <= $1 \
                 AND (claimed_until IS NULL OR claimed_until <= $1) \
                 ORDER BY next_at, id LIMIT $2"
            ))
            .bind(now)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            let mut claimed = Vec::with_capacity(rows.len());
            for row in &rows {
                let mail = outbox_row(row)?;
                // Claimed only if no other sender claimed it meanwhile.
                let done = sqlx::query(
                    "UPDATE mail_outbox SET claimed_until = $1 WHERE id = $2 \
                     AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $3)",
                )
                .bind(until)
                .bind(mail.id)
                .bind(now)
                .execute(&self.pool)
                .await?;
                if done.rows_affected() == 1 {
                    claimed.push(mail);
                }
            }
            Ok(claimed)
        })
    }

    fn mail_sent(&self, id: i64, at: i64) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            sqlx::query(
                "UPDATE mail_outbox SET sent_at = $1, attempts = attempts + 1, \
                 claimed_until = NULL WHERE id = $2",
            )
            .bind(at)
            .bind(id)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn mail_not_sent<'a>(
        &'a self,
        id: i64,
        now: i64,
        next_at: Option<i64>,
        error: &'a str,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let query = match next_at {
                Some(next) => sqlx::query(
                    "UPDATE mail_outbox SET attempts = attempts + 1, next_at = $1, \
                     claimed_until = NULL, last_error = $2 WHERE id = $3",
                )
                .bind(next),
                None => sqlx::query(
                    "UPDATE mail_outbox SET attempts = attempts + 1, failed_at = $1, \
                     claimed_until = NULL, last_error = $2 WHERE id = $3",
                )
                .bind(now),
            };
            query.bind(error).bind(id).execute(&self.pool).await?;
            Ok(())
        })
    }

    fn next_mail_due(&self) -> StoreFuture<'_, Option<i64>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT MIN(COALESCE(claimed_until, next_at)) AS due FROM mail_outbox \
                 WHERE sent_at IS NULL AND failed_at IS NULL",
            )
            .fetch_one(&self.pool)
            .await?;
            Ok(row.try_get("due")?)
        })
    }

    fn digests_due(&self, since: i64) -> StoreFuture<'_, Vec<(PlayerId, MailAddress)>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT a.player_id, a.address, a.lang, a.verified_at, a.digest \
                 FROM mail_addresses a JOIN mail_kinds k \
                 ON k.player_id = a.player_id AND k.kind = $1 \
                 WHERE a.digest <> 0 AND a.verified_at IS NOT NULL \
                 AND (a.last_digest_at IS NULL OR a.last_digest_at < $2) \
                 ORDER BY a.player_id",
            )
            .bind(YOUR_TURN)
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
            let mut due = Vec::with_capacity(rows.len());
            for row in &rows {
                let player = PlayerId(row.try_get("player_id")?);
                let kinds = kinds_of(&self.pool, player).await?;
                due.push((player, address_row(row, kinds)?));
            }
            Ok(due)
        })
    }

    fn digest_done(&self, player: PlayerId, at: i64) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE mail_addresses SET last_digest_at = $1 WHERE player_id = $2")
                .bind(at)
                .bind(player.0)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }
}
