//! `yinsh arena`: a match between two engines that speak the engine text protocol.
//!
//! Each game is refereed here (see [`game`]): the engines only ever see `newgame`,
//! `isready`, `position` and `go`, and every `bestmove` is checked against the rules.
//! Games are played from seeded random openings, each opening twice with the colours
//! swapped, on as many threads as `--concurrency` asks.

pub(crate) mod game;
mod openings;
pub(crate) mod process;
mod stats;

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, bail, ensure};
use clap::Args;
use yinsh::Rules;
use yinsh::notation::record::TimeControl;

use crate::date::DateTime;
use crate::position_args::VariantArg;
use game::{GameSpec, MatchSettings, Played, Timing};
use stats::Tally;

/// Arguments of `yinsh arena`.
#[derive(Debug, Clone, Args)]
pub struct ArenaArgs {
    /// An engine command, run through `sh -c` (e.g. "yinsh engine --level 3"); give
    /// exactly two: engine 1, then engine 2. Each game starts its own two processes.
    #[arg(long = "engine", value_name = "COMMAND", required = true)]
    pub engines: Vec<String>,

    /// Number of games. Colours alternate: engine 1 is White in odd-numbered games.
    #[arg(long, default_value_t = 2, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,

    /// Play only games N to --games of the match (the same openings and colours as in
    /// the whole match): to finish a match that was stopped, into a new --out folder.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub first_game: u32,

    /// Time per decision in milliseconds (`go movetime`); the default when --tc is not
    /// given is 100. An answer later than the movetime plus --grace loses on time.
    #[arg(long, value_name = "MS", conflicts_with = "tc",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,

    /// Real clocks instead of a move time: `<minutes>+<increment seconds>` (`1+1`) or
    /// `<seconds>s+<increment seconds>` (`20s+0`). The engines get `go wtime … btime …
    /// winc … binc …`; the increment is added after each completed turn; a player whose
    /// clock runs out loses.
    #[arg(long, value_name = "MIN+INC")]
    pub tc: Option<TimeControl>,

    /// Number of different openings; each is played twice, colours swapped. Default:
    /// one per pair of games. With fewer openings than pairs the set is cycled.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub openings: Option<u32>,

    /// Random ring placements in each opening (0 to 10), chosen uniformly among the
    /// empty points off the board's edge; the engines play on from there.
    #[arg(long, default_value_t = 4, value_name = "N",
          value_parser = clap::value_parser!(u8).range(0..=10))]
    pub opening_plies: u8,

    /// Seed of the openings: the same seed gives the same openings.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,

    /// Games played at once, each with its own two engine processes.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,

    /// The variant played.
    #[arg(long, value_enum, default_value_t)]
    pub variant: VariantArg,

    /// Folder for the game records, one file per game (`game-001.txt`, …); created if
    /// missing, refused if it holds files. Default: `arena-<YYYYMMDD-HHMMSS>` (UTC) in
    /// the current folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// With --movetime: milliseconds an engine may overrun its movetime before it
    /// loses on time.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub grace: u64,

    /// Milliseconds an engine may take to answer `isready` (with `readyok`) at the start
    /// of each game before it loses.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    pub ready_timeout: u64,

    /// No progress bar on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Plays the match, writes the records and prints the table.
pub fn run(args: &ArenaArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let [first, second] = args.engines.as_slice() else {
        bail!(
            "give --engine exactly twice (engine 1 and engine 2), not {} times",
            args.engines.len()
        );
    };
    for command in [first, second] {
        ensure!(!command.trim().is_empty(), "an engine command is empty");
    }
    ensure!(
        args.first_game <= args.games,
        "--first-game {} is past the match's last game ({})",
        args.first_game,
        args.games
    );
    let now = DateTime::now();
    let timing = match args.tc {
        Some(tc) => {
            ensure!(
                tc.initial_secs > 0,
                "the time control '{tc}' gives no time: use at least 1s"
            );
            Timing::Clock(tc)
        }
        None => Timing::MoveTime {
            movetime: Duration::from_millis(args.movetime.unwrap_or(100)),
            grace: Duration::from_millis(args.grace),
        },
    };
    let settings = MatchSettings {
        engines: [first.clone(), second.clone()],
        variant: args.variant.into(),
        timing,
        ready_timeout: Duration::from_millis(args.ready_timeout),
        date: now.record_date(),
    };

    // A wrong command fails here, not as a match of forfeits.
    let rules = Rules::of(settings.variant);
    let probes: Vec<Result<(), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = settings
            .engines
            .iter()
            .map(|command| scope.spawn(move || game::probe(command, rules, settings.ready_timeout)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic in a probe"))
            .collect()
    });
    for (i, probe) in probes.into_iter().enumerate() {
        if let Err(reason) = probe {
            bail!(
                "engine {} ('{}') cannot play: {reason}",
                i + 1,
                settings.engines[i]
            );
        }
    }

    let folder = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("arena-{}", now.stamp())));
    prepare_folder(&folder)?;

    let games = args.games as usize;
    let first = args.first_game as usize;
    let pairs = games.div_ceil(2);
    let opening_count = args.openings.map_or(pairs, |n| n as usize);
    let openings = openings::generate(
        Rules::of(settings.variant),
        opening_count.min(pairs),
        usize::from(args.opening_plies),
        args.seed,
    );
    let specs: Vec<GameSpec> = (first - 1..games)
        .map(|i| GameSpec {
            number: i + 1,
            opening: openings[(i / 2) % openings.len()].clone(),
            first_is_white: i % 2 == 0,
        })
        .collect();

    let width = games.to_string().len().max(3);
    let file_of = |number: usize| folder.join(format!("game-{number:0width$}.txt"));
    let mut progress = Progress::new(specs.len(), args.quiet);
    let mut tally = Tally::default();
    let mut adjudicated: Vec<Played> = Vec::new();

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = (args.concurrency as usize).min(specs.len());
    let (sender, results) = mpsc::channel::<Played>();
    let written: anyhow::Result<()> = std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (specs, settings, next, stop) = (&specs, &settings, &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(spec) = specs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    if sender.send(game::play(settings, spec)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for played in results.iter() {
            let path = file_of(played.number);
            let text = played.record.to_string();
            if let Err(err) = fs::write(&path, text) {
                stop.store(true, Ordering::Relaxed);
                return Err(err).with_context(|| format!("cannot write '{}'", path.display()));
            }
            tally.add(played.first_points);
            progress.update(&tally);
            if played.adjudication.is_some() {
                adjudicated.push(played);
            }
        }
        Ok(())
    });
    progress.finish();
    written?;

    adjudicated.sort_by_key(|p| p.number);
    write_table(out, &settings, args, &tally, &openings, &adjudicated)?;
    writeln!(
        out,
        "records: {} ({} to {})",
        folder.display(),
        file_name(&file_of(first)),
        file_name(&file_of(games))
    )?;
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Creates the records folder, refusing one that already holds files.
fn prepare_folder(folder: &Path) -> anyhow::Result<()> {
    let name = folder.display();
    if folder.exists() {
        ensure!(folder.is_dir(), "'{name}' exists and is not a folder");
        let mut entries = fs::read_dir(folder).with_context(|| format!("cannot read '{name}'"))?;
        ensure!(
            entries.next().is_none(),
            "the records folder '{name}' is not empty"
        );
    } else {
        fs::create_dir_all(folder).with_context(|| format!("cannot create '{name}'"))?;
    }
    Ok(())
}

/// The final table: each engine's results, the Elo difference, the adjudications.
fn write_table(
    out: &mut dyn Write,
    settings: &MatchSettings,
    args: &ArenaArgs,
    tally: &Tally,
    openings: &[Vec<yinsh::Action>],
    adjudicated: &[Played],
) -> anyhow::Result<()> {
    let timing = match settings.timing {
        Timing::MoveTime { movetime, .. } => format!("movetime {} ms", movetime.as_millis()),
        Timing::Clock(tc) => format!("time control {tc}"),
    };
    writeln!(
        out,
        "{} games, {}, {timing}, {} opening{} of {} placement{} (seed {})",
        tally.games(),
        settings.variant,
        openings.len(),
        if openings.len() == 1 { "" } else { "s" },
        args.opening_plies,
        if args.opening_plies == 1 { "" } else { "s" },
        args.seed
    )?;
    if args.first_game > 1 {
        writeln!(
            out,
            "games {} to {} of a match of {}",
            args.first_game, args.games, args.games
        )?;
    }
    for (i, command) in settings.engines.iter().enumerate() {
        writeln!(out, "engine {}: {command}", i + 1)?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<10}{:>6}{:>7}{:>8}{:>8}{:>8}",
        "", "wins", "draws", "losses", "score", "%"
    )?;
    for (i, t) in [*tally, tally.reversed()].iter().enumerate() {
        writeln!(
            out,
            "{:<10}{:>6}{:>7}{:>8}{:>8.1}{:>8.1}",
            format!("engine {}", i + 1),
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            100.0 * t.score().unwrap_or(0.0)
        )?;
    }
    writeln!(out)?;
    match tally.elo() {
        Some(elo) => writeln!(out, "Elo difference (engine 1 - engine 2): {elo}")?,
        None => writeln!(out, "Elo difference (engine 1 - engine 2): n/a (no games)")?,
    }
    writeln!(out, "adjudicated games: {}", adjudicated.len())?;
    for played in adjudicated {
        writeln!(
            out,
            "  game {}: {}",
            played.number,
            played.adjudication.as_deref().unwrap_or("")
        )?;
    }
    Ok(())
}

/// The progress bar on stderr: `[#####.....] 12/40 +5 =1 -6` (engine 1's wins, draws
/// and losses), redrawn in place on a terminal, one line per game otherwise.
struct Progress {
    total: usize,
    quiet: bool,
    terminal: bool,
}

impl Progress {
    const WIDTH: usize = 20;

    fn new(total: usize, quiet: bool) -> Progress {
        Progress {
            total,
            quiet,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn update(&mut self, tally: &Tally) {
        if self.quiet {
            return;
        }
        let done = tally.games() as usize;
        let filled = done * Progress::WIDTH / self.total.max(1);
        let bar = format!(
            "[{}{}] {done}/{} +{} ={} -{}",
            "#".repeat(filled),
            ".".repeat(Progress::WIDTH - filled),
            self.total,
            tally.wins,
            tally.draws,
            tally.losses
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal {
            write!(err, "\r{bar}")
        } else {
            writeln!(err, "{bar}")
        };
        let _ = err.flush();
    }

    fn finish(&mut self) {
        if !self.quiet && self.terminal {
            eprintln!();
        }
    }
}
