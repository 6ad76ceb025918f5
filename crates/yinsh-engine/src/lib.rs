//! The YINSH engine: an alpha-beta search with an evaluation of its own, a plain UCT
//! baseline, time management for real clocks, strength levels for humans, and the
//! engine text protocol that lets the platform (and any other program) use them.
//!
//! Every engine implements [`Engine`]; the protocol ([`protocol`]) drives any of them.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use yinsh::{Action, Position, Rules};

pub mod analysis;
pub mod eval;
pub mod learned;
pub mod mcts;
pub mod protocol;
pub mod search;
pub mod time;

/// Strength levels for humans: 1 (beginner) to 10 (full strength).
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// What bounds one search. Fields left `None` do not limit it; with no limit at all
/// the search runs until it is stopped (or reaches its deepest depth).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// Time left on the clocks, white and black.
    pub clock: Option<Clock>,
    /// Search no deeper than this many ring moves (iterations).
    pub depth: Option<u32>,
    /// Search no more than this many nodes (or playouts).
    pub nodes: Option<u64>,
    /// With clocks: the most one decision may take, whatever the clock would allow (an
    /// opponent who respects a human's time; see [`time::budget`]).
    pub cap: Option<Duration>,
}

/// The state of both clocks when a search starts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's remaining time.
    pub wtime: Duration,
    /// Black's remaining time.
    pub btime: Duration,
    /// White's increment per turn.
    pub winc: Duration,
    /// Black's increment per turn.
    pub binc: Duration,
}

/// A score from the point of view of the player to act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    /// An evaluation in hundredths of a removed ring.
    Cp(i32),
    /// A forced win (positive) or loss (negative) in this many actions.
    Win(i32),
}

impl std::fmt::Display for Score {
    /// Formats as the protocol writes it: `cp 35` or `win 3` / `win -4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Win(n) => write!(f, "win {n}"),
        }
    }
}

/// Progress of a search, reported after each iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth completed (ring moves, for alpha-beta; tree depth for UCT).
    pub depth: u32,
    /// Score of the best line.
    pub score: Score,
    /// Nodes searched (or playouts run) so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time: Duration,
    /// The principal variation: the best action first.
    pub pv: Vec<Action>,
}

impl SearchInfo {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// The answer of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The action to play.
    pub best: Action,
    /// The last progress report.
    pub info: SearchInfo,
}

/// A YINSH player that can search a position. Both the real engine and the UCT
/// baseline implement it.
pub trait Engine: Send {
    /// A name for `id` lines and records.
    fn name(&self) -> String;

    /// Forgets everything about the previous game (hash tables, trees).
    fn new_game(&mut self, rules: Rules);

    /// Sets the strength level (clamped to [`LEVELS`]).
    fn set_level(&mut self, level: u8);

    /// Sets how many threads the next searches may use. An engine that searches on
    /// one thread only ignores it.
    fn set_threads(&mut self, _threads: usize) {}

    /// Searches `pos` (not finished) within `limits` or until `stop` becomes true, calling
    /// `report` with progress, and returns the action to play, always a legal one.
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult;
}
