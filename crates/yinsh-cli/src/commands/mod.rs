//! One module per subcommand: its arguments (a clap `Args` struct) and its `run`.

pub mod analyse;
pub mod arena;
pub mod bench;
pub mod convert;
pub mod engine;
pub mod moves;
pub mod perft;
pub mod play;
pub mod show;
