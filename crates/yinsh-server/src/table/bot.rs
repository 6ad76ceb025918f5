//! The engine seats of a table: one engine per seat, one search at a time, on a
//! blocking thread, within the server's engine slots (one per core).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;
use yinsh::{Action, ByColor, Color, Position, Stage};
use yinsh_engine::{Clock, Engine, Limits, SearchInfo};

use super::core::BotTurn;
use crate::BotFactory;
use crate::game::Clocks;
use crate::vocab::{GameId, Level};

/// A bot's thinking time in an untimed game.
const BOT_UNTIMED: Duration = Duration::from_millis(1500);

/// A bot's thinking time in an untimed game at full strength.
const BOT_UNTIMED_FULL: Duration = Duration::from_secs(10);

/// The most an engine seat thinks over one decision in a timed game, whatever its clock
/// would allow: the person across the board should not wait in silence for a minute
/// (`Limits::cap`; no iteration begins after a fifth of it). docs/engine.md has the
/// decision times it gives. A table at full strength (`TableOptions::engine_full`)
/// lifts it.
pub const SEAT_CAP: Duration = Duration::from_secs(6);

/// The engine's progress is told once it has thought this long…
const THINKING_FIRST: Duration = Duration::from_millis(300);
/// …and then at most this often.
const THINKING_EVERY: Duration = Duration::from_millis(500);

/// An engine's chosen action, for the game and ply it was asked about.
#[derive(Debug, Clone, Copy)]
pub(super) struct BotMove {
    pub game: GameId,
    pub ply: usize,
    pub action: Action,
}

/// How far an engine's search of the game and ply it was asked about has got.
#[derive(Debug, Clone, Copy)]
pub(super) struct BotThinking {
    pub game: GameId,
    pub ply: usize,
    pub color: Color,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
}

/// What an engine seat tells its table.
#[derive(Debug, Clone, Copy)]
pub(super) enum BotNews {
    /// It chose an action.
    Moved(BotMove),
    /// It is still thinking.
    Thinking(BotThinking),
}

/// The limits of an engine seat's search of `position`: with `clocks` (a timed game,
/// as they stand `now`) its own clock management under [`SEAT_CAP`], without the cap
/// at full strength; untimed or by correspondence (days it need not spend), a fixed
/// time a decision, a third of it for a row or ring to remove (the ring move before
/// did most of the work).
pub(super) fn seat_limits(
    position: &Position,
    clocks: Option<&Clocks>,
    full: bool,
    now: Instant,
) -> Limits {
    let color = position.turn();
    let removal = matches!(
        position.stage(),
        Stage::RemoveRow { .. } | Stage::RemoveRing { .. }
    );
    match clocks.filter(|c| !c.per_turn) {
        Some(c) => Limits {
            clock: Some(Clock {
                wtime: c.left(Color::White, color == Color::White, now),
                btime: c.left(Color::Black, color == Color::Black, now),
                winc: c.increment,
                binc: c.increment,
            }),
            cap: (!full).then_some(SEAT_CAP),
            ..Limits::default()
        },
        None => {
            let movetime = if full { BOT_UNTIMED_FULL } else { BOT_UNTIMED };
            Limits {
                movetime: Some(if removal { movetime / 3 } else { movetime }),
                ..Limits::default()
            }
        }
    }
}

/// Whether a progress report `info` is worth telling, `told` being when (in the
/// search's time) the last one was: not for quick decisions, and not too often.
fn worth_telling(info: &SearchInfo, told: Option<Duration>) -> bool {
    info.depth > 0
        && info.time >= THINKING_FIRST
        && told.is_none_or(|t| info.time >= t + THINKING_EVERY)
}

type Shared = Arc<Mutex<Box<dyn Engine>>>;

/// A table's engines and the search under way.
pub(super) struct Bots {
    factory: Option<BotFactory>,
    engines: ByColor<Option<(Level, Shared)>>,
    /// The position asked about last (game and ply), and how to stop that search.
    asked: Option<(GameId, usize, Arc<AtomicBool>)>,
    tx: mpsc::Sender<BotNews>,
    slots: Arc<Semaphore>,
}

impl Bots {
    pub(super) fn new(
        factory: Option<BotFactory>,
        slots: Arc<Semaphore>,
        tx: mpsc::Sender<BotNews>,
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
        let limits = seat_limits(
            &turn.position,
            turn.clocks.as_ref(),
            turn.full,
            Instant::now(),
        );
        let (game, ply, position, color) = (turn.game, turn.ply, turn.position, turn.color);
        let tx = self.tx.clone();
        let slots = self.slots.clone();
        tokio::spawn(async move {
            // One search per core at a time, server-wide.
            let Ok(slot) = slots.clone().acquire_owned().await else {
                return;
            };
            // A second core, when no other engine seat wants it right now: two search
            // threads (Lazy SMP) play about a hundred Elo stronger (docs/engine.md).
            let second = slots.try_acquire_owned().ok();
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let _ = tokio::task::spawn_blocking(move || {
                let mut told = None;
                let mut report = |info: &SearchInfo| {
                    if worth_telling(info, told) {
                        told = Some(info.time);
                        // Never held up: a report the table has no room for is dropped.
                        let _ = tx.try_send(BotNews::Thinking(BotThinking {
                            game,
                            ply,
                            color,
                            depth: info.depth,
                            nodes: info.nodes,
                            time: info.time,
                        }));
                    }
                };
                let result = {
                    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    engine.set_threads(if second.is_some() { 2 } else { 1 });
                    engine.search(&position, &limits, &stop, &mut report)
                };
                drop((slot, second));
                if !stop.load(Ordering::Relaxed) {
                    let _ = tx.blocking_send(BotNews::Moved(BotMove {
                        game,
                        ply,
                        action: result.best,
                    }));
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

#[cfg(test)]
mod tests {
    use super::*;
    use yinsh::notation::record::TimeControl;
    use yinsh_engine::Score;

    /// The position after `tokens`.
    fn after(tokens: &str) -> Position {
        let mut pos = Position::new();
        for t in tokens.split_whitespace() {
            pos.play(t.parse().unwrap()).unwrap();
        }
        pos
    }

    #[test]
    fn a_seat_is_capped_unless_the_table_wants_full_strength() {
        let now = Instant::now();
        let tc = TimeControl {
            initial_secs: 600,
            increment_secs: 5,
        };
        let mut clocks = Clocks::new(tc, now);
        clocks.remaining.white = Duration::from_secs(500);
        let later = now + Duration::from_secs(2);
        let black = after("e5");
        let quick = seat_limits(&black, Some(&clocks), false, later);
        assert_eq!(quick.cap, Some(SEAT_CAP));
        let clock = quick.clock.unwrap();
        // The engine's (running) clock is charged up to now, the other one is not.
        assert_eq!(
            (clock.wtime, clock.btime, clock.binc),
            (
                Duration::from_secs(500),
                Duration::from_secs(598),
                Duration::from_secs(5)
            )
        );
        let full = seat_limits(&black, Some(&clocks), true, later);
        assert_eq!((full.cap, full.clock), (None, quick.clock));
        // Untimed: a fixed time a decision, longer at full strength, a third of it for
        // a row to remove.
        let start = Position::new();
        assert_eq!(
            seat_limits(&start, None, false, now).movetime,
            Some(BOT_UNTIMED)
        );
        assert_eq!(
            seat_limits(&start, None, true, now).movetime,
            Some(BOT_UNTIMED_FULL)
        );
        let row = after(
            "e6 f7 e1 g6 f2 d1 a2 e9 b1 h8 b1-b2 f7-f3 b2-b3 d1-d9 a2-a3 d9-d2 b3-b4 \
             e9-e7 a3-a4 d2-d5 b4-b5 e7-b7 a4-a5 b7-d7 b5-c5",
        );
        assert!(matches!(row.stage(), Stage::RemoveRow { .. }));
        assert_eq!(
            seat_limits(&row, None, false, now).movetime,
            Some(BOT_UNTIMED / 3)
        );
    }

    #[test]
    fn progress_is_told_after_a_moment_and_not_too_often() {
        let info = |depth, ms| SearchInfo {
            depth,
            score: Score::Cp(0),
            nodes: 1,
            time: Duration::from_millis(ms),
            pv: Vec::new(),
        };
        assert!(!worth_telling(&info(5, 120), None));
        assert!(worth_telling(&info(6, 310), None));
        assert!(!worth_telling(
            &info(7, 700),
            Some(Duration::from_millis(310))
        ));
        assert!(worth_telling(
            &info(8, 900),
            Some(Duration::from_millis(310))
        ));
        // An engine that does not say how deep it is has nothing to tell.
        assert!(!worth_telling(&info(0, 2000), None));
    }
}
