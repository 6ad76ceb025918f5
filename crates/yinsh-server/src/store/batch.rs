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
//! under load a commit holds everything that arrived within a few milliseconds. Each action's table is answered when the commit that holds it is done.

use std::time::Duration;

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::{StoreError, StoreErrorKind, StoreResult, StoredAction};

/// At most this many actions in one statement (six parameters each: far below the
/// parameter limits of SQLite, 32,766, and PostgreSQL, 65,535).
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
    pub done: oneshot::Sender<StoreResult<()>>,
}

/// The queue of actions to store.
#[derive(Debug, Clone)]
pub(super) struct Batcher {
    tx: mpsc::UnboundedSender<Insert>,
}

impl Batcher {
    /// Starts the task that writes the queued actions to `pool` (in the runtime of the
    /// caller; it ends when the last [`Batcher`] is dropped).
    pub fn start(pool: AnyPool) -> Batcher {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(pool, rx));
        Batcher { tx }
    }

    /// Stores action `ply` of `game` with the next batch; `None` when the writing task
    /// is gone (its runtime ended), to be stored some other way.
    pub fn insert(
        &self,
        game: i64,
        ply: u32,
        action: &StoredAction,
    ) -> Option<oneshot::Receiver<StoreResult<()>>> {
        let (done, rx) = oneshot::channel();
        let insert = Insert {
            game,
            ply,
            action: action.clone(),
            done,
        };
        self.tx.send(insert).ok().map(|()| rx)
    }
}

async fn run(pool: AnyPool, mut rx: mpsc::UnboundedReceiver<Insert>) {
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
        write(&pool, &mut batch).await;
        busy = several || !rx.is_empty();
    }
}

/// Writes `batch` (emptying it) and answers each of its actions.
async fn write(pool: &AnyPool, batch: &mut Vec<Insert>) {
    match insert_all(pool, batch).await {
        Ok(()) => {
            for insert in batch.drain(..) {
                let _ = insert.done.send(Ok(()));
            }
        }
        // A row the database refuses (a constraint) refuses the whole statement: each
        // is tried alone, so that only that one fails.
        Err(e) if batch.len() > 1 && e.kind != StoreErrorKind::Unavailable => {
            for insert in batch.drain(..) {
                let one = std::slice::from_ref(&insert);
                let result = insert_all(pool, one).await;
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
    let mut sql = String::with_capacity(80 + rows * 32);
    sql.push_str("INSERT INTO actions (game_id, ply, token, white_ms, black_ms, at) VALUES ");
    for row in 0..rows {
        let n = row * 6;
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${}, ${})",
            n + 1,
            n + 2,
            n + 3,
            n + 4,
            n + 5,
            n + 6
        ));
    }
    sql
}

/// Inserts every action of `batch` in one statement (one implicit transaction: all
/// or none).
async fn insert_all(pool: &AnyPool, batch: &[Insert]) -> Result<(), StoreError> {
    let sql = statement(batch.len());
    let mut query = sqlx::query(&sql);
    for insert in batch {
        let a = &insert.action;
        query = query
            .bind(insert.game)
            .bind(i64::from(insert.ply))
            .bind(a.token.as_str())
            .bind(a.white_ms.map(|v| v as i64))
            .bind(a.black_ms.map(|v| v as i64))
            .bind(a.at);
    }
    query.execute(pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_numbers_six_parameters_a_row() {
        assert_eq!(
            statement(2),
            "INSERT INTO actions (game_id, ply, token, white_ms, black_ms, at) VALUES \
             ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)"
        );
        assert!(statement(MAX_BATCH).ends_with("$1536)"));
    }
}
