//! Tournaments (docs/tournaments.md): arenas, where a player whose game ends is paired
//! again a few seconds later and points are counted as lichess counts them.
//!
//! [`arena`] holds the score sheets, [`standings`] makes an arena's standings from
//! what its store keeps, and [`pairing`] matches waiting players; all three are pure.
//! The director (`director.rs`) is one task per server, or per cluster (the node alive
//! longest): it starts and ends arenas on time, pairs their waiting players, opens a
//! table for each game and scores the game when it ends. Everything it decides is
//! stored before it is acted on, and the standings are never stored, only the games:
//! a director that restarts, or another node's that takes over, reads the same
//! standings back. `http` is the lichess-shaped API.

pub mod arena;
mod director;
pub(crate) mod http;
pub mod pairing;
pub mod protocol;
pub mod schedule;
pub(crate) mod sql;
pub mod standings;
pub mod store;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

pub(crate) use director::start;

use crate::vocab::GameId;

/// What the rest of the server tells the tournament director.
#[derive(Clone, Default)]
pub struct Tournaments {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    /// Tournament games that ended here, not yet scored: (tournament, table, game;
    /// none for a game aborted before it began).
    ended: Mutex<Vec<(String, String, Option<GameId>)>>,
    /// An arena was made, or its players changed: the director reads them again.
    changed: AtomicBool,
    /// Wakes the director: a game ended, or an arena changed.
    wake: Notify,
}

impl Tournaments {
    /// The game at `table` of tournament `tournament` ended (its result is stored), or
    /// was aborted (`game` none).
    pub fn game_ended(&self, tournament: &str, table: &str, game: Option<GameId>) {
        self.shared
            .ended
            .lock()
            .expect("the ended games are never poisoned")
            .push((tournament.to_owned(), table.to_owned(), game));
        self.shared.wake.notify_one();
    }

    /// An arena was made or someone joined or withdrew: the director reads it again.
    pub fn changed(&self) {
        self.shared.changed.store(true, Ordering::SeqCst);
        self.shared.wake.notify_one();
    }

    /// Whether something changed since it was last asked.
    fn take_changed(&self) -> bool {
        self.shared.changed.swap(false, Ordering::SeqCst)
    }

    fn take_ended(&self) -> Vec<(String, String, Option<GameId>)> {
        std::mem::take(
            &mut *self
                .shared
                .ended
                .lock()
                .expect("the ended games are never poisoned"),
        )
    }
}
