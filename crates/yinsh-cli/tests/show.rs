//! `yinsh show`: the picture, the facts under it and the last line.

use yinsh::random::SplitMix64;
use yinsh::{Action, Position, Rules, Variant};

use crate::common::{FIXTURES, OPENING, last_line, success};
use crate::support::fixture_lines;

fn show(args: &[&str]) -> String {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    success(&all)
}

/// The value of a `key: value` line of the output.
fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(':')))
        .unwrap_or_else(|| panic!("no '{key}' line in\n{out}"))
        .trim()
}

/// The actions of a fixture line of `perft.txt` whose count is `count`.
fn fixture_moves(count: u64) -> &'static str {
    fixture_lines(FIXTURES)
        .find(|l| l.variant == Variant::Standard && l.depth == 3 && l.count == count)
        .expect("the fixture line")
        .tokens
}

/// The picture without the lines of column letters above and below it.
fn board_lines(out: &str) -> String {
    let lines: Vec<&str> = out
        .lines()
        .take_while(|l| !l.starts_with("legend"))
        .collect();
    let letters = lines[0];
    assert_eq!(
        letters.split_whitespace().collect::<String>(),
        "abcdefghijk"
    );
    assert_eq!(lines.iter().filter(|l| **l == letters).count(), 2);
    lines
        .iter()
        .filter(|l| **l != letters)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn empty_board() {
    let out = show(&[]);
    assert_eq!(last_line(&out), "white to move");
    assert_eq!(
        field(&out, "position"),
        "4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0"
    );
    assert_eq!(field(&out, "pool"), "51 of 51 markers");
    assert_eq!(field(&out, "removed"), "white 0, black 0 rings");
    assert!(field(&out, "to do").contains("white must place a ring"));
    // 85 empty points between the column letters above and below.
    let board = board_lines(&out);
    assert_eq!(board.matches('.').count(), 85);
    for row in 1..=11 {
        // Each row number is written at both ends of its row.
        let n = board
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| *s == row.to_string())
            .count();
        assert_eq!(n, 2, "row {row}");
    }
}

#[test]
fn placement_turns() {
    assert_eq!(last_line(&show(&["--moves", "e3"])), "black to move");
    assert_eq!(last_line(&show(&["--moves", "e3 a5"])), "white to move");
    let out = show(&["--moves", "e3 a5 b5 c6 d6 e4 h7 g2 g3"]);
    assert_eq!(last_line(&out), "black to move");
    assert!(field(&out, "to do").contains("black must place a ring (1 of theirs left"));
}

#[test]
fn pieces_are_drawn() {
    let out = show(&["--moves", &format!("{OPENING} h7-h9 g8-e6")]);
    assert_eq!(last_line(&out), "white to move");
    let board = board_lines(&out);
    assert_eq!(board.matches('W').count(), 5);
    assert_eq!(board.matches('B').count(), 5);
    assert_eq!(board.matches('w').count(), 1);
    assert_eq!(board.matches('b').count(), 1);
    assert_eq!(field(&out, "pool"), "49 of 51 markers");
    assert_eq!(field(&out, "ring moves"), "2");
    assert!(out.contains("legend:"));
}

#[test]
fn mid_game_black_to_move() {
    let out = show(&["--moves", fixture_moves(30660)]);
    assert_eq!(last_line(&out), "black to move");
    assert!(field(&out, "to do").starts_with("black must move a ring"));
}

#[test]
fn removals_name_the_remover() {
    let moves = fixture_moves(10);
    // White's own move made the row.
    let out = show(&["--moves", moves]);
    assert_eq!(last_line(&out), "white to move");
    assert!(field(&out, "to do").contains("xi4-i8"));
    let out = show(&["--moves", &format!("{moves} xi4-i8")]);
    assert_eq!(last_line(&out), "white to move");
    assert!(field(&out, "to do").contains("must remove one of their rings"));
    // White's move also made rows for Black, who removes before moving.
    let out = show(&["--moves", &format!("{moves} xi4-i8 xf10")]);
    assert_eq!(last_line(&out), "black to move");
    assert_eq!(field(&out, "removed"), "white 1, black 0 rings");
    assert!(field(&out, "to do").contains("xh4-h8 xh5-h9"));
}

#[test]
fn finished_games_show_the_result() {
    let out = show(&[
        "--position",
        "WWWW/BBBBB2/8/9/10/9/10/9/8/7/4 w end 1-0 1-1 5",
    ]);
    assert_eq!(last_line(&out), "1-0");
    assert!(field(&out, "to do").contains("white wins"));
    let out = show(&[
        "--position",
        "WWWW/WBBBB2/8/9/10/9/10/9/8/7/4 b end 0-1 1-1 5",
    ]);
    assert_eq!(last_line(&out), "0-1");
    // A turn limit reached at 0-0 is a draw (RULES.md V4).
    let full = "WWWW/BBBB3/WB6/9/10/9/10/9/8/7/4";
    let out = show(&["--position", &format!("{full} w move 0-0 3-3 5/5")]);
    assert_eq!(last_line(&out), "1/2-1/2");
    assert_eq!(
        field(&out, "rules"),
        "white needs 3, black needs 3 removed rings, game ends after 5 ring moves"
    );
}

#[test]
fn a_played_blitz_game_ends_with_its_result() {
    // Random blitz games from fixed seeds, replayed through --moves: the first row wins.
    for seed in 0..4 {
        let mut rng = SplitMix64::new(seed);
        let mut pos = Position::with_rules(Rules::BLITZ);
        let mut played: Vec<Action> = Vec::new();
        while !pos.is_over() {
            let actions = pos.legal_actions();
            let action = actions[rng.below(actions.len())];
            pos.play(action).expect("a legal action");
            played.push(action);
        }
        let moves = played
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let out = show(&["--variant", "blitz", "--moves", &moves]);
        let result = pos.outcome().expect("over").result();
        assert_eq!(last_line(&out), result, "seed {seed}");
        assert_eq!(field(&out, "position"), pos.to_fen());
        assert_eq!(field(&out, "rules"), "blitz, 1 removed ring wins");
        // The same position from its string.
        let again = show(&["--position", &pos.to_fen()]);
        assert_eq!(last_line(&again), result);
    }
}
