//! Perft: counting action sequences, to check move generation (RULES.md §8).

use crate::action::Action;
use crate::position::Position;

/// The number of sequences of exactly `depth` actions from `pos` (RULES.md §8). A
/// finished game has no actions.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_actions().len() as u64,
        _ => pos
            .legal_actions()
            .into_iter()
            .map(|action| {
                let mut child = *pos;
                child.play_unchecked(action);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// [`perft`] split by the first action, in the order of [`Position::legal_actions`].
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Action, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_actions()
        .into_iter()
        .map(|action| {
            let mut child = *pos;
            child.play_unchecked(action);
            (action, perft(&child, depth - 1))
        })
        .collect()
}
