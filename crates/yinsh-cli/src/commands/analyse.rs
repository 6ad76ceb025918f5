//! `yinsh analyse`: replays a game record with the engine watching. For each turn it
//! prints the engine's evaluation after the turn and the action it preferred, then the
//! decisions where the mover lost the most.
//!
//! Every position before a decision is searched once with the same limits. The best
//! action's score is that search's score; the played action's score is the score of
//! the search of the position after it (the same search as the next decision's, so
//! each position is searched once), or the best score when the played action is the
//! engine's choice. The drop is the difference, from the mover's point of view.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use yinsh::notation::record::Record;
use yinsh::{Action, Color, Position};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits, Score};

/// Search depth when neither --depth nor --movetime is given: a second or so per game
/// in a release build.
const DEFAULT_DEPTH: u32 = 4;

/// Arguments of `yinsh analyse`.
#[derive(Debug, Clone, Args)]
pub struct AnalyseArgs {
    /// The game record to analyse (the project's record format), or `-` for stdin.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,

    /// Search each position for this many milliseconds.
    #[arg(long, value_name = "MS", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,

    /// Search each position to this depth in decisions (placements and ring moves);
    /// the default when --movetime is not given is 4.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,

    /// How many of the biggest drops to list.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub blunders: usize,

    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

/// The engine's view of one position: its best action and the score for the player to
/// act, or the result when the game is over.
#[derive(Debug, Clone, Copy)]
enum View {
    Search { best: Action, score: Score },
    Over { winner: Option<Color> },
}

/// One decision of the game, judged.
struct Decision {
    /// Turn number.
    turn: u32,
    mover: Color,
    played: Action,
    best: Action,
    /// Scores for the mover.
    best_score: Score,
    played_score: Score,
    drop: i64,
}

/// Reads, replays and annotates the record.
pub fn run(args: &AnalyseArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let name = args.input.display();
    let text = super::read_input(&args.input)?;
    let record =
        Record::parse(&text).with_context(|| format!("cannot read the record '{name}'"))?;
    let positions = record.positions()?;
    let turns = record.turns()?;

    let limits = match (args.movetime, args.depth) {
        (Some(ms), _) => Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        },
        (None, depth) => Limits {
            depth: Some(depth.unwrap_or(DEFAULT_DEPTH)),
            ..Limits::default()
        },
    };
    let mut engine = Searcher::new();
    engine.set_threads(usize::from(args.threads));
    engine.new_game(record.rules);
    let stop = AtomicBool::new(false);
    let views: Vec<View> = positions
        .iter()
        .map(|pos| match pos.outcome() {
            Some(outcome) => View::Over {
                winner: outcome.winner,
            },
            None => {
                let result = engine.search(pos, &limits, &stop, &mut |_| {});
                View::Search {
                    best: result.best,
                    score: result.info.score,
                }
            }
        })
        .collect();

    let result = record
        .result
        .map_or_else(|| "unfinished".to_owned(), |r| r.to_string());
    writeln!(
        out,
        "{} (white) vs {} (black), {}, {result}",
        record.white,
        record.black,
        rules_name(&record)
    )?;
    let search = match limits.movetime {
        Some(ms) => format!("{} ms", ms.as_millis()),
        None => format!("depth {}", limits.depth.unwrap_or(DEFAULT_DEPTH)),
    };
    writeln!(
        out,
        "search: {search} per position; evaluations in hundredths of a ring, white's view"
    )?;
    writeln!(out)?;
    writeln!(out, "{:<30} {:<18} engine preferred", "turn", "eval after")?;

    let mut decisions = Vec::new();
    let mut index = 0;
    for numbered in &turns {
        let first = index;
        for &played in numbered.turn.actions() {
            let before = &positions[index];
            if let View::Search { best, score } = views[index]
                && before.legal_actions().len() > 1
            {
                let mover = before.turn();
                let played_score = if played == best {
                    score
                } else {
                    score_for(mover, &positions[index + 1], views[index + 1])
                };
                decisions.push(Decision {
                    turn: numbered.number,
                    mover,
                    played,
                    best,
                    best_score: score,
                    played_score,
                    drop: (value(score) - value(played_score)).max(0),
                });
            }
            index += 1;
        }
        let after = match views[index] {
            View::Over { winner } => match winner {
                Some(Color::White) => "1-0".to_owned(),
                Some(Color::Black) => "0-1".to_owned(),
                None => "1/2-1/2".to_owned(),
            },
            View::Search { score, .. } => {
                let white = if positions[index].turn() == Color::White {
                    score
                } else {
                    negate(score)
                };
                white_view(white)
            }
        };
        let preferred = match views[first] {
            View::Search { best, .. } => best.to_string(),
            View::Over { .. } => "-".to_owned(),
        };
        writeln!(
            out,
            "{:<30} {:<18} {preferred}",
            numbered.to_string(),
            after
        )?;
    }

    writeln!(out)?;
    decisions.sort_by_key(|d| (std::cmp::Reverse(d.drop), d.turn));
    let worst: Vec<&Decision> = decisions
        .iter()
        .filter(|d| d.drop > 0)
        .take(args.blunders)
        .collect();
    if worst.is_empty() {
        writeln!(out, "no drops: every decision matched the engine's choice")?;
    } else {
        writeln!(out, "biggest drops (scores from the mover's view):")?;
        for d in worst {
            writeln!(
                out,
                "  turn {} ({}): played {} ({}), better {} ({}), drop {}",
                d.turn,
                d.mover,
                d.played,
                mover_view(d.played_score),
                d.best,
                mover_view(d.best_score),
                drop_text(d)
            )?;
        }
    }
    Ok(())
}

fn rules_name(record: &Record) -> String {
    match record.rules.variant() {
        Some(v) => v.to_string(),
        None => format!(
            "targets {}-{}",
            record.rules.targets.white, record.rules.targets.black
        ),
    }
}

/// The score of the position `after` (with its view) for `mover`.
fn score_for(mover: Color, after: &Position, view: View) -> Score {
    match view {
        // The game ended with the action: a win or loss in one action, or a draw.
        View::Over { winner } => match winner {
            Some(w) if w == mover => Score::Win(1),
            Some(_) => Score::Win(-1),
            None => Score::Cp(0),
        },
        View::Search { score, .. } if after.turn() == mover => score,
        View::Search { score, .. } => negate(score),
    }
}

fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Win(n) => Score::Win(-n),
    }
}

/// A number that orders scores: forced wins above every evaluation, sooner wins higher.
fn value(score: Score) -> i64 {
    const DECIDED: i64 = 1_000_000;
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Win(n) if n >= 0 => DECIDED - i64::from(n),
        Score::Win(n) => -DECIDED - i64::from(n),
    }
}

fn white_view(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{cp:+}"),
        Score::Win(n) if n >= 0 => format!("white wins in {n}"),
        Score::Win(n) => format!("black wins in {}", -n),
    }
}

fn mover_view(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{cp:+}"),
        Score::Win(n) if n >= 0 => format!("wins in {n}"),
        Score::Win(n) => format!("loses in {}", -n),
    }
}

fn drop_text(d: &Decision) -> String {
    match (d.best_score, d.played_score) {
        (Score::Cp(a), Score::Cp(b)) => (a - b).to_string(),
        (Score::Win(a), Score::Win(b)) if a > 0 && b > 0 => "a slower win".to_owned(),
        (Score::Win(a), Score::Win(b)) if a < 0 && b < 0 => "a quicker loss".to_owned(),
        (Score::Win(a), _) if a > 0 => "a forced win missed".to_owned(),
        (_, Score::Win(b)) if b < 0 => "a forced loss allowed".to_owned(),
        _ => "decisive".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_order_wins_above_evaluations() {
        let order = [
            Score::Win(-1),
            Score::Win(-5),
            Score::Cp(-300),
            Score::Cp(0),
            Score::Cp(250),
            Score::Win(7),
            Score::Win(2),
        ];
        for pair in order.windows(2) {
            assert!(value(pair[0]) < value(pair[1]), "{pair:?}");
        }
        assert_eq!(negate(Score::Win(3)), Score::Win(-3));
        assert_eq!(white_view(Score::Win(-3)), "black wins in 3");
        assert_eq!(mover_view(Score::Cp(12)), "+12");
    }

    #[test]
    fn drops_in_words() {
        let decision = |best_score, played_score| Decision {
            turn: 1,
            mover: Color::White,
            played: Action::Pass,
            best: Action::Pass,
            best_score,
            played_score,
            drop: 0,
        };
        for (best, played, text) in [
            (Score::Cp(40), Score::Cp(-95), "135"),
            (Score::Win(3), Score::Cp(10), "a forced win missed"),
            (Score::Win(3), Score::Win(5), "a slower win"),
            (Score::Cp(0), Score::Win(-4), "a forced loss allowed"),
            (Score::Win(-8), Score::Win(-7), "a quicker loss"),
        ] {
            assert_eq!(drop_text(&decision(best, played)), text);
        }
    }
}
