//! Writes, for positions with a choice in some game records, the score the analysis
//! judges them by (`analysis::search_position`, then `judged_score`: the mean of the
//! last two iterations) for the player to act and whether that player went on to win,
//! as CSV on stdout: the data `scripts/fit-win-chance.py` fits
//! `analysis::WIN_CHANCE_SCALE` to (docs/engine.md, "The win chance").
//!
//! ```sh
//! cargo run --release -p yinsh-engine --example win_chance_data -- arena-*/ > chances.csv
//! python3 scripts/fit-win-chance.py chances.csv
//! ```
//!
//! Arguments are record files or folders of them, then optionally `--nodes N` (the
//! analysis's budget, `analysis::NODES`, otherwise) or `--depth N`, and `--every K`
//! to score only every K-th position with a choice (all otherwise). Games without a
//! result or decided by adjudication are skipped, and so are positions the search
//! finds decided (a forced win or loss: their chance is certain, not fitted). `result`
//! is 1 when the player to act won, 0 when they lost, 0.5 for a draw.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use yinsh::notation::record::Record;
use yinsh_engine::analysis::{self, search_position};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits, Score};

fn main() {
    let mut files = Vec::new();
    let mut limits = Limits {
        nodes: Some(analysis::NODES),
        ..Limits::default()
    };
    let mut every = 1usize;
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, flag: &str| -> u64 {
        v.and_then(|d| d.parse().ok()).unwrap_or_else(|| {
            eprintln!("{flag} needs a number");
            std::process::exit(2);
        })
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--depth" => {
                limits = Limits {
                    depth: Some(number(args.next(), "--depth") as u32),
                    ..Limits::default()
                }
            }
            "--nodes" => {
                limits = Limits {
                    nodes: Some(number(args.next(), "--nodes")),
                    ..Limits::default()
                }
            }
            "--every" => every = number(args.next(), "--every").max(1) as usize,
            _ => collect(Path::new(&arg), &mut files),
        }
    }
    if files.is_empty() {
        eprintln!(
            "usage: win_chance_data <record file or folder>... [--nodes N | --depth N] [--every K]"
        );
        std::process::exit(2);
    }
    println!("game,ply,cp,result");
    let mut seen = 0usize;
    let stop = AtomicBool::new(false);
    let mut engine = Searcher::new();
    for (game, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("{}: unreadable, skipped", path.display());
            continue;
        };
        let Ok(record) = Record::parse(&text) else {
            eprintln!("{}: not a record, skipped", path.display());
            continue;
        };
        let (Some(result), Ok(positions)) = (record.result, record.positions()) else {
            continue;
        };
        if record.header("Adjudication").is_some() {
            continue;
        }
        engine.new_game(record.rules);
        for (ply, pos) in positions.iter().enumerate() {
            if pos.outcome().is_some() || pos.legal_actions().len() < 2 {
                continue;
            }
            seen += 1;
            if (seen - 1) % every != 0 {
                continue;
            }
            let view = search_position(&mut engine, pos, &limits, &stop).expect("not stopped");
            let Some(Score::Cp(cp)) = view.judged_score() else {
                continue;
            };
            let won = match result.winner {
                Some(c) if c == pos.turn() => "1",
                Some(_) => "0",
                None => "0.5",
            };
            println!("{game},{ply},{cp},{won}");
        }
        eprintln!("{}/{} {}", game + 1, files.len(), path.display());
    }
}

/// The record files at `path`: the file itself, or the files of a folder (sorted).
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            collect(&e, files);
        }
    } else {
        files.push(path.to_owned());
    }
}
