//! Rating in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::store::{CategoryRating, Rated, RatingChange, RatingPoint, RatingStore, Tally};
use yinsh::ByColor;

use super::{RatedSeat, Rating, RatingCategory, Score, apply, rated_in};
use crate::account::sql::player_row;
use crate::account::store::Player;
use crate::game::sql::finish;
use crate::game::store::StoredResult;
use crate::protocol::TableOptions;
use crate::store::base::{StoreError, StoreFuture, StoreResult};
use crate::store::sql::{Backend, SqlStore, Tx, count};
use crate::vocab::{GameId, PlayerId};

/// The category of a row, a stored name.
fn category_of(row: &AnyRow) -> StoreResult<RatingCategory> {
    let name: String = row.try_get("category")?;
    RatingCategory::from_name(&name)
        .ok_or_else(|| StoreError::corrupt(format!("an unknown rating category '{name}'")))
}

pub(crate) fn category_rating(row: &AnyRow) -> StoreResult<CategoryRating> {
    Ok(CategoryRating {
        category: category_of(row)?,
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

pub(crate) const RATING_COLUMNS: &str =
    "category, rating, deviation, volatility, games, wins, draws, losses, last_game_at";

impl SqlStore {
    /// Finishes `game` with `result` in `tx` and, when it is a rated game between two
    /// accounts finished now (not before: a retry), rates both players. Which games
    /// rate and what a result does to the records are [`crate::rating`]'s rules
    /// ([`rated_in`], [`apply`]); here they are read and written.
    pub(crate) async fn finish_and_rate(
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
             (SELECT COUNT(*) FROM players p WHERE p.id = g.white_id \
              AND p.password_hash IS NOT NULL) AS white_registered, \
             (SELECT COUNT(*) FROM players p WHERE p.id = g.black_id \
              AND p.password_hash IS NOT NULL) AS black_registered \
             FROM games g WHERE g.id = $1",
        )
        .bind(game)
        .fetch_one(&mut **tx)
        .await?;
        let options: String = row.try_get("options")?;
        let options: TableOptions = serde_json::from_str(&options).map_err(|e| {
            StoreError::corrupt(format!("stored table options are unreadable: {e}"))
        })?;
        let seat = |color: &str| -> StoreResult<RatedSeat> {
            let player: Option<i64> = row.try_get(format!("{color}_id").as_str())?;
            Ok(RatedSeat {
                player: player.map(PlayerId),
                registered: count(&row, &format!("{color}_registered"))? > 0,
            })
        };
        let Some((category, players)) = rated_in(&options, seat("white")?, seat("black")?) else {
            return Ok(None);
        };
        let (white, black) = (players.white.0, players.black.0);
        // Locked in the order of their ids, so that two games ending at once for the
        // same players wait for each other instead of deadlocking.
        let (first, second) = (white.min(black), white.max(black));
        let a = self.lock_rating(tx, first, category).await?;
        let b = self.lock_rating(tx, second, category).await?;
        let before = if first == white {
            ByColor { white: a, black: b }
        } else {
            ByColor { white: b, black: a }
        };
        let score = Score::of_winner(result.winner.as_deref());
        let after = apply(&before.white, &before.black, score, result.finished_at);
        let change = |player: i64, before: &CategoryRating, after: &CategoryRating| RatingChange {
            player: PlayerId(player),
            category,
            before: before.rating.rating,
            after: after.rating.rating,
            deviation: after.rating.deviation,
        };
        let changes = ByColor {
            white: change(white, &before.white, &after.white),
            black: change(black, &before.black, &after.black),
        };
        for (color, change, after) in [
            ("white", &changes.white, &after.white),
            ("black", &changes.black, &after.black),
        ] {
            sqlx::query(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, \
                 games = $4, wins = $5, draws = $6, losses = $7, last_game_at = $8 \
                 WHERE player_id = $9 AND category = $10",
            )
            .bind(after.rating.rating)
            .bind(after.rating.deviation)
            .bind(after.rating.volatility)
            .bind(i64::from(after.rating.games))
            .bind(i64::from(after.wins))
            .bind(i64::from(after.draws))
            .bind(i64::from(after.losses))
            .bind(after.rating.last_game_ms)
            .bind(change.player.0)
            .bind(change.category.name())
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
            .bind(change.category.name())
            .bind(change.before)
            .bind(change.after)
            .bind(change.deviation)
            .bind(result.finished_at)
            .execute(&mut **tx)
            .await?;
        }
        Ok(Some(changes))
    }

    /// The record of `player` in `category` (made if it is their first game there),
    /// locked until `tx` ends.
    pub(crate) async fn lock_rating(
        &self,
        tx: &mut Tx<'_>,
        player: i64,
        category: RatingCategory,
    ) -> StoreResult<CategoryRating> {
        let new = Rating::default();
        sqlx::query(
            "INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, \
             wins, draws, losses) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0) \
             ON CONFLICT (player_id, category) DO NOTHING",
        )
        .bind(player)
        .bind(category.name())
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
        .bind(category.name())
        .fetch_one(&mut **tx)
        .await?;
        category_rating(&row)
    }

    /// The rating changes stored with `game`'s result.
    pub(crate) async fn rating_changes(&self, tx: &mut Tx<'_>, game: i64) -> StoreResult<Rated> {
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
                category: category_of(row)?,
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

impl RatingStore for SqlStore {
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
                        category: category_of(r)?,
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
        category: RatingCategory,
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
            .bind(category.name())
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
}
