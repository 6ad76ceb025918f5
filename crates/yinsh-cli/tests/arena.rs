//! `yinsh arena`: matches between protocol engines, refereed and recorded.

use std::path::{Path, PathBuf};

use yinsh::notation::record::{Record, Termination};

use crate::common::{check_failure, run};

/// A fresh, empty folder name under the temporary folder.
fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yinsh-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `yinsh engine` with `args`, as an arena engine command.
fn engine(args: &str) -> String {
    format!("'{}' engine {args}", env!("CARGO_BIN_EXE_yinsh"))
}

/// Runs the arena; returns stdout and stderr after checking that it succeeded.
fn arena(args: &[&str]) -> (String, String) {
    let mut all = vec!["arena"];
    all.extend_from_slice(args);
    let output = run(&all);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "arena failed: {stderr}\n{stdout}");
    (stdout, stderr)
}

/// The records of a folder, in game order, each read back and replayed.
fn records(dir: &Path) -> Vec<Record> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let record =
                Record::parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", f.display()));
            record.replay().expect("the game replays");
            record
        })
        .collect()
}

#[test]
fn a_match_between_two_levels() {
    let dir = out_dir("levels");
    let (one, two) = (engine("--level 1"), engine("--level 2"));
    let (stdout, stderr) = arena(&[
        "--engine",
        &one,
        "--engine",
        &two,
        "--games",
        "2",
        "--openings",
        "1",
        "--movetime",
        "20",
        "--concurrency",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        stderr
            .lines()
            .last()
            .unwrap()
            .starts_with("[####################] 2/2 +"),
        "{stderr}"
    );
    assert!(
        stdout
            .starts_with("2 games, standard, movetime 20 ms, 1 opening of 4 placements (seed 1)\n"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("engine 1: {one}\n")), "{stdout}");
    assert!(
        stdout.contains("            wins  draws  losses   score       %\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nElo difference (engine 1 - engine 2): "),
        "{stdout}"
    );
    assert!(stdout.contains("\nadjudicated games: 0\n"), "{stdout}");
    // Both rows add up to the two games.
    for row in stdout
        .lines()
        .filter(|l| l.starts_with("engine 1  ") || l.starts_with("engine 2  "))
    {
        let numbers: Vec<u32> = row
            .split_whitespace()
            .skip(2)
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(numbers.iter().sum::<u32>(), 2, "{row}");
    }
    let games = records(&dir);
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0].white.as_str(), games[0].black.as_str()),
        (one.as_str(), two.as_str())
    );
    assert_eq!(
        (games[1].white.as_str(), games[1].black.as_str()),
        (two.as_str(), one.as_str())
    );
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.header("Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(game.header("MoveTime"), Some("20ms"));
        assert!(game.result.unwrap().termination.is_on_board(), "{game}");
        assert_eq!(game.time_control, None);
        assert!(game.actions.len() > 10);
    }
    // One opening, played with both colours.
    let opening = games[0].header("Opening").unwrap();
    assert_eq!(opening.split(' ').count(), 4);
    assert_eq!(games[1].header("Opening"), Some(opening));
    assert_eq!(games[0].actions[..4], games[1].actions[..4]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_match_on_the_clock_in_blitz() {
    let dir = out_dir("clock");
    let (stdout, _) = arena(&[
        "--engine",
        &engine("--level 2"),
        "--engine",
        &engine("--level 1"),
        "--games",
        "3",
        "--tc",
        "10s+1",
        "--variant",
        "blitz",
        "--opening-plies",
        "2",
        "--seed",
        "9",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        stdout
            .starts_with("3 games, blitz, time control 10s+1, 2 openings of 2 placements (seed 9)"),
        "{stdout}"
    );
    let games = records(&dir);
    assert_eq!(games.len(), 3);
    for game in &games {
        assert_eq!(game.rules, yinsh::Rules::BLITZ);
        assert_eq!(game.time_control.unwrap().to_string(), "10s+1");
    }
    assert_ne!(games[0].header("Opening"), games[2].header("Opening"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stopped_match_is_finished_from_its_next_game() {
    let (whole, rest) = (out_dir("whole"), out_dir("rest"));
    let (one, two) = (engine("--level 1"), engine("--level 2"));
    let common = [
        "--engine",
        &one,
        "--engine",
        &two,
        "--games",
        "4",
        "--openings",
        "2",
        "--movetime",
        "20",
        "--seed",
        "5",
        "--quiet",
        "--out",
    ];
    arena(&[&common[..], &[whole.to_str().unwrap()]].concat());
    let (stdout, _) = arena(
        &[
            &["--first-game", "2"][..],
            &common[..],
            &[rest.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(
        stdout.starts_with("3 games, standard, movetime 20 ms, 2 openings of 4 placements (seed 5)\ngames 2 to 4 of a match of 4\n"),
        "{stdout}"
    );
    assert!(stdout.contains("records: "), "{stdout}");
    assert!(
        stdout.contains("(game-002.txt to game-004.txt)"),
        "{stdout}"
    );
    let names: Vec<String> = std::fs::read_dir(&rest)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(names, ["game-002.txt", "game-003.txt", "game-004.txt"]);
    // The same games as the whole match's last three: colours, round and opening.
    let (all, tail) = (records(&whole), records(&rest));
    assert_eq!(tail.len(), 3);
    for (full, part) in all[1..].iter().zip(&tail) {
        assert_eq!((&full.white, &full.black), (&part.white, &part.black));
        for header in ["Round", "Opening"] {
            assert_eq!(full.header(header), part.header(header), "{header}");
        }
        assert_eq!(full.actions[..4], part.actions[..4]);
    }
    assert_ne!(tail[0].header("Opening"), tail[1].header("Opening"));
    let late = [
        &["arena", "--first-game", "5"][..],
        &common[..],
        &["unused"],
    ]
    .concat();
    let stderr = check_failure(&late, run(&late));
    assert!(
        stderr.contains("--first-game 5 is past the match's last game (4)"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&whole).unwrap();
    std::fs::remove_dir_all(&rest).unwrap();
}

/// Plays two games against `bad`, which must lose both by adjudication with `reason`.
fn loses_both(name: &str, bad: &str, extra: &[&str], termination: Termination, reason: &str) {
    let dir = out_dir(name);
    let good = engine("--level 1");
    let mut args = vec![
        "--engine",
        &good,
        "--engine",
        bad,
        "--games",
        "2",
        "--movetime",
        "20",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (stdout, _) = arena(&args);
    assert!(
        stdout.contains("engine 1       2      0       0     2.0   100.0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Elo difference (engine 1 - engine 2): +inf (95 % interval n/a)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("adjudicated games: 2\n  game 1: black (engine 2) forfeits: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("  game 2: white (engine 2) forfeits: "),
        "{stdout}"
    );
    for game in records(&dir) {
        assert_eq!(game.result.unwrap().termination, termination, "{game}");
        let adjudication = game.header("Adjudication").unwrap();
        assert!(adjudication.contains(reason), "{adjudication}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_engine_that_prints_garbage_loses() {
    // It answers isready with a bestmove.
    loses_both(
        "garbage",
        "while read l; do echo bestmove zz99; done",
        &[],
        Termination::Abandoned,
        "'bestmove zz99' before any go",
    );
    loses_both(
        "malformed",
        "while read l; do case $l in isready) echo readyok;; go*) echo bestmove zz99;; esac; done",
        &[],
        Termination::Abandoned,
        "malformed bestmove 'bestmove zz99'",
    );
}

#[test]
fn an_illegal_move_loses() {
    loses_both(
        "illegal",
        "while read l; do case $l in isready) echo readyok;; go*) echo bestmove e3-e4;; esac; done",
        &[],
        Termination::Abandoned,
        "illegal move 'e3-e4' (the player must place a ring now)",
    );
}

#[test]
fn a_mute_engine_loses() {
    loses_both(
        "mute",
        "cat > /dev/null",
        // Generous: the debug engine clears its hash table at startup, slowly.
        &["--ready-timeout", "800", "--concurrency", "2"],
        Termination::Abandoned,
        "no readyok in time",
    );
}

#[test]
fn a_silent_engine_loses_on_time() {
    loses_both(
        "silent",
        "while read l; do case $l in isready) echo readyok;; esac; done",
        &["--grace", "500", "--concurrency", "2"],
        Termination::Time,
        "time: no bestmove within 520 ms",
    );
}

#[test]
fn a_crashing_engine_loses() {
    loses_both(
        "crash",
        "while read l; do case $l in isready) echo readyok;; go*) exit 3;; esac; done",
        &[],
        Termination::Abandoned,
        "the engine exited (exit status: 3)",
    );
}

#[test]
fn bad_arguments() {
    let one = engine("--level 1");
    let args = ["arena", "--engine", &one];
    assert_eq!(
        check_failure(&args, run(&args)),
        "give --engine exactly twice (engine 1 and engine 2), not 1 times"
    );
    let args = ["arena", "--engine", &one, "--engine", "exit 0"];
    assert_eq!(
        check_failure(&args, run(&args)),
        "engine 2 ('exit 0') cannot play: the engine exited at startup (exit status: 0)"
    );
    let args = ["arena", "--engine", "no-such-engine-here", "--engine", &one];
    let msg = check_failure(&args, run(&args));
    assert!(
        msg.starts_with("engine 1 ('no-such-engine-here') cannot play: the engine exited at startup (exit status: 127)"),
        "{msg}"
    );
    let dir = out_dir("full");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("old.txt"), "").unwrap();
    let args = [
        "arena",
        "--engine",
        &one,
        "--engine",
        &one,
        "--out",
        dir.to_str().unwrap(),
    ];
    let msg = check_failure(&args, run(&args));
    assert!(msg.ends_with("is not empty"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
    for args in [
        &[
            "arena",
            "--engine",
            "a",
            "--engine",
            "b",
            "--movetime",
            "10",
            "--tc",
            "1+0",
        ][..],
        &["arena", "--engine", "a", "--engine", "b", "--tc", "fast"],
        &["arena", "--engine", "a", "--engine", "b", "--games", "0"],
        &[
            "arena",
            "--engine",
            "a",
            "--engine",
            "b",
            "--opening-plies",
            "11",
        ],
    ] {
        assert_eq!(run(args).status.code(), Some(2), "{args:?}");
    }
}
