//! Perft counts from fixture files (RULES.md §8).

use yinsh::{Action, Position, Rules, Variant, perft};

/// Plays space-separated tokens from the empty board of `variant`.
fn position_after(variant: Variant, tokens: &[&str]) -> Position {
    let mut pos = Position::with_rules(Rules::of(variant));
    for token in tokens {
        let action: Action = token.parse().unwrap_or_else(|e| panic!("{e}"));
        pos.play(action).unwrap_or_else(|e| panic!("{e}"));
    }
    pos
}

/// Runs every line `<variant> <depth> <count> <tokens…>` of a fixture file.
fn check_fixture(text: &str, max_depth: u32) -> usize {
    let mut checked = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let variant: Variant = fields[0].parse().unwrap();
        let depth: u32 = fields[1].parse().unwrap();
        let count: u64 = fields[2].parse().unwrap();
        if depth > max_depth {
            continue;
        }
        let pos = position_after(variant, &fields[3..]);
        assert_eq!(
            perft(&pos, depth),
            count,
            "perft {depth} after {:?}",
            &fields[3..]
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
