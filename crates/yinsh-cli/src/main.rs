//! `yinsh`: the command line of the YINSH platform.
//!
//! A thin entry point: the command line is parsed with clap, each subcommand lives in
//! its own module under [`commands`], and every error ends as one line on stderr.

mod board;
mod commands;
mod date;
mod position_args;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The YINSH command line: run the game server, count, list and show positions, convert
/// records, benchmark, run the engine, play against it, analyse games, run engine
/// matches, and connect an engine to a server as a bot.
///
/// Positions are given as action tokens played from the empty board (`--moves
/// "e3 a5 b5"`) or as a position string (`--position "4/7/8/9/10/9/10/9/8/7/4 w place
/// 0-0 3-3 0"`), or both. Errors are reported as one line on stderr with a non-zero
/// exit status.
#[derive(Debug, Parser)]
#[command(name = "yinsh", version, about, long_about)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Count the action sequences of a given length from a position (perft).
    Perft(commands::perft::PerftArgs),
    /// List the legal actions of a position, one token per line.
    Moves(commands::moves::MovesArgs),
    /// Draw a position as an ASCII board, with its score, pool and position string.
    Show(commands::show::ShowArgs),
    /// Convert a boardspace.net SGF record into the project's record format.
    Convert(commands::convert::ConvertArgs),
    /// Run a fixed single-threaded workload (perft and random playouts) and time it.
    Bench(commands::bench::BenchArgs),
    /// Speak the engine text protocol on stdin and stdout.
    Engine(commands::engine::EngineArgs),
    /// Play a match between two protocol engines and rate them.
    Arena(commands::arena::ArenaArgs),
    /// Play a game against the engine in the terminal.
    Play(commands::play::PlayArgs),
    /// Annotate a game record with the engine's evaluations and the biggest mistakes.
    Analyse(commands::analyse::AnalyseArgs),
    /// Run the game server (lobby, tables, clocks, archive, bots) and the web client.
    Serve(Box<commands::serve::ServeArgs>),
    /// Load a running server with simulated games and measure it.
    Loadtest(commands::loadtest::LoadtestArgs),
    /// Time a running server's engine seat over whole games against a scripted opponent.
    SeatTimes(commands::seat_times::SeatTimesArgs),
    /// Analyse games for a server: pull jobs over HTTP, analyse, hand in the results.
    Worker(commands::worker::WorkerArgs),
    /// Play as a bot account on a server: any protocol engine, through the bot API.
    Bot(commands::bot::BotArgs),
    /// Write a month of the archive as a zstd-compressed file of records.
    Export(commands::export::ExportArgs),
    /// Copy a SQLite database consistently while the server runs.
    Backup(commands::backup::BackupArgs),
}

/// Runs one subcommand, writing its output to `out`.
fn run(command: Command, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        Command::Perft(args) => commands::perft::run(&args, out),
        Command::Moves(args) => commands::moves::run(&args, out),
        Command::Show(args) => commands::show::run(&args, out),
        Command::Convert(args) => commands::convert::run(&args, out),
        Command::Bench(args) => commands::bench::run(&args, out),
        Command::Engine(args) => commands::engine::run(&args, out),
        Command::Arena(args) => commands::arena::run(&args, out),
        Command::Play(args) => commands::play::run(&args, out),
        Command::Analyse(args) => commands::analyse::run(&args, out),
        Command::Serve(args) => commands::serve::run(&args, out),
        Command::Loadtest(args) => commands::loadtest::run(&args, out),
        Command::SeatTimes(args) => commands::seat_times::run(&args, out),
        Command::Worker(args) => commands::worker::run(&args, out),
        // Its games run side by side and say what they do as they go: straight to stdout.
        Command::Bot(args) => commands::bot::run(args, Box::new(io::stdout())),
        Command::Export(args) => commands::export::run(&args, out),
        Command::Backup(args) => commands::backup::run(&args, out),
    }?;
    out.flush()?;
    Ok(())
}

/// Whether the error is a closed stdout (as in `yinsh moves | head -1`), which is not
/// worth a message.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The server allocates many small, short-lived buffers on every thread: mimalloc does
/// that for a fifth less of its processor time than the system allocator
/// (docs/performance.md, "One node, leaner").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Parses the command line, runs it, and turns an error into one line on stderr and
/// exit status 1 (clap's own usage errors exit with 2).
fn main() -> ExitCode {
    let cli = Cli::parse();
    // Not `stdout().lock()`: `yinsh engine` writes from its search thread too, which
    // would wait forever for a lock held here.
    let mut out = BufWriter::new(io::stdout());
    match run(cli.command, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Whatever was printed before the error still goes out, then the error.
            let _ = out.flush();
            // Input errors carry their context; a bare I/O error is a failed write.
            let err = if err.chain().count() == 1 && err.downcast_ref::<io::Error>().is_some() {
                err.context("cannot write the output")
            } else {
                err
            };
            // `{:#}` joins the causes with ": "; the message stays on one line.
            let message = format!("{err:#}").replace(['\n', '\r'], " ");
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
