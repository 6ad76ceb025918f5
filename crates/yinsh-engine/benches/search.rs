//! Search speed: fixed-depth searches from fixed positions (nodes per second is the
//! figure to watch; see docs/performance.md).

// `criterion_group!` defines a public function without documentation.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use yinsh::{Position, Rules};
use yinsh_engine::eval::{Weights, evaluate};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits};

// The positions are built as the rules' tests build them.
#[path = "../../yinsh/tests/support.rs"]
mod support;

/// A middle-game position: ten rings placed, thirty ring moves played.
fn middle_game() -> Position {
    support::after(
        "i10 e10 k8 g10 j6 i11 c5 b3 c8 k7 c8-i8 g10-b5 j6-h6 e10-e9 h6-h11 b5-a5 \
         i10-i9 k7-f7 c5-h5 f7-f5 k8-k10 f5-d3 i9-j10 d3-c2 j10-j7 c2-e4 j7-i7 b3-g8 \
         i7-i4 e4-e7 i4-h3 g8-h8 h3-h4 e9-j9 i8-b1 h8-h7 k10-h10 e7-g9 h5-i5 h7-g7",
    )
}

/// Evaluation and fixed-depth search of a middle-game position.
fn bench(c: &mut Criterion) {
    let mid = middle_game();
    let weights = Weights::default();
    c.bench_function("evaluate middle game", |b| {
        b.iter(|| evaluate(black_box(&mid), &weights))
    });
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    // A small table, cleared before every search, so that each search starts cold and
    // the clearing costs little next to the search (44 000 nodes or so).
    let mut searcher = Searcher::with_hash_size(1);
    let nodes = searcher
        .search(&mid, &limits, &stop, &mut |_| {})
        .info
        .nodes;
    println!("search depth 6 middle game: {nodes} nodes a search");
    c.bench_function("search depth 6 middle game", |b| {
        b.iter(|| {
            searcher.new_game(Rules::STANDARD);
            searcher.search(black_box(&mid), &limits, &stop, &mut |_| {})
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
