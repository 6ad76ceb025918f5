//! Integration tests of the `yinsh` binary, one test binary for all: each test runs the
//! real executable and reads its output.

mod analyse;
mod arena;
mod bench;
mod common;
mod convert;
mod engine;
mod errors;
mod moves;
mod perft;
mod play;
mod serve;
mod show;
/// How the rules' tests build positions (crates/yinsh/tests/support.rs).
#[path = "../../yinsh/tests/support.rs"]
mod support;
