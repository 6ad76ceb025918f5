//! For tests of this workspace (feature `testkit`): a PostgreSQL cluster of a test's
//! own, which it may stop and start again to play a database outage, a Redis server of
//! its own, and random finished games to fill an archive with.

use std::process::Command;

/// Runs `scripts/<script> start`: the two lines it prints (the service's URL and its
/// folder).
fn start_service(script: &str) -> (String, String) {
    let out = Command::new(script_path(script))
        .arg("start")
        .output()
        .unwrap_or_else(|e| panic!("scripts/{script} runs: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("the script prints text");
    let mut lines = text.lines();
    let url = lines.next().expect("a URL").to_owned();
    let dir = lines.next().expect("a folder").to_owned();
    (url, dir)
}

fn script_path(script: &str) -> String {
    format!("{}/../../scripts/{script}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `scripts/<script> <what> <dir>`; `false` when it fails.
fn run_service(script: &str, what: &str, dir: &str) -> bool {
    Command::new(script_path(script))
        .args([what, dir])
        .status()
        .is_ok_and(|s| s.success())
}

/// A throwaway PostgreSQL cluster on loopback (`scripts/postgres`), stopped and deleted
/// when dropped.
#[derive(Debug)]
pub struct OwnPostgres {
    /// The database URL.
    pub url: String,
    dir: String,
}

impl OwnPostgres {
    /// A new cluster, when the test command provides PostgreSQL (it sets
    /// `YINSH_TEST_POSTGRES_URL`); `None` (the test skips, saying so) otherwise, unless
    /// `YINSH_REQUIRE_POSTGRES` says it must be there.
    pub fn start(test: &str) -> Option<OwnPostgres> {
        if std::env::var("YINSH_TEST_POSTGRES_URL").is_err() {
            assert!(
                std::env::var("YINSH_REQUIRE_POSTGRES").is_err(),
                "YINSH_REQUIRE_POSTGRES is set but YINSH_TEST_POSTGRES_URL is not"
            );
            eprintln!("{test} skipped: no PostgreSQL from the test command");
            return None;
        }
        let (url, dir) = start_service("postgres");
        Some(OwnPostgres { url, dir })
    }

    /// Stops the server, keeping its data: the database is down.
    pub fn pause(&self) {
        assert!(
            run_service("postgres", "pause", &self.dir),
            "scripts/postgres pause"
        );
    }

    /// Starts the server again on the same port.
    pub fn resume(&self) {
        assert!(
            run_service("postgres", "resume", &self.dir),
            "scripts/postgres resume"
        );
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        run_service("postgres", "stop", &self.dir);
    }
}

/// A throwaway Redis server on loopback (`scripts/redis`), stopped and deleted when
/// dropped: for what would disturb other tests on a shared one (cutting every
/// subscriber). Only where the test command provides Redis (it installs it).
#[derive(Debug)]
pub struct OwnRedis {
    /// The server's URL.
    pub url: String,
    dir: String,
}

impl OwnRedis {
    /// A new server.
    pub fn start() -> OwnRedis {
        let (url, dir) = start_service("redis");
        OwnRedis { url, dir }
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        run_service("redis", "stop", &self.dir);
    }
}

/// A random game played to its end, as the import of game `i` (White `w{i}`, Black
/// `b{i}`, started and finished at `1_000_000 + i`): what `Store::import_game` takes,
/// and the position it ends in.
pub fn random_import(
    rng: &mut yinsh::random::SplitMix64,
    i: i64,
) -> (
    crate::game::store::NewGame,
    Vec<crate::game::store::StoredAction>,
    crate::game::store::StoredResult,
    yinsh::Position,
) {
    use crate::game::store::{IMPORTED, NewGame, SeatRecord, StoredAction, StoredResult};
    let mut pos = yinsh::Position::new();
    let mut actions = Vec::new();
    while let Some(a) = yinsh::random::random_action(&pos, rng) {
        pos.play(a).expect("random actions are legal");
        actions.push(StoredAction {
            token: a.to_string(),
            white_ms: None,
            black_ms: None,
            at: i,
            to_act: (!pos.is_over()).then(|| pos.turn()),
        });
    }
    let outcome = pos.outcome().expect("played to its end");
    let seat = |name: String| SeatRecord {
        player_id: None,
        name,
        bot: None,
    };
    let game = NewGame {
        table_id: IMPORTED.to_owned(),
        options: crate::protocol::TableOptions::default(),
        white: seat(format!("w{i}")),
        black: seat(format!("b{i}")),
        started_at: 1_000_000 + i,
    };
    let result = StoredResult {
        winner: outcome.winner.map(|c| crate::i18n::color_key(c).to_owned()),
        termination: yinsh::notation::record::GameResult::from(outcome)
            .termination
            .name()
            .to_owned(),
        finished_at: 1_000_000 + i,
    };
    (game, actions, result, pos)
}
