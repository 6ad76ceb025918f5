//! One pairing wave of an arena: the maximum-weight matching over the players waiting
//! for a game (docs/tournaments.md), for 100 and for 1,000 of them, each having just
//! played its neighbour in rank (so the matching must look further).
//!
//! ```sh
//! cargo bench -p yinsh-server --bench arena_pairing
//! ```

use criterion::{Criterion, criterion_main};
use yinsh_server::tournament::pairing::{Waiting, pair};
use yinsh_server::vocab::PlayerId;

fn waiting(n: i64) -> Vec<Waiting> {
    (0..n)
        .map(|i| Waiting {
            player: PlayerId(i),
            rank: i as usize,
            last_opponent: Some(PlayerId(i ^ 1)),
        })
        .collect()
}

fn pairing(c: &mut Criterion) {
    for n in [100, 1000] {
        let players = waiting(n);
        c.bench_function(&format!("pair {n} waiting players"), |b| {
            b.iter(|| pair(std::hint::black_box(&players)))
        });
    }
}

/// The group lives in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    criterion::criterion_group!(benches, super::pairing);
}

criterion_main!(group::benches);
