//! How steady the analysis's marks are: searches every position of some game records
//! once, to `--depth N` (8 unless told), keeping the score and choice of every
//! iteration, then judges each decision as `analysis::judge` does at each depth and
//! compares the marks of two settings: depth 6 against depth 8 (about fourteen times
//! the time), and so on. With `--mean`, a position's win chance is the mean of the
//! chances at its depth and one less (the scores swing with the parity of the depth).
//! The placements and decisions with one legal action are not judged, as in the
//! analysis.
//!
//! ```sh
//! cargo run --release -p yinsh-engine --example mark_agreement -- \
//!     crates/yinsh/tests/fixtures/boardspace/*.sgf
//! ```

use std::sync::atomic::AtomicBool;

use yinsh::notation::sgf;
use yinsh::{Action, Color, Position, Stage};
use yinsh_engine::analysis::{Mark, win_chance};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits, Score};

/// What one iteration of the search of a position said.
#[derive(Clone, Copy)]
struct Iteration {
    score: Score,
    best: Option<Action>,
}

/// A position of a game and its iterations (index d − 1 for depth d); none for a
/// position that is over or has one legal action.
struct Searched {
    pos: Position,
    iterations: Vec<Iteration>,
}

fn main() {
    let mut files = Vec::new();
    let mut depth = 8u32;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--depth" {
            depth = args.next().and_then(|d| d.parse().ok()).expect("--depth N");
        } else {
            files.push(arg);
        }
    }
    let mut games = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let record = sgf::import(&text).expect("an SGF record");
        let positions = record.positions().expect("a legal game");
        let mut engine = Searcher::new();
        engine.new_game(record.rules);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut searched = Vec::new();
        for pos in &positions {
            let mut iterations = Vec::new();
            if !pos.is_over() && pos.legal_actions().len() > 1 {
                engine.search(pos, &limits, &stop, &mut |info| {
                    let it = Iteration {
                        score: info.score,
                        best: info.pv.first().copied(),
                    };
                    // A search stopped in an iteration reports it again: keep one.
                    if iterations.len() < info.depth as usize {
                        iterations.push(it);
                    } else if let Some(last) = iterations.last_mut() {
                        *last = it;
                    }
                });
            }
            searched.push(Searched {
                pos: *pos,
                iterations,
            });
        }
        eprintln!("{file}: {} positions", positions.len());
        games.push((record.actions.clone(), searched));
    }
    println!(
        "setting A vs setting B: same mark (or none), turns either marks, both mark, blunders of B also blunders in A"
    );
    for (a, b) in [(4, 6), (6, 8), (5, 7)] {
        if b > depth {
            continue;
        }
        for mean in [false, true] {
            let (mut same, mut judged, mut either, mut both, mut b_blunders, mut kept) =
                (0, 0, 0, 0, 0, 0);
            let mut count = [[0u32; 3]; 2];
            for (actions, searched) in &games {
                let marks_a = marks(actions, searched, a, mean);
                let marks_b = marks(actions, searched, b, mean);
                for (ma, mb) in marks_a.iter().zip(&marks_b) {
                    let (Some(ma), Some(mb)) = (ma, mb) else {
                        continue;
                    };
                    judged += 1;
                    same += u32::from(ma == mb);
                    either += u32::from(ma.is_some() || mb.is_some());
                    both += u32::from(ma.is_some() && mb.is_some());
                    if *mb == Some(Mark::Blunder) {
                        b_blunders += 1;
                        kept += u32::from(*ma == Some(Mark::Blunder));
                    }
                    for (k, m) in [ma, mb].iter().enumerate() {
                        if let Some(m) = m {
                            count[k][*m as usize] += 1;
                        }
                    }
                }
            }
            println!(
                "depth {a} vs {b}{}: same {same}/{judged} ({:.0} %), either {either}, both {both}, \
                 blunders kept {kept}/{b_blunders}; marks (i/m/b) {:?} vs {:?}",
                if mean { " (mean of two depths)" } else { "" },
                100.0 * f64::from(same) / f64::from(judged.max(1)),
                count[0],
                count[1]
            );
        }
    }
}

/// The chance of `color` in searched position `s` at `depth` (mean of `depth` and
/// `depth − 1` with `mean`); `None` when the position was not searched.
fn chance(s: &Searched, depth: u32, mean: bool, color: Color) -> Option<f64> {
    let at = |d: u32| -> Option<f64> {
        let it = s.iterations.get(d.checked_sub(1)? as usize)?;
        let mover = win_chance(it.score);
        Some(if s.pos.turn() == color {
            mover
        } else {
            1.0 - mover
        })
    };
    let full = at(depth)?;
    // A forced result is exact, whatever the depth that saw it.
    let decided = matches!(s.iterations[depth as usize - 1].score, Score::Win(_));
    if !mean || decided || depth < 2 {
        return Some(full);
    }
    Some((full + at(depth - 1)?) / 2.0)
}

/// The value for `color` of position `i`, looking through forced positions and ends.
fn value(searched: &[Searched], i: usize, depth: u32, mean: bool, color: Color) -> Option<f64> {
    let s = &searched[i];
    if let Some(outcome) = s.pos.outcome() {
        return Some(match outcome.winner {
            None => 0.5,
            Some(w) if w == color => 1.0,
            Some(_) => 0.0,
        });
    }
    if s.iterations.is_empty() {
        return value(searched, i + 1, depth, mean, color);
    }
    chance(s, depth, mean, color)
}

/// The mark of each action at `depth` (outer `None`: not judged).
fn marks(
    actions: &[Action],
    searched: &[Searched],
    depth: u32,
    mean: bool,
) -> Vec<Option<Option<Mark>>> {
    actions
        .iter()
        .enumerate()
        .map(|(i, &played)| {
            let s = &searched[i];
            if s.iterations.len() < depth as usize || matches!(s.pos.stage(), Stage::Place) {
                return None;
            }
            let mover = s.pos.turn();
            let before = chance(s, depth, mean, mover)?;
            let best = s.iterations[depth as usize - 1].best;
            let after = if best == Some(played) {
                before
            } else {
                value(searched, i + 1, depth - 1, mean, mover)?
            };
            Some(Mark::of((before - after).max(0.0)))
        })
        .collect()
}
