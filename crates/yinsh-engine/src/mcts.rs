//! A plain UCT baseline: Monte-Carlo tree search with the UCB1 selection rule and
//! uniformly random playouts to the end of the game, as the strongest open-source YINSH
//! programs do it. It has no evaluation of its own, so it is the yardstick the
//! alpha-beta engine ([`crate::search`]) is measured against.
//!
//! - **Tree.** Nodes live in one `Vec` arena and refer to each other by index. A node
//!   gains one child per visit (an untried action, drawn in a random order fixed per
//!   position) until all its actions are tried; then UCB1 picks among the children.
//! - **Rewards.** A playout scores 1 for a win, ½ for a draw and 0 for a loss, counted
//!   for the player who *chose the action into* each node: the player to act in the
//!   parent. The player to act does not alternate with every action (a player removes
//!   a row and then a ring; the opponent may remove before moving), so this is always
//!   read from the parent's [`Position::turn`], never from the depth.
//! - **Tree reuse.** The tree is kept between searches. When the next search is for a
//!   position a few actions below the old root (the engine's own move and the
//!   opponent's reply, with their removals), that subtree becomes the new root and the
//!   rest is dropped; otherwise the search starts afresh. [`Engine::new_game`] clears it.
//! - **Limits.** Time comes from [`crate::time::budget`] (the search stops at the hard
//!   limit), `nodes` counts playouts, and `depth` stops the search once the most-visited
//!   line is that many actions long (checked every [`CHECK_EVERY`] playouts).
//! - **Levels.** [`Engine::set_level`] is a no-op: the baseline always plays at full
//!   strength for the time it is given.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use yinsh::Position;
//! use yinsh_engine::mcts::Uct;
//! use yinsh_engine::{Engine, Limits};
//!
//! let mut uct = Uct::new();
//! let pos = Position::new();
//! let limits = Limits { nodes: Some(200), ..Limits::default() };
//! let result = uct.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
//! assert!(pos.is_legal(result.best));
//! assert_eq!(result.info.nodes, 200);
//! ```

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use yinsh::random::{SplitMix64, playout};
use yinsh::{Action, Actions, Color, Position, Rules};

use crate::{Engine, Limits, Score, SearchInfo, SearchResult};

/// Default exploration constant of UCB1 (rewards are in 0..1).
pub const DEFAULT_EXPLORATION: f64 = 0.5;
/// Default cap on the number of tree nodes (24 bytes each, so about 100 MB; a minute
/// of search at 60 000 playouts a second fits). When the arena is full the search goes
/// on with playouts from the leaves but no longer grows the tree.
pub const DEFAULT_MAX_NODES: usize = 4_000_000;
/// Playouts between two looks at the clock, the stop flag and the limits.
pub const CHECK_EVERY: u64 = 16;
/// How deep (in actions) below the old root a new search position is looked for.
pub const REUSE_DEPTH: usize = 12;
/// Interval between progress reports during a search.
const REPORT_EVERY: Duration = Duration::from_secs(1);
/// Largest centipawn-like score reported (a win rate of about 99.7 %).
const MAX_CP: i32 = 1000;
/// No node.
const NONE: u32 = u32::MAX;
/// `Node::n_actions` before the node's position has been looked at.
const UNKNOWN: u16 = u16::MAX;

/// One node of the tree.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// The action from the parent into this node (meaningless for the root).
    action: Action,
    /// First child, or [`NONE`]. Children form a singly linked list.
    first_child: u32,
    /// Next sibling, or [`NONE`].
    next_sibling: u32,
    /// Children created so far.
    children: u16,
    /// Legal actions of this node's position, or [`UNKNOWN`].
    n_actions: u16,
    /// Playouts through this node.
    visits: u32,
    /// Reward in half points (win 2, draw 1, loss 0) for the player who chose
    /// `action`, summed over the playouts.
    reward: u32,
}

impl Node {
    const fn new(action: Action) -> Node {
        Node {
            action,
            first_child: NONE,
            next_sibling: NONE,
            children: 0,
            n_actions: UNKNOWN,
            visits: 0,
            reward: 0,
        }
    }

    /// Mean reward for the player who chose `action`, in 0..=1.
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.reward as f64 / (2.0 * f64::from(self.visits))
        }
    }
}

/// The plain UCT baseline engine (see the [module documentation](self)).
pub struct Uct {
    nodes: Vec<Node>,
    /// The position at `nodes[0]`, when there is a tree.
    root_pos: Option<Position>,
    exploration: f64,
    max_nodes: usize,
    rng: SplitMix64,
    /// Mixed into the per-position order in which untried actions are expanded.
    salt: u64,
}

impl Default for Uct {
    fn default() -> Uct {
        Uct::new()
    }
}

impl Uct {
    /// A baseline with exploration constant [`DEFAULT_EXPLORATION`], at most
    /// [`DEFAULT_MAX_NODES`] tree nodes and a fixed seed.
    pub fn new() -> Uct {
        Uct {
            nodes: Vec::new(),
            root_pos: None,
            exploration: DEFAULT_EXPLORATION,
            max_nodes: DEFAULT_MAX_NODES,
            rng: SplitMix64::new(0x0b5e_55ed),
            salt: 0x9e37_79b9_7f4a_7c15,
        }
    }

    /// Sets the exploration constant of UCB1 (finite and non-negative; other values
    /// are ignored).
    pub fn set_exploration(&mut self, c: f64) {
        if c.is_finite() && c >= 0.0 {
            self.exploration = c;
        }
    }

    /// The exploration constant of UCB1.
    pub fn exploration(&self) -> f64 {
        self.exploration
    }

    /// Caps the tree at `max_nodes` nodes (at least 1). A smaller cap than the current
    /// tree takes effect at the next search, which then starts afresh.
    pub fn set_max_nodes(&mut self, max_nodes: usize) {
        self.max_nodes = max_nodes.clamp(1, NONE as usize);
    }

    /// Reseeds the playouts and the expansion order; equal seeds and equal limits in
    /// nodes give equal searches.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = SplitMix64::new(seed);
        self.salt = SplitMix64::new(seed ^ 0x5a17).next_u64();
    }

    /// Nodes in the tree now (kept for the next search).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Playouts stored at the root of the kept tree: what a search of the same position
    /// (or of one found by tree reuse) starts from.
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
    }

    /// Forgets the tree.
    fn clear(&mut self) {
        self.nodes.clear();
        self.root_pos = None;
    }

    /// Makes `pos` the root: keeps the matching subtree of the old tree if there is one.
    fn set_root(&mut self, pos: &Position) {
        let found = match self.root_pos {
            Some(old) if self.nodes.len() <= self.max_nodes => {
                find_descendant(&self.nodes, old, pos)
            }
            _ => None,
        };
        match found {
            Some(0) => {}
            Some(index) => self.nodes = compact_subtree(&self.nodes, index),
            None => {
                self.nodes.clear();
                self.nodes.push(Node::new(Action::Pass));
            }
        }
        self.root_pos = Some(*pos);
    }

    /// The children of `node`, in list order.
    fn children(&self, node: u32) -> Children<'_> {
        Children {
            nodes: &self.nodes,
            next: self.nodes[node as usize].first_child,
        }
    }

    /// The most-visited child of `node`.
    fn best_child(&self, node: u32) -> Option<u32> {
        // Ties go to the higher mean reward, so a search stopped early prefers a
        // child that won over one that lost.
        self.children(node).max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean()))
        })
    }

    /// The most-visited line from the root.
    fn principal_line(&self) -> Vec<Action> {
        let mut line = Vec::new();
        let mut node = 0;
        while let Some(child) = self.best_child(node) {
            line.push(self.nodes[child as usize].action);
            node = child;
        }
        line
    }

    /// The child of `node` with the highest UCB1 value. All children have visits.
    fn select(&self, node: u32) -> u32 {
        let parent = &self.nodes[node as usize];
        let log_n = f64::from(parent.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, NONE);
        for child in self.children(node) {
            let c = &self.nodes[child as usize];
            let n = f64::from(c.visits.max(1));
            let ucb = c.mean() + self.exploration * (log_n / n).sqrt();
            if ucb > best.0 {
                best = (ucb, child);
            }
        }
        best.1
    }

    /// The action to expand as the next child of a node with `k` children, whose
    /// position `pos` has the legal `actions`: element `k` of a random permutation of
    /// the actions that is fixed per position, so the untried actions are always the
    /// tail of the permutation.
    fn untried_action(&self, pos: &Position, mut actions: Actions, k: usize) -> Action {
        let mut rng = SplitMix64::new(pos.hash() ^ self.salt);
        let n = actions.len();
        for i in 0..=k {
            let j = i + rng.below(n - i);
            actions.swap(i, j);
        }
        actions[k]
    }

    /// One playout: selection, expansion, a random game, backpropagation.
    fn iterate(&mut self, root: &Position, path: &mut Vec<(u32, Option<Color>)>) {
        path.clear();
        path.push((0, None));
        let mut pos = *root;
        let mut node = 0u32;
        while !pos.is_over() {
            let n = &self.nodes[node as usize];
            let children = n.children;
            let chooser = pos.turn();
            if n.n_actions == UNKNOWN || children < n.n_actions {
                // Not fully expanded (a node seen for the first time has no children
                // and, its game not being over, at least one action): expand it.
                let actions = pos.legal_actions();
                self.nodes[node as usize].n_actions = actions.len() as u16;
                if self.nodes.len() >= self.max_nodes {
                    break; // the arena is full: play out from this leaf
                }
                let action = self.untried_action(&pos, actions, usize::from(children));
                let child = self.nodes.len() as u32;
                let mut new = Node::new(action);
                let parent = &mut self.nodes[node as usize];
                new.next_sibling = parent.first_child;
                parent.first_child = child;
                parent.children += 1;
                self.nodes.push(new);
                pos.play_unchecked(action);
                path.push((child, Some(chooser)));
                break;
            }
            node = self.select(node);
            pos.play_unchecked(self.nodes[node as usize].action);
            path.push((node, Some(chooser)));
        }
        let winner = playout(pos, &mut self.rng).outcome().and_then(|o| o.winner);
        for &(index, chooser) in path.iter() {
            let n = &mut self.nodes[index as usize];
            n.visits = n.visits.saturating_add(1);
            let half_points = match (winner, chooser) {
                (Some(w), Some(c)) if w == c => 2,
                (None, _) => 1,
                _ => 0,
            };
            n.reward = n.reward.saturating_add(half_points);
        }
    }

    /// The progress report of the tree as it stands.
    fn info(&self, playouts: u64, start: Instant) -> SearchInfo {
        let pv = self.principal_line();
        let p = pv
            .first()
            .and_then(|_| self.best_child(0))
            .map_or(0.5, |c| self.nodes[c as usize].mean());
        SearchInfo {
            depth: pv.len() as u32,
            score: Score::Cp(win_rate_to_cp(p)),
            nodes: playouts,
            time: start.elapsed(),
            pv,
        }
    }
}

/// A win rate as a centipawn-like score: 400·log10(p / (1 − p)), clamped to ±1000.
pub fn win_rate_to_cp(p: f64) -> i32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    let cp = 400.0 * (p / (1.0 - p)).log10();
    (cp.round() as i32).clamp(-MAX_CP, MAX_CP)
}

/// Iterates over a linked list of children.
struct Children<'a> {
    nodes: &'a [Node],
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.next == NONE {
            return None;
        }
        let current = self.next;
        self.next = self.nodes[current as usize].next_sibling;
        Some(current)
    }
}

/// How far a game has come: ring moves, and rings placed (on the board or removed).
/// Both only grow, so a node past `target` in either cannot lead to it.
fn progress(pos: &Position) -> (u16, u32) {
    let placed = pos.all_rings().count()
        + u32::from(pos.removed(Color::White))
        + u32::from(pos.removed(Color::Black));
    (pos.ring_moves(), placed)
}

/// The node of the tree (rooted at `nodes[0]`, the position `root`) whose position is
/// `target`, looked for breadth-first up to [`REUSE_DEPTH`] actions deep.
fn find_descendant(nodes: &[Node], root: Position, target: &Position) -> Option<u32> {
    if nodes.is_empty() {
        return None;
    }
    let goal = progress(target);
    let hash = target.hash();
    let mut queue = VecDeque::from([(0u32, root, 0usize)]);
    while let Some((index, pos, depth)) = queue.pop_front() {
        if pos.hash() == hash && pos == *target {
            return Some(index);
        }
        if depth == REUSE_DEPTH {
            continue;
        }
        let mut child = nodes[index as usize].first_child;
        while child != NONE {
            let mut next = pos;
            next.play_unchecked(nodes[child as usize].action);
            let p = progress(&next);
            if p.0 <= goal.0 && p.1 <= goal.1 {
                queue.push_back((child, next, depth + 1));
            }
            child = nodes[child as usize].next_sibling;
        }
    }
    None
}

/// A new arena holding the subtree of `nodes` under `root`, with `root` at index 0.
fn compact_subtree(nodes: &[Node], root: u32) -> Vec<Node> {
    let mut out = Vec::new();
    let mut top = nodes[root as usize];
    top.next_sibling = NONE;
    out.push(top);
    // Breadth-first: each copied node's child links are rewritten to the copies.
    let mut cursor = 0;
    while cursor < out.len() {
        let mut old_child = out[cursor].first_child;
        let mut previous: Option<usize> = None;
        while old_child != NONE {
            let new_index = out.len();
            let mut copy = nodes[old_child as usize];
            old_child = copy.next_sibling;
            copy.next_sibling = NONE;
            out.push(copy);
            match previous {
                None => out[cursor].first_child = new_index as u32,
                Some(p) => out[p].next_sibling = new_index as u32,
            }
            previous = Some(new_index);
        }
        cursor += 1;
    }
    out
}

impl Engine for Uct {
    fn name(&self) -> String {
        format!("yinsh-uct {} (baseline)", env!("CARGO_PKG_VERSION"))
    }

    fn new_game(&mut self, _rules: Rules) {
        self.clear();
    }

    /// The baseline has no strength levels: this does nothing.
    fn set_level(&mut self, _level: u8) {}

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
        if actions.len() == 1 {
            // Nothing to decide; the subtree stays for the next search.
            let info = SearchInfo {
                depth: 1,
                score: Score::Cp(0),
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
        self.set_root(pos);
        let hard = crate::time::budget(pos, limits).hard;
        let mut path = Vec::with_capacity(64);
        let mut playouts = 0u64;
        let mut last_report = start;
        loop {
            if playouts % CHECK_EVERY == 0 {
                let now = Instant::now();
                let depth_reached = limits
                    .depth
                    .is_some_and(|d| playouts > 0 && self.principal_line().len() as u32 >= d);
                if stop.load(Ordering::Relaxed)
                    || hard.is_some_and(|h| now.duration_since(start) >= h)
                    || limits.nodes.is_some_and(|n| playouts >= n)
                    || depth_reached
                {
                    break;
                }
                if now.duration_since(last_report) >= REPORT_EVERY {
                    last_report = now;
                    report(&self.info(playouts, start));
                }
            }
            self.iterate(pos, &mut path);
            playouts += 1;
            if limits.nodes.is_some_and(|n| playouts >= n) {
                break;
            }
        }
        let best = self
            .best_child(0)
            .map_or(actions[0], |c| self.nodes[c as usize].action);
        let mut info = self.info(playouts, start);
        if info.pv.first() != Some(&best) {
            info.pv = vec![best];
        }
        report(&info);
        SearchResult { best, info }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_small() {
        assert!(std::mem::size_of::<Node>() <= 24);
    }

    #[test]
    fn cp_of_win_rates() {
        assert_eq!(win_rate_to_cp(0.5), 0);
        assert_eq!(win_rate_to_cp(0.0), -MAX_CP);
        assert_eq!(win_rate_to_cp(1.0), MAX_CP);
        assert!(win_rate_to_cp(0.75) > 150 && win_rate_to_cp(0.75) < 200);
    }

    #[test]
    fn compacting_keeps_the_subtree() {
        let mut uct = Uct::new();
        let pos = Position::new();
        let limits = Limits {
            nodes: Some(500),
            ..Limits::default()
        };
        uct.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        let child = uct.best_child(0).unwrap();
        let visits = uct.nodes[child as usize].visits;
        let action = uct.nodes[child as usize].action;
        let size = 1 + count(&uct.nodes, child);
        let mut next = pos;
        next.play(action).unwrap();
        uct.set_root(&next);
        assert_eq!(uct.nodes.len(), size);
        assert_eq!(uct.root_visits(), visits);
    }

    fn count(nodes: &[Node], node: u32) -> usize {
        let mut n = 0;
        let mut child = nodes[node as usize].first_child;
        while child != NONE {
            n += 1 + count(nodes, child);
            child = nodes[child as usize].next_sibling;
        }
        n
    }
}
