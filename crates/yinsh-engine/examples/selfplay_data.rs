//! Plays the engine against itself and writes every decision position (a ring to place
//! or to move) with the search's score and the game's result: the training data of the
//! evaluation's learned terms (`scripts/train-eval.py`, docs/engine.md "The learned
//! terms").
//!
//! ```sh
//! cargo run --release -p yinsh-engine --example selfplay_data -- \
//!     --games 2000 --nodes 20000 --threads 2 --seed 1 > selfplay.txt
//! ```
//!
//! Each game starts from 2 to 8 random placements on the inner points (seeded, so the
//! same seed gives the same games), then both sides are the full-strength engine with a
//! node limit per decision (`--nodes`, not a time: the data does not depend on how busy
//! the machine is). One line per position, from the point of view of the player to act:
//!
//! ```text
//! <stage P|M> <removed: mine> <theirs> <rings: mine> <theirs> <markers: mine> <theirs>
//!     <score> <result> <index> <hand-made>
//! ```
//!
//! Board sets are 128-bit hexadecimal numbers (bit = point index); `score` is the
//! search's score in thousandths of a ring for the player to act (a forced win or loss
//! is written ±100000); `result` is 1 (the player to act won), 0 (lost) or 0.5 (draw);
//! `index` counts the game's positions from 0 (a new game starts at 0); `hand-made` is
//! [`eval::hand_made`], the evaluation without its learned terms, which the training
//! fits them on top of. Games that hit 400 plies are dropped.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use yinsh::random::SplitMix64;
use yinsh::{Action, Bitboard, Color, Point, Position, Stage};
use yinsh_engine::eval::{self, Weights};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits, Score};

struct Options {
    games: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
}

fn parse() -> Options {
    let mut o = Options {
        games: 100,
        nodes: 20_000,
        threads: 1,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        let Some(value) = value else {
            eprintln!("usage: selfplay_data [--games N] [--nodes N] [--threads N] [--seed S]");
            std::process::exit(2);
        };
        match flag.as_str() {
            "--games" => o.games = value,
            "--nodes" => o.nodes = value,
            "--threads" => o.threads = value.clamp(1, 64) as usize,
            "--seed" => o.seed = value,
            _ => {
                eprintln!("unknown flag {flag}");
                std::process::exit(2);
            }
        }
    }
    o
}

fn main() {
    let o = parse();
    let next = AtomicU64::new(0);
    let out = Mutex::new(std::io::BufWriter::new(std::io::stdout()));
    std::thread::scope(|s| {
        for _ in 0..o.threads {
            s.spawn(|| {
                let mut engine = Searcher::with_hash_size(16);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= o.games {
                        break;
                    }
                    let lines = play(&mut engine, o.seed.wrapping_mul(1_000_003) + game, o.nodes);
                    let mut out = out.lock().unwrap();
                    out.write_all(lines.as_bytes()).unwrap();
                    out.flush().unwrap();
                }
            });
        }
    });
}

/// One game from a random opening; its lines, or nothing when it ran too long.
fn play(engine: &mut Searcher, seed: u64, nodes: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::new();
    engine.new_game(*pos.rules());
    let inner: Vec<Point> = Point::ALL.into_iter().filter(|p| !is_edge(*p)).collect();
    let opening = 2 + rng.next_u64() % 7;
    for _ in 0..opening {
        let free: Vec<Point> = inner
            .iter()
            .copied()
            .filter(|p| !pos.occupied().contains(*p))
            .collect();
        let p = free[(rng.next_u64() % free.len() as u64) as usize];
        pos.play(Action::Place(p)).expect("a free point");
    }
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    // The player to act, the line's fields before the result, and the hand-made terms.
    let mut rows: Vec<(Color, String, i32)> = Vec::new();
    let mut ply = opening;
    while pos.outcome().is_none() {
        if ply >= 400 {
            return String::new();
        }
        let result = engine.search(&pos, &limits, &stop, &mut |_| {});
        if matches!(pos.stage(), Stage::Place | Stage::Move) {
            let me = pos.turn();
            let score = match result.info.score {
                Score::Cp(cp) => cp * 10,
                Score::Win(n) if n > 0 => 100_000,
                Score::Win(_) => -100_000,
            };
            let hex = |b: Bitboard| format!("{:x}", b.0);
            rows.push((
                me,
                format!(
                    "{} {} {} {} {} {} {} {score}",
                    if pos.stage() == Stage::Place {
                        'P'
                    } else {
                        'M'
                    },
                    pos.removed(me),
                    pos.removed(!me),
                    hex(pos.rings(me)),
                    hex(pos.rings(!me)),
                    hex(pos.markers(me)),
                    hex(pos.markers(!me)),
                ),
                eval::hand_made(&pos, &Weights::default()),
            ));
        }
        pos.play(result.best)
            .expect("the engine plays legal actions");
        ply += 1;
    }
    let winner = pos.outcome().and_then(|o| o.winner);
    let mut text = String::new();
    for (i, (me, row, hand_made)) in rows.iter().enumerate() {
        let result = match winner {
            Some(c) if c == *me => "1",
            Some(_) => "0",
            None => "0.5",
        };
        text.push_str(&format!("{row} {result} {i} {hand_made}\n"));
    }
    text
}

/// A point on the board's edge (fewer than six neighbours).
fn is_edge(p: Point) -> bool {
    yinsh::Direction::ALL.iter().any(|d| p.step(*d).is_none())
}
