//! `yinsh worker`: a remote analysis worker. It asks the server for a job
//! (`POST /api/worker/acquire`), analyses the game with the built-in engine on one
//! thread, reports progress (which renews its lease) and hands the result in
//! (docs/protocol.md, "Analysis workers"). It waits a while when there is no work, and
//! tries again after a network error; a job whose lease ran out goes to another worker
//! (this one's result is then refused, and it moves on).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use serde_json::json;
use yinsh_server::protocol::WorkJob;

use yinsh_client::http::{authority, post_json as post};

/// Arguments of `yinsh worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The server, `http://host:port`.
    #[arg(long, value_name = "URL")]
    server: String,
    /// The server's worker key (`yinsh serve --worker-key`).
    #[arg(long, env = "YINSH_WORKER_KEY", value_name = "KEY")]
    key: String,
    /// This worker's name, as the server's jobs record it (1–64 letters, digits, `-`,
    /// `_`, `.`; default: `worker-` and the process id).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Seconds to wait before asking again when there is no work.
    #[arg(long, default_value_t = 5, value_name = "S")]
    idle: u64,
    /// Stop when there is no work left (instead of waiting for more).
    #[arg(long)]
    until_idle: bool,
}

/// What one round of asking gave.
enum Round {
    /// A job was analysed (and handed in, or refused as stale).
    Worked,
    /// No job waits.
    Idle,
}

/// Runs the worker until interrupted (or, with `--until-idle`, until no work is left).
pub fn run(args: &WorkerArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let addr = authority(&args.server)?;
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| format!("worker-{}", std::process::id()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    writeln!(out, "analysis worker {name} for http://{addr}")?;
    out.flush()?;
    let mut failures = 0u32;
    loop {
        match runtime.block_on(round(&addr, &args.key, &name, out)) {
            Ok(Round::Worked) => failures = 0,
            Ok(Round::Idle) if args.until_idle => return Ok(()),
            Ok(Round::Idle) => std::thread::sleep(Duration::from_secs(args.idle)),
            Err(e) => {
                // A key the server refuses, or an engine other than the server's,
                // will not get better: say so and stop.
                if e.to_string().contains("(401)") || e.to_string().contains("(409)") {
                    return Err(e);
                }
                failures += 1;
                writeln!(out, "error: {e:#}; trying again")?;
                out.flush()?;
                let wait = Duration::from_secs(u64::from(failures.min(6)) * 5);
                std::thread::sleep(wait);
            }
        }
    }
}

/// Asks for one job and works it.
async fn round(addr: &str, key: &str, name: &str, out: &mut dyn Write) -> anyhow::Result<Round> {
    let engine = yinsh_server::analysis::engine_name();
    let body = json!({ "worker": name, "engine": engine });
    let (status, answer) = post(addr, key, "/api/worker/acquire", &body).await?;
    match status {
        200 => {}
        204 => return Ok(Round::Idle),
        _ => bail!(
            "the server refused to give work ({status}): {}",
            answer["error"]
        ),
    }
    let job: WorkJob = serde_json::from_value(answer).context("an unreadable job")?;
    writeln!(
        out,
        "game {}: {} actions, {} nodes a position",
        job.game,
        job.actions.len(),
        job.nodes
    )?;
    out.flush()?;
    let started = Instant::now();
    // The search runs on its own thread; progress comes back to be reported.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, usize)>();
    let work = job.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let stop_search = stop.clone();
    let search = tokio::task::spawn_blocking(move || {
        yinsh_server::analysis::analyse_job(&work, &stop_search, &mut |done, total| {
            let _ = tx.send((done, total));
        })
    });
    let progress_path = format!("/api/worker/{}/progress", job.game);
    let mut last = Instant::now();
    let mut stale = false;
    while let Some((done, total)) = rx.recv().await {
        if last.elapsed() < Duration::from_secs(2) && done < total {
            continue;
        }
        last = Instant::now();
        let body = json!({ "worker": name, "done": done, "total": total });
        if let Ok((409, _)) = post(addr, key, &progress_path, &body).await {
            // Another worker holds the job now: stop searching for nothing.
            stale = true;
            stop.store(true, Ordering::Relaxed);
            break;
        }
    }
    let result = search.await?;
    if stale {
        writeln!(
            out,
            "game {}: the lease ran out; another worker has it",
            job.game
        )?;
        return Ok(Round::Worked);
    }
    let result = result.map_err(anyhow::Error::msg)?;
    let body = json!({ "worker": name, "result": result });
    let (status, answer) = post(
        addr,
        key,
        &format!("/api/worker/{}/result", job.game),
        &body,
    )
    .await?;
    match status {
        200 => writeln!(
            out,
            "game {}: analysed in {:.1} s",
            job.game,
            started.elapsed().as_secs_f64()
        )?,
        409 => writeln!(
            out,
            "game {}: the lease ran out; another worker has it",
            job.game
        )?,
        _ => bail!(
            "the server refused the result of game {} ({status}): {}",
            job.game,
            answer["error"]
        ),
    }
    out.flush()?;
    Ok(Round::Worked)
}
