//! `yinsh analyse`: a record annotated by the engine.

use std::path::PathBuf;

use crate::common::{check_failure, check_success, failure, run, run_with_stdin};

fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("yinsh-analyse-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("a temporary file");
    path
}

#[test]
fn annotates_a_short_record() {
    let record = "[White \"alice\"]\n[Black \"bob\"]\n\n\
        1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.h7-h9 12.g8-e6 *\n";
    let path = temp_file("short.txt", record);
    let args = ["analyse", path.to_str().unwrap(), "--depth", "1"];
    let out = check_success(&args, run(&args));
    std::fs::remove_file(&path).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "alice (white) vs bob (black), standard, unfinished"
    );
    assert!(
        lines[1].starts_with("search: depth 1 per position"),
        "{out}"
    );
    let turns: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains('.') && l.as_bytes()[0].is_ascii_digit())
        .collect();
    assert_eq!(turns.len(), 12, "{out}");
    assert!(turns[0].starts_with("1.e3 "), "{out}");
    assert!(turns[11].starts_with("12.g8-e6 "), "{out}");
    // Each turn line has an evaluation (a signed number), White's win chance, a
    // preferred action and perhaps a mark.
    for line in &turns {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!((4..=5).contains(&fields.len()), "{line}");
        assert!(fields[1].starts_with(['+', '-']), "{line}");
        let chance: u32 = fields[2]
            .trim_end_matches('%')
            .parse()
            .expect("a percentage");
        assert!(chance <= 100, "{line}");
        fields[3].parse::<yinsh::Action>().expect("a token");
        if let Some(mark) = fields.get(4) {
            assert!(
                ["inaccuracy", "mistake", "blunder"].contains(mark),
                "{line}"
            );
        }
    }
    // Each player's summary.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("white: ") && l.contains("accuracy")),
        "{out}"
    );
    assert!(
        out.contains("biggest drops") || out.contains("no drops"),
        "{out}"
    );
}

#[test]
fn annotates_a_finished_game_from_stdin() {
    let sgf = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../yinsh/tests/fixtures/boardspace/Y-DrMih-Dumbot-2026-02-23-1415.sgf"),
    )
    .unwrap();
    let record = yinsh::notation::sgf::import(&sgf).unwrap().to_string();
    // A node budget, as the server's analyses have.
    let args = ["analyse", "-", "--nodes", "3000", "--blunders", "2"];
    let out = check_success(&args, run_with_stdin(&args, &record));
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .starts_with("search: 3000 nodes per position"),
        "{out}"
    );
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("1-0 (target reached)"),
        "{out}"
    );
    // The last turn ends the game: its evaluation is the result.
    let last_turn = out
        .lines()
        .rfind(|l| l.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .unwrap();
    assert!(last_turn.contains(" 1-0 "), "{last_turn}");
    let drops: Vec<&str> = out.lines().filter(|l| l.starts_with("  turn ")).collect();
    assert_eq!(drops.len(), 2, "{out}");
    assert!(
        drops[0].contains("played ") && drops[0].contains(", better "),
        "{out}"
    );
}

#[test]
fn bad_records_are_one_line_errors() {
    let msg = failure(&["analyse", "/nonexistent/game.txt"]);
    assert!(
        msg.starts_with("cannot read '/nonexistent/game.txt'"),
        "{msg}"
    );
    let args = ["analyse", "-"];
    let msg = check_failure(&args, run_with_stdin(&args, "1.e3 2.e3\n"));
    assert!(msg.starts_with("cannot read the record '-': "), "{msg}");
    assert!(msg.contains("occupied"), "{msg}");
}
