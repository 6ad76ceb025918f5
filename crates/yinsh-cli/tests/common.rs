//! Running the binary and checking what it printed.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The opening of RULES.md §8: ten placements, White to move.
pub const OPENING: &str = "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8";

/// The perft check figures of the rules library.
pub const FIXTURES: &str = include_str!("../../yinsh/tests/fixtures/perft.txt");

/// The real `yinsh` executable with `args`.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yinsh"));
    cmd.args(args);
    cmd
}

/// Runs `yinsh` with `args`.
pub fn run(args: &[&str]) -> Output {
    command(args).output().expect("the binary runs")
}

/// Runs `yinsh` with `args`, `input` on stdin.
pub fn run_with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let written = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes());
    // A command that refuses its arguments may exit before it reads anything.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "stdin: {e}");
    }
    child.wait_with_output().expect("the binary runs")
}

/// The stdout of a successful run with nothing on stderr.
pub fn success(args: &[&str]) -> String {
    check_success(args, run(args))
}

/// Checks that `output` is a success with nothing on stderr and returns its stdout.
pub fn check_success(args: &[&str], output: Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "yinsh {args:?} failed: {stderr}");
    assert!(
        stderr.is_empty(),
        "yinsh {args:?} wrote to stderr: {stderr}"
    );
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

/// The one-line error message of a failed run (without the `error: ` prefix), after
/// checking that it failed with exit status 1, printed nothing else on stderr and did not
/// panic.
pub fn failure(args: &[&str]) -> String {
    check_failure(args, run(args))
}

/// As [`failure`], for an output already collected.
pub fn check_failure(args: &[&str], output: Output) -> String {
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    assert_eq!(
        output.status.code(),
        Some(1),
        "yinsh {args:?} should fail with status 1, stderr: {stderr}"
    );
    assert!(
        !stderr.contains("panicked"),
        "yinsh {args:?} panicked: {stderr}"
    );
    assert_eq!(
        stderr.lines().count(),
        1,
        "yinsh {args:?} should print one line on stderr: {stderr}"
    );
    assert!(stderr.ends_with('\n'));
    stderr
        .trim_end()
        .strip_prefix("error: ")
        .unwrap_or_else(|| panic!("yinsh {args:?}: message without 'error: ': {stderr}"))
        .to_owned()
}

/// The last line of some output.
pub fn last_line(text: &str) -> &str {
    text.lines().last().expect("output is not empty")
}

/// The number on the last line of `yinsh perft`.
pub fn perft(args: &[&str]) -> u64 {
    let mut all = vec!["perft"];
    all.extend_from_slice(args);
    last_line(&success(&all))
        .parse()
        .expect("the last line is a number")
}
