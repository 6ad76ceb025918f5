//! Vacation, as pente.org has it: each account has [`HOURS_A_YEAR`] hours a year that
//! are spent by themselves, an hour at a time, when a correspondence game with days
//! per turn would otherwise be lost on time. The deadline of that turn moves on by the
//! hours spent; the player and the opponent see how many are left.
//!
//! The table decides when to spend (its clock fell); the store, in one transaction per
//! spending, grants what the year's balance allows and remembers it, so that a restart
//! or another node taking the table over lengthens the same turn by the same hours.

use std::time::Duration;

use sqlx::Row;
use yinsh::ByColor;

use crate::cluster::store::Fence;
use crate::store::base::{StoreFuture, StoreResult};
use crate::store::sql::{SqlStore, Tx, check_fence};
use crate::vocab::{GameId, PlayerId};

/// Vacation hours an account has each calendar year (UTC): 10 days.
pub const HOURS_A_YEAR: u32 = 240;

/// An hour, the unit vacation is spent in.
pub const HOUR: Duration = Duration::from_secs(3600);

/// The calendar year (UTC) of `ms` milliseconds since 1970.
pub fn year_of(ms: i64) -> i64 {
    yinsh::notation::date::civil_from_days(ms.div_euclid(86_400_000)).0
}

/// The hours of vacation that move a deadline passed `overdue` ago to after now: one
/// for a clock that has just fallen, more for one that fell while the server was down.
pub fn hours_for(overdue: Duration) -> u32 {
    let whole = overdue.as_secs() / HOUR.as_secs();
    u32::try_from(whole).unwrap_or(u32::MAX).saturating_add(1)
}

/// What the store answers to a spending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spent {
    /// The hours spent at this turn's action so far, this spending included.
    pub here: u32,
    /// The hours the player has left this year; `None` when they have no vacation (a
    /// guest, a bot account).
    pub left: Option<u32>,
}

/// What a game's table knows of vacation when it is loaded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameVacation {
    /// The hours spent by the player to act at the current action (they lengthen its
    /// deadline).
    pub here: u32,
    /// Each seat's hours left this year; `None` for a seat without vacation.
    pub left: ByColor<Option<u32>>,
}

/// Vacation: what is left, and spending it.
pub trait VacationStore: Send + Sync + 'static {
    /// The hours `player` has left in `year`; `None` when they have no vacation.
    fn vacation_left(&self, player: PlayerId, year: i64) -> StoreFuture<'_, Option<u32>>;

    /// Spends `player`'s vacation in `game` at action number `ply`: the hours spent
    /// there are raised to `hours` in all, as far as the player's balance for `year`
    /// allows (and never lowered: a spending written again changes nothing). With a
    /// `fence`, only while the table is still that node's.
    fn spend_vacation<'a>(
        &'a self,
        game: GameId,
        ply: u32,
        player: PlayerId,
        year: i64,
        hours: u32,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, Spent>;
}

impl SqlStore {
    /// The hours of the live rows of `game` at `ply`.
    pub(crate) async fn vacation_here(
        &self,
        tx: &mut Tx<'_>,
        game: GameId,
        ply: u32,
    ) -> StoreResult<u32> {
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(hours), 0) AS BIGINT) AS hours FROM vacation \
             WHERE game_id = $1 AND ply = $2 AND live = 1",
        )
        .bind(game.0)
        .bind(i64::from(ply))
        .fetch_one(&mut **tx)
        .await?;
        crate::store::sql::count(&row, "hours")
    }

    /// `player`'s hours left in `year`, locking their row on PostgreSQL when `lock`
    /// (two games spending at once take turns); `None` without vacation.
    async fn left_in(
        &self,
        tx: &mut Tx<'_>,
        player: PlayerId,
        year: i64,
        lock: bool,
    ) -> StoreResult<Option<u32>> {
        let lock = match (lock, self.backend) {
            (true, crate::store::sql::Backend::Postgres) => " FOR UPDATE",
            _ => "",
        };
        let row = sqlx::query(&format!(
            "SELECT password_hash, bot, (SELECT CAST(COALESCE(SUM(hours), 0) AS BIGINT) \
             FROM vacation WHERE player_id = $1 AND year = $2) AS used \
             FROM players WHERE id = $1{lock}"
        ))
        .bind(player.0)
        .bind(year)
        .fetch_optional(&mut **tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let hash: Option<String> = row.try_get("password_hash")?;
        let bot: i64 = row.try_get("bot")?;
        if hash.is_none() || bot != 0 {
            return Ok(None);
        }
        let used = crate::store::sql::count(&row, "used")?;
        Ok(Some(HOURS_A_YEAR.saturating_sub(used)))
    }

    /// What the table of the unfinished `game`, waiting for its action number `ply`,
    /// knows of vacation (`seats`: the seats' accounts; the rows at `ply` are those of
    /// the player to act).
    pub(crate) async fn game_vacation(
        &self,
        game: GameId,
        ply: u32,
        seats: ByColor<Option<PlayerId>>,
    ) -> StoreResult<GameVacation> {
        let year = year_of(crate::now_ms());
        let mut tx = self.pool.begin().await?;
        let mut vacation = GameVacation::default();
        for color in [yinsh::Color::White, yinsh::Color::Black] {
            if let Some(player) = seats[color] {
                vacation.left[color] = self.left_in(&mut tx, player, year, false).await?;
            }
        }
        vacation.here = self.vacation_here(&mut tx, game, ply).await?;
        tx.commit().await?;
        Ok(vacation)
    }
}

impl VacationStore for SqlStore {
    fn vacation_left(&self, player: PlayerId, year: i64) -> StoreFuture<'_, Option<u32>> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            let left = self.left_in(&mut tx, player, year, false).await?;
            tx.commit().await?;
            Ok(left)
        })
    }

    fn spend_vacation<'a>(
        &'a self,
        game: GameId,
        ply: u32,
        player: PlayerId,
        year: i64,
        hours: u32,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, Spent> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let left = self.left_in(&mut tx, player, year, true).await?;
            let here = self.vacation_here(&mut tx, game, ply).await?;
            let Some(left) = left else {
                tx.commit().await?;
                return Ok(Spent { here, left: None });
            };
            let more = hours.saturating_sub(here).min(left);
            if more > 0 {
                sqlx::query(
                    "INSERT INTO vacation (game_id, ply, player_id, year, hours, spent_at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(game.0)
                .bind(i64::from(ply))
                .bind(player.0)
                .bind(year)
                .bind(i64::from(more))
                .bind(crate::now_ms())
                .execute(&mut *tx)
                .await?;
            }
            check_fence(&mut tx, fence, self.backend.share_lock()).await?;
            tx.commit().await?;
            Ok(Spent {
                here: here + more,
                left: Some(left - more),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_are_calendar_years_in_utc() {
        assert_eq!(year_of(0), 1970);
        // 2026-12-31T23:59:59.999Z and the next millisecond.
        let new_year = yinsh::notation::date::days_from_civil(2027, 1, 1) * 86_400_000;
        assert_eq!(year_of(new_year - 1), 2026);
        assert_eq!(year_of(new_year), 2027);
        assert_eq!(year_of(-1), 1969);
    }

    #[test]
    fn a_fallen_clock_spends_the_hours_that_take_it_past_now() {
        assert_eq!(hours_for(Duration::ZERO), 1);
        assert_eq!(hours_for(HOUR - Duration::from_millis(1)), 1);
        // Exactly an hour late: one hour would end the turn at this very moment.
        assert_eq!(hours_for(HOUR), 2);
        assert_eq!(hours_for(HOUR * 72 + Duration::from_secs(5)), 73);
    }
}
