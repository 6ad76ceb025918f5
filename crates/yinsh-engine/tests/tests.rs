//! Engine integration tests, one binary for all.

mod analysis;
mod mcts;
mod protocol;
mod search;
#[path = "../../yinsh/tests/support.rs"]
mod support;
