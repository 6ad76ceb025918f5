//! How steady the analysis's marks are: analyses some game records as the server does
//! (`analysis::analyse`, a fresh engine for each game) at several settings, then
//! compares the marks of each setting with the next's: a node budget against twice
//! that budget shows what doubling the time per action changes. Also prints the time
//! each setting took (one core per game). The placements and decisions with one legal
//! action are not judged, as in the analysis.
//!
//! ```sh
//! cargo run --release -p yinsh-engine --example mark_agreement -- \
//!     --nodes 500000,1000000,2000000 crates/yinsh/tests/fixtures/boardspace/*.sgf
//! ```
//!
//! `--depth 4,6,8` compares depths instead; `--jobs 2` analyses two games at a time;
//! records are boardspace SGF (`.sgf`) or this project's record format.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use yinsh::notation::record::Record;
use yinsh::notation::sgf;
use yinsh::{Action, Position, Rules, Stage};
use yinsh_engine::Limits;
use yinsh_engine::analysis::{Mark, analyse};
use yinsh_engine::search::Searcher;

/// One game to analyse.
struct Game {
    name: String,
    rules: Rules,
    actions: Vec<Action>,
    /// Whether each action is judged (a decision with a choice, after the placements).
    judged: Vec<bool>,
}

/// What one setting gave for one game.
struct Outcome {
    marks: Vec<Option<Mark>>,
    losses: Vec<f64>,
    time: Duration,
}

fn main() {
    let mut files = Vec::new();
    let mut settings: Vec<(String, Limits)> = Vec::new();
    let mut jobs = 1usize;
    let mut args = std::env::args().skip(1);
    let list = |v: Option<String>, flag: &str| -> Vec<u64> {
        v.unwrap_or_default()
            .split(',')
            .map(|n| n.parse().unwrap_or_else(|_| panic!("{flag} N,M,…")))
            .collect()
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--nodes" => settings.extend(list(args.next(), "--nodes").into_iter().map(|n| {
                let limits = Limits {
                    nodes: Some(n),
                    ..Limits::default()
                };
                (format!("{n} nodes"), limits)
            })),
            "--depth" => settings.extend(list(args.next(), "--depth").into_iter().map(|d| {
                let limits = Limits {
                    depth: Some(d as u32),
                    ..Limits::default()
                };
                (format!("depth {d}"), limits)
            })),
            "--jobs" => jobs = args.next().and_then(|j| j.parse().ok()).expect("--jobs N"),
            _ => files.push(arg),
        }
    }
    assert!(settings.len() >= 2, "two settings or more to compare");
    let games: Vec<Game> = files.iter().map(|f| load(f)).collect();
    let judged: usize = games
        .iter()
        .map(|g| g.judged.iter().filter(|&&j| j).count())
        .sum();
    println!(
        "{} games, {} actions, {judged} judged decisions",
        games.len(),
        games.iter().map(|g| g.actions.len()).sum::<usize>()
    );
    let mut results: Vec<Vec<Outcome>> = Vec::new();
    for (name, limits) in &settings {
        let outcomes = analyse_all(&games, limits, jobs);
        let total: Duration = outcomes.iter().map(|o| o.time).sum();
        let longest = games
            .iter()
            .zip(&outcomes)
            .max_by_key(|(g, _)| g.actions.len())
            .map(|(g, o)| {
                format!(
                    "{} ({} actions) {:.1} s",
                    g.name,
                    g.actions.len(),
                    o.time.as_secs_f64()
                )
            })
            .unwrap_or_default();
        let counts = count(&games, &outcomes);
        println!(
            "{name}: {:.1} s for all, the longest game {longest}; marks (i/m/b) {counts:?}",
            total.as_secs_f64()
        );
        results.push(outcomes);
    }
    println!(
        "setting A vs setting B: same mark (or none), decisions either marks, both mark, \
         marks two apart (inaccuracy vs blunder or none vs mistake…), B's blunders A calls blunders"
    );
    for i in 1..settings.len() {
        let (a, b) = (&results[i - 1], &results[i]);
        let (mut same, mut total, mut either, mut both, mut far, mut b_blunders, mut kept) =
            (0, 0, 0, 0, 0, 0, 0);
        let mut differences = Vec::new();
        for (g, (oa, ob)) in games.iter().zip(a.iter().zip(b)) {
            for (j, (ma, mb)) in oa.marks.iter().zip(&ob.marks).enumerate() {
                if !g.judged[j] {
                    continue;
                }
                differences.push((oa.losses[j] - ob.losses[j]).abs());
                let level = |m: &Option<Mark>| m.map_or(0, |m| m as i32 + 1);
                total += 1;
                same += u32::from(ma == mb);
                either += u32::from(ma.is_some() || mb.is_some());
                both += u32::from(ma.is_some() && mb.is_some());
                far += u32::from((level(ma) - level(mb)).abs() >= 2);
                if *mb == Some(Mark::Blunder) {
                    b_blunders += 1;
                    kept += u32::from(*ma == Some(Mark::Blunder));
                }
            }
        }
        differences.sort_by(f64::total_cmp);
        let quantile = |q: f64| {
            differences
                .get(((differences.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        println!(
            "{} vs {}: same {same}/{total} ({:.0} %), either {either}, both {both}, two apart {far}, \
             blunders kept {kept}/{b_blunders}; losses differ by {:.3} (median), {:.3} (90th percentile)",
            settings[i - 1].0,
            settings[i].0,
            100.0 * f64::from(same) / f64::from(total.max(1)),
            quantile(0.5),
            quantile(0.9),
        );
    }
}

/// Reads a record: boardspace SGF or this project's format.
fn load(file: &str) -> Game {
    let text = std::fs::read_to_string(file).expect("readable");
    let record = if file.ends_with(".sgf") {
        sgf::import(&text).expect("an SGF record")
    } else {
        Record::parse(&text).expect("a game record")
    };
    let positions = record.positions().expect("a legal game");
    let judged = record
        .actions
        .iter()
        .zip(&positions)
        .map(|(_, pos)| pos.stage() != Stage::Place && pos.legal_actions().len() > 1)
        .collect();
    Game {
        name: file.rsplit('/').next().unwrap_or(file).to_owned(),
        rules: record.rules,
        actions: record.actions.clone(),
        judged,
    }
}

/// Analyses every game within `limits`, `jobs` games at a time.
fn analyse_all(games: &[Game], limits: &Limits, jobs: usize) -> Vec<Outcome> {
    let next = Mutex::new(0usize);
    let done: Mutex<Vec<Option<Outcome>>> = Mutex::new(games.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(game) = games.get(i) else { break };
                    let began = Instant::now();
                    let analysis = analyse(
                        &mut Searcher::new(),
                        Position::with_rules(game.rules),
                        &game.actions,
                        limits,
                        &AtomicBool::new(false),
                        &mut |_, _| {},
                    )
                    .expect("a legal game");
                    let outcome = Outcome {
                        marks: analysis.actions.iter().map(|j| j.mark).collect(),
                        losses: analysis.actions.iter().map(|j| j.loss).collect(),
                        time: began.elapsed(),
                    };
                    done.lock().unwrap()[i] = Some(outcome);
                }
            });
        }
    });
    done.into_inner()
        .unwrap()
        .into_iter()
        .map(|o| o.expect("every game analysed"))
        .collect()
}

/// The marks of each kind (inaccuracies, mistakes, blunders) over all games.
fn count(games: &[Game], outcomes: &[Outcome]) -> [u32; 3] {
    let mut c = [0; 3];
    for (g, o) in games.iter().zip(outcomes) {
        for (j, m) in o.marks.iter().enumerate() {
            if let (true, Some(m)) = (g.judged[j], m) {
                c[*m as usize] += 1;
            }
        }
    }
    c
}
