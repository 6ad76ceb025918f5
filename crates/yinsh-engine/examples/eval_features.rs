//! Writes the evaluation's terms for every ring-move position of some game records, with
//! the game's result, as CSV on stdout: the data `scripts/fit-eval.py` fits the weights
//! of `Weights::default()` to (docs/engine.md, "How the weights were chosen").
//!
//! ```sh
//! cargo run --release -p yinsh-engine --example eval_features -- arena-*/ > features.csv
//! python3 scripts/fit-eval.py features.csv
//! ```
//!
//! Arguments are record files or folders of them. Games without a result or decided by
//! adjudication are skipped. Each row is one position where a ring must be moved, seen
//! from the player to act: `result` is 1 when that player went on to win, 0 for a loss,
//! 0.5 for a draw; the terms are the player's minus the opponent's ([`Features`]);
//! `baseline` is +1 when the opponent is the UCT baseline (`--baseline` in its name), -1
//! when the player is, 0 otherwise, so that a fit can tell the strength of the players
//! apart from the terms.

use std::path::{Path, PathBuf};

use yinsh::notation::record::Record;
use yinsh::{Color, Stage};
use yinsh_engine::eval::Features;

fn main() {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        collect(Path::new(&arg), &mut files);
    }
    if files.is_empty() {
        eprintln!("usage: eval_features <record file or folder>...");
        std::process::exit(2);
    }
    println!(
        "game,result,ply,ready_on_move,removed,markers,w1,w2,w3,w4,ready,centre,edge,mobility,fragile,baseline"
    );
    let mut game = 0;
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
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
        game += 1;
        let baseline = |name: &str| i32::from(name.contains("--baseline"));
        for (ply, pos) in positions.iter().enumerate() {
            if pos.stage() != Stage::Move {
                continue;
            }
            let me = pos.turn();
            let score = match result.winner {
                Some(c) if c == me => "1",
                Some(_) => "0",
                None => "0.5",
            };
            let (a, b) = (Features::of(pos, me), Features::of(pos, !me));
            let d = |x: u32, y: u32| i64::from(x) - i64::from(y);
            let (white, black) = (baseline(&record.white), baseline(&record.black));
            let strength = if me == Color::White {
                black - white
            } else {
                white - black
            };
            println!(
                "{game},{score},{ply},{},{},{},{},{},{},{},{},{},{},{},{},{strength}",
                u8::from(a.windows.ready > 0),
                d(a.removed, b.removed),
                d(a.markers, b.markers),
                d(a.windows.clean[1], b.windows.clean[1]),
                d(a.windows.clean[2], b.windows.clean[2]),
                d(a.windows.clean[3], b.windows.clean[3]),
                d(a.windows.clean[4], b.windows.clean[4]),
                d(a.windows.ready, b.windows.ready),
                d(a.centre, b.centre),
                d(a.edge, b.edge),
                d(a.mobility, b.mobility),
                d(a.fragile, b.fragile),
            );
        }
    }
}

/// Adds `path` (a file) or the files in it (a folder, sorted) to `files`.
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            eprintln!("{}: unreadable, skipped", path.display());
            return;
        };
        let mut found: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        found.sort();
        files.extend(found.into_iter().filter(|p| p.is_file()));
    } else {
        files.push(path.to_path_buf());
    }
}
