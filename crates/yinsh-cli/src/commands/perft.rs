//! `yinsh perft`: count the action sequences of a given length (RULES.md §8).

use std::io::Write;

use clap::Args;
use yinsh::{perft, perft_divide};

use crate::position_args::PositionArgs;

/// Arguments of `yinsh perft`.
#[derive(Debug, Clone, Args)]
pub struct PerftArgs {
    /// Number of atomic actions (placement, ring move, row, ring, pass) per sequence;
    /// 0 counts the empty sequence.
    pub depth: u32,

    /// Before the total, print one line `<token> <count>` per legal action (in the
    /// order of the move generator); the last line is still the total.
    #[arg(long)]
    pub divide: bool,

    /// The position to count from.
    #[command(flatten)]
    pub position: PositionArgs,
}

/// Prints the count as the last line (just the number), after the per-action counts
/// with `--divide`.
pub fn run(args: &PerftArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = args.position.build()?;
    if args.divide && args.depth > 0 {
        let mut total = 0;
        for (action, count) in perft_divide(&pos, args.depth) {
            writeln!(out, "{action} {count}")?;
            total += count;
        }
        writeln!(out, "{total}")?;
    } else {
        writeln!(out, "{}", perft(&pos, args.depth))?;
    }
    Ok(())
}
