//! For tests of this workspace (feature `testkit`): a PostgreSQL cluster of a test's
//! own, which it may stop and start again to play a database outage.

use std::process::Command;

/// A throwaway PostgreSQL cluster on loopback (`scripts/postgres`), stopped and deleted
/// when dropped.
#[derive(Debug)]
pub struct OwnPostgres {
    /// The database URL.
    pub url: String,
    dir: String,
}

impl OwnPostgres {
    fn script() -> String {
        format!("{}/../../scripts/postgres", env!("CARGO_MANIFEST_DIR"))
    }

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
        let out = Command::new(OwnPostgres::script())
            .arg("start")
            .output()
            .expect("scripts/postgres runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("the script prints text");
        let mut lines = text.lines();
        Some(OwnPostgres {
            url: lines.next().expect("a URL").to_owned(),
            dir: lines.next().expect("a folder").to_owned(),
        })
    }

    /// Stops the server, keeping its data: the database is down.
    pub fn pause(&self) {
        self.run("pause");
    }

    /// Starts the server again on the same port.
    pub fn resume(&self) {
        self.run("resume");
    }

    fn run(&self, what: &str) {
        let status = Command::new(OwnPostgres::script())
            .args([what, &self.dir])
            .status()
            .expect("scripts/postgres runs");
        assert!(status.success(), "scripts/postgres {what}");
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let _ = Command::new(OwnPostgres::script())
            .args(["stop", &self.dir])
            .status();
    }
}
