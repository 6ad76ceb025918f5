//! `yinsh engine`: the engine text protocol on stdin and stdout.

use yinsh::{Action, Position};

use crate::common::{check_success, run, run_with_stdin};
use crate::support::after;

/// The `bestmove` token of a protocol transcript, checked to be legal in `pos`.
fn legal_bestmove(output: &str, mut pos: Position) -> Action {
    let line = output
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {output}"));
    let action: Action = line["bestmove ".len()..].trim().parse().expect("a token");
    pos.play(action).expect("a legal bestmove");
    action
}

#[test]
fn answers_a_scripted_session() {
    let input = "isready\nnewgame standard\nposition startpos moves e3 a5\ngo depth 1\nquit\n";
    for args in [
        &["engine", "--level", "2"][..],
        &["engine", "--threads", "2"],
        &["engine", "--baseline"],
    ] {
        let out = check_success(args, run_with_stdin(args, input));
        assert!(out.starts_with("readyok\n"), "{out}");
        assert!(out.contains("\ninfo depth "), "{out}");
        legal_bestmove(&out, after("e3 a5"));
    }
}

#[test]
fn bad_commands_get_error_lines() {
    let args = ["engine", "--level", "1"];
    let input = "position startpos moves e3 e3\nfrobnicate\nisready\n";
    let out = check_success(&args, run_with_stdin(&args, input));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("error "), "{out}");
    assert!(lines[1].starts_with("error "), "{out}");
    assert_eq!(lines[2], "readyok");
}

#[test]
fn flags_are_checked() {
    for args in [
        &["engine", "--level", "0"][..],
        &["engine", "--level", "11"],
        &["engine", "--threads", "0"],
        &["engine", "--baseline", "--threads", "2"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}
