//! `yinsh export`: a month of the archive as one zstd-compressed file of records, ready
//! to publish (docs/protocol.md, "Open game data"). The games are read from the
//! database a page at a time and written through a streaming compressor, so a month
//! of any size needs the memory of one page; a progress bar on stderr says how far it
//! is.

use std::io::{IsTerminal, Write};

use anyhow::{Context, bail};
use clap::Args;
use yinsh::notation::date::days_from_civil;
use yinsh_server::archive::export::{ExportQuery, Games, archive_record};

/// Arguments of `yinsh export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The database, as for `yinsh serve`.
    #[arg(long, default_value = "sqlite://yinsh.db?mode=rwc", value_name = "URL")]
    database_url: String,
    /// The month, `YYYY-MM` (games that began in it, by UTC).
    #[arg(long, value_name = "YYYY-MM")]
    month: String,
    /// The zstd level (1 fast … 19 small).
    #[arg(long, default_value_t = 12, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=19))]
    level: i32,
}

/// The first moments (ms since 1970, UTC) of the month `YYYY-MM` and of the next.
pub fn month_bounds(month: &str) -> anyhow::Result<(i64, i64)> {
    let bad = || anyhow::anyhow!("the month is YYYY-MM, e.g. 2026-12: '{month}'");
    let (y, m) = month.split_once('-').ok_or_else(bad)?;
    if y.len() != 4 || m.len() != 2 {
        return Err(bad());
    }
    let y: i64 = y.parse().map_err(|_| bad())?;
    let m: u32 = m.parse().map_err(|_| bad())?;
    if !(1..=12).contains(&m) || y < 1 {
        return Err(bad());
    }
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    let day = 86_400_000;
    Ok((
        days_from_civil(y, m, 1) * day,
        days_from_civil(ny, nm, 1) * day,
    ))
}

/// A progress bar: `[=====>    ] 120/523 games`.
pub fn bar(done: u64, total: u64) -> String {
    const WIDTH: u64 = 30;
    let filled = (done * WIDTH)
        .checked_div(total)
        .unwrap_or(WIDTH)
        .min(WIDTH);
    let mut bar = "=".repeat(filled as usize);
    if filled < WIDTH {
        bar.push('>');
        bar.push_str(&" ".repeat((WIDTH - filled - 1) as usize));
    }
    format!("[{bar}] {done}/{total} games")
}

/// Writes the month's records, compressed, to `out`.
pub fn run(args: &ExportArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let (since, until) = month_bounds(&args.month)?;
    if out_is_terminal() {
        bail!("the dump is compressed: send it to a file (yinsh export … > games.records.zst)");
    }
    super::with_store(&args.database_url, async |store| {
        let query = ExportQuery {
            since: Some(since),
            until: Some(until),
            ..ExportQuery::default()
        };
        let stores = yinsh_server::store::Stores::from(store.clone());
        let mut games = Games::new(&stores, query);
        let mut encoder = zstd::stream::write::Encoder::new(out, args.level)
            .context("cannot start the compressor")?;
        let progress = std::io::stderr();
        let live = progress.is_terminal();
        let mut written = 0u64;
        while let Some((game, bots)) = games.next().await? {
            match archive_record(&game, bots) {
                Ok(record) => {
                    writeln!(encoder, "{record}")?;
                    written += 1;
                }
                Err(e) => eprintln!("game {}: {e}; left out", game.id),
            }
            let total = games.total().unwrap_or(written);
            if live {
                eprint!("\r{}", bar(written, total));
            } else if written % 1000 == 0 {
                eprintln!("{}", bar(written, total));
            }
        }
        encoder.finish()?.flush()?;
        eprintln!(
            "{}{} games of {}",
            if live { "\r" } else { "" },
            written,
            args.month
        );
        Ok(())
    })
}

/// Whether standard output is a terminal (a compressed dump would garble it).
fn out_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_bars() {
        let (a, b) = month_bounds("2026-12").unwrap();
        assert_eq!(b - a, 31 * 86_400_000);
        let (a, b) = month_bounds("2024-02").unwrap();
        assert_eq!(b - a, 29 * 86_400_000);
        for bad in ["2026-13", "2026-1", "26-12", "2026/12", "december"] {
            assert!(month_bounds(bad).is_err(), "{bad}");
        }
        assert_eq!(bar(0, 10), format!("[>{}] 0/10 games", " ".repeat(29)));
        assert_eq!(bar(10, 10), format!("[{}] 10/10 games", "=".repeat(30)));
        assert_eq!(bar(0, 0), format!("[{}] 0/0 games", "=".repeat(30)));
    }
}
