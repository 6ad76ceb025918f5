//! Engine integration tests, one binary for all.

mod mcts;
mod protocol;

mod search;
