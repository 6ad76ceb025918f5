//! `yinsh convert`: boardspace.net SGF records into the project's record format.

use std::path::PathBuf;

use crate::common::{check_failure, check_success, failure, run_with_stdin, success};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../yinsh/tests/fixtures/boardspace")
        .join(name)
}

const DR_MIH: &str = "Y-DrMih-Dumbot-2026-02-23-1415.sgf";

#[test]
fn converts_a_fixture() {
    let path = fixture(DR_MIH);
    let out = success(&["convert", path.to_str().expect("UTF-8 path")]);
    let expected =
        yinsh::notation::sgf::import(&std::fs::read_to_string(&path).expect("the fixture"))
            .expect("the fixture imports")
            .to_string();
    assert_eq!(out.trim_end(), expected.trim_end());
    assert!(out.ends_with('\n'));
}

#[test]
fn reads_stdin_and_writes_a_file() {
    let path = fixture(DR_MIH);
    let text = std::fs::read_to_string(&path).expect("the fixture");
    let direct = success(&["convert", path.to_str().expect("UTF-8 path")]);
    let args = ["convert", "-"];
    assert_eq!(check_success(&args, run_with_stdin(&args, &text)), direct);

    let target = std::env::temp_dir().join(format!("yinsh-convert-{}.txt", std::process::id()));
    let target_arg = target.to_str().expect("UTF-8 path");
    let out = success(&[
        "convert",
        path.to_str().expect("UTF-8 path"),
        "--output",
        target_arg,
    ]);
    assert_eq!(out, "");
    let written = std::fs::read_to_string(&target).expect("the output file");
    std::fs::remove_file(&target).expect("cleanup");
    assert_eq!(written, direct);
}

#[test]
fn every_fixture_converts() {
    let dir = fixture("");
    for entry in std::fs::read_dir(&dir).expect("the fixture folder") {
        let path = entry.expect("an entry").path();
        success(&["convert", path.to_str().expect("UTF-8 path")]);
    }
}

#[test]
fn unreadable_file() {
    let msg = failure(&["convert", "/nonexistent/game.sgf"]);
    assert!(
        msg.starts_with("cannot read '/nonexistent/game.sgf': "),
        "{msg}"
    );
}

#[test]
fn malformed_records() {
    let args = ["convert", "-"];
    let header = "(;GM[24]SU[Yinsh]\n; P0[0 Start White]\n";
    for (text, wanted) in [
        ("this is not SGF at all", "line 1"),
        (&format!("{header}; P0[1 place wr  Z 99]\n"), "not closed"),
        (&format!("{header}; P0[1 place wr  Z 99]\n)"), "Z 99"),
        (
            &format!("{header}; P0[1 place wr  E 3]\n; P0[2 Done ]\n; P1[3 place br  E 3]\n)"),
            "the point is occupied",
        ),
    ] {
        let msg = check_failure(&args, run_with_stdin(&args, text));
        assert!(msg.starts_with("cannot convert '-': "), "{msg}");
        assert!(msg.contains(wanted), "{msg}");
    }
}
