//! Benchmarks of the rules library: legal action generation at each kind of stage,
//! `play_unchecked` and `play`, perft with its known node counts (so that a benchmark run
//! also checks correctness), and complete random playouts from the empty board.
//!
//! Run with `cargo bench -p yinsh --bench rules`; results and the machine are in
//! `docs/performance.md`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_main};
use yinsh::random::{SplitMix64, playout};
use yinsh::{Position, Stage, perft};

// The positions are built as the tests build them.
#[path = "../tests/support.rs"]
mod support;

use support::after;

/// The ring placements of RULES.md §8: White to make the first ring move.
const OPENING: &str = "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8";

/// A middlegame from `tests/fixtures/perft.txt`: 37 ring moves played, 14 markers left
/// in the pool, 34 legal ring moves; perft 3 = 30 660.
const MIDDLEGAME: &str = "d2 g7 e10 i9 g5 j9 k7 h6 i8 h5 k7-j7 h5-e2 e10-e5 g7-h8 i8-e4 \
    h6-d6 j7-i6 h8-h4 e5-c5 d6-b6 e4-b4 b6-d8 i6-i7 i9-i10 c5-c1 d8-c7 g5-g4 c7-a5 d2-d5 \
    i10-f10 b4-b5 f10-g11 i7-j8 g11-i11 g4-g3 e2-e1 c1-e3 h4-h3 g3-g2 a5-a2 d5-e6 i11-h11 \
    b5-f5 j9-h9 e6-f6 e1-f2 e3-e7";

/// A position from the same fixture file right after a ring move that made a row: its
/// owner must remove it (one legal action).
const REMOVAL: &str = "i10 e10 k8 g10 j6 i11 c5 b3 c8 k7 c8-i8 g10-b5 j6-h6 e10-e9 h6-h11 \
    b5-a5 i10-i9 k7-f7 c5-h5 f7-f5 k8-k10 f5-d3 i9-j10 d3-c2 j10-j7 c2-e4 j7-i7 b3-g8 \
    i7-i4 e4-e7 i4-h3 g8-h8 h3-h4 e9-j9 i8-b1 h8-h7 k10-h10 e7-g9 h5-i5 h7-g7 h4-g3 \
    a5-c7 g3-g6 g9-d9 b1-e1 j9-j11 i5-f2 g7-g11 e1-d1 j11-h9 f2-f3 h9-f9 g6-i6 c7-c6 \
    h10-f10 d9-d7 i6-g4";
fn legal_actions(c: &mut Criterion) {
    let placement = Position::new();
    let opening = after(OPENING);
    let middlegame = after(MIDDLEGAME);
    let removal = after(REMOVAL);
    assert_eq!(placement.legal_actions().len(), 85);
    assert_eq!(opening.stage(), Stage::Move);
    assert_eq!(opening.legal_actions().len(), 86);
    assert_eq!(middlegame.stage(), Stage::Move);
    assert!(matches!(removal.stage(), Stage::RemoveRow { .. }));

    let mut group = c.benchmark_group("legal_actions");
    for (name, pos) in [
        ("placement", placement),
        ("opening", opening),
        ("middlegame", middlegame),
        ("removal", removal),
    ] {
        group.bench_function(name, |b| b.iter(|| black_box(&pos).legal_actions()));
    }
    group.finish();
}

fn play(c: &mut Criterion) {
    let middlegame = after(MIDDLEGAME);
    let actions = middlegame.legal_actions();
    let mut group = c.benchmark_group("play");
    group.throughput(Throughput::Elements(actions.len() as u64));
    // Copy-make of every legal action of the middlegame position: the inner loop of a
    // search.
    group.bench_function("unchecked_each_middlegame_action", |b| {
        b.iter(|| {
            let pos = black_box(&middlegame);
            let mut sum = 0u64;
            for &action in &actions {
                let mut child = *pos;
                child.play_unchecked(action);
                sum ^= child.hash();
            }
            sum
        })
    });
    group.bench_function("checked_each_middlegame_action", |b| {
        b.iter(|| {
            let pos = black_box(&middlegame);
            let mut sum = 0u64;
            for &action in &actions {
                let mut child = *pos;
                child.play(action).expect("legal");
                sum ^= child.hash();
            }
            sum
        })
    });
    group.finish();
}

fn perft_counts(c: &mut Criterion) {
    let empty = Position::new();
    let middlegame = after(MIDDLEGAME);
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.throughput(Throughput::Elements(592_620));
    group.bench_function("empty_board_depth_3", |b| {
        b.iter(|| assert_eq!(perft(black_box(&empty), 3), 592_620))
    });
    group.throughput(Throughput::Elements(30_660));
    group.bench_function("middlegame_depth_3", |b| {
        b.iter(|| assert_eq!(perft(black_box(&middlegame), 3), 30_660))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    let mut rng = SplitMix64::new(0x5949_4e53_4800_0000);
    group.bench_function("empty_board_to_the_end", |b| {
        b.iter_batched(
            Position::new,
            |start| {
                let end = playout(start, &mut rng);
                assert!(end.is_over());
                end
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// The group lives in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    use super::{legal_actions, perft_counts, play, playouts};

    criterion::criterion_group!(benches, legal_actions, play, perft_counts, playouts);
}

criterion_main!(group::benches);
