//! The engine thinking live about a position of the analysis board (`analyse`): its
//! line after each depth goes to the connection that asked, as `engine_line`.
//!
//! Searches take the place of nobody's game: they have slots of their own
//! ([`Config::live_engines`](crate::Config::live_engines), one engine thread each),
//! apart from the engine seats' and the analysis workers', and a time limit
//! ([`Config::live_time`](crate::Config::live_time)). A connection has one search at a
//! time; asking again, `stop_analyse` or closing the connection ends it, also while it
//! still waits for a slot.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{Notify, Semaphore};
use yinsh::Position;
use yinsh_engine::analysis::Eval;
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits, SearchInfo};

use crate::analysis::eval_view;
use crate::protocol::{SeatColor, ServerMessage};
use crate::table::{Conn, to_text};

/// How long one search thinks unless asked to stop.
pub const TIME: Duration = Duration::from_secs(10);
/// The hash table of one search (MiB): live searches are short.
const HASH_MB: usize = 16;

/// The searches of the whole server.
#[derive(Clone)]
pub struct Live {
    slots: Arc<Semaphore>,
    engines: usize,
    time: Duration,
}

impl Live {
    /// Room for `engines` searches at once, each thinking at most `time`.
    pub fn new(engines: usize, time: Duration) -> Live {
        Live {
            slots: Arc::new(Semaphore::new(engines)),
            engines,
            time,
        }
    }

    /// Whether searches may run at all (a server may leave them off).
    pub fn enabled(&self) -> bool {
        self.engines > 0
    }

    /// Whether a search asked for now must wait for a slot.
    pub fn busy(&self) -> bool {
        self.slots.available_permits() == 0
    }

    /// Starts searching `position` for `conn`; `asked` is the position string the
    /// client sent and `id` its request's id, both echoed in every line. The search
    /// ends when the result is dropped.
    pub fn start(&self, conn: &Conn, position: Position, asked: String, id: Option<u64>) -> Search {
        let search = Search {
            stop: Arc::new(AtomicBool::new(false)),
            stopped: Arc::new(Notify::new()),
            running: Arc::new(AtomicBool::new(false)),
        };
        let (stop, stopped) = (search.stop.clone(), search.stopped.clone());
        let running = search.running.clone();
        let (tx, slots, time) = (conn.tx.clone(), self.slots.clone(), self.time);
        tokio::spawn(async move {
            if position.is_over() {
                let eval = Eval::Over(position.outcome().and_then(|o| o.winner));
                let _ = tx.try_send(to_text(&line(&asked, id, &position, eval, None, true)));
                return;
            }
            let slot = tokio::select! {
                slot = slots.acquire_owned() => match slot {
                    Ok(slot) => slot,
                    Err(_) => return,
                },
                () = stopped.notified() => return,
            };
            running.store(true, Ordering::Relaxed);
            let _ = tokio::task::spawn_blocking(move || {
                let mut engine = Searcher::with_hash_size(HASH_MB);
                engine.set_threads(1);
                engine.new_game(*position.rules());
                let limits = Limits {
                    movetime: Some(time),
                    ..Limits::default()
                };
                let to_act = position.turn();
                let eval = |info: &SearchInfo| Eval::of_search(info.score, to_act);
                // The depth and line last sent: the engine reports the unfinished
                // iteration it stops in, which the last line says anyway.
                let mut sent: Option<(u32, Vec<yinsh::Action>)> = None;
                let result = engine.search(&position, &limits, &stop, &mut |info| {
                    if sent.as_ref() == Some(&(info.depth, info.pv.clone())) {
                        return;
                    }
                    sent = Some((info.depth, info.pv.clone()));
                    // A client that reads slowly misses a depth, not the search.
                    let text = line(&asked, id, &position, eval(info), Some(info), false);
                    let _ = tx.try_send(to_text(&text));
                });
                drop(slot);
                running.store(false, Ordering::Relaxed);
                if !stop.load(Ordering::Relaxed) {
                    let info = Some(&result.info);
                    let last = line(&asked, id, &position, eval(&result.info), info, true);
                    let _ = tx.blocking_send(to_text(&last));
                }
            })
            .await;
        });
        search
    }
}

/// One connection's search; dropping it stops the search.
pub struct Search {
    stop: Arc<AtomicBool>,
    stopped: Arc<Notify>,
    /// Whether it holds a slot now (it searches).
    running: Arc<AtomicBool>,
}

impl Search {
    /// Whether it holds a slot: a search that replaces it takes that slot.
    pub fn running(&self) -> bool {
        self.running.load(Ordering::Relaxed)
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Remembered when nobody waits yet: a search still on its way to the slot
        // queue sees it there.
        self.stopped.notify_one();
    }
}

fn line(
    asked: &str,
    id: Option<u64>,
    position: &Position,
    eval: Eval,
    info: Option<&SearchInfo>,
    done: bool,
) -> ServerMessage {
    let pv = info.map_or(&[][..], |i| &i.pv[..]);
    // Who plays each action: the line is the engine's own, legal from the position.
    let mut pos = *position;
    let movers = pv
        .iter()
        .map(|&a| {
            let mover = SeatColor::from(pos.turn());
            pos.play_unchecked(a);
            mover
        })
        .collect();
    ServerMessage::EngineLine {
        id,
        position: asked.to_owned(),
        depth: info.map_or(0, |i| i.depth),
        eval: eval_view(eval),
        line: pv.iter().map(|a| a.to_string()).collect(),
        movers,
        nodes: info.map_or(0, |i| i.nodes),
        time_ms: info.map_or(0, |i| i.time.as_millis() as u64),
        done,
    }
}
