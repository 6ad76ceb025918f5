//! Tournaments in SQLite and PostgreSQL: the SQL store's part for them.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::store::{
    ArenaSettings, Ending, GameEnd, Joined, Status, StoredArena, StoredEntrant, StoredPairing,
    TournamentStore, Unheard,
};
use crate::store::base::{StoreError, StoreFuture, StoreResult};
use crate::store::sql::{SqlStore, count};
use crate::vocab::{GameId, PlayerId};

const ARENA: &str =
    "id, name, created_by, creator, settings, starts_at, ends_at, status, created_at";
const ENTRANT: &str = "player_id, name, bot, rating, joined_at, paused";
const PAIRING: &str = "table_id, white_id, black_id, started_at, game_id, winner, turns, \
                       white_berserk, black_berserk, ended_at";

fn arena_row(row: &AnyRow) -> StoreResult<StoredArena> {
    let settings: String = row.try_get("settings")?;
    let settings: ArenaSettings = serde_json::from_str(&settings)
        .map_err(|e| StoreError::corrupt(format!("a stored arena's settings: {e}")))?;
    let status: String = row.try_get("status")?;
    let status = Status::parse(&status)
        .ok_or_else(|| StoreError::corrupt(format!("a stored arena's status: {status}")))?;
    let created_by: Option<i64> = row.try_get("created_by")?;
    let creator: Option<String> = row.try_get("creator")?;
    Ok(StoredArena {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        created_by: created_by.map(PlayerId).zip(creator),
        settings,
        starts_at: row.try_get("starts_at")?,
        ends_at: row.try_get("ends_at")?,
        status,
        created_at: row.try_get("created_at")?,
    })
}

fn entrant_row(row: &AnyRow) -> StoreResult<StoredEntrant> {
    let flag = |name: &str| -> StoreResult<bool> { Ok(row.try_get::<i64, _>(name)? != 0) };
    Ok(StoredEntrant {
        player: PlayerId(row.try_get("player_id")?),
        name: row.try_get("name")?,
        bot: flag("bot")?,
        rating: row.try_get("rating")?,
        joined_at: row.try_get("joined_at")?,
        paused: flag("paused")?,
    })
}

fn pairing_row(row: &AnyRow) -> StoreResult<StoredPairing> {
    let winner: Option<String> = row.try_get("winner")?;
    let end = match winner {
        None => None,
        Some(text) => {
            let ending = Ending::parse(&text)
                .ok_or_else(|| StoreError::corrupt(format!("a tournament game's end: {text}")))?;
            let game: Option<i64> = row.try_get("game_id")?;
            let turns: Option<i64> = row.try_get("turns")?;
            let ended_at: Option<i64> = row.try_get("ended_at")?;
            let flag = |name: &str| -> StoreResult<bool> { Ok(row.try_get::<i64, _>(name)? != 0) };
            Some(GameEnd {
                game: game.map(GameId),
                ending,
                turns: turns.unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32,
                berserk: yinsh::ByColor {
                    white: flag("white_berserk")?,
                    black: flag("black_berserk")?,
                },
                ended_at: ended_at.unwrap_or(0),
            })
        }
    };
    Ok(StoredPairing {
        table: row.try_get("table_id")?,
        white: PlayerId(row.try_get("white_id")?),
        black: PlayerId(row.try_get("black_id")?),
        started_at: row.try_get("started_at")?,
        end,
    })
}

impl TournamentStore for SqlStore {
    fn create_arena<'a>(&'a self, arena: &'a StoredArena, limit: u32) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let settings = serde_json::to_string(&arena.settings)
                .map_err(|e| StoreError::corrupt(format!("an arena's settings: {e}")))?;
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            if let Some((creator, _)) = &arena.created_by {
                let row = sqlx::query(
                    "SELECT COUNT(*) AS n FROM tournaments \
                     WHERE created_by = $1 AND status <> 'finished'",
                )
                .bind(creator.0)
                .fetch_one(&mut *tx)
                .await?;
                if count(&row, "n")? >= limit {
                    return Ok(false);
                }
            }
            // A scheduled arena made twice (a restart, two nodes) is made once.
            let done = sqlx::query(&format!(
                "INSERT INTO tournaments (system, {ARENA}) \
                 VALUES ('arena', $1, $2, $3, $4, $5, $6, $7, $8, $9) \
                 ON CONFLICT (id) DO NOTHING"
            ))
            .bind(&arena.id)
            .bind(&arena.name)
            .bind(arena.created_by.as_ref().map(|(p, _)| p.0))
            .bind(arena.created_by.as_ref().map(|(_, name)| name.clone()))
            .bind(settings)
            .bind(arena.starts_at)
            .bind(arena.ends_at)
            .bind(arena.status.as_str())
            .bind(arena.created_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(done.rows_affected() > 0)
        })
    }

    fn arena<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredArena>> {
        Box::pin(async move {
            let row = sqlx::query(&format!(
                "SELECT {ARENA} FROM tournaments WHERE id = $1 AND system = 'arena'"
            ))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(arena_row).transpose()
        })
    }

    fn arenas(&self, finished: u32) -> StoreFuture<'_, Vec<StoredArena>> {
        Box::pin(async move {
            let open = sqlx::query(&format!(
                "SELECT {ARENA} FROM tournaments \
                 WHERE system = 'arena' AND status <> 'finished' ORDER BY starts_at, id"
            ))
            .fetch_all(&self.pool)
            .await?;
            let done = sqlx::query(&format!(
                "SELECT {ARENA} FROM tournaments \
                 WHERE system = 'arena' AND status = 'finished' \
                 ORDER BY ends_at DESC, id LIMIT $1"
            ))
            .bind(i64::from(finished))
            .fetch_all(&self.pool)
            .await?;
            open.iter().chain(&done).map(arena_row).collect()
        })
    }

    fn set_status<'a>(&'a self, id: &'a str, status: Status) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE tournaments SET status = $2 WHERE id = $1")
                .bind(id)
                .bind(status.as_str())
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn join<'a>(&'a self, id: &'a str, entrant: &'a StoredEntrant) -> StoreFuture<'a, Joined> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let row = sqlx::query(
                "SELECT paused FROM tournament_players WHERE tournament_id = $1 AND player_id = $2",
            )
            .bind(id)
            .bind(entrant.player.0)
            .fetch_optional(&mut *tx)
            .await?;
            let joined = match row {
                Some(row) if row.try_get::<i64, _>("paused")? == 0 => Joined::Already,
                Some(_) => {
                    sqlx::query(
                        "UPDATE tournament_players SET paused = 0 \
                         WHERE tournament_id = $1 AND player_id = $2",
                    )
                    .bind(id)
                    .bind(entrant.player.0)
                    .execute(&mut *tx)
                    .await?;
                    Joined::Back
                }
                None => {
                    sqlx::query(&format!(
                        "INSERT INTO tournament_players (tournament_id, {ENTRANT}) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7)"
                    ))
                    .bind(id)
                    .bind(entrant.player.0)
                    .bind(&entrant.name)
                    .bind(i64::from(entrant.bot))
                    .bind(entrant.rating)
                    .bind(entrant.joined_at)
                    .bind(i64::from(entrant.paused))
                    .execute(&mut *tx)
                    .await?;
                    Joined::Joined
                }
            };
            tx.commit().await?;
            Ok(joined)
        })
    }

    fn leave<'a>(&'a self, id: &'a str, player: PlayerId) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let done = sqlx::query(
                "DELETE FROM tournament_players WHERE tournament_id = $1 AND player_id = $2",
            )
            .bind(id)
            .bind(player.0)
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    fn pause<'a>(&'a self, id: &'a str, player: PlayerId, paused: bool) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let done = sqlx::query(
                "UPDATE tournament_players SET paused = $3 \
                 WHERE tournament_id = $1 AND player_id = $2",
            )
            .bind(id)
            .bind(player.0)
            .bind(i64::from(paused))
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    fn entrants<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredEntrant>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {ENTRANT} FROM tournament_players WHERE tournament_id = $1 \
                 ORDER BY joined_at, player_id"
            ))
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(entrant_row).collect()
        })
    }

    fn add_pairing<'a>(&'a self, id: &'a str, pairing: &'a StoredPairing) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            for player in [pairing.white, pairing.black] {
                let seated = sqlx::query(
                    "INSERT INTO tournament_seats (tournament_id, player_id, table_id) \
                     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                )
                .bind(id)
                .bind(player.0)
                .bind(&pairing.table)
                .execute(&mut *tx)
                .await?;
                if seated.rows_affected() == 0 {
                    // Playing already: nothing is kept (the transaction rolls back).
                    return Ok(false);
                }
            }
            sqlx::query(
                "INSERT INTO tournament_games \
                 (tournament_id, table_id, white_id, black_id, started_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(&pairing.table)
            .bind(pairing.white.0)
            .bind(pairing.black.0)
            .bind(pairing.started_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    fn end_pairing<'a>(
        &'a self,
        id: &'a str,
        table: &'a str,
        end: GameEnd,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let done = sqlx::query(
                "UPDATE tournament_games SET game_id = $3, winner = $4, turns = $5, \
                 white_berserk = $6, black_berserk = $7, ended_at = $8 \
                 WHERE tournament_id = $1 AND table_id = $2 AND winner IS NULL",
            )
            .bind(id)
            .bind(table)
            .bind(end.game.map(|g| g.0))
            .bind(end.ending.as_str())
            .bind(i64::from(end.turns))
            .bind(i64::from(end.berserk.white))
            .bind(i64::from(end.berserk.black))
            .bind(end.ended_at)
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM tournament_seats WHERE tournament_id = $1 AND table_id = $2")
                .bind(id)
                .bind(table)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(done.rows_affected() > 0)
        })
    }

    fn pairings<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Vec<StoredPairing>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {PAIRING} FROM tournament_games WHERE tournament_id = $1 \
                 ORDER BY CASE WHEN ended_at IS NULL THEN 1 ELSE 0 END, ended_at, started_at, \
                 table_id"
            ))
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(pairing_row).collect()
        })
    }

    fn unheard<'a>(&'a self, id: &'a str, paired_before: i64) -> StoreFuture<'a, Vec<Unheard>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT t.table_id, t.started_at, g.id AS game_id, g.finished_at \
                 FROM tournament_games t LEFT JOIN games g ON g.table_id = t.table_id \
                 WHERE t.tournament_id = $1 AND t.winner IS NULL AND t.started_at <= $2 \
                 ORDER BY t.started_at, t.table_id",
            )
            .bind(id)
            .bind(paired_before)
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|row| {
                    let game: Option<i64> = row.try_get("game_id")?;
                    let finished: Option<i64> = row.try_get("finished_at")?;
                    Ok(Unheard {
                        table: row.try_get("table_id")?,
                        started_at: row.try_get("started_at")?,
                        game: game.map(|g| (GameId(g), finished.is_some())),
                    })
                })
                .collect()
        })
    }
}
