//! One module per subcommand: its arguments (a clap `Args` struct) and its `run`.

pub mod bench;
pub mod convert;
pub mod moves;
pub mod perft;
pub mod show;
