//! Game in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;
use sqlx::any::AnyRow;
use yinsh::ByColor;

use super::store::{
    GameStore, GameWrite, NewGame, RunningGame, SeatRecord, StoredAction, StoredGame, StoredResult,
    color_word, stored_color,
};
use crate::cluster::store::Fence;
use crate::rating::store::Rated;
use crate::store::base::{StoreError, StoreFuture, StoreResult};
use crate::store::sql::{Query, SqlStore, check_fence, millis};
use crate::vocab::{GameId, Level, PlayerId};

pub(crate) const GAME_COLUMNS: &str = "id, table_id, options, white_id, white_name, white_bot, black_id, \
     black_name, black_bot, started_at, finished_at, winner, termination, action_count, \
     white_takebacks, black_takebacks, wake_at, white_berserk, black_berserk";

/// A game that is awake: not asleep until after `$1` (now, in milliseconds since 1970).
const AWAKE: &str = "(wake_at IS NULL OR wake_at <= $1)";

pub(crate) fn seat(row: &AnyRow, color: &str) -> StoreResult<SeatRecord> {
    let bot: Option<i64> = row.try_get(format!("{color}_bot").as_str())?;
    let bot = match bot {
        None => None,
        Some(b) => Some(
            u8::try_from(b)
                .ok()
                .and_then(Level::new)
                .ok_or_else(|| StoreError::corrupt(format!("engine level {b}")))?,
        ),
    };
    let id: Option<i64> = row.try_get(format!("{color}_id").as_str())?;
    Ok(SeatRecord {
        player_id: id.map(PlayerId),
        name: row.try_get(format!("{color}_name").as_str())?,
        bot,
    })
}

pub(crate) fn game_row(row: &AnyRow) -> StoreResult<StoredGame> {
    let options: String = row.try_get("options")?;
    let options = serde_json::from_str(&options)
        .map_err(|e| StoreError::corrupt(format!("stored table options are unreadable: {e}")))?;
    let finished_at: Option<i64> = row.try_get("finished_at")?;
    let termination: Option<String> = row.try_get("termination")?;
    let result = match (finished_at, termination) {
        (Some(finished_at), Some(termination)) => Some(StoredResult {
            winner: row.try_get("winner")?,
            termination,
            finished_at,
        }),
        _ => None,
    };
    let takebacks = |color: &str| -> StoreResult<u8> {
        let n: i64 = row.try_get(format!("{color}_takebacks").as_str())?;
        Ok(n.clamp(0, i64::from(u8::MAX)) as u8)
    };
    Ok(StoredGame {
        id: GameId(row.try_get("id")?),
        game: NewGame {
            table_id: row.try_get("table_id")?,
            options,
            white: seat(row, "white")?,
            black: seat(row, "black")?,
            started_at: row.try_get("started_at")?,
        },
        actions: Vec::new(),
        takebacks: ByColor {
            white: takebacks("white")?,
            black: takebacks("black")?,
        },
        result,
        wake_at: row.try_get("wake_at")?,
        vacation: Default::default(),
        berserk: ByColor {
            white: row.try_get::<i64, _>("white_berserk")? != 0,
            black: row.try_get::<i64, _>("black_berserk")? != 0,
        },
    })
}

impl SqlStore {
    pub(crate) async fn load_actions(&self, game: &mut StoredGame) -> StoreResult<()> {
        let rows = sqlx::query(
            "SELECT token, white_ms, black_ms, at, to_act FROM actions WHERE game_id = $1 \
             ORDER BY ply",
        )
        .bind(game.id.0)
        .fetch_all(&self.pool)
        .await?;
        game.actions = rows
            .iter()
            .map(|r| action_row(r, ""))
            .collect::<StoreResult<_>>()?;
        Ok(())
    }

    /// Loads an unfinished game's actions and, when it has days per turn, what its
    /// table knows of vacation.
    async fn load_unfinished(&self, game: &mut StoredGame) -> StoreResult<()> {
        self.load_actions(game).await?;
        let days = game.game.options.correspondence.and_then(|c| c.days);
        if days.is_some() && game.result.is_none() {
            let seats = ByColor {
                white: game.game.white.player_id,
                black: game.game.black.player_id,
            };
            let ply = game.actions.len() as u32;
            game.vacation = self.game_vacation(game.id, ply, seats).await?;
        }
        Ok(())
    }
}

/// The action of `row`, its columns named with `prefix`.
fn action_row(row: &AnyRow, prefix: &str) -> StoreResult<StoredAction> {
    let col = |name: &str| format!("{prefix}{name}");
    let to_act: Option<String> = row.try_get(col("to_act").as_str())?;
    Ok(StoredAction {
        token: row.try_get(col("token").as_str())?,
        white_ms: millis(row.try_get(col("white_ms").as_str())?),
        black_ms: millis(row.try_get(col("black_ms").as_str())?),
        at: row.try_get(col("at").as_str())?,
        to_act: to_act.as_deref().and_then(stored_color),
    })
}

pub(crate) fn insert_action(game: i64, ply: u32, action: &StoredAction) -> Query<'_> {
    sqlx::query(
        "INSERT INTO actions (game_id, ply, token, white_ms, black_ms, at, to_act) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game)
    .bind(i64::from(ply))
    .bind(&action.token)
    .bind(action.white_ms.map(|v| v as i64))
    .bind(action.black_ms.map(|v| v as i64))
    .bind(action.at)
    .bind(action.to_act.map(color_word))
}

pub(crate) fn finish(game: i64, result: &StoredResult) -> Query<'_> {
    sqlx::query(
        "UPDATE games SET finished_at = $1, winner = $2, termination = $3, wake_at = NULL, \
         action_count = (SELECT COUNT(*) FROM actions WHERE game_id = $4) \
         WHERE id = $4 AND finished_at IS NULL",
    )
    .bind(result.finished_at)
    .bind(result.winner.as_deref())
    .bind(&result.termination)
    .bind(game)
}

pub(crate) async fn delete_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: i64,
) -> StoreResult<()> {
    sqlx::query("DELETE FROM actions WHERE game_id = $1")
        .bind(game)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM games WHERE id = $1")
        .bind(game)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl GameStore for SqlStore {
    fn create_game<'a>(
        &'a self,
        game: &'a NewGame,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, GameId> {
        Box::pin(async move {
            let options = serde_json::to_string(&game.options)
                .map_err(|e| StoreError::corrupt(format!("table options: {e}")))?;
            // A game without a fence (a lone server) is stored with the others that
            // start meanwhile, in one statement ([`super::batch`]).
            if fence.is_none() {
                if let Some(done) = self.batcher.create(game, options.clone()) {
                    let id = done.await.unwrap_or_else(|_| {
                        Err(StoreError::unavailable("the store's writer ended"))
                    })?;
                    return Ok(GameId(id));
                }
            }
            let sql = crate::store::batch::game_statement(1);
            let query = crate::store::batch::bind_game(sqlx::query(&sql), game, &options);
            let row = match fence {
                None => query.fetch_one(&self.pool).await?,
                Some(_) => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    let row = query.fetch_one(&mut *tx).await?;
                    check_fence(&mut tx, fence, self.backend.share_lock()).await?;
                    tx.commit().await?;
                    row
                }
            };
            Ok(GameId(row.try_get("id")?))
        })
    }

    fn write_game<'a>(
        &'a self,
        game: GameId,
        write: &'a GameWrite,
        log: bool,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, Rated> {
        Box::pin(async move {
            let id = game.0;
            let mut rated = None;
            let lock = self.backend.share_lock();
            match write {
                // The hot path of the server: stored with the actions of other tables
                // that arrive meanwhile, in one statement ([`super::batch`]).
                GameWrite::Action {
                    ply,
                    action,
                    result: None,
                } => match self.batcher.insert(id, *ply, action, fence) {
                    Some(done) => done.await.unwrap_or_else(|_| {
                        Err(StoreError::unavailable("the store's writer ended"))
                    })?,
                    None => {
                        let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                        insert_action(id, *ply, action).execute(&mut *tx).await?;
                        check_fence(&mut tx, fence, lock).await?;
                        tx.commit().await?;
                    }
                },
                GameWrite::Action {
                    ply,
                    action,
                    result: Some(result),
                } => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    if log {
                        insert_action(id, *ply, action).execute(&mut *tx).await?;
                        rated = self.finish_and_rate(&mut tx, id, result).await?;
                    } else {
                        delete_game(&mut tx, id).await?;
                    }
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
                GameWrite::Takeback { keep, takebacks } => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    sqlx::query("DELETE FROM actions WHERE game_id = $1 AND ply >= $2")
                        .bind(id)
                        .bind(i64::from(*keep))
                        .execute(&mut *tx)
                        .await?;
                    // The hours spent at the turns taken back stay spent, but lengthen
                    // no deadline any more.
                    sqlx::query("UPDATE vacation SET live = 0 WHERE game_id = $1 AND ply >= $2")
                        .bind(id)
                        .bind(i64::from(*keep))
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "UPDATE games SET white_takebacks = $1, black_takebacks = $2 \
                         WHERE id = $3",
                    )
                    .bind(i64::from(takebacks.white))
                    .bind(i64::from(takebacks.black))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
                GameWrite::Result(result) if log => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    rated = self.finish_and_rate(&mut tx, id, result).await?;
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
                GameWrite::Berserk(color) => {
                    let column = match color {
                        yinsh::Color::White => "white_berserk",
                        yinsh::Color::Black => "black_berserk",
                    };
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    sqlx::query(&format!("UPDATE games SET {column} = 1 WHERE id = $1"))
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
                GameWrite::Result(_) | GameWrite::Abort => {
                    let mut tx = self.pool.begin_with(self.backend.begin()).await?;
                    delete_game(&mut tx, id).await?;
                    check_fence(&mut tx, fence, lock).await?;
                    tx.commit().await?;
                }
            }
            Ok(rated)
        })
    }

    fn unfinished_games(&self) -> StoreFuture<'_, Vec<StoredGame>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE finished_at IS NULL \
                 AND {AWAKE} ORDER BY id"
            ))
            .bind(crate::now_ms())
            .fetch_all(&self.pool)
            .await?;
            let mut games = rows.iter().map(game_row).collect::<StoreResult<Vec<_>>>()?;
            for game in &mut games {
                self.load_unfinished(game).await?;
            }
            Ok(games)
        })
    }

    fn unfinished_games_at<'a>(&'a self, tables: &'a [String]) -> StoreFuture<'a, Vec<StoredGame>> {
        Box::pin(async move {
            let mut games = Vec::new();
            // A few hundred tables at a time: no statement with thousands of parameters.
            for chunk in tables.chunks(500) {
                let places = (2..=chunk.len() + 1)
                    .map(|n| format!("${n}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games \
                     WHERE finished_at IS NULL AND {AWAKE} AND table_id IN ({places}) \
                     ORDER BY id"
                );
                let mut query = sqlx::query(&sql).bind(crate::now_ms());
                for table in chunk {
                    query = query.bind(table.as_str());
                }
                for row in query.fetch_all(&self.pool).await? {
                    games.push(game_row(&row)?);
                }
            }
            for game in &mut games {
                self.load_unfinished(game).await?;
            }
            Ok(games)
        })
    }

    fn asleep_at<'a>(&'a self, tables: &'a [String]) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let mut asleep = Vec::new();
            for chunk in tables.chunks(500) {
                let places = (2..=chunk.len() + 1)
                    .map(|n| format!("${n}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let sql = format!(
                    "SELECT table_id FROM games WHERE finished_at IS NULL AND NOT {AWAKE} \
                     AND table_id IN ({places})"
                );
                let mut query = sqlx::query(&sql).bind(crate::now_ms());
                for table in chunk {
                    query = query.bind(table.as_str());
                }
                for row in query.fetch_all(&self.pool).await? {
                    asleep.push(row.try_get("table_id")?);
                }
            }
            Ok(asleep)
        })
    }

    fn unfinished_game_at<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<StoredGame>> {
        Box::pin(async move {
            let row = sqlx::query(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE finished_at IS NULL AND table_id = $1 \
                 ORDER BY id DESC LIMIT 1"
            ))
            .bind(table)
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let mut game = game_row(&row)?;
            self.load_unfinished(&mut game).await?;
            Ok(Some(game))
        })
    }

    fn sleep<'a>(
        &'a self,
        game: GameId,
        wake_at: Option<i64>,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            sqlx::query("UPDATE games SET wake_at = $1 WHERE id = $2 AND finished_at IS NULL")
                .bind(wake_at)
                .bind(game.0)
                .execute(&mut *tx)
                .await?;
            check_fence(&mut tx, fence, self.backend.share_lock()).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn due_to_wake(&self, now_ms: i64, limit: u32) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT table_id FROM games WHERE wake_at IS NOT NULL AND wake_at <= $1 \
                 AND finished_at IS NULL ORDER BY wake_at LIMIT $2",
            )
            .bind(now_ms)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get("table_id")?)).collect()
        })
    }

    fn game(&self, id: GameId) -> StoreFuture<'_, Option<StoredGame>> {
        Box::pin(async move {
            let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
                .bind(id.0)
                .fetch_optional(&self.pool)
                .await?;
            let Some(row) = row else { return Ok(None) };
            let mut game = game_row(&row)?;
            self.load_actions(&mut game).await?;
            Ok(Some(game))
        })
    }

    fn running_games_of(&self, player: PlayerId) -> StoreFuture<'_, Vec<RunningGame>> {
        Box::pin(async move {
            // The last action of each, and how many there are, from the actions' key.
            let sql = format!(
                "SELECT {GAME_COLUMNS}, a.token AS last_token, a.white_ms AS last_white_ms, \
                 a.black_ms AS last_black_ms, a.at AS last_at, a.to_act AS last_to_act, \
                 a.ply AS last_ply, \
                 (SELECT CAST(COALESCE(SUM(v.hours), 0) AS BIGINT) FROM vacation v \
                  WHERE v.game_id = games.id AND v.ply = COALESCE(a.ply + 1, 0) \
                  AND v.live = 1) AS vacation_here \
                 FROM games LEFT JOIN actions a ON a.game_id = games.id \
                 AND a.ply = (SELECT MAX(ply) FROM actions b WHERE b.game_id = games.id) \
                 WHERE finished_at IS NULL AND (white_id = $1 OR black_id = $1) ORDER BY id"
            );
            let rows = sqlx::query(&sql)
                .bind(player.0)
                .fetch_all(&self.pool)
                .await?;
            rows.iter()
                .map(|row| {
                    let stored = game_row(row)?;
                    let ply: Option<i64> = row.try_get("last_ply")?;
                    let last = match ply {
                        Some(_) => Some(action_row(row, "last_")?),
                        None => None,
                    };
                    Ok(RunningGame {
                        id: stored.id,
                        game: stored.game,
                        last,
                        actions: ply.map_or(0, |p| p as u32 + 1),
                        vacation_here: crate::store::sql::count(row, "vacation_here")?,
                    })
                })
                .collect()
        })
    }

    fn recent_colors(&self, player: PlayerId, n: u32) -> StoreFuture<'_, Vec<yinsh::Color>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT white_id FROM games WHERE white_id = $1 OR black_id = $1 \
                 ORDER BY id DESC LIMIT $2",
            )
            .bind(player.0)
            .bind(i64::from(n))
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let white: Option<i64> = r.try_get("white_id")?;
                    Ok(if white == Some(player.0) {
                        yinsh::Color::White
                    } else {
                        yinsh::Color::Black
                    })
                })
                .collect()
        })
    }
}
