//! `yinsh loadtest`: simulated games against a running server.

use std::io::Write;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use yinsh_client::load::{LoadConfig, Progress, run as run_load};

/// Arguments of `yinsh loadtest`.
#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// The server's address (host:port), on loopback.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// A server whose `/api/health` tells the processor time and memory used
    /// (repeatable: every node of a cluster behind the proxy at --addr; the figures
    /// are added up). Default: --addr.
    #[arg(long = "server", value_name = "HOST:PORT")]
    servers: Vec<String>,
    /// Games played at once (two player connections each).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Spectator connections per game.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// A player's thinking time before each action, in milliseconds (each wait is
    /// 50–150 % of it).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// How long to play, in seconds; then every connection finishes and closes.
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Archive the games (`log on`).
    #[arg(long)]
    log: bool,
    /// Seed of the players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Connections opened at once while starting.
    #[arg(long, default_value_t = 64)]
    connect_parallel: usize,
    /// Seconds at the start of the play whose actions are left out of the second
    /// round-trip line (every game acts first within the same second).
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// In a cluster, keep each connection at the node it reached, every request for a
    /// table of another node forwarded there, instead of connecting to the table's node
    /// as the web client does.
    #[arg(long)]
    stay: bool,
    /// Instead of live games against a server at --addr: a server in this process over
    /// a new SQLite file (--db) with this many open correspondence games, nearly all
    /// asleep; --cold-actions of them get an action through the board API (each wakes
    /// its game), then a sweep wakes the --due overdue ones (docs/performance.md).
    #[arg(long, value_name = "GAMES")]
    correspondence: Option<usize>,
    /// With --correspondence: the actions played, each in a game not loaded.
    #[arg(long, default_value_t = 2000)]
    cold_actions: usize,
    /// With --correspondence: actions in flight at once.
    #[arg(long, default_value_t = 8)]
    parallel: usize,
    /// With --correspondence: games whose deadline has passed when the sweep is measured.
    #[arg(long, default_value_t = 1000)]
    due: usize,
    /// With --correspondence: the SQLite file to make (replaced if it exists).
    #[arg(long, default_value = "corres-load.db")]
    db: std::path::PathBuf,
}

/// Runs the load and prints the figures.
pub fn run(args: &LoadtestArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if let Some(games) = args.correspondence {
        let load = super::corres_load::CorresLoad {
            games,
            actions: args.cold_actions,
            parallel: args.parallel,
            due: args.due,
            db: args.db.clone(),
            seed: args.seed,
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        return runtime.block_on(super::corres_load::run(&load, out));
    }
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    anyhow::ensure!(args.duration > 0, "--duration must be at least 1 second");
    let config = LoadConfig {
        addr: args.addr.clone(),
        servers: args.servers.clone(),
        games: args.games,
        spectators: args.spectators,
        think: Duration::from_millis(args.think_ms),
        duration: Duration::from_secs(args.duration),
        log: args.log,
        seed: args.seed,
        connect_parallel: args.connect_parallel,
        warmup: Duration::from_secs(args.warmup),
        stay: args.stay,
    };
    // One thread: the load generator usually shares its machine with the server it
    // measures, and one busy thread of its own disturbs the server less than two
    // (about half a core at 9,000 games; docs/performance.md).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let total = args.duration;
    let report = runtime.block_on(run_load(config, move |p: Progress| {
        eprint!(
            "\r{:>4.0} s / {total} s  games {:>6}  actions {:>8}  ({:>7.0}/s)  errors {:>4}  slowest {:>5} ms   ",
            p.elapsed.as_secs_f64(),
            p.games,
            p.actions,
            p.actions as f64 / p.elapsed.as_secs_f64().max(1e-9),
            p.errors,
            p.slowest.as_millis()
        );
    }))?;
    eprintln!();
    let connections = args.games * (2 + args.spectators);
    writeln!(
        out,
        "games {} ({} connections), {} started, {} finished",
        args.games, connections, report.games_started, report.games_finished
    )?;
    writeln!(
        out,
        "actions acknowledged: {} in {:.1} s = {:.0}/s",
        report.actions,
        report.playing.as_secs_f64(),
        report.actions_per_sec()
    )?;
    writeln!(out, "round trip: {}", report.round_trip)?;
    writeln!(
        out,
        "round trip after the first {} s: {}",
        args.warmup, report.round_trip_steady
    )?;
    if args.spectators > 0 {
        writeln!(
            out,
            "spectators: {} events, {} missed; action delivery {}",
            report.spectator_events, report.spectator_missed, report.spectator_latency
        )?;
    }
    writeln!(out, "errors: {}", report.errors)?;
    for e in &report.error_samples {
        writeln!(out, "  {e}")?;
    }
    match (report.server_cpu, report.cpu_per_1000_actions()) {
        (Some(cpu), Some(per)) => writeln!(
            out,
            "server CPU: {cpu:.1} s while playing = {per:.2} s per 1,000 acknowledged actions"
        )?,
        _ => writeln!(out, "server CPU: not reported")?,
    }
    match report.server_peak_rss {
        Some(b) => writeln!(out, "server peak memory: {:.1} MB", b as f64 / 1e6)?,
        None => writeln!(out, "server peak memory: not reported")?,
    }
    anyhow::ensure!(
        report.errors == 0 && report.spectator_missed == 0,
        "the run had errors or missed events"
    );
    Ok(())
}
