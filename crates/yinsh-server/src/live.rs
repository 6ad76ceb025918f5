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
use crate::protocol::ServerMessage;
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

    /// Starts searching `position` for `conn`; `asked` is the position string the
    /// client sent, echoed in every line. The search ends when the result is dropped.
    pub fn start(&self, conn: &Conn, position: Position, asked: String) -> Search {
        let search = Search {
            stop: Arc::new(AtomicBool::new(false)),
            stopped: Arc::new(Notify::new()),
        };
        let (stop, stopped) = (search.stop.clone(), search.stopped.clone());
        let (tx, slots, time) = (conn.tx.clone(), self.slots.clone(), self.time);
        tokio::spawn(async move {
            if position.is_over() {
                let eval = Eval::Over(position.outcome().and_then(|o| o.winner));
                let _ = tx.try_send(to_text(&line(&asked, eval, None, true)));
                return;
            }
            let slot = tokio::select! {
                slot = slots.acquire_owned() => match slot {
                    Ok(slot) => slot,
                    Err(_) => return,
                },
                () = stopped.notified() => return,
            };
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
                    let _ = tx.try_send(to_text(&line(&asked, eval(info), Some(info), false)));
                });
                drop(slot);
                if !stop.load(Ordering::Relaxed) {
                    let last = line(&asked, eval(&result.info), Some(&result.info), true);
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
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Remembered when nobody waits yet: a search still on its way to the slot
        // queue sees it there.
        self.stopped.notify_one();
    }
}

fn line(asked: &str, eval: Eval, info: Option<&SearchInfo>, done: bool) -> ServerMessage {
    ServerMessage::EngineLine {
        position: asked.to_owned(),
        depth: info.map_or(0, |i| i.depth),
        eval: eval_view(eval),
        line: info.map_or_else(Vec::new, |i| i.pv.iter().map(|a| a.to_string()).collect()),
        nodes: info.map_or(0, |i| i.nodes),
        time_ms: info.map_or(0, |i| i.time.as_millis() as u64),
        done,
    }
}
