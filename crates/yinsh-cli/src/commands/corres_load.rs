//! `yinsh loadtest --correspondence N`: a server in this process over a SQLite file
//! with N open correspondence games, nearly all asleep, measured as players act in
//! them through the board API (each action wakes a game that was not loaded) and as
//! the sweep wakes games whose deadline passed.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use yinsh::Position;
use yinsh_client::load::Percentiles;
use yinsh_server::account::store::{NewAccount, Registration};
use yinsh_server::game::store::{GameWrite, NewGame, SeatRecord, StoredAction};
use yinsh_server::protocol::{Correspondence, TableOptions};
use yinsh_server::store::{Store, Stores};
use yinsh_server::vocab::{GameId, PlayerId};
use yinsh_server::{Config, Server};

/// What the run is asked to do.
pub struct CorresLoad {
    /// Open correspondence games in the database.
    pub games: usize,
    /// Actions played, each in a game nobody had loaded.
    pub actions: usize,
    /// Actions in flight at once.
    pub parallel: usize,
    /// Games whose deadline has passed when the measured sweep runs.
    pub due: usize,
    /// The SQLite file (made afresh).
    pub db: std::path::PathBuf,
    /// Seed of the order games are played in.
    pub seed: u64,
}

const DAYS: u8 = 3;
const DAY_MS: i64 = 24 * 3600 * 1000;
/// Games per account (each account plays this many games at once, as White or Black).
const GAMES_PER_ACCOUNT: usize = 20;

/// One seeded game: its table, and the account and token of the player to act (Black).
struct Seeded {
    table: String,
    id: GameId,
    black: PlayerId,
    black_key: Arc<str>,
}

/// The processor seconds this process has used (Linux, to 10 ms).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return f64::NAN;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (ticks(14) + ticks(15)) as f64 / 100.0
}

/// This process's resident memory (`VmRSS:`) or its peak (`VmHWM:`), in bytes.
fn memory(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(field))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |k| k * 1024)
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// Accounts with a board API token each: their ids, names and tokens.
async fn accounts(
    store: &Arc<dyn Store>,
    n: usize,
) -> anyhow::Result<Vec<(PlayerId, String, Arc<str>)>> {
    use yinsh_server::account::session::hash_token;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let name = format!("Corres{i}");
        let session = yinsh_server::account::token::new_token();
        store.create_guest(&hash_token(&session), &name).await?;
        let account = NewAccount {
            name: name.clone(),
            skeleton: yinsh_server::account::skeleton(&name),
            password_hash: "unused".to_owned(),
        };
        let Registration::Registered(player) =
            store.register(&hash_token(&session), &account).await?
        else {
            bail!("account {name} was not registered");
        };
        let key = yinsh_server::account::token::new_token();
        let now = yinsh_server::now_ms();
        store
            .create_token(player.id, "load", "board:play", &hash_token(&key), now)
            .await?;
        out.push((player.id, name, Arc::from(key)));
    }
    Ok(out)
}

/// Seeds `n` games of three days per turn, White's first ring placed `ago`
/// milliseconds ago, each asleep until `wake(at)`: what the load needs of each.
async fn seed_games(
    store: &Arc<dyn Store>,
    players: &[(PlayerId, String, Arc<str>)],
    n: usize,
    offset: usize,
    ago: i64,
    wake: impl Fn(i64) -> i64 + Send + Sync + 'static,
) -> anyhow::Result<Vec<Seeded>> {
    let first = Position::new()
        .legal_actions()
        .into_iter()
        .next()
        .context("a first action")?;
    let first = first.to_string();
    let wake = Arc::new(wake);
    let mut tasks = tokio::task::JoinSet::new();
    let mut out = Vec::with_capacity(n);
    let full = u64::from(DAYS) * DAY_MS as u64;
    for i in offset..offset + n {
        let k = players.len();
        let (w, b) = (i % k, (i / k + i + 1) % k);
        let b = if b == w { (b + 1) % k } else { b };
        let seat = |p: &(PlayerId, String, Arc<str>)| SeatRecord {
            player_id: Some(p.0),
            name: p.1.clone(),
            bot: None,
        };
        let table = format!("c{i:07}");
        let game = NewGame {
            table_id: table.clone(),
            options: TableOptions {
                correspondence: Some(Correspondence { days: Some(DAYS) }),
                ..TableOptions::default()
            },
            white: seat(&players[w]),
            black: seat(&players[b]),
            started_at: yinsh_server::now_ms() - ago,
        };
        let (store, first, wake) = (store.clone(), first.clone(), wake.clone());
        let (black, black_key) = (players[b].0, players[b].2.clone());
        tasks.spawn(async move {
            let at = game.started_at;
            let id = store.create_game(&game, None).await?;
            let action = StoredAction {
                token: first,
                white_ms: Some(full),
                black_ms: Some(full),
                at,
                to_act: Some(yinsh::Color::Black),
            };
            let write = GameWrite::Action {
                ply: 0,
                action,
                result: None,
            };
            store.write_game(id, &write, true, None).await?;
            store.sleep(id, Some(wake(at)), None).await?;
            anyhow::Ok(Seeded {
                table,
                id,
                black,
                black_key,
            })
        });
        // A few hundred at once: the store batches them.
        while tasks.len() >= 256 {
            out.push(tasks.join_next().await.expect("tasks run")??);
        }
    }
    while let Some(done) = tasks.join_next().await {
        out.push(done??);
    }
    out.sort_by(|a, b| a.table.cmp(&b.table));
    Ok(out)
}

/// Runs the whole measurement and prints its figures.
pub async fn run(load: &CorresLoad, out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::ensure!(
        load.games >= load.actions + load.due,
        "--correspondence must cover --cold-actions and --due"
    );
    let _ = std::fs::remove_file(&load.db);
    let url = format!("sqlite://{}?mode=rwc", load.db.display());
    let store = yinsh_server::store::open(&url).await?;
    let started = Instant::now();
    let accounts = accounts(&store, load.games.div_ceil(GAMES_PER_ACCOUNT).max(2)).await?;
    // Asleep until the day before their deadline (their warning).
    let open = load.games - load.due;
    let games = seed_games(&store, &accounts, open, 0, 3_600_000, |at| at + 2 * DAY_MS).await?;
    // And the overdue: their deadline passed a day ago; asleep for an hour more, so
    // that the server does not load them as it starts.
    let due = seed_games(&store, &accounts, load.due, open, 4 * DAY_MS, |_| {
        yinsh_server::now_ms() + 3_600_000
    })
    .await?;
    // Their players to act have spent this year's vacation (each at an action of its
    // own in a game no longer stored), so that the overdue lose on time rather than
    // spend it.
    let year = yinsh_server::game::vacation::year_of(yinsh_server::now_ms());
    let mut spent = std::collections::BTreeSet::new();
    for game in &due {
        if spent.insert(game.black) {
            let (ply, hours) = (
                spent.len() as u32,
                yinsh_server::game::vacation::HOURS_A_YEAR,
            );
            store
                .spend_vacation(GameId(0), ply, game.black, year, hours, None)
                .await?;
        }
    }
    writeln!(
        out,
        "seeded {} correspondence games ({} accounts) in {:.1} s",
        load.games,
        accounts.len(),
        started.elapsed().as_secs_f64()
    )?;

    let config = Config {
        bots: None,
        analysis_workers: 0,
        live_engines: 0,
        rate_per_sec: 10_000,
        rate_burst: 10_000,
        sleep_after: Duration::from_secs(5),
        max_tables: load.games + 10,
        ..Config::default()
    };
    let rss_before = memory("VmRSS:");
    let server = Server::new(Stores::from(store.clone()), config).await?;
    let ctx = server.ctx().clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?.to_string();
    tokio::spawn(async move {
        let _ = server.serve(listener, std::future::pending()).await;
    });
    writeln!(
        out,
        "server started: {} tables loaded, resident memory {:.1} MB (before it: {:.1} MB)",
        ctx.lobby.len(),
        mb(memory("VmRSS:")),
        mb(rss_before)
    )?;

    // Cold actions: each in a game nobody has loaded, Black's first ring.
    let mut order: Vec<usize> = (0..games.len()).collect();
    let mut rng = yinsh::random::SplitMix64::new(load.seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order.truncate(load.actions);
    let games = Arc::new(games);
    let order = Arc::new(order);
    let next = Arc::new(AtomicUsize::new(0));
    let reply = {
        let mut p = Position::new();
        let first = p
            .legal_actions()
            .into_iter()
            .next()
            .context("a first action")?;
        p.play(first)?;
        p.legal_actions()
            .into_iter()
            .next()
            .context("a reply")?
            .to_string()
    };
    let cpu_load = cpu_seconds();
    let playing = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..load.parallel.max(1) {
        let (games, order, next, addr, reply) = (
            games.clone(),
            order.clone(),
            next.clone(),
            addr.clone(),
            reply.clone(),
        );
        workers.spawn(async move {
            let mut times = Vec::new();
            let mut errors = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&g) = order.get(i) else { break };
                let game = &games[g];
                let path = format!("/api/board/game/{}/move/{reply}", game.table);
                let sent = Instant::now();
                match yinsh_client::http::post_form(&addr, &game.black_key, &path, "").await {
                    Ok((200, _)) => times.push(sent.elapsed().as_micros() as u64),
                    Ok((status, body)) => errors.push(format!("{path}: {status} {body}")),
                    Err(e) => errors.push(format!("{path}: {e}")),
                }
            }
            (times, errors)
        });
    }
    let mut times = Vec::new();
    let mut errors = Vec::new();
    while let Some(done) = workers.join_next().await {
        let (t, e) = done?;
        times.extend(t);
        errors.extend(e);
    }
    let took = playing.elapsed();
    let cpu_load = cpu_seconds() - cpu_load;
    let loaded_peak = ctx.lobby.len();
    writeln!(
        out,
        "cold actions: {} in {:.1} s ({} at once) = {:.0}/s, {:.2} s CPU",
        times.len(),
        took.as_secs_f64(),
        load.parallel,
        times.len() as f64 / took.as_secs_f64(),
        cpu_load
    )?;
    writeln!(out, "cold action round trip: {}", Percentiles::of(times))?;
    writeln!(out, "tables loaded right after: {loaded_peak}")?;
    // They fall asleep again.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ctx.lobby.is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    writeln!(
        out,
        "asleep again after {:.1} s: {} tables loaded, resident memory {:.1} MB",
        (playing.elapsed() - took).as_secs_f64(),
        ctx.lobby.len(),
        mb(memory("VmRSS:"))
    )?;

    // A sweep with nothing due, then one with the overdue games due.
    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let woken = yinsh_server::table::sleep::sweep(&ctx).await;
    writeln!(
        out,
        "sweep of {} asleep games, none due: woke {woken} in {:.1} ms, {:.2} s CPU",
        load.games,
        wall.elapsed().as_secs_f64() * 1000.0,
        cpu_seconds() - cpu
    )?;
    let past = yinsh_server::now_ms() - 1000;
    for game in &due {
        store.sleep(game.id, Some(past), None).await?;
    }
    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let mut woken = 0;
    while woken < due.len() {
        let n = yinsh_server::table::sleep::sweep(&ctx).await;
        if n == 0 {
            break;
        }
        woken += n;
    }
    let (sweep_cpu, sweep_wall) = (cpu_seconds() - cpu, wall.elapsed());
    // Until each has stored its loss on time (each looked at until it has).
    let end = Instant::now() + Duration::from_secs(60);
    let mut waiting: Vec<GameId> = due.iter().map(|g| g.id).collect();
    while !waiting.is_empty() && Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let mut left = Vec::new();
        for id in waiting {
            if store.game(id).await?.is_none_or(|g| g.result.is_none()) {
                left.push(id);
            }
        }
        waiting = left;
    }
    let finished = due.len() - waiting.len();
    let (cpu, wall) = (cpu_seconds() - cpu, wall.elapsed());
    writeln!(
        out,
        "sweep with {} overdue: woke {woken} in {:.2} s, {:.2} s CPU; {finished} lost on time \
         within {:.1} s, {:.2} s CPU in all (the checks that they finished included)",
        due.len(),
        sweep_wall.as_secs_f64(),
        sweep_cpu,
        wall.as_secs_f64(),
        cpu
    )?;
    writeln!(out, "peak resident memory: {:.1} MB", mb(memory("VmHWM:")))?;
    writeln!(out, "errors: {}", errors.len())?;
    for e in errors.iter().take(5) {
        writeln!(out, "  {e}")?;
    }
    anyhow::ensure!(errors.is_empty(), "the run had errors");
    anyhow::ensure!(
        finished == due.len(),
        "not every overdue game was lost on time"
    );
    Ok(())
}
