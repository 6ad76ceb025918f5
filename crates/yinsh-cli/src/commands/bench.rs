//! `yinsh bench`: a fixed, reproducible, single-threaded workload, like a chess engine's
//! `bench`: perft from fixed positions, then random playouts from a fixed seed.
//!
//! The node counts are checked (against `crates/yinsh/tests/fixtures/perft.txt` and
//! figures pinned here), so a bench run is also a quick correctness check; the playout
//! summary (wins, draws, actions) changes only when the rules, the move order or the
//! generator change.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use clap::Args;
use yinsh::random::{SplitMix64, random_action};
use yinsh::{Color, Position, perft};

use crate::position_args::play_tokens;

/// Arguments of `yinsh bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Run a much smaller workload (a fraction of a second), for smoke tests.
    #[arg(long)]
    pub quick: bool,
}

/// One perft run of the workload.
struct PerftCase {
    /// What the position is.
    name: &'static str,
    /// Actions from the empty standard board.
    moves: &'static str,
    /// Perft depth.
    depth: u32,
    /// The expected count (from `fixtures/perft.txt`).
    nodes: u64,
}

/// Mid-game positions of `fixtures/perft.txt`: ring moves late in the game, with rows
/// about to appear.
const MIDGAME_A: &str = "d2 g7 e10 i9 g5 j9 k7 h6 i8 h5 k7-j7 h5-e2 e10-e5 g7-h8 i8-e4 \
    h6-d6 j7-i6 h8-h4 e5-c5 d6-b6 e4-b4 b6-d8 i6-i7 i9-i10 c5-c1 d8-c7 g5-g4 c7-a5 d2-d5 \
    i10-f10 b4-b5 f10-g11 i7-j8 g11-i11 g4-g3 e2-e1 c1-e3 h4-h3 g3-g2 a5-a2 d5-e6 i11-h11 \
    b5-f5 j9-h9 e6-f6 e1-f2 e3-e7";
/// The second mid-game position (see [`MIDGAME_A`]).
const MIDGAME_B: &str = "f6 e8 f8 j11 j8 c6 i4 e7 b4 e1 b4-h4 c6-b5 f6-f4 b5-f5 f4-c4 \
    e1-e6 f8-i11 e8-f9 i11-g11 e7-d6 h4-h9 f5-b1 i4-g4 j11-j10 g11-g10 b1-c2 c4-c7 d6-c5 \
    g4-g2 c2-c1 c7-a5 c1-d1 g10-h10 f9-e9 j8-j5 c5-c8 a5-a4 d1-d7 h9-g9 j10-j9 j5-i5 \
    d7-h11 g9-g8 e6-f7 h10-h8";

/// The ten placements of RULES.md §8, White to move.
const OPENING: &str = "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8";

/// The default workload, about a second of perft in release mode. Depth 3 is too cheap
/// to time (the last ply is only counted), so the positions go deeper: the empty board
/// at depth 4 is 85·84·83·82 placements; the other counts are regression figures of this
/// library (their depth-3 counts are the cross-checked ones of `fixtures/perft.txt` and
/// RULES.md §8).
const FULL_PERFT: [PerftCase; 4] = [
    PerftCase {
        name: "empty board",
        moves: "",
        depth: 4,
        nodes: 48_594_840,
    },
    PerftCase {
        name: "opening",
        moves: OPENING,
        depth: 4,
        nodes: 31_988_400,
    },
    PerftCase {
        name: "mid-game A",
        moves: MIDGAME_A,
        depth: 5,
        nodes: 21_402_232,
    },
    PerftCase {
        name: "mid-game B",
        moves: MIDGAME_B,
        depth: 5,
        nodes: 18_886_820,
    },
];

/// The quick workload: check figures of RULES.md §8 and `fixtures/perft.txt`.
const QUICK_PERFT: [PerftCase; 3] = [
    PerftCase {
        name: "empty board",
        moves: "",
        depth: 2,
        nodes: 7_140,
    },
    PerftCase {
        name: "opening",
        moves: OPENING,
        depth: 2,
        nodes: 6_258,
    },
    PerftCase {
        name: "mid-game A",
        moves: MIDGAME_A,
        depth: 3,
        nodes: 30_660,
    },
];

/// The seed of the playouts ("YINSHBEN").
const SEED: u64 = 0x5949_4e53_4842_454e;
/// Playouts of the default workload, about a second in release mode.
const FULL_PLAYOUTS: u64 = 100_000;
/// Playouts of the quick workload.
const QUICK_PLAYOUTS: u64 = 200;

/// Runs the workload and prints one `key: value` line per figure.
pub fn run(args: &BenchArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let (cases, playouts): (&[PerftCase], u64) = if args.quick {
        (&QUICK_PERFT, QUICK_PLAYOUTS)
    } else {
        (&FULL_PERFT, FULL_PLAYOUTS)
    };

    let mut perft_nodes = 0;
    let mut perft_time = Duration::ZERO;
    for case in cases {
        let mut pos = Position::new();
        play_tokens(&mut pos, case.moves)
            .with_context(|| format!("bench position '{}'", case.name))?;
        let start = Instant::now();
        let nodes = perft(&pos, case.depth);
        let elapsed = start.elapsed();
        ensure!(
            nodes == case.nodes,
            "perft {} depth {} gave {nodes} nodes, expected {}",
            case.name,
            case.depth,
            case.nodes
        );
        writeln!(
            out,
            "perft {} depth {}: {nodes} nodes in {:.3} s",
            case.name,
            case.depth,
            elapsed.as_secs_f64()
        )?;
        out.flush()?;
        perft_nodes += nodes;
        perft_time += elapsed;
    }

    let start = Instant::now();
    let summary = playouts_from_empty_board(playouts, SEED);
    let playout_time = start.elapsed();

    writeln!(out, "perft nodes: {perft_nodes}")?;
    writeln!(out, "perft time: {:.3} s", perft_time.as_secs_f64())?;
    writeln!(
        out,
        "perft nodes/s: {:.0}",
        per_second(perft_nodes, perft_time)
    )?;
    writeln!(out, "playouts: {playouts} (seed {SEED:#018x})")?;
    writeln!(out, "playout time: {:.3} s", playout_time.as_secs_f64())?;
    writeln!(out, "playouts/s: {:.0}", per_second(playouts, playout_time))?;
    writeln!(
        out,
        "actions per playout: {:.2}",
        summary.actions as f64 / playouts as f64
    )?;
    writeln!(
        out,
        "actions/s: {:.0}",
        per_second(summary.actions, playout_time)
    )?;
    writeln!(
        out,
        "playout results: white {}, black {}, draws {}",
        summary.white_wins, summary.black_wins, summary.draws
    )?;
    Ok(())
}

/// Rate of `count` events in `time`, guarding against a zero duration.
fn per_second(count: u64, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64().max(1e-9)
}

/// What a series of playouts did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct PlayoutSummary {
    /// Atomic actions played in all playouts.
    actions: u64,
    white_wins: u64,
    black_wins: u64,
    draws: u64,
}

/// Plays `count` random games from the empty standard board with one generator seeded
/// with `seed`.
fn playouts_from_empty_board(count: u64, seed: u64) -> PlayoutSummary {
    let mut rng = SplitMix64::new(seed);
    let mut summary = PlayoutSummary::default();
    for _ in 0..count {
        let (end, actions) = counted_playout(Position::new(), &mut rng);
        summary.actions += actions;
        match end.outcome().and_then(|o| o.winner) {
            Some(Color::White) => summary.white_wins += 1,
            Some(Color::Black) => summary.black_wins += 1,
            None => summary.draws += 1,
        }
    }
    summary
}

/// [`yinsh::random::playout`], counting the actions: the same choices from the same
/// generator (the unit test below holds them equal), since the final position alone does
/// not tell how many passes were played.
fn counted_playout(mut pos: Position, rng: &mut SplitMix64) -> (Position, u64) {
    let mut actions = 0;
    while let Some(action) = random_action(&pos, rng) {
        pos.play_unchecked(action);
        actions += 1;
    }
    (pos, actions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use yinsh::random::playout;

    #[test]
    fn positions_are_those_of_the_fixture_file() {
        let fixtures = include_str!("../../../yinsh/tests/fixtures/perft.txt");
        for (count, moves) in [("30660", MIDGAME_A), ("25165", MIDGAME_B)] {
            let line = format!("standard 3 {count} {moves}");
            assert!(fixtures.lines().any(|l| l == line), "{line}");
        }
        assert!(
            fixtures
                .lines()
                .any(|l| l == format!("standard 2 6258 {OPENING}"))
        );
    }

    #[test]
    fn counted_playout_plays_the_library_playout() {
        let mut a = SplitMix64::new(SEED);
        let mut b = SplitMix64::new(SEED);
        for _ in 0..20 {
            let (end, actions) = counted_playout(Position::new(), &mut a);
            assert_eq!(end, playout(Position::new(), &mut b));
            assert!(actions >= 10 && end.is_over());
        }
    }
}
