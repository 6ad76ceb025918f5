//! The engine seats of a table: one engine per seat, one search at a time, on a
//! blocking thread, within the server's engine slots (one per core).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;
use yinsh::{Action, ByColor, Color};
use yinsh_engine::{Clock, Engine, Limits};

use super::core::BotTurn;
use crate::BotFactory;
use crate::vocab::{GameId, Level};

/// A bot's thinking time in an untimed game.
const BOT_UNTIMED: Duration = Duration::from_millis(1500);

/// The most an engine seat thinks over one decision in a timed game, whatever its clock
/// would allow: the person across the board should not wait in silence for a minute
/// (`Limits::cap`; no iteration begins after a fifth of it). docs/engine.md has the
/// decision times it gives.
pub const SEAT_CAP: Duration = Duration::from_secs(6);

/// An engine's chosen action, for the game and ply it was asked about.
#[derive(Debug, Clone, Copy)]
pub(super) struct BotMove {
    pub game: GameId,
    pub ply: usize,
    pub action: Action,
}

type Shared = Arc<Mutex<Box<dyn Engine>>>;

/// A table's engines and the search under way.
pub(super) struct Bots {
    factory: Option<BotFactory>,
    engines: ByColor<Option<(Level, Shared)>>,
    /// The position asked about last (game and ply), and how to stop that search.
    asked: Option<(GameId, usize, Arc<AtomicBool>)>,
    tx: mpsc::Sender<BotMove>,
    slots: Arc<Semaphore>,
}

impl Bots {
    pub(super) fn new(
        factory: Option<BotFactory>,
        slots: Arc<Semaphore>,
        tx: mpsc::Sender<BotMove>,
    ) -> Bots {
        Bots {
            factory,
            engines: ByColor::default(),
            asked: None,
            tx,
            slots,
        }
    }

    /// Makes sure the engine thinks about `turn` (once per position), or about nothing.
    pub(super) fn follow(&mut self, turn: Option<BotTurn>) {
        let Some(turn) = turn else {
            self.stop();
            return;
        };
        if self
            .asked
            .as_ref()
            .is_some_and(|(g, p, _)| *g == turn.game && *p == turn.ply)
        {
            return;
        }
        self.stop();
        let Some(engine) = self.engine(turn.color, turn.level) else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        self.asked = Some((turn.game, turn.ply, stop.clone()));
        let now = Instant::now();
        let limits = match turn.clocks {
            Some(c) => Limits {
                clock: Some(Clock {
                    wtime: c.left(Color::White, turn.color == Color::White, now),
                    btime: c.left(Color::Black, turn.color == Color::Black, now),
                    winc: c.increment,
                    binc: c.increment,
                }),
                cap: Some(SEAT_CAP),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(BOT_UNTIMED),
                ..Limits::default()
            },
        };
        let (game, ply, position) = (turn.game, turn.ply, turn.position);
        let tx = self.tx.clone();
        let slots = self.slots.clone();
        tokio::spawn(async move {
            // One search per core at a time, server-wide.
            let Ok(slot) = slots.acquire_owned().await else {
                return;
            };
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let _ = tokio::task::spawn_blocking(move || {
                let result = {
                    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    engine.search(&position, &limits, &stop, &mut |_| {})
                };
                drop(slot);
                if !stop.load(Ordering::Relaxed) {
                    let _ = tx.blocking_send(BotMove {
                        game,
                        ply,
                        action: result.best,
                    });
                }
            })
            .await;
        });
    }

    /// Stops the search under way, if any, and forgets the position asked about: the
    /// next [`Bots::follow`] asks again (also after a move refused for a passing
    /// reason, such as a store outage).
    pub(super) fn stop(&mut self) {
        if let Some((_, _, stop)) = self.asked.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// The engine of `color`'s seat at `level`, made when first needed.
    fn engine(&mut self, color: Color, level: Level) -> Option<Shared> {
        match &self.engines[color] {
            Some((l, engine)) if *l == level => Some(engine.clone()),
            _ => {
                let engine: Shared = Arc::new(Mutex::new((self.factory.as_ref()?)(level.get())));
                self.engines[color] = Some((level, engine.clone()));
                Some(engine)
            }
        }
    }
}
