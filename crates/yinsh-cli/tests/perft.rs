//! `yinsh perft`: the check figures of RULES.md §8 and `fixtures/perft.txt`.

use std::collections::HashSet;

use crate::common::{FIXTURES, OPENING, last_line, perft, success};
use crate::support::fixture_lines;

#[test]
fn empty_board_figures() {
    assert_eq!(perft(&["1"]), 85);
    assert_eq!(perft(&["2"]), 7140);
}

#[test]
fn output_is_just_the_number() {
    assert_eq!(success(&["perft", "2"]), "7140\n");
}

#[test]
fn opening_figures() {
    assert_eq!(perft(&["1", "--moves", OPENING]), 86);
    assert_eq!(perft(&["2", "--moves", OPENING]), 6258);
}

#[test]
fn depth_zero_counts_the_empty_sequence() {
    assert_eq!(perft(&["0"]), 1);
    assert_eq!(success(&["perft", "0", "--divide"]), "1\n");
    assert_eq!(perft(&["0", "--moves", OPENING]), 1);
}

#[test]
fn blitz_has_the_same_opening_counts() {
    assert_eq!(perft(&["2", "--variant", "blitz"]), 7140);
    assert_eq!(perft(&["1", "--variant", "blitz", "--moves", OPENING]), 86);
}

#[test]
fn divide_sums_to_the_total() {
    for (depth, moves) in [("1", ""), ("2", OPENING), ("2", "")] {
        let out = success(&["perft", depth, "--divide", "--moves", moves]);
        let lines: Vec<&str> = out.lines().collect();
        let (total, split) = lines.split_last().expect("output");
        let total: u64 = total.parse().expect("a number");
        let mut sum = 0;
        let mut tokens = HashSet::new();
        for line in split {
            let (token, count) = line.split_once(' ').expect("<token> <count>");
            token.parse::<yinsh::Action>().expect("a token");
            assert!(tokens.insert(token.to_owned()), "{token} twice");
            sum += count.parse::<u64>().expect("a count");
        }
        assert_eq!(sum, total, "depth {depth} after '{moves}'");
        assert_eq!(total, perft(&[depth, "--moves", moves]));
        assert_eq!(split.len() as u64, perft(&["1", "--moves", moves]));
    }
}

#[test]
fn position_string_and_moves_agree() {
    let start = "4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0";
    assert_eq!(perft(&["2", "--position", start]), 7140);
    // --moves continues from --position.
    assert_eq!(perft(&["2", "--position", start, "--moves", OPENING]), 6258);
    // The position string printed by `show` gives the same counts.
    let shown = success(&["show", "--moves", OPENING]);
    let fen = shown
        .lines()
        .find_map(|l| l.strip_prefix("position:"))
        .expect("a position line")
        .trim();
    assert_eq!(perft(&["2", "--position", fen]), 6258);
}

#[test]
fn small_fixture_figures() {
    // The cheaper lines of the fixture file (the debug binary is slow on the others).
    let mut checked = 0;
    for line in fixture_lines(FIXTURES) {
        if line.count > 5_000 || line.tokens.is_empty() {
            continue;
        }
        let (depth, variant) = (line.depth.to_string(), line.variant.to_string());
        assert_eq!(
            perft(&[&depth, "--variant", &variant, "--moves", line.tokens]),
            line.count,
            "{line:?}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fixture lines checked");
}

#[test]
fn finished_game_has_no_actions() {
    let over = "WWWW/BBBBB2/8/9/10/9/10/9/8/7/4 w end 1-0 1-1 5";
    assert_eq!(perft(&["0", "--position", over]), 1);
    assert_eq!(perft(&["1", "--position", over]), 0);
    assert_eq!(perft(&["3", "--position", over]), 0);
    assert_eq!(
        last_line(&success(&["perft", "2", "--divide", "--position", over])),
        "0"
    );
}
