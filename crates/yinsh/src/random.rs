//! Random playouts: a small fast generator and a game played to its end with uniformly
//! random legal actions (for benchmarks, tests and Monte-Carlo search).

use crate::action::Action;
use crate::point::Direction;
use crate::position::{Position, Stage};
use crate::rules::Outcome;

/// A small, fast, seedable pseudo-random generator (xoshiro-like quality is not needed;
/// this is SplitMix64).
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed; equal seeds give equal sequences.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), without modulo bias worth speaking of.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// A legal action drawn uniformly from [`Position::legal_actions`], or `None` when the
/// game is over.
///
/// Placements and ring moves, nearly every action of a game, are drawn from the sets of
/// empty points and ring destinations without building the list of actions.
pub fn random_action(pos: &Position, rng: &mut SplitMix64) -> Option<Action> {
    match pos.stage() {
        Stage::Place => {
            let empty = !pos.occupied();
            empty
                .nth(rng.below(empty.count() as usize))
                .map(Action::Place)
        }
        Stage::Move => {
            let me = pos.turn();
            let targets = pos.destinations_by_direction(me);
            let counts = targets.map(|t| t.count() as usize);
            let total: usize = counts.iter().sum();
            if total == 0 {
                return Some(Action::Pass);
            }
            let mut k = rng.below(total);
            for ((dir, set), n) in Direction::ALL.into_iter().zip(targets).zip(counts) {
                if k < n {
                    let to = set.nth(k).expect("k is below the count");
                    let from = pos
                        .ring_moving_to(to, dir)
                        .expect("a ring makes every move");
                    return Some(Action::Move { from, to });
                }
                k -= n;
            }
            unreachable!("k is below the total")
        }
        _ => {
            let actions = pos.legal_actions();
            (!actions.is_empty()).then(|| actions[rng.below(actions.len())])
        }
    }
}

/// Plays uniformly random legal actions from `pos` until the game is over and returns
/// the final position.
pub fn playout(mut pos: Position, rng: &mut SplitMix64) -> Position {
    while let Some(action) = random_action(&pos, rng) {
        pos.play_unchecked(action);
    }
    pos
}

/// The outcome of a [`playout`].
pub fn playout_outcome(pos: Position, rng: &mut SplitMix64) -> Outcome {
    playout(pos, rng)
        .outcome()
        .expect("a playout ends with a finished game")
}
