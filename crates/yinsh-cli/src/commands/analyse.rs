//! `yinsh analyse`: replays a game record with the engine watching. For each turn it
//! prints the engine's evaluation after the turn, White's win chance, the action it
//! preferred and the worst mark of the turn's decisions; then each player's summary
//! (inaccuracies, mistakes, blunders, accuracy) and the decisions that gave away the
//! most. The judging is `yinsh_engine::analysis`, the same as the server's analysis.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use yinsh::Color;
use yinsh::notation::record::Record;
use yinsh_engine::analysis::{Eval, Judged, Mark, analyse};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Limits, Score};

/// Nodes a position when none of --nodes, --depth and --movetime is given: the
/// server's analyses'.
const DEFAULT_NODES: u64 = yinsh_engine::analysis::NODES;

/// Arguments of `yinsh analyse`.
#[derive(Debug, Clone, Args)]
pub struct AnalyseArgs {
    /// The game record to analyse (the project's record format), or `-` for stdin.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,

    /// Search each position with this many nodes; the default when neither --depth
    /// nor --movetime is given is 1000000, as the server's analyses.
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "movetime"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Search each position for this many milliseconds.
    #[arg(long, value_name = "MS", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,

    /// Search each position to this depth in decisions (placements and ring moves).
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

/// Reads, replays and annotates the record.
pub fn run(args: &AnalyseArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let name = args.input.display();
    let text = super::read_input(&args.input)?;
    let record =
        Record::parse(&text).with_context(|| format!("cannot read the record '{name}'"))?;
    let turns = record.turns()?;

    let limits = match (args.movetime, args.depth) {
        (Some(ms), _) => Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        },
        (None, Some(depth)) => Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        (None, None) => Limits {
            nodes: Some(args.nodes.unwrap_or(DEFAULT_NODES)),
            ..Limits::default()
        },
    };
    let mut engine = Searcher::new();
    engine.set_threads(usize::from(args.threads));
    let stop = AtomicBool::new(false);
    let analysis = analyse(
        &mut engine,
        record.start()?,
        &record.actions,
        &limits,
        &stop,
        &mut |_, _| {},
    )?;

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
    let search = match (limits.movetime, limits.depth, limits.nodes) {
        (Some(ms), ..) => format!("{} ms", ms.as_millis()),
        (None, Some(depth), _) => format!("depth {depth}"),
        (None, None, nodes) => format!("{} nodes", nodes.unwrap_or(DEFAULT_NODES)),
    };
    writeln!(
        out,
        "search: {search} per position; evaluations in hundredths of a ring and win chances, \
         white's view"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<30} {:<18} {:>5} {:<16} mark",
        "turn", "eval after", "win", "engine preferred"
    )?;

    let mut index = 0;
    let mut turn_of = Vec::with_capacity(analysis.actions.len());
    for numbered in &turns {
        let first = index;
        index += numbered.turn.actions().len();
        turn_of.extend(std::iter::repeat_n(numbered.number, index - first));
        let judged = &analysis.actions[first..index];
        let after = judged.last().map_or(analysis.start, |j| j.after);
        let preferred = judged
            .first()
            .and_then(|j| j.best)
            .map_or_else(|| "-".to_owned(), |a| a.to_string());
        let mark = judged.iter().filter_map(|j| j.mark).max();
        writeln!(
            out,
            "{:<30} {:<18} {:>4.0}% {:<16} {}",
            numbered.to_string(),
            eval_text(after),
            after.white_chance() * 100.0,
            preferred,
            mark.map_or("", Mark::name)
        )?;
    }

    writeln!(out)?;
    for color in [Color::White, Color::Black] {
        let s = analysis.summary[color];
        writeln!(
            out,
            "{color}: {}, {}, {}, accuracy {:.0}%",
            counted(s.inaccuracies, "inaccuracy", "inaccuracies"),
            counted(s.mistakes, "mistake", "mistakes"),
            counted(s.blunders, "blunder", "blunders"),
            s.accuracy
        )?;
    }
    writeln!(out)?;
    let mut worst: Vec<(usize, &Judged)> = analysis
        .actions
        .iter()
        .enumerate()
        .filter(|(_, j)| j.loss > 0.0)
        .collect();
    worst.sort_by(|a, b| b.1.loss.total_cmp(&a.1.loss).then(a.0.cmp(&b.0)));
    if worst.is_empty() {
        writeln!(out, "no drops: every decision matched the engine's choice")?;
    } else {
        writeln!(out, "biggest drops (the mover's win chance given away):")?;
        for (ply, j) in worst.into_iter().take(args.blunders) {
            let better = j.best.map_or_else(|| "-".to_owned(), |a| a.to_string());
            let mark = j
                .mark
                .map_or_else(String::new, |m| format!(", a {}", m.name()));
            writeln!(
                out,
                "  turn {} ({}): played {} ({}), better {}, {:.0}% lost{mark}",
                turn_of[ply],
                j.mover,
                j.played,
                eval_text(j.after),
                better,
                j.loss * 100.0
            )?;
        }
    }
    Ok(())
}

/// `n` things, named in the singular for one: `1 mistake`, `2 mistakes`.
fn counted(n: u32, one: &str, more: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { more })
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

/// A position's evaluation for White in words: `+35`, `white wins in 3`, `1-0`.
fn eval_text(eval: Eval) -> String {
    match eval {
        Eval::Score(Score::Cp(cp)) => format!("{cp:+}"),
        Eval::Score(Score::Win(n)) if n >= 0 => format!("white wins in {n}"),
        Eval::Score(Score::Win(n)) => format!("black wins in {}", -n),
        Eval::Over(Some(Color::White)) => "1-0".to_owned(),
        Eval::Over(Some(Color::Black)) => "0-1".to_owned(),
        Eval::Over(None) => "1/2-1/2".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_in_words() {
        assert_eq!(counted(1, "mistake", "mistakes"), "1 mistake");
        assert_eq!(counted(0, "blunder", "blunders"), "0 blunders");
        assert_eq!(counted(4, "inaccuracy", "inaccuracies"), "4 inaccuracies");
        assert_eq!(eval_text(Eval::Score(Score::Cp(12))), "+12");
        assert_eq!(eval_text(Eval::Score(Score::Cp(-3))), "-3");
        assert_eq!(eval_text(Eval::Score(Score::Win(-3))), "black wins in 3");
        assert_eq!(eval_text(Eval::Score(Score::Win(2))), "white wins in 2");
        assert_eq!(eval_text(Eval::Over(None)), "1/2-1/2");
    }
}
