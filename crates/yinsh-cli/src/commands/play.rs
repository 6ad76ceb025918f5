//! `yinsh play`: a game against the engine in the terminal. The human types action
//! tokens; the board is drawn before each of their decisions, with what must be done.

use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::{Args, ValueEnum};
use yinsh::{Action, Color, Position, RINGS_PER_PLAYER, Rules, Stage};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits};

use crate::board;
use crate::position_args::VariantArg;

/// A colour as a command-line value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorArg {
    /// White, who places first and makes the first ring move.
    #[default]
    White,
    /// Black.
    Black,
}

impl From<ColorArg> for Color {
    fn from(c: ColorArg) -> Color {
        match c {
            ColorArg::White => Color::White,
            ColorArg::Black => Color::Black,
        }
    }
}

/// Arguments of `yinsh play`.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// The engine's strength, from 1 (beginner) to 10 (full strength).
    #[arg(long, default_value_t = 3, value_name = "N",
          value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,

    /// The colour you play.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorArg,

    /// The variant played.
    #[arg(long, value_enum, default_value_t)]
    pub variant: VariantArg,

    /// Longest time the engine thinks about one decision, in milliseconds (the lower
    /// levels answer sooner).
    #[arg(long, default_value_t = 1000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: u64,

    /// Seed of the lower levels' randomness; by default it changes with every game.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Search threads of the engine (Lazy SMP); `--threads 2` uses both cores of a
    /// 2-core machine (levels 1-5 search on one thread whatever this says).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

const HELP: &str = "\
Type one action per line, written as in the rules (either case):
  e3          place a ring on e3
  h7-g7       move your ring from h7 to g7 (a marker stays on h7)
  xc3-c7      remove your row of five from c3 to c7
  xk10        remove your ring on k10 (after a row)
  pass        when none of your rings can move
  e3          (while moving) show where your ring on e3 can go
Commands: moves (list your legal actions), board (draw the board again),
help (this text), quit (leave the game).";

/// Plays one game, reading the human's input from stdin.
pub fn run(args: &PlayArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    play(args, io::stdin().lock(), out)
}

/// Plays one game reading the human's lines from `input`.
pub fn play(args: &PlayArgs, mut input: impl BufRead, out: &mut dyn Write) -> anyhow::Result<()> {
    let human: Color = args.color.into();
    let rules = Rules::of(args.variant.into());
    let mut engine = Searcher::new();
    engine.set_level(args.level);
    engine.set_threads(usize::from(args.threads));
    engine.set_seed(args.seed.unwrap_or_else(clock_seed));
    engine.new_game(rules);
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime)),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut pos = Position::with_rules(rules);

    writeln!(
        out,
        "You play {human} in a {} game against the engine at level {}.",
        args.variant_name(),
        args.level
    )?;
    writeln!(out, "Type 'help' for the notation, 'quit' to leave.")?;
    let mut draw = true;
    while !pos.is_over() {
        let me = pos.turn();
        if me != human {
            let result = engine.search(&pos, &limits, &stop, &mut |_| {});
            writeln!(out, "engine ({me}) {}", describe(result.best))?;
            pos.play(result.best)
                .map_err(|e| anyhow::anyhow!("the engine played an illegal action: {e}"))?;
            draw = true;
            continue;
        }
        if draw {
            writeln!(out)?;
            show(&pos, out)?;
            draw = false;
        }
        writeln!(out, "{}", task(&pos))?;
        write!(out, "{me}> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            writeln!(out, "End of input: the game is abandoned.")?;
            return Ok(());
        }
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => {
                writeln!(out, "You left the game: it is abandoned.")?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" => draw = true,
            "moves" => writeln!(out, "legal: {}", tokens(&pos.legal_actions()))?,
            _ => match word.parse::<Action>() {
                Err(err) => writeln!(out, "{err} (type 'help' for the notation)")?,
                Ok(Action::Place(p)) if pos.stage() == Stage::Move && pos.rings(me).contains(p) => {
                    let to: Vec<String> = pos
                        .ring_destinations(p)
                        .into_iter()
                        .map(|q| q.to_string())
                        .collect();
                    if to.is_empty() {
                        writeln!(out, "your ring on {p} cannot move")?;
                    } else {
                        writeln!(out, "your ring on {p} can go to: {}", to.join(" "))?;
                    }
                }
                Ok(action) => match pos.play(action) {
                    Ok(()) => {
                        writeln!(out, "you play {action}")?;
                        draw = true;
                    }
                    Err(err) => writeln!(out, "illegal: '{action}': {}", err.reason)?,
                },
            },
        }
    }
    writeln!(out)?;
    show(&pos, out)?;
    let outcome = pos.outcome().expect("the game is over");
    let verdict = match outcome.winner {
        Some(winner) if winner == human => "you win",
        Some(_) => "the engine wins",
        None => "a draw",
    };
    writeln!(
        out,
        "Game over: {} ({verdict}; {}).",
        outcome.result(),
        outcome.reason.describe()
    )?;
    Ok(())
}

impl PlayArgs {
    fn variant_name(&self) -> &'static str {
        yinsh::Variant::from(self.variant).name()
    }
}

/// An engine action in words, with its token.
fn describe(action: Action) -> String {
    match action {
        Action::Place(p) => format!("places a ring on {p}"),
        Action::Move { .. } => format!("moves {action}"),
        Action::RemoveRow(_) => format!("removes its row {action}"),
        Action::RemoveRing(_) => format!("removes its ring {action}"),
        Action::Pass => "passes: none of its rings can move".to_owned(),
    }
}

/// A seed from the clock, so that the lower levels vary from game to game.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The board with the score and the pool.
fn show(pos: &Position, out: &mut dyn Write) -> io::Result<()> {
    for line in board::draw(pos) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", board::LEGEND)?;
    writeln!(out, "{}", board::LINES)?;
    writeln!(
        out,
        "removed rings: white {}, black {} (target {}); markers in the pool: {}",
        pos.removed(Color::White),
        pos.removed(Color::Black),
        describe_target(pos),
        pos.pool()
    )
}

fn describe_target(pos: &Position) -> String {
    let t = pos.rules().targets;
    if t.white == t.black {
        t.white.to_string()
    } else {
        format!("white {}, black {}", t.white, t.black)
    }
}

fn tokens(actions: &[Action]) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the human must do now, in one line.
fn task(pos: &Position) -> String {
    let me = pos.turn();
    let actions = pos.legal_actions();
    match pos.stage() {
        Stage::Place => {
            let left = RINGS_PER_PLAYER - pos.rings(me).count() as u8 - pos.removed(me);
            let centre = yinsh::Point::from_coords(5, 5).expect("f6 is a point");
            let example = if pos.occupied().contains(centre) {
                actions[0]
            } else {
                Action::Place(centre)
            };
            format!(
                "Place a ring on an empty point, e.g. {example} ({left} of yours left to place)."
            )
        }
        Stage::Move if actions.iter().all(|a| *a == Action::Pass) => {
            "None of your rings can move: type pass.".to_owned()
        }
        Stage::Move => format!(
            "Move a ring: from-to, e.g. {} ({} legal moves; 'moves' lists them).",
            actions[0],
            actions.len()
        ),
        Stage::RemoveRow { .. } => format!("Remove one of your rows: {}", tokens(&actions)),
        Stage::RemoveRing { .. } => format!("Remove one of your rings: {}", tokens(&actions)),
        Stage::Over => "The game is over.".to_owned(),
    }
}
