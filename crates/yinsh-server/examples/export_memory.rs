//! How much memory `GET /api/games/export` takes as the archive grows: fills a new
//! SQLite archive with N random finished games, serves it in this process, reads the
//! whole export over HTTP, and reports how far the process's peak resident memory rose
//! during the export (Linux: the peak is reset first through `/proc/self/clear_refs`).
//! docs/performance.md quotes it:
//!
//! ```sh
//! cargo run --profile e2e -p yinsh-server --example export_memory -- 250
//! cargo run --profile e2e -p yinsh-server --example export_memory -- 2500
//! ```

use std::time::Instant;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A field of `/proc/self/status` in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("the field is there")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let n: i64 = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(250);
    let dir = tempfile::tempdir()?;
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("archive.db").display()
    );
    let store = yinsh_server::store::open(&url).await?;
    let mut rng = yinsh::random::SplitMix64::new(17);
    for i in 0..n {
        let (game, actions, result, _) = yinsh_server::testkit::random_import(&mut rng, i);
        store.import_game(&game, &actions, &result).await?;
    }
    let config = yinsh_server::Config {
        bots: None,
        analysis_workers: 0,
        live_engines: 0,
        ..yinsh_server::Config::default()
    };
    let server = yinsh_server::Server::new(store, config).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(server.serve(listener, std::future::pending()));

    let before = status_kib("VmRSS:");
    // Resets the peak to what is resident now.
    std::fs::write("/proc/self/clear_refs", "5")?;
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let max = n.max(1);
    s.write_all(
        format!(
            "GET /api/games/export?max={max} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await?;
    // Read slowly, as a client on a slow link would: 16 KiB a millisecond at most, so
    // that the server has to wait for the reader (and must not pile the games up).
    let mut bytes = 0u64;
    let mut records = 0u64;
    let mut seen: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let got = s.read(&mut buf).await?;
        if got == 0 {
            break;
        }
        bytes += got as u64;
        // Counted across the pieces' edges: the last 6 bytes are kept.
        seen.extend_from_slice(&buf[..got]);
        records += seen.windows(7).filter(|w| w == b"[White ").count() as u64;
        seen.drain(..seen.len().saturating_sub(6));
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    let peak = status_kib("VmHWM:");
    println!(
        "{n} games: {records} records, {:.2} MB exported in {:.2} s; resident {} KiB before, peak during the export {} KiB (+{} KiB)",
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        before,
        peak,
        peak.saturating_sub(before)
    );
    Ok(())
}
