//! `yinsh moves`: the legal actions of a position.

use std::io::Write;

use clap::Args;

use crate::position_args::PositionArgs;

/// Arguments of `yinsh moves`.
#[derive(Debug, Clone, Args)]
pub struct MovesArgs {
    /// The position whose actions are listed.
    #[command(flatten)]
    pub position: PositionArgs,
}

/// Prints the legal action tokens, one per line, in canonical lowercase form; nothing
/// when the game is over.
pub fn run(args: &MovesArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = args.position.build()?;
    for action in pos.legal_actions() {
        writeln!(out, "{action}")?;
    }
    Ok(())
}
