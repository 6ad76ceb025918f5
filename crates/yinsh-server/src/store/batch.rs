//! Group commit: the actions that tables play at about the same moment are stored in
//! one statement, so one commit carries many of them.
//!
//! Every table has at most one write under way, and its players wait for it: an action
//! is announced only once it is stored. Writing them one commit each makes the
//! database's commit (a lock, a WAL append and, on PostgreSQL, a flush to disk) and the
//! trip to the database's worker the price of every action. Here they queue instead:
//! while one batch is written, the next gathers; while actions come in company (the last
//! batch held several, or more arrived while it was written), a batch also waits a
//! window of 2 ms for more. Under light load an action is written alone and at once;
//! under load a commit holds everything that arrived within a few milliseconds. Each
//! action's table is answered when the commit that holds it is done.
//!
//! In a cluster every action carries its table's [`Fence`]: the statement inserts only
//! the rows whose table is still owned as the fence says (looked up, and on PostgreSQL
//! locked against a takeover, in the same statement), and says which it inserted; the
//! others are answered [`StoreErrorKind::Moved`].
//!
//! New games are gathered the same way, in a queue of their own: a tournament round, or
//! thousands of tables starting within a second, would otherwise be a commit each, and
//! the actions of the games already playing would wait behind them for the store.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::base::{StoreError, StoreErrorKind, StoreResult};
use crate::cluster::store::Fence;
use crate::game::store::{NewGame, StoredAction};

/// At most this many actions or games in one statement (seven parameters an action, ten
/// with a fence, nine for a game: far below the parameter limits of SQLite, 32,766, and
/// PostgreSQL, 65,535).
pub(super) const MAX_BATCH: usize = 256;

/// While actions come in company, a batch gathers for this long before it is written
/// (far below what a person notices; an action alone at a quiet store is written at
/// once).
const WINDOW: Duration = Duration::from_millis(2);

/// An action to be stored, and who waits for it.
pub(super) struct Insert {
    pub game: i64,
    pub ply: u32,
    pub action: StoredAction,
    pub fence: Option<Arc<Fence>>,
    pub done: oneshot::Sender<StoreResult<()>>,
}

/// A new game to be stored (its options already in JSON), and who waits for its id.
pub(super) struct Create {
    pub game: NewGame,
    pub options: String,
    pub done: oneshot::Sender<StoreResult<i64>>,
}

/// The queues of actions and of new games to store.
#[derive(Debug, Clone)]
pub(crate) struct Batcher {
    actions: mpsc::UnboundedSender<Insert>,
    games: mpsc::UnboundedSender<Create>,
}

/// Where the statements run, and how a fenced one locks the owner rows it reads
/// (`" FOR SHARE"` on PostgreSQL: a takeover waits for the statement; nothing on
/// SQLite, whose writers take turns).
#[derive(Clone)]
struct Target {
    pool: AnyPool,
    lock: &'static str,
}

/// Something written in batches.
trait Job: Send + Sized + 'static {
    /// Writes `batch` (emptying it) and answers each of its jobs.
    fn write(target: &Target, batch: &mut Vec<Self>) -> impl Future<Output = ()> + Send;
}

impl Batcher {
    /// Starts the tasks that write the queued actions and games to `pool` (in the
    /// runtime of the caller; they end when the last [`Batcher`] is dropped); fenced
    /// statements read the owner rows with `lock` appended.
    pub fn start(pool: AnyPool, lock: &'static str) -> Batcher {
        let target = Target { pool, lock };
        let (actions, rx) = mpsc::unbounded_channel();
        tokio::spawn(run::<Insert>(target.clone(), rx));
        let (games, rx) = mpsc::unbounded_channel();
        tokio::spawn(run::<Create>(target, rx));
        Batcher { actions, games }
    }

    /// Stores `game` with the next batch of new games; `None` when the writing task is
    /// gone (its runtime ended), to be stored some other way.
    pub fn create(
        &self,
        game: &NewGame,
        options: String,
    ) -> Option<oneshot::Receiver<StoreResult<i64>>> {
        let (done, rx) = oneshot::channel();
        let create = Create {
            game: game.clone(),
            options,
            done,
        };
        self.games.send(create).ok().map(|()| rx)
    }

    /// Stores action `ply` of `game` with the next batch; `None` when the writing task
    /// is gone (its runtime ended), to be stored some other way.
    pub fn insert(
        &self,
        game: i64,
        ply: u32,
        action: &StoredAction,
        fence: Option<&Fence>,
    ) -> Option<oneshot::Receiver<StoreResult<()>>> {
        let (done, rx) = oneshot::channel();
        let insert = Insert {
            game,
            ply,
            action: action.clone(),
            fence: fence.map(|f| Arc::new(f.clone())),
            done,
        };
        self.actions.send(insert).ok().map(|()| rx)
    }
}

async fn run<J: Job>(target: Target, mut rx: mpsc::UnboundedReceiver<J>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // Whether actions come in company: the last batch held several, or more came
    // while it was written.
    let mut busy = false;
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        // In company, the others that arrive within the window share the commit; an
        // action that comes alone is written at once.
        if busy {
            let until = Instant::now() + WINDOW;
            while batch.len() < MAX_BATCH {
                let room = MAX_BATCH - batch.len();
                match tokio::time::timeout_at(until, rx.recv_many(&mut batch, room)).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        let several = batch.len() > 1;
        J::write(&target, &mut batch).await;
        busy = several || !rx.is_empty();
    }
}

impl Job for Insert {
    async fn write(target: &Target, batch: &mut Vec<Insert>) {
        write_actions(target, batch).await
    }
}

/// Writes `batch` (emptying it) and answers each of its actions.
async fn write_actions(target: &Target, batch: &mut Vec<Insert>) {
    match insert_all(target, batch).await {
        Ok(refused) => {
            for (i, insert) in batch.drain(..).enumerate() {
                let result = match &insert.fence {
                    Some(fence) if refused.contains(&i) => Err(fence.moved()),
                    _ => Ok(()),
                };
                let _ = insert.done.send(result);
            }
        }
        // A row the database refuses (a constraint) refuses the whole statement: each
        // is tried alone, so that only that one fails.
        Err(e) if batch.len() > 1 && e.kind != StoreErrorKind::Unavailable => {
            for insert in batch.drain(..) {
                let one = std::slice::from_ref(&insert);
                let result = match (insert_all(target, one).await, &insert.fence) {
                    (Ok(refused), Some(fence)) if !refused.is_empty() => Err(fence.moved()),
                    (result, _) => result.map(drop),
                };
                let _ = insert.done.send(result);
            }
        }
        Err(e) => {
            for insert in batch.drain(..) {
                let _ = insert.done.send(Err(e.clone()));
            }
        }
    }
}

/// The statement that inserts `rows` actions.
fn statement(rows: usize) -> String {
    let mut sql = String::with_capacity(80 + rows * 40);
    sql.push_str(
        "INSERT INTO actions (game_id, ply, token, white_ms, black_ms, at, to_act) VALUES ",
    );
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        let params: Vec<String> = (1..=ACTION_COLUMNS)
            .map(|c| format!("${}", row * ACTION_COLUMNS + c))
            .collect();
        sql.push('(');
        sql.push_str(&params.join(", "));
        sql.push(')');
    }
    sql
}

/// The columns of an action's row.
const ACTION_COLUMNS: usize = 7;

/// The statement that inserts those of `rows` actions whose fence holds (a row without
/// one always) and gives back the game and ply of each row inserted. The rows are a
/// `VALUES` list, whose columns SQLite and PostgreSQL both call `column1`, `column2`,
/// …; the casts give PostgreSQL their types.
fn fenced_statement(rows: usize, lock: &str) -> String {
    const TYPES: [&str; 10] = [
        "BIGINT", "BIGINT", "TEXT", "BIGINT", "BIGINT", "BIGINT", "TEXT", "TEXT", "TEXT", "BIGINT",
    ];
    let mut sql = String::with_capacity(400 + rows * 200);
    sql.push_str(
        "INSERT INTO actions (game_id, ply, token, white_ms, black_ms, at, to_act) \
         SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7 \
         FROM (VALUES ",
    );
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for (col, ty) in TYPES.iter().enumerate() {
            if col > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("CAST(${} AS {ty})", row * TYPES.len() + col + 1));
        }
        sql.push(')');
    }
    sql.push_str(&format!(
        ") AS v WHERE v.column8 IS NULL OR EXISTS (SELECT 1 FROM table_owners o \
         WHERE o.table_id = v.column8 AND o.node_id = v.column9 \
         AND o.incarnation = v.column10{lock}) RETURNING game_id, ply"
    ));
    sql
}

pub(super) type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// `query` with the seven columns of `insert`'s action bound next.
fn bind_action<'q>(query: Query<'q>, insert: &'q Insert) -> Query<'q> {
    let a = &insert.action;
    query
        .bind(insert.game)
        .bind(i64::from(insert.ply))
        .bind(a.token.as_str())
        .bind(a.white_ms.map(|v| v as i64))
        .bind(a.black_ms.map(|v| v as i64))
        .bind(a.at)
        .bind(a.to_act.map(crate::game::store::color_word))
}

/// Inserts every action of `batch` in one statement (one implicit transaction: all
/// or none), but those whose fence does not hold: their places in `batch`.
async fn insert_all(target: &Target, batch: &[Insert]) -> Result<HashSet<usize>, StoreError> {
    if batch.iter().all(|i| i.fence.is_none()) {
        let sql = statement(batch.len());
        let mut query = sqlx::query(&sql);
        for insert in batch {
            query = bind_action(query, insert);
        }
        query.execute(&target.pool).await?;
        return Ok(HashSet::new());
    }
    let sql = fenced_statement(batch.len(), target.lock);
    let mut query = sqlx::query(&sql);
    for insert in batch {
        let fence = insert.fence.as_deref();
        query = bind_action(query, insert)
            .bind(fence.map(|f| f.table.as_str()))
            .bind(fence.map(|f| f.node.as_str()))
            .bind(fence.map(|f| f.incarnation));
    }
    let mut stored = HashSet::with_capacity(batch.len());
    for row in query.fetch_all(&target.pool).await? {
        use sqlx::Row;
        let game: i64 = row.try_get("game_id")?;
        let ply: i64 = row.try_get("ply")?;
        stored.insert((game, ply));
    }
    Ok(batch
        .iter()
        .enumerate()
        .filter(|(_, i)| !stored.contains(&(i.game, i64::from(i.ply))))
        .map(|(n, _)| n)
        .collect())
}

impl Job for Create {
    async fn write(target: &Target, batch: &mut Vec<Create>) {
        // The ids come back by table: a second new game of a table in the same batch
        // (a table starts one game at a time, so this is only a safeguard) waits for
        // the next statement.
        while !batch.is_empty() {
            let mut tables = HashSet::new();
            let (now, later): (Vec<Create>, Vec<Create>) = batch
                .drain(..)
                .partition(|c| tables.insert(c.game.table_id.clone()));
            *batch = later;
            create_games(target, now).await;
        }
    }
}

/// Stores `games` (each of another table) and answers each with its id.
async fn create_games(target: &Target, games: Vec<Create>) {
    let id = |ids: &mut HashMap<String, i64>, c: &Create| {
        ids.remove(&c.game.table_id)
            .ok_or_else(|| StoreError::corrupt("a new game's id did not come back"))
    };
    match create_all(target, &games).await {
        Ok(mut ids) => {
            for c in games {
                let result = id(&mut ids, &c);
                let _ = c.done.send(result);
            }
        }
        // As for actions: a row the database refuses is found by trying each alone.
        Err(e) if games.len() > 1 && e.kind != StoreErrorKind::Unavailable => {
            for c in games {
                let result = create_all(target, std::slice::from_ref(&c))
                    .await
                    .and_then(|mut ids| id(&mut ids, &c));
                let _ = c.done.send(result);
            }
        }
        Err(e) => {
            for c in games {
                let _ = c.done.send(Err(e.clone()));
            }
        }
    }
}

/// The statement that inserts `rows` new games and gives back the id and table of each.
pub(crate) fn game_statement(rows: usize) -> String {
    let mut sql = String::with_capacity(200 + rows * 60);
    sql.push_str(
        "INSERT INTO games (table_id, options, white_id, white_name, white_bot, \
         black_id, black_name, black_bot, started_at) VALUES ",
    );
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        let params: Vec<String> = (1..=9).map(|c| format!("${}", row * 9 + c)).collect();
        sql.push('(');
        sql.push_str(&params.join(", "));
        sql.push(')');
    }
    sql.push_str(" RETURNING id, table_id");
    sql
}

/// `query` with the nine columns of `game` (its options in JSON) bound next.
pub(crate) fn bind_game<'q>(query: Query<'q>, game: &'q NewGame, options: &'q str) -> Query<'q> {
    query
        .bind(game.table_id.as_str())
        .bind(options)
        .bind(game.white.player_id.map(|p| p.0))
        .bind(game.white.name.as_str())
        .bind(game.white.bot.map(|l| i64::from(l.get())))
        .bind(game.black.player_id.map(|p| p.0))
        .bind(game.black.name.as_str())
        .bind(game.black.bot.map(|l| i64::from(l.get())))
        .bind(game.started_at)
}

/// Inserts every game of `games` (each of another table) in one statement: their ids
/// by table.
async fn create_all(target: &Target, games: &[Create]) -> StoreResult<HashMap<String, i64>> {
    let sql = game_statement(games.len());
    let mut query = sqlx::query(&sql);
    for c in games {
        query = bind_game(query, &c.game, &c.options);
    }
    let mut ids = HashMap::with_capacity(games.len());
    for row in query.fetch_all(&target.pool).await? {
        use sqlx::Row;
        ids.insert(row.try_get("table_id")?, row.try_get("id")?);
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_numbers_seven_parameters_a_row() {
        assert_eq!(
            statement(2),
            "INSERT INTO actions (game_id, ply, token, white_ms, black_ms, at, to_act) VALUES \
             ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14)"
        );
        assert!(statement(MAX_BATCH).ends_with("$1792)"));
    }

    #[test]
    fn a_fenced_statement_numbers_ten_parameters_a_row() {
        let sql = fenced_statement(2, " FOR SHARE");
        assert!(sql.contains("(CAST($11 AS BIGINT), CAST($12 AS BIGINT), CAST($13 AS TEXT)"));
        assert!(sql.contains("AND o.incarnation = v.column10 FOR SHARE) RETURNING"));
        assert!(fenced_statement(MAX_BATCH, "").contains("CAST($2560 AS BIGINT))"));
    }

    #[test]
    fn a_game_statement_numbers_nine_parameters_a_row() {
        let sql = game_statement(2);
        assert!(sql.ends_with("VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9), ($10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id, table_id"), "{sql}");
        assert!(game_statement(MAX_BATCH).contains("$2304) RETURNING"));
    }
}
