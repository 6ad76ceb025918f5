//! `yinsh moves`: one canonical token per legal action.

use yinsh::Action;

use crate::common::{OPENING, perft, success};

fn tokens(args: &[&str]) -> Vec<String> {
    let mut all = vec!["moves"];
    all.extend_from_slice(args);
    success(&all).lines().map(str::to_owned).collect()
}

#[test]
fn tokens_parse_and_count_matches_perft_one() {
    for moves in ["", "e3", OPENING, &format!("{OPENING} h7-h9 g8-e6")] {
        let lines = tokens(&["--moves", moves]);
        assert_eq!(
            lines.len() as u64,
            perft(&["1", "--moves", moves]),
            "{moves}"
        );
        for line in &lines {
            let action: Action = line.parse().expect("a token");
            // Canonical lowercase form: the line is its own Display.
            assert_eq!(&action.to_string(), line);
        }
    }
}

#[test]
fn empty_board_lists_every_point() {
    let lines = tokens(&[]);
    assert_eq!(lines.len(), 85);
    assert!(lines.contains(&"f6".to_owned()));
    assert!(!lines.contains(&"a1".to_owned()));
}

#[test]
fn input_accepts_either_case() {
    assert_eq!(
        tokens(&["--moves", &OPENING.to_uppercase()]),
        tokens(&["--moves", OPENING])
    );
}

#[test]
fn row_removals_are_canonical() {
    let line = crate::common::FIXTURES
        .lines()
        .find(|l| l.starts_with("standard 3 10 "))
        .expect("a fixture with a row for the mover");
    let moves = line.splitn(4, ' ').nth(3).expect("moves");
    assert_eq!(tokens(&["--moves", moves]), ["xi4-i8"]);
}

#[test]
fn finished_game_lists_nothing() {
    let over = "WWWW/BBBBB2/8/9/10/9/10/9/8/7/4 w end 1-0 1-1 5";
    assert_eq!(success(&["moves", "--position", over]), "");
}
