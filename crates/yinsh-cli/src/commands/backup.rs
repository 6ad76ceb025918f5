//! `yinsh backup`: a consistent copy of a SQLite database, taken while the server runs
//! (SQLite's `VACUUM INTO`); the copy is a database `yinsh serve` opens as it is
//! (docs/deploy.md, "Backups"). PostgreSQL is backed up with `pg_dump`.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

/// Arguments of `yinsh backup`.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The database, as for `yinsh serve`.
    #[arg(long, default_value = "sqlite://yinsh.db?mode=rwc", value_name = "URL")]
    database_url: String,
    /// The new file to write the copy to (it must not exist).
    #[arg(long, value_name = "FILE")]
    output: PathBuf,
}

/// Writes the backup.
pub fn run(args: &BackupArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.output.exists() {
        bail!(
            "'{}' exists already: a backup goes to a new file",
            args.output.display()
        );
    }
    let path = args
        .output
        .to_str()
        .context("the backup's path is not UTF-8")?
        .to_owned();
    super::with_store(&args.database_url, async |store| {
        store
            .backup(&path)
            .await
            .with_context(|| format!("cannot back the database up to '{path}'"))
    })?;
    writeln!(out, "backed up to {path}")?;
    Ok(())
}
