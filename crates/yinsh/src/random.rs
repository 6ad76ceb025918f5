//! Random playouts: a small fast generator and a game played to its end with uniformly
//! random legal actions (for benchmarks, tests and Monte-Carlo search).

use crate::position::Position;
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

/// Plays uniformly random legal actions from `pos` until the game is over and returns
/// the final position.
pub fn playout(mut pos: Position, rng: &mut SplitMix64) -> Position {
    loop {
        let actions = pos.legal_actions();
        if actions.is_empty() {
            return pos;
        }
        pos.play_unchecked(actions[rng.below(actions.len())]);
    }
}

/// The outcome of a [`playout`].
pub fn playout_outcome(pos: Position, rng: &mut SplitMix64) -> Outcome {
    playout(pos, rng)
        .outcome()
        .expect("a playout ends with a finished game")
}
