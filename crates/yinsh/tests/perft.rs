//! Perft counts from fixture files (RULES.md §8), and how perft treats the stages the
//! fixture cannot show: passes, finished games, the blitz target.

use yinsh::{Action, ByColor, Position, Rules, Setup, Stage, Variant, perft, perft_divide};

use crate::support::{FixtureLine, after_in, fixture_lines, perft_by, set};

/// Runs every line `<variant> <depth> <count> <tokens…>` of a fixture file.
fn check_fixture(text: &str, max_depth: u32) -> usize {
    let mut checked = 0;
    for line in fixture_lines(text) {
        if line.depth > max_depth {
            continue;
        }
        assert_eq!(
            perft(&line.position(), line.depth),
            line.count,
            "perft {} after {:?}",
            line.depth,
            line.tokens
        );
        checked += 1;
    }
    checked
}

#[test]
fn shared_fixture() {
    let n = check_fixture(include_str!("fixtures/perft.txt"), 3);
    assert!(n >= 20);
}

#[test]
fn own_fixture() {
    let n = check_fixture(include_str!("fixtures/perft-extra.txt"), 3);
    assert!(n >= 16);
}

/// The lines of the shared fixture file.
fn fixture_positions() -> impl Iterator<Item = FixtureLine<'static>> {
    fixture_lines(include_str!("fixtures/perft.txt"))
}

#[test]
fn divide_sums_to_perft_and_checked_play_agrees() {
    for line in fixture_positions() {
        let (tokens, depth, count) = (line.tokens, line.depth, line.count);
        if tokens.is_empty() && depth == 3 {
            continue; // 592 620 leaves: the fixture check above covers it
        }
        let pos = line.position();
        let divide = perft_divide(&pos, depth);
        assert_eq!(divide.len(), pos.legal_actions().len());
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), count);
        let listed: Vec<Action> = divide.iter().map(|(a, _)| *a).collect();
        assert_eq!(listed, pos.legal_actions().to_vec());
        // Every action `legal_actions` lists must be accepted by the checked `play`.
        let checked = perft_by(&pos, depth, &Position::legal_actions);
        assert_eq!(checked, count, "after {tokens:?}");
    }
}

#[test]
fn perft_of_a_finished_game_is_zero() {
    let mut setup = Setup::empty(Rules::STANDARD);
    setup.rings = ByColor {
        white: set("e5 g11"),
        black: set("c2 k7 k8 k9 k10"),
    };
    setup.removed.white = 3;
    setup.stage = Stage::Over;
    let over = Position::from_setup(setup).unwrap();
    assert!(over.is_over());
    assert_eq!(perft(&over, 0), 1);
    for depth in 1..4 {
        assert_eq!(perft(&over, depth), 0);
    }
    assert!(perft_divide(&over, 2).is_empty());
}

#[test]
fn perft_counts_a_pass_as_one_action() {
    // White's a2 a3 a4 (two removed) are boxed in by Black's a5 b2 b3 b4 b5 (RULES.md E3).
    let mut setup = Setup::empty(Rules::STANDARD);
    setup.rings = ByColor {
        white: set("a2 a3 a4"),
        black: set("a5 b2 b3 b4 b5"),
    };
    setup.removed.white = 2;
    setup.stage = Stage::Move;
    let boxed = Position::from_setup(setup).unwrap();
    assert_eq!(perft(&boxed, 1), 1);
    let mut after_pass = boxed;
    after_pass.play(Action::Pass).unwrap();
    assert_eq!(perft(&boxed, 2), perft(&after_pass, 1));
    assert_eq!(perft(&boxed, 3), perft(&after_pass, 2));
    assert!(perft(&after_pass, 1) > 1);
}

#[test]
fn blitz_ends_with_the_first_ring_removed() {
    // The fixture's row choice for White (standard perft 3 = 10): under blitz the ring
    // removal ends the game (RULES.md V2), so nothing follows it.
    let line = fixture_positions()
        .find(|l| l.count == 10 && l.tokens.ends_with(" i6-g4"))
        .expect("the fixture line");
    assert_eq!((line.depth, line.count), (3, 10));
    let standard = after_in(Rules::of(Variant::Standard), line.tokens);
    let blitz = after_in(Rules::of(Variant::Blitz), line.tokens);
    assert!(matches!(standard.stage(), Stage::RemoveRow { .. }));
    assert_eq!(perft(&standard, 3), 10);
    assert_eq!(perft(&blitz, 1), perft(&standard, 1));
    assert_eq!(perft(&blitz, 2), perft(&standard, 2));
    assert_eq!(perft(&blitz, 3), 0);
}

/// The lines of `perft-extra.txt` under the headers `# <variant> last marker, next
/// player boxed in`.
fn boxed_in_after_the_last_marker() -> Vec<FixtureLine<'static>> {
    let mut out = Vec::new();
    let mut in_section = false;
    for line in include_str!("fixtures/perft-extra.txt")
        .lines()
        .map(str::trim)
    {
        if line.starts_with("# standard ") || line.starts_with("# blitz ") {
            in_section = line.ends_with("last marker, next player boxed in");
        } else if in_section && let Some(line) = FixtureLine::parse(line) {
            out.push(line);
        }
    }
    out
}

#[test]
fn perft_counts_no_pass_after_the_last_marker() {
    // One marker is left; every ring move places it. A move that makes a row goes on to
    // the removal; every other move ends the game at once (RULES.md E2/E3), also when
    // it leaves the next player without a ring move, so no pass follows and the move
    // is a leaf. Counted here by hand: perft 2 is the sum over the row-making moves of
    // their row choices, and the boxed-in moves, which under the old E3 counted one
    // pass each, count nothing.
    let lines = boxed_in_after_the_last_marker();
    assert_eq!(lines.len(), 4);
    for line in lines {
        let (tokens, depth, count) = (line.tokens, line.depth, line.count);
        let pos = line.position();
        assert_eq!((pos.pool(), pos.stage()), (1, Stage::Move));
        let (mut boxed_in, mut by_hand) = (0, 0);
        for action in pos.legal_actions() {
            assert!(matches!(action, Action::Move { .. }));
            let mut child = pos;
            child.play(action).unwrap();
            assert_eq!(child.pool(), 0);
            if matches!(child.stage(), Stage::RemoveRow { .. }) {
                by_hand += child.legal_actions().len() as u64;
                continue;
            }
            assert!(child.is_over(), "{action} after {tokens:?}");
            assert_eq!(perft(&child, 1), 0);
            boxed_in += usize::from(!child.can_move(child.turn()));
        }
        assert!(boxed_in > 0, "the line leaves someone boxed in: {tokens:?}");
        let expected = match depth {
            1 => pos.legal_actions().len() as u64,
            2 => by_hand,
            _ => unreachable!("depth 1 or 2"),
        };
        assert_eq!(expected, count, "after {tokens:?}");
        assert_eq!(perft(&pos, depth), count);
    }
}
