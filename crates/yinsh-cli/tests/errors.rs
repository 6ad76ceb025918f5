//! Bad input: one line on stderr naming what is wrong, exit status 1, no panic.

use crate::common::{OPENING, failure, run};

#[test]
fn illegal_action_names_index_token_and_reason() {
    assert_eq!(
        failure(&["perft", "1", "--moves", "e3 a5 e3"]),
        "action 3 'e3' is illegal: the point is occupied"
    );
    assert_eq!(
        failure(&["moves", "--moves", "e3-e4"]),
        "action 1 'e3-e4' is illegal: the player must place a ring now"
    );
    let msg = failure(&["show", "--moves", &format!("{OPENING} h7-h9 g8-e6 e3-e8")]);
    assert!(
        msg.starts_with("action 13 'e3-e8' is illegal: a ring cannot pass or land on a ring"),
        "{msg}"
    );
}

#[test]
fn unknown_token_names_index_and_token() {
    let msg = failure(&["moves", "--moves", "e3 a5 zz9"]);
    assert_eq!(msg, "action 3: bad token 'zz9': not a point of the board");
    let msg = failure(&["perft", "1", "--moves", "a1"]);
    assert!(msg.starts_with("action 1: bad token 'a1'"), "{msg}");
    let msg = failure(&["show", "--moves", "e3 xc3-c6"]);
    assert!(msg.starts_with("action 2: bad token 'xc3-c6'"), "{msg}");
}

#[test]
fn bad_position_strings() {
    for (args, wanted) in [
        (vec!["show", "--position", "4/7/8 w"], "2 fields"),
        (
            vec![
                "moves",
                "--position",
                "4/7/8/9/10/9/10/9/8/7/4 x place 0-0 3-3 0",
            ],
            "bad turn 'x'",
        ),
        (
            vec![
                "perft",
                "1",
                "--position",
                "5/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0",
            ],
            "bad board field",
        ),
        (
            vec![
                "perft",
                "1",
                "--position",
                "WWWWWW/8/8/9/10/9/10/9/8/7/4 w move 0-0 3-3 0",
            ],
            "bad board field",
        ),
        (
            vec![
                "show",
                "--position",
                "WWWW/BBBBB2/8/9/10/9/10/9/8/7/4 b end 0-1 1-1 5",
            ],
            "illegal position",
        ),
    ] {
        let msg = failure(&args);
        assert!(msg.starts_with("bad position string: "), "{msg}");
        assert!(msg.contains(wanted), "{args:?}: {msg}");
    }
}

#[test]
fn usage_errors_come_from_clap() {
    for args in [
        vec!["perft"],
        vec!["perft", "-1"],
        vec!["perft", "two"],
        vec!["perft", "1", "--variant", "fast"],
        vec!["perft", "1", "--variant", "blitz", "--position", "x"],
        vec!["frobnicate"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn help_documents_every_command() {
    let out = run(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).expect("UTF-8");
    for command in [
        "perft", "moves", "show", "convert", "bench", "engine", "arena", "play", "analyse",
    ] {
        assert!(help.contains(command), "{command} missing from\n{help}");
    }
    let out = run(&["perft", "--help"]);
    let help = String::from_utf8(out.stdout).expect("UTF-8");
    for flag in ["--variant", "--moves", "--position", "--divide", "<DEPTH>"] {
        assert!(help.contains(flag), "{flag} missing from\n{help}");
    }
    let out = run(&["arena", "--help"]);
    let help = String::from_utf8(out.stdout).expect("UTF-8");
    for flag in [
        "--engine",
        "--games",
        "--movetime",
        "--tc",
        "--openings",
        "--opening-plies",
        "--seed",
        "--concurrency",
        "--variant",
        "--out",
        "--grace",
        "--ready-timeout",
        "--quiet",
    ] {
        assert!(help.contains(flag), "{flag} missing from\n{help}");
    }
}
