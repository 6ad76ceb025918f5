//! How long the engine takes over each decision in a game with clocks, as an engine
//! seat plays a person: self-play at one level, both sides with the same clock and the
//! same settings, each decision timed on the wall clock and charged to its side's
//! clock (plus the increment). Prints the median, 90th percentile and longest decision,
//! and the time each side had left at the end.
//!
//! ```sh
//! cargo run --release -p yinsh-engine --example decision_times -- \
//!     --level 10 --minutes 10 --increment 5 [--cap 6]
//! ```

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use yinsh::{Color, Position};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Clock, Engine, Limits};

fn arg(args: &[String], name: &str) -> Option<f64> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let level = arg(&args, "--level").unwrap_or(10.0) as u8;
    let minutes = arg(&args, "--minutes").unwrap_or(10.0);
    let increment = Duration::from_secs_f64(arg(&args, "--increment").unwrap_or(5.0));
    let cap = arg(&args, "--cap").map(Duration::from_secs_f64);
    let mut engines = [(); 2].map(|()| {
        let mut e = Searcher::with_hash_size(16);
        e.set_threads(1);
        e.set_level(level);
        e
    });
    let start = Duration::from_secs_f64(minutes * 60.0);
    let mut left = [start, start];
    let mut pos = Position::new();
    let mut times: Vec<Duration> = Vec::new();
    let stop = AtomicBool::new(false);
    while pos.outcome().is_none() {
        let side = usize::from(pos.turn() == Color::Black);
        let limits = Limits {
            clock: Some(Clock {
                wtime: left[0],
                btime: left[1],
                winc: increment,
                binc: increment,
            }),
            cap,
            ..Limits::default()
        };
        let t = Instant::now();
        let found = engines[side].search(&pos, &limits, &stop, &mut |_| {});
        let took = t.elapsed();
        times.push(took);
        match left[side].checked_sub(took) {
            Some(l) => left[side] = l + increment,
            None => {
                println!("lost on time at decision {}", times.len());
                break;
            }
        }
        pos.play(found.best)
            .expect("the engine plays legal actions");
    }
    let mut sorted = times.clone();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    println!(
        "level {level}, {minutes}+{} s, cap {:?}: {} decisions; median {:.2} s, p90 {:.2} s, longest {:.2} s; left {:.0} s / {:.0} s; {}",
        increment.as_secs_f64(),
        cap,
        times.len(),
        at(0.5).as_secs_f64(),
        at(0.9).as_secs_f64(),
        sorted.last().unwrap().as_secs_f64(),
        left[0].as_secs_f64(),
        left[1].as_secs_f64(),
        match pos.outcome() {
            Some(o) => format!("{:?}", o.winner),
            None => "unfinished".to_owned(),
        }
    );
}
