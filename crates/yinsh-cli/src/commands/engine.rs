//! `yinsh engine`: the engine text protocol on stdin and stdout (see `docs/engine.md`
//! and `yinsh_engine::protocol`), for match runners, GUIs and the platform's bots.

use std::io::{self, Write};

use anyhow::Context;
use clap::Args;
use yinsh_engine::Engine;
use yinsh_engine::mcts::Uct;
use yinsh_engine::search::Searcher;

/// Arguments of `yinsh engine`.
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// Play with the plain UCT (Monte-Carlo tree search) baseline instead of the
    /// alpha-beta engine. It has no strength levels: --level is ignored.
    #[arg(long)]
    pub baseline: bool,

    /// Search threads of the alpha-beta engine (Lazy SMP).
    #[arg(long, default_value_t = 1, value_name = "N", conflicts_with = "baseline",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,

    /// Strength level from 1 (beginner) to 10 (full strength); the protocol's `level`
    /// command changes it later.
    #[arg(long, default_value_t = 10, value_name = "N",
          value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
}

/// Runs the protocol until `quit` or the end of stdin.
pub fn run(args: &EngineArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    // The protocol writes from its search thread too: it gets stdout itself, and
    // anything buffered for `out` goes first.
    out.flush()?;
    let mut engine: Box<dyn Engine> = if args.baseline {
        Box::new(Uct::new())
    } else {
        let mut searcher = Searcher::new();
        searcher.set_threads(usize::from(args.threads));
        Box::new(searcher)
    };
    engine.set_level(args.level);
    yinsh_engine::protocol::run(engine, io::stdin().lock(), io::stdout()).context("engine protocol")
}
