//! `yinsh play`: a game against the engine, driven through stdin.

use crate::common::{check_success, run_with_stdin};

#[test]
fn bad_input_gets_a_message_and_the_game_goes_on() {
    let args = ["play", "--level", "1", "--seed", "7"];
    let input = "zz9\ne3-e4\nhelp\ne3\ne3\nmoves\nquit\n";
    let out = check_success(&args, run_with_stdin(&args, input));
    assert!(out.contains("You play white"), "{out}");
    assert!(out.contains("W/B = white/black ring"), "{out}");
    assert!(
        out.contains("Place a ring on an empty point, e.g. f6"),
        "{out}"
    );
    assert!(
        out.contains("bad token 'zz9': not a point of the board"),
        "{out}"
    );
    assert!(
        out.contains("illegal: 'e3-e4': the player must place a ring now"),
        "{out}"
    );
    assert!(out.contains("xc3-c7      remove your row"), "{out}");
    assert!(
        out.contains("you play e3\nengine (black) places a ring on "),
        "{out}"
    );
    // The second e3 is refused: the point is taken now.
    assert!(
        out.contains("illegal: 'e3': the point is occupied"),
        "{out}"
    );
    assert!(out.contains("legal: "), "{out}");
    assert!(
        out.trim_end()
            .ends_with("You left the game: it is abandoned."),
        "{out}"
    );
}

#[test]
fn engine_moves_first_as_white() {
    let args = [
        "play",
        "--color",
        "black",
        "--level",
        "1",
        "--variant",
        "blitz",
    ];
    let out = check_success(&args, run_with_stdin(&args, ""));
    assert!(out.contains("You play black in a blitz game"), "{out}");
    assert!(out.contains("engine (white) places a ring on "), "{out}");
    assert!(out.contains("(target 1)"), "{out}");
    assert!(
        out.trim_end()
            .ends_with("End of input: the game is abandoned."),
        "{out}"
    );
}

#[test]
fn a_ring_point_shows_its_moves() {
    // The human places rings (the first five free points of the list: the engine may
    // take some), then asks where the ring on f6, placed first, can go.
    let args = ["play", "--level", "1", "--seed", "3"];
    let input = "f6\ne5\ng7\nd4\nh8\nf5\ng6\ne6\nf7\nd5\nf6\nquit\n";
    let out = check_success(&args, run_with_stdin(&args, input));
    assert!(out.contains("Move a ring: from-to"), "{out}");
    assert!(out.contains("your ring on f6 can go to: "), "{out}");
}

#[test]
fn full_strength_on_two_threads() {
    let args = [
        "play",
        "--color",
        "black",
        "--level",
        "10",
        "--threads",
        "2",
        "--movetime",
        "50",
    ];
    let out = check_success(&args, run_with_stdin(&args, "quit\n"));
    assert!(out.contains("engine (white) places a ring on "), "{out}");
}

#[test]
fn threads_must_be_at_least_one() {
    let args = ["play", "--threads", "0"];
    let out = run_with_stdin(&args, "quit\n");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--threads"), "{err}");
}
