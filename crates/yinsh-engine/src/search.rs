//! The real engine: iterative-deepening alpha-beta (principal variation search) with a
//! shared transposition table, killer and history move ordering, late-move reductions,
//! and Lazy SMP over several threads.
//!
//! Depth is counted in *decisions*: a placement, a ring move or a pass costs one ply of
//! depth; the row and ring choices that follow a move are searched at no cost, so every
//! line ends at a position where a ring must be placed or moved. The side to act does
//! not alternate with every action (a player removes a row and then a ring, and the
//! opponent may remove before moving), so the score is negated only when the player to
//! act changes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use yinsh::random::SplitMix64;
use yinsh::{Action, Actions, Line, Point, Position, Row, Rules, Stage};

use crate::eval::{self, WIN, WIN_BOUND, Weights};
use crate::time::{self, Budget};
use crate::{Engine, LEVELS, Limits, Score, SearchInfo, SearchResult};

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;
/// Longest line of actions searched (decisions plus removals).
const MAX_PLY: usize = 160;
const INF: i32 = WIN + 1;

// ---------------------------------------------------------------------------------------
// Transposition table

/// Kind of bound a table entry holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// A lock-free transposition table shared by all search threads. Each entry is two
/// atomic words: the data, and the key XOR the data, so a torn write (two threads
/// storing at once) reads back as a miss instead of a wrong entry.
pub struct TransTable {
    entries: Vec<[AtomicU64; 2]>,
    mask: usize,
    /// Whether anything was stored since the last clear (clearing is skipped if not).
    used: AtomicBool,
}

#[derive(Clone, Copy)]
struct Entry {
    score: i32,
    depth: u8,
    bound: Bound,
    action: Option<Action>,
}

fn encode_action(a: Action) -> u32 {
    match a {
        Action::Place(p) => 1 | (p.index() as u32) << 3,
        Action::Move { from, to } => 2 | (from.index() as u32) << 3 | (to.index() as u32) << 10,
        Action::RemoveRow(row) => 3 | (row.start().index() as u32) << 3 | (row.line() as u32) << 10,
        Action::RemoveRing(p) => 4 | (p.index() as u32) << 3,
        Action::Pass => 5,
    }
}

fn decode_action(bits: u32) -> Option<Action> {
    let a = || Point::from_index(((bits >> 3) & 0x7f) as usize);
    let b = (bits >> 10) & 0x7f;
    match bits & 7 {
        1 => a().map(Action::Place),
        2 => Some(Action::Move {
            from: a()?,
            to: Point::from_index(b as usize)?,
        }),
        3 => {
            let line = *Line::ALL.get(b as usize)?;
            Row::new(a()?, line).map(Action::RemoveRow)
        }
        4 => a().map(Action::RemoveRing),
        5 => Some(Action::Pass),
        _ => None,
    }
}

impl TransTable {
    /// A table of about `megabytes` MiB.
    pub fn new(megabytes: usize) -> TransTable {
        let n = (megabytes.max(1) * 1024 * 1024 / 16).next_power_of_two() / 2;
        TransTable {
            entries: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: n - 1,
            used: AtomicBool::new(false),
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        if !self.used.swap(false, Ordering::Relaxed) {
            return;
        }
        for e in &self.entries {
            e[0].store(0, Ordering::Relaxed);
            e[1].store(0, Ordering::Relaxed);
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.entries[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        if slot[0].load(Ordering::Relaxed) ^ data != key || data == 0 {
            return None;
        }
        let bound = match (data >> 40) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            score: (data as u32) as i32,
            depth: (data >> 32) as u8,
            bound,
            action: decode_action((data >> 42) as u32 & 0x1ffff),
        })
    }

    fn store(&self, key: u64, e: Entry) {
        let slot = &self.entries[key as usize & self.mask];
        let data = u64::from(e.score as u32)
            | u64::from(e.depth) << 32
            | (e.bound as u64) << 40
            | u64::from(e.action.map_or(0, encode_action)) << 42;
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
    }
}

/// The transposition table's key of a position: its hash, and with a turn limit also
/// the ring moves played, since two positions that differ only in that count are then
/// different games (the position hash leaves it out). The rules are the same for every
/// position of a search: the table is cleared when a game starts.
fn table_key(pos: &Position) -> u64 {
    match pos.rules().turn_limit {
        None => pos.hash(),
        Some(_) => pos.hash() ^ u64::from(pos.ring_moves()).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    }
}

/// Win scores are stored relative to the node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The protocol's view of an internal score.
pub fn to_score(score: i32) -> Score {
    if score >= WIN_BOUND {
        Score::Win(WIN - score)
    } else if score <= -WIN_BOUND {
        Score::Win(-(WIN + score))
    } else {
        Score::Cp(score / 10)
    }
}

// ---------------------------------------------------------------------------------------
// Strength levels

/// How a level limits the search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelSettings {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Node budget per decision, if any.
    pub max_nodes: Option<u64>,
    /// Standard deviation of the noise added to each root action's score, in
    /// thousandths of a ring (0: always the best action).
    pub noise: i32,
}

/// The settings of a level (1 to 10).
pub fn level_settings(level: u8) -> LevelSettings {
    let (max_depth, max_nodes, noise) = match level.clamp(*LEVELS.start(), *LEVELS.end()) {
        1 => (1, None, 800),
        2 => (1, None, 250),
        3 => (2, None, 250),
        4 => (2, None, 50),
        5 => (3, None, 50),
        6 => (4, None, 0),
        7 => (MAX_DEPTH, Some(25_000), 0),
        8 => (MAX_DEPTH, Some(60_000), 0),
        9 => (MAX_DEPTH, Some(250_000), 0),
        _ => (MAX_DEPTH, None, 0),
    };
    LevelSettings {
        max_depth,
        max_nodes,
        noise,
    }
}

// ---------------------------------------------------------------------------------------
// The engine

/// The alpha-beta engine.
pub struct Searcher {
    tt: Arc<TransTable>,
    weights: Weights,
    level: u8,
    threads: usize,
    rng: SplitMix64,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// Full strength, one thread, a 32 MiB table.
    pub fn new() -> Searcher {
        Searcher::with_hash_size(32)
    }

    /// Full strength, one thread, a transposition table of about `megabytes` MiB.
    pub fn with_hash_size(megabytes: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TransTable::new(megabytes)),
            weights: Weights::default(),
            level: *LEVELS.end(),
            threads: 1,
            rng: SplitMix64::new(0x5eed),
        }
    }

    /// Uses `threads` search threads (Lazy SMP).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, 64);
    }

    /// Replaces the evaluation weights.
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = weights;
    }

    /// Reseeds the generator behind the noise of the lower levels.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = SplitMix64::new(seed);
    }
}

impl Engine for Searcher {
    fn name(&self) -> String {
        format!(
            "yinsh-engine {} (level {})",
            env!("CARGO_PKG_VERSION"),
            self.level
        )
    }

    fn new_game(&mut self, _rules: Rules) {
        self.tt.clear();
    }

    fn set_level(&mut self, level: u8) {
        self.level = level.clamp(*LEVELS.start(), *LEVELS.end());
    }

    fn set_threads(&mut self, threads: usize) {
        Searcher::set_threads(self, threads);
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let actions = pos.legal_actions();
        assert!(!actions.is_empty(), "search of a finished game");
        let settings = level_settings(self.level);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .min(settings.max_depth)
            .max(1);
        let max_nodes = match (limits.nodes, settings.max_nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if actions.len() == 1 {
            let info = SearchInfo {
                depth: 0,
                score: to_score(eval::evaluate_any(pos, &self.weights)),
                nodes: 0,
                time: start.elapsed(),
                pv: vec![actions[0]],
            };
            report(&info);
            return SearchResult {
                best: actions[0],
                info,
            };
        }
        let budget = time::budget(pos, limits);
        let tt = Arc::clone(&self.tt);
        let shared = Shared {
            tt: &tt,
            stop,
            halt: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            max_nodes,
            hard: budget.hard.map(|d| start + d),
            start,
        };
        if settings.noise > 0 {
            // Noisy levels are bounded by their depth; a node cap would cut the scoring
            // of the root actions short.
            let shared = Shared {
                max_nodes: limits.nodes,
                ..shared
            };
            return self.noisy_root(pos, &actions, max_depth, settings.noise, &shared, report);
        }
        let weights = self.weights;
        let helpers = self.threads - 1;
        std::thread::scope(|scope| {
            for id in 0..helpers {
                let shared = &shared;
                scope.spawn(move || {
                    let mut w = Worker::new(shared, weights);
                    // Helpers start one or two plies deeper than the main thread so the
                    // threads spread over different depths and fill the table for it.
                    for depth in (2 + (id as u32 % 2))..=max_depth {
                        w.root(pos, depth, None);
                        if w.aborted() {
                            break;
                        }
                    }
                });
            }
            let result = main_loop(pos, &actions, max_depth, budget, weights, &shared, report);
            shared.halt.store(true, Ordering::Relaxed);
            result
        })
    }
}

impl Searcher {
    /// Lower levels: score every root action exactly at a shallow depth, add noise, and
    /// play the best noisy score, so that weak play still looks like play.
    fn noisy_root(
        &mut self,
        pos: &Position,
        actions: &Actions,
        depth: u32,
        noise: i32,
        shared: &Shared<'_>,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut w = Worker::new(shared, self.weights);
        let mut best = (i32::MIN, actions[0], 0);
        for &a in actions {
            let mut child = *pos;
            child.play_unchecked(a);
            let d = depth as i32 - i32::from(consumes_depth(a));
            let s = w.child_score(pos, &child, d, -INF, INF, 1);
            if w.aborted() {
                break; // out of time: choose among the actions scored so far
            }
            // A sum of uniform draws approximates a normal distribution.
            let jitter: i32 = (0..4)
                .map(|_| self.rng.below(2 * noise as usize + 1) as i32 - noise)
                .sum::<i32>()
                / 2;
            // Never let noise hide a win or invent a loss.
            let noisy = if s.abs() >= WIN_BOUND { s } else { s + jitter };
            if noisy > best.0 {
                best = (noisy, a, s);
            }
        }
        let info = SearchInfo {
            depth,
            score: to_score(best.2),
            nodes: shared.total_nodes(&w),
            time: shared.start.elapsed(),
            pv: vec![best.1],
        };
        report(&info);
        SearchResult { best: best.1, info }
    }
}

/// Iterative deepening on the main thread.
fn main_loop(
    pos: &Position,
    actions: &Actions,
    max_depth: u32,
    budget: Budget,
    weights: Weights,
    shared: &Shared<'_>,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let mut w = Worker::new(shared, weights);
    let mut best = actions[0];
    let mut last: Option<SearchInfo> = None;
    let mut soft = budget.soft;
    let mut previous_best = None;
    let mut aborted = false;
    // How long the last two iterations took (for `budget.predict`).
    let mut lengths: [Option<Duration>; 2] = [None, None];
    for depth in 1..=max_depth {
        let began = shared.start.elapsed();
        let Some((score, pv)) = w.root(pos, depth, Some(best)) else {
            // Aborted: a partial iteration still improves the move when its first (the
            // previous best) action was searched and a better one found.
            if let Some(a) = w.partial_best {
                best = a;
            }
            aborted = true;
            break;
        };
        best = pv[0];
        let info = SearchInfo {
            depth,
            score: to_score(score),
            nodes: shared.total_nodes(&w),
            time: shared.start.elapsed(),
            pv,
        };
        report(&info);
        last = Some(info);
        if score >= WIN_BOUND && (WIN - score) as u32 <= depth {
            // A forced win within the horizon. A forced loss does not end the search:
            // a deeper iteration may still find a defence that a reduction hid, or at
            // least the longest resistance.
            break;
        }
        // Instability: when the best action changes, allow more time (once per change).
        if previous_best.is_some_and(|p| p != best)
            && let (Some(s), Some(h)) = (soft, budget.hard)
        {
            soft = Some((s + s / 2).min(h));
        }
        previous_best = Some(best);
        let elapsed = shared.start.elapsed();
        if let Some(s) = soft
            && elapsed >= s
        {
            break;
        }
        lengths = [lengths[1], Some(elapsed - began)];
        if budget.predict
            && let (Some(h), [Some(before), Some(now)]) = (budget.hard, lengths)
        {
            let growth = (now.as_secs_f64() / before.as_secs_f64().max(1e-6)).clamp(1.5, 12.0);
            if elapsed + now.mul_f64(growth) > h {
                break;
            }
        }
    }
    let mut info = last.unwrap_or_else(|| SearchInfo {
        depth: 0,
        score: Score::Cp(0),
        nodes: shared.total_nodes(&w),
        time: shared.start.elapsed(),
        pv: vec![best],
    });
    if info.pv.first() != Some(&best) {
        info.pv = vec![best];
    }
    info.nodes = shared.total_nodes(&w);
    info.time = shared.start.elapsed();
    if aborted {
        // The last iteration was cut short: report the totals of the whole search and
        // the action it settled on.
        report(&info);
    }
    SearchResult { best, info }
}

/// How many plies a late quiet decision (the `index`-th in the order) is reduced by at
/// `depth`: grows with the logarithms of both.
#[inline]
fn lmr(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (i as f64).ln() / LMR_DIVISOR) as u8;
            }
        }
        t
    });
    i32::from(table[(depth as usize).min(63)][index.min(63)]).max(1)
}

/// The divisor of the late-move reduction formula (larger: gentler reductions).
const LMR_DIVISOR: f64 = 2.0;

/// Whether an action costs a ply of depth.
#[inline]
fn consumes_depth(a: Action) -> bool {
    matches!(a, Action::Place(_) | Action::Move { .. } | Action::Pass)
}

/// State shared by the threads of one search.
struct Shared<'a> {
    tt: &'a TransTable,
    /// Set from outside (`stop`).
    stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to end the helpers.
    halt: AtomicBool,
    /// Nodes of finished workers and of helpers, flushed periodically.
    nodes: AtomicU64,
    max_nodes: Option<u64>,
    hard: Option<Instant>,
    start: Instant,
}

impl Shared<'_> {
    fn total_nodes(&self, w: &Worker<'_>) -> u64 {
        self.nodes.load(Ordering::Relaxed) + w.nodes - w.flushed
    }
}

struct Worker<'a> {
    shared: &'a Shared<'a>,
    weights: Weights,
    nodes: u64,
    flushed: u64,
    abort: bool,
    killers: Box<[[Option<Action>; 2]; MAX_PLY]>,
    history: Box<[[i32; 121]; 121]>,
    pv: Box<[[Option<Action>; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// In an aborted root iteration: a root action found better than the first.
    partial_best: Option<Action>,
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, weights: Weights) -> Worker<'a> {
        Worker {
            shared,
            weights,
            nodes: 0,
            flushed: 0,
            abort: false,
            killers: Box::new([[None; 2]; MAX_PLY]),
            history: Box::new([[0; 121]; 121]),
            pv: Box::new([[None; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            partial_best: None,
        }
    }

    fn aborted(&self) -> bool {
        self.abort
    }

    /// Checks the clock, the node budget and the stop flags every 1024 nodes.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 != 0 {
            return;
        }
        let s = self.shared;
        s.nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        if s.stop.load(Ordering::Relaxed)
            || s.halt.load(Ordering::Relaxed)
            || s.hard.is_some_and(|h| Instant::now() >= h)
            || s.max_nodes
                .is_some_and(|m| s.nodes.load(Ordering::Relaxed) >= m)
        {
            self.abort = true;
        }
    }

    /// One root iteration; `None` when aborted.
    fn root(
        &mut self,
        pos: &Position,
        depth: u32,
        first: Option<Action>,
    ) -> Option<(i32, Vec<Action>)> {
        self.partial_best = None;
        self.abort = false;
        let mut actions = pos.legal_actions();
        let tt_move = first.or_else(|| self.shared.tt.probe(table_key(pos)).and_then(|e| e.action));
        self.order(pos, &mut actions, tt_move, 0);
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<Action> = None;
        for (i, &a) in actions.iter().enumerate() {
            let mut child = *pos;
            child.play_unchecked(a);
            let d = depth as i32 - i32::from(consumes_depth(a));
            let score = if i == 0 {
                self.child_score(pos, &child, d, alpha, beta, 1)
            } else {
                let s = self.child_score(pos, &child, d, alpha, alpha + 1, 1);
                if s > alpha && !self.abort {
                    self.child_score(pos, &child, d, alpha, beta, 1)
                } else {
                    s
                }
            };
            if self.abort {
                return None;
            }
            if score > alpha || best.is_none() {
                alpha = score;
                best = Some(a);
                self.set_pv(0, a);
                if i > 0 {
                    self.partial_best = Some(a);
                }
            }
        }
        let best = best?;
        self.shared.tt.store(
            table_key(pos),
            Entry {
                score: to_table(alpha, 0),
                depth: depth as u8,
                bound: Bound::Exact,
                action: Some(best),
            },
        );
        let pv: Vec<Action> = self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect();
        Some((alpha, pv))
    }

    fn set_pv(&mut self, ply: usize, a: Action) {
        self.pv[ply][0] = Some(a);
        let next = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..next.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next.min(MAX_PLY - 1) + 1;
    }

    /// The score of `child` (reached from `parent`) from `parent`'s side to act.
    #[inline]
    fn child_score(
        &mut self,
        parent: &Position,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if child.turn() == parent.turn() {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply.min(MAX_PLY - 1)] = 0;
        self.tick();
        if self.abort {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner {
                Some(c) if c == pos.turn() => WIN - ply as i32,
                Some(_) => -(WIN - ply as i32),
                None => 0,
            };
        }
        let removal = matches!(
            pos.stage(),
            Stage::RemoveRow { .. } | Stage::RemoveRing { .. }
        );
        if (depth <= 0 && !removal) || ply >= MAX_PLY - 1 {
            return eval::evaluate(pos, &self.weights);
        }
        let key = table_key(pos);
        let mut tt_move = None;
        if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.action;
            if i32::from(e.depth) >= depth && ply > 0 {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut actions = pos.legal_actions();
        self.order(pos, &mut actions, tt_move, ply);
        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_action = None;
        for (i, &a) in actions.iter().enumerate() {
            let mut child = *pos;
            child.play_unchecked(a);
            let full = depth - i32::from(consumes_depth(a));
            // Late-move reduction: late, quiet decisions are searched shallower first
            // (the later in the order, the shallower), and again at full depth only if
            // they look good. A move that makes a row is never quiet.
            let quiet = i >= 3
                && Some(a) != tt_move
                && !self.is_killer(ply, a)
                && !matches!(
                    child.stage(),
                    Stage::RemoveRow { .. } | Stage::RemoveRing { .. }
                );
            let reduced = if depth >= 2 && quiet && consumes_depth(a) {
                (full - lmr(depth, i)).max(0)
            } else {
                full
            };
            let score = if i == 0 {
                self.child_score(pos, &child, full, alpha, beta, ply + 1)
            } else {
                let mut s = self.child_score(pos, &child, reduced, alpha, alpha + 1, ply + 1);
                if s > alpha && reduced < full && !self.abort {
                    s = self.child_score(pos, &child, full, alpha, alpha + 1, ply + 1);
                }
                if s > alpha && s < beta && !self.abort {
                    s = self.child_score(pos, &child, full, alpha, beta, ply + 1);
                }
                s
            };
            if self.abort {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_action = Some(a);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, a);
                    if score >= beta {
                        if let Action::Move { from, to } = a {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(a) {
                                k[1] = k[0];
                                k[0] = Some(a);
                            }
                            let h = &mut self.history[from.index()][to.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                score: to_table(best_score, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
                action: best_action,
            },
        );
        best_score
    }

    fn is_killer(&self, ply: usize, a: Action) -> bool {
        self.killers[ply.min(MAX_PLY - 1)].contains(&Some(a))
    }

    /// Orders actions best-first: the table's action, killers, then history and a
    /// static guess (markers flipped to the player's colour).
    fn order(&self, pos: &Position, actions: &mut Actions, tt_move: Option<Action>, ply: usize) {
        let me = pos.turn();
        let ply = ply.min(MAX_PLY - 1);
        let mut keyed: arrayvec::ArrayVec<(i32, Action), { yinsh::MAX_ACTIONS }> = actions
            .iter()
            .map(|&a| {
                let k = if Some(a) == tt_move {
                    1 << 30
                } else if self.killers[ply][0] == Some(a) {
                    1 << 28
                } else if self.killers[ply][1] == Some(a) {
                    (1 << 28) - 1
                } else {
                    match a {
                        Action::Move { from, to } => {
                            let flipped = pos.markers_between(from, to);
                            let gain = (flipped & pos.markers(!me)).count() as i32
                                - (flipped & pos.markers(me)).count() as i32;
                            self.history[from.index()][to.index()] + 64 * gain
                        }
                        Action::Place(p) => placement_guess(p),
                        _ => 0,
                    }
                };
                (k, a)
            })
            .collect();
        keyed.sort_unstable_by_key(|&(k, _)| std::cmp::Reverse(k));
        actions.clear();
        actions.extend(keyed.into_iter().map(|(_, a)| a));
    }
}

/// Placements near the centre first.
fn placement_guess(p: Point) -> i32 {
    let dc = i32::from(p.col()) - 5;
    let dr = i32::from(p.row()) - 5;
    -(dc.abs().max(dr.abs()).max((dc - dr).abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_move_count_keys_the_table_only_with_a_turn_limit() {
        let board = "W3/W6/W7/9/2wwwwW3/1B7/B9/B8/B7/B6/W3 w move 0-0 3-3";
        let pos = |moves: &str| Position::from_fen(&format!("{board} {moves}")).unwrap();
        // The position hash leaves the count out.
        assert_eq!(pos("4").hash(), pos("6").hash());
        assert_eq!(table_key(&pos("4")), table_key(&pos("6")));
        assert_eq!(table_key(&pos("4")), pos("4").hash());
        // With a turn limit the same board four or six ring moves in is another game.
        assert_ne!(table_key(&pos("4/20")), table_key(&pos("6/20")));
        assert_ne!(table_key(&pos("4/20")), pos("4/20").hash());
    }
}
