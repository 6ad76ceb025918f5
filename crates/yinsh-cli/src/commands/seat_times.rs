//! `yinsh seat-times`: how long a running server's engine seat takes over each decision,
//! in whole games against a scripted opponent.

use std::io::Write;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use yinsh_client::seat_times::{SeatConfig, SeatGame, run as run_games, summary};
use yinsh_server::table::command::time_setting;

/// Arguments of `yinsh seat-times`.
#[derive(Debug, Args)]
pub struct SeatTimesArgs {
    /// The server's address (host:port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The engine seat's level, 1–10.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// The time control, `<minutes>+<seconds>` (as `/option time`), or `untimed`.
    #[arg(long, default_value = "10+5")]
    tc: String,
    /// Ask for the engine at full strength (`/option engine full`).
    #[arg(long)]
    full: bool,
    /// Games to play (the engine takes white and black in turn).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// The scripted opponent's level, 1–10.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=10))]
    opponent_level: u8,
    /// The scripted opponent's time a decision, in milliseconds.
    #[arg(long, default_value_t = 200)]
    opponent_ms: u64,
}

/// Plays the games and prints each one's decision times and then all of them together.
pub fn run(args: &SeatTimesArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    let time = if args.tc.eq_ignore_ascii_case("untimed") {
        None
    } else {
        Some(time_setting(&args.tc).with_context(|| {
            format!("--tc is <minutes>+<seconds> or untimed, not '{}'", args.tc)
        })?)
    };
    let config = SeatConfig {
        addr: args.addr.clone(),
        level: args.level,
        time,
        full: args.full,
        games: args.games,
        opponent_level: args.opponent_level,
        opponent_time: Duration::from_millis(args.opponent_ms),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut lines = Vec::new();
    let games = runtime.block_on(run_games(&config, |g| {
        let line = describe(g);
        eprintln!("{line}");
        lines.push(line);
    }))?;
    for line in lines {
        writeln!(out, "{line}")?;
    }
    let all: Vec<Duration> = games.iter().flat_map(|g| g.decisions.clone()).collect();
    let (p, p90) = summary(&all);
    // The engine's clock at the end of its games: the least it had left.
    let least_left = games
        .iter()
        .filter_map(|g| g.engine_left)
        .min()
        .map(|d| format!("; least clock left at the end {:.0} s", d.as_secs_f64()))
        .unwrap_or_default();
    writeln!(
        out,
        "level {} at {}{}: {} decisions in {} games: median {:.2} s, 90th percentile {:.2} s, longest {:.2} s{least_left}; lost on time: {}",
        args.level,
        args.tc,
        if args.full { " (full strength)" } else { "" },
        p.count,
        games.len(),
        p.p50.as_secs_f64(),
        p90.as_secs_f64(),
        p.max.as_secs_f64(),
        games.iter().filter(|g| g.engine_lost_on_time()).count()
    )?;
    Ok(())
}

/// One game's line.
fn describe(g: &SeatGame) -> String {
    let (p, p90) = summary(&g.decisions);
    let left = g
        .engine_left
        .map(|d| format!(", clock left {:.0} s", d.as_secs_f64()))
        .unwrap_or_default();
    format!(
        "engine {:?}: {} decisions, median {:.2} s, 90th percentile {:.2} s, longest {:.2} s{left}; {} ({})",
        g.engine,
        p.count,
        p.p50.as_secs_f64(),
        p90.as_secs_f64(),
        p.max.as_secs_f64(),
        g.score,
        g.termination
    )
}
