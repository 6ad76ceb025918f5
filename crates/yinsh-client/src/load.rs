//! A load generator: many simulated games over real WebSocket connections against a
//! running server, measuring round trips, spectator delivery and errors.
//!
//! Each game has two players and optional spectators, each on its own connection.
//! White creates a table, both sit down, white starts; whenever it is a player's turn
//! they think for a while and send a random legal action; a finished game is started
//! again until the time is up; then the players' connections close together, once
//! every last action is answered. A round trip is the time from sending an action to
//! receiving its acknowledgement (`reply`); a spectator's latency is the time from the
//! player sending the action to the spectator receiving it. `yinsh loadtest` prints
//! the [`LoadReport`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tokio::sync::{Semaphore, oneshot};
use yinsh::random::SplitMix64;
use yinsh_server::follow::Follower;
use yinsh_server::protocol::{
    Command, Request, SeatColor, ServerMessage, StageName, TableEvent, TableOptions,
};

use crate::http::get_text;
use crate::ws::{Connect, Connection, Reply};

/// How long spectators keep watching after the players stop acting.
const SPECTATOR_GRACE: Duration = Duration::from_secs(1);

/// At the end of a run the players' connections close together once every player's
/// last action is answered (so that no round trip is measured against thousands of
/// connections closing), but wait no longer than this for the last.
const QUIET_WAIT: Duration = Duration::from_secs(30);

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// The server, `host:port`.
    pub addr: String,
    /// The servers whose `/api/health` tell the processor time and memory used (every
    /// node of a cluster behind a proxy at `addr`); none: `addr` itself.
    pub servers: Vec<String>,
    /// Games played at once (two player connections each).
    pub games: usize,
    /// Spectator connections per game.
    pub spectators: usize,
    /// A player's thinking time before each action (randomly 50–150 % of it).
    pub think: Duration,
    /// How long to play; then every connection finishes what it sent and closes.
    pub duration: Duration,
    /// Whether the games are archived (`log on`).
    pub log: bool,
    /// Seed of the players' random choices.
    pub seed: u64,
    /// Connections opened at once while starting.
    pub connect_parallel: usize,
    /// Round trips of the actions sent in this first part of the play are also left
    /// out of a second set of percentiles: every game makes its first action within
    /// the same second, a burst no site sees, and the steady state shows apart.
    pub warmup: Duration,
    /// Whether a connection whose table another node of a cluster runs stays where it
    /// is (every request forwarded to that node) instead of connecting to that node, as
    /// the web client does (`/ws?node=…`, through a proxy that routes on it).
    pub stay: bool,
}

impl Default for LoadConfig {
    fn default() -> LoadConfig {
        LoadConfig {
            addr: "127.0.0.1:8080".to_owned(),
            servers: Vec::new(),
            games: 10,
            spectators: 0,
            think: Duration::from_millis(1000),
            duration: Duration::from_secs(30),
            log: false,
            seed: 1,
            connect_parallel: 64,
            warmup: Duration::from_secs(5),
            stay: false,
        }
    }
}

/// Percentiles of a set of durations.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Percentiles {
    /// How many samples.
    pub count: usize,
    /// Median.
    pub p50: Duration,
    /// 95th percentile.
    pub p95: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// The largest.
    pub max: Duration,
}

impl Percentiles {
    /// The percentiles of `samples` (microseconds).
    pub fn of(mut samples: Vec<u64>) -> Percentiles {
        if samples.is_empty() {
            return Percentiles::default();
        }
        samples.sort_unstable();
        let at = |q: f64| {
            let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
            Duration::from_micros(samples[i])
        };
        Percentiles {
            count: samples.len(),
            p50: at(0.50),
            p95: at(0.95),
            p99: at(0.99),
            max: Duration::from_micros(*samples.last().expect("not empty")),
        }
    }
}

impl std::fmt::Display for Percentiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        write!(
            f,
            "p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} samples)",
            ms(self.p50),
            ms(self.p95),
            ms(self.p99),
            ms(self.max),
            self.count
        )
    }
}

/// What a run measured.
#[derive(Debug, Clone, Default)]
pub struct LoadReport {
    /// Wall time from the first connection to the last close.
    pub elapsed: Duration,
    /// The time players acted in (the configured duration).
    pub playing: Duration,
    /// Games started.
    pub games_started: u64,
    /// Games that reached a result.
    pub games_finished: u64,
    /// Actions acknowledged by the server.
    pub actions: u64,
    /// Send-to-acknowledgement round trips.
    pub round_trip: Percentiles,
    /// The same, for the actions sent after the warm-up ([`LoadConfig::warmup`]).
    pub round_trip_steady: Percentiles,
    /// Send-to-spectator delivery of actions.
    pub spectator_latency: Percentiles,
    /// Events spectators received.
    pub spectator_events: u64,
    /// Events spectators missed (gaps in the versions they saw).
    pub spectator_missed: u64,
    /// Errors: refused requests, unexpected closes, failed connections.
    pub errors: u64,
    /// The first few errors, as text.
    pub error_samples: Vec<String>,
    /// Every acknowledged action: game id → each action's ply and token, in the game's
    /// order. (A player whose connection was cut loses the replies still on their way,
    /// so an action can be stored, and the game go on after it, unacknowledged.)
    pub acknowledged: HashMap<i64, Vec<(usize, String)>>,
    /// The server's peak resident memory, if it reports it (the servers', added up).
    pub server_peak_rss: Option<u64>,
    /// The processor seconds the server used from the start of play to the end, if it
    /// reports them (the servers', added up).
    pub server_cpu: Option<f64>,
}

impl LoadReport {
    /// Acknowledged actions a second of playing time.
    pub fn actions_per_sec(&self) -> f64 {
        self.actions as f64 / self.playing.as_secs_f64().max(1e-9)
    }

    /// The server's processor seconds per 1,000 acknowledged actions, if known.
    pub fn cpu_per_1000_actions(&self) -> Option<f64> {
        let cpu = self.server_cpu?;
        (self.actions > 0).then(|| cpu * 1000.0 / self.actions as f64)
    }
}

/// Counters shared by every simulated connection, for progress and the report.
#[derive(Default)]
struct Shared {
    actions: AtomicU64,
    /// The slowest round trip since the last progress report, in microseconds.
    slowest: AtomicU64,
    errors: AtomicU64,
    games_started: AtomicU64,
    games_finished: AtomicU64,
    spectator_events: AtomicU64,
    spectator_missed: AtomicU64,
    rtt: Mutex<Vec<u64>>,
    /// The round trips of the actions sent after the warm-up.
    rtt_steady: Mutex<Vec<u64>>,
    spectator_latency: Mutex<Vec<u64>>,
    error_samples: Mutex<Vec<String>>,
    /// When each (table, ply) action was sent, for spectator latency.
    sent: Mutex<HashMap<(String, usize), Instant>>,
    /// Game id → (action number, token), in the order the replies came.
    acknowledged: Mutex<HashMap<i64, Vec<(usize, String)>>>,
    /// Players still playing (their last action not yet answered).
    playing: AtomicU64,
    /// Told when the last player is done.
    all_done: tokio::sync::Notify,
}

impl Shared {
    /// A player is done (or never began).
    fn player_done(&self) {
        if self.playing.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.all_done.notify_waiters();
        }
    }

    /// Waits until every player is done (at most [`QUIET_WAIT`]).
    async fn all_players_done(&self) {
        let wait = async {
            loop {
                // Made before looking, so that the last one's notice is not missed.
                let notified = self.all_done.notified();
                if self.playing.load(Ordering::Acquire) == 0 {
                    return;
                }
                notified.await;
            }
        };
        let _ = tokio::time::timeout(QUIET_WAIT, wait).await;
    }

    fn error(&self, text: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut samples = self.error_samples.lock().unwrap_or_else(|e| e.into_inner());
        if samples.len() < 20 {
            samples.push(text);
        }
    }
}

/// Progress while running.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Since the start.
    pub elapsed: Duration,
    /// Actions acknowledged so far.
    pub actions: u64,
    /// Errors so far.
    pub errors: u64,
    /// Games started so far.
    pub games: u64,
    /// The slowest round trip acknowledged since the last report (stalls show here,
    /// second by second).
    pub slowest: Duration,
}

/// Connects to `addr`, asking the proxy there for node `node` of a cluster.
async fn connect_to(addr: &str, node: Option<&str>) -> anyhow::Result<Connection> {
    // Small buffers, as the server's: the default 128 KiB a connection would make the
    // load generator, not the server, the thing measured at 18,000 connections.
    let mut connect = Connect::to(addr).small_buffers();
    if let Some(node) = node {
        connect = connect.node(node);
    }
    Ok(connect.open().await?)
}

/// The node of a cluster that runs the table `ws` opened, when another one serves the
/// connection (from the table's snapshot in `seen`).
fn table_elsewhere(ws: &Connection, seen: &[ServerMessage]) -> Option<String> {
    let served = ws.node.as_ref()?;
    let runs = seen.iter().rev().find_map(|m| match m {
        ServerMessage::Snapshot { table } => table.node.clone(),
        _ => None,
    })?;
    (&runs != served).then_some(runs)
}

/// Sends `request` and waits for its reply, keeping the messages that came before it.
pub(crate) async fn call(
    ws: &mut Connection,
    request: Request,
    seen: &mut Vec<ServerMessage>,
) -> anyhow::Result<Reply> {
    Ok(ws.call(request, |m| seen.push(m)).await?)
}

/// Creates a table with `options` and opens it: its id.
pub(crate) async fn create_and_open(
    ws: &mut Connection,
    options: TableOptions,
    seen: &mut Vec<ServerMessage>,
) -> anyhow::Result<String> {
    let created = call(ws, Request::CreateTable { options }, seen).await?;
    let Some(table) = created.table else {
        bail!("create_table answered without a table");
    };
    let open = Request::Open {
        table: table.clone(),
        since: None,
    };
    call(ws, open, seen).await?;
    Ok(table)
}

/// The server's peak resident memory from `/api/health`, if it reports it.
pub async fn server_peak_rss(addr: &str) -> Option<u64> {
    let body = get_text(addr, "/api/health").await.ok()?;
    let v: serde_json::Value = serde_json::from_str(&body).ok()?;
    v.pointer("/memory/peak_rss_bytes")?.as_u64()
}

/// The processor seconds the server has used, from `/api/health`, if it reports them.
pub async fn server_cpu_seconds(addr: &str) -> Option<f64> {
    let body = get_text(addr, "/api/health").await.ok()?;
    let v: serde_json::Value = serde_json::from_str(&body).ok()?;
    v.get("cpu_seconds")?.as_f64()
}

/// What `read` gives for each of `servers`, added up; `None` when one does not tell.
async fn total<'a, T, F>(servers: &'a [String], read: impl Fn(&'a str) -> F) -> Option<T>
where
    T: std::iter::Sum<T>,
    F: std::future::Future<Output = Option<T>>,
{
    let mut values = Vec::with_capacity(servers.len());
    for server in servers {
        values.push(read(server).await?);
    }
    Some(values.into_iter().sum())
}

/// Runs the load; `progress` is called about once a second.
pub async fn run(
    config: LoadConfig,
    progress: impl Fn(Progress) + Send + 'static,
) -> anyhow::Result<LoadReport> {
    // Fail early and clearly when nothing listens.
    get_text(&config.addr, "/api/health")
        .await
        .with_context(|| format!("no server answers at {}", config.addr))?;
    let shared = Arc::new(Shared::default());
    shared
        .playing
        .store(config.games as u64 * 2, Ordering::Relaxed);
    let start = Instant::now();
    let connect_gate = Arc::new(Semaphore::new(config.connect_parallel.max(1)));
    // Everyone starts playing together once all are connected and seated.
    let ready = Arc::new(tokio::sync::Barrier::new(
        config.games * (2 + config.spectators) + 1,
    ));
    let mut tasks = Vec::new();
    for g in 0..config.games {
        let (table_tx, table_rx) = tokio::sync::watch::channel(None::<String>);
        let (black_seated_tx, black_seated_rx) = oneshot::channel();
        let seed = config
            .seed
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(g as u64 * 2);
        let player = PlayerTask {
            config: config.clone(),
            shared: shared.clone(),
            gate: connect_gate.clone(),
            ready: ready.clone(),
        };
        tasks.push(tokio::spawn(player.clone().white(
            table_tx,
            black_seated_rx,
            SplitMix64::new(seed),
        )));
        tasks.push(tokio::spawn(player.clone().black(
            table_rx.clone(),
            black_seated_tx,
            SplitMix64::new(seed + 1),
        )));
        for _ in 0..config.spectators {
            tasks.push(tokio::spawn(player.clone().spectator(table_rx.clone())));
        }
    }
    let ticker = {
        let shared = shared.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                progress(Progress {
                    elapsed: start.elapsed(),
                    actions: shared.actions.load(Ordering::Relaxed),
                    errors: shared.errors.load(Ordering::Relaxed),
                    games: shared.games_started.load(Ordering::Relaxed),
                    slowest: Duration::from_micros(shared.slowest.swap(0, Ordering::Relaxed)),
                });
            }
        })
    };
    ready.wait().await;
    let play_start = Instant::now();
    let servers = if config.servers.is_empty() {
        std::slice::from_ref(&config.addr)
    } else {
        config.servers.as_slice()
    };
    let cpu_at_start = total(servers, server_cpu_seconds).await;
    for t in tasks {
        if let Err(e) = t.await {
            shared.error(format!("a simulated connection crashed: {e}"));
        }
    }
    ticker.abort();
    let playing = config.duration.min(play_start.elapsed());
    let take =
        |m: &Mutex<Vec<u64>>| std::mem::take(&mut *m.lock().unwrap_or_else(|e| e.into_inner()));
    let server_peak_rss = total(servers, server_peak_rss).await;
    let server_cpu = match (cpu_at_start, total(servers, server_cpu_seconds).await) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok(LoadReport {
        elapsed: start.elapsed(),
        playing,
        games_started: shared.games_started.load(Ordering::Relaxed),
        games_finished: shared.games_finished.load(Ordering::Relaxed),
        actions: shared.actions.load(Ordering::Relaxed),
        round_trip: Percentiles::of(take(&shared.rtt)),
        round_trip_steady: Percentiles::of(take(&shared.rtt_steady)),
        spectator_latency: Percentiles::of(take(&shared.spectator_latency)),
        spectator_events: shared.spectator_events.load(Ordering::Relaxed),
        spectator_missed: shared.spectator_missed.load(Ordering::Relaxed),
        errors: shared.errors.load(Ordering::Relaxed),
        error_samples: shared
            .error_samples
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone(),
        // In the order of the game (the two players' replies may arrive either way).
        acknowledged: std::mem::take(
            &mut *shared
                .acknowledged
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
        )
        .into_iter()
        .map(|(game, mut actions)| {
            actions.sort_unstable_by_key(|(ply, _)| *ply);
            (game, actions)
        })
        .collect(),
        server_peak_rss,
        server_cpu,
    })
}

#[derive(Clone)]
struct PlayerTask {
    config: LoadConfig,
    shared: Arc<Shared>,
    gate: Arc<Semaphore>,
    ready: Arc<tokio::sync::Barrier>,
}

impl PlayerTask {
    async fn connect(&self) -> anyhow::Result<Connection> {
        let _permit = self.gate.acquire().await.expect("the gate stays open");
        connect_to(&self.config.addr, None).await
    }

    /// Opens `table` on `ws`; when another node of a cluster runs it,
    /// connects to that node instead and opens it there (unless told to stay), as the
    /// web client does. The messages before the reply go to `seen`.
    async fn open(
        &self,
        ws: &mut Connection,
        table: &str,
        seen: &mut Vec<ServerMessage>,
    ) -> anyhow::Result<()> {
        let open = Request::Open {
            table: table.to_owned(),
            since: None,
        };
        call(ws, open.clone(), seen).await?;
        if self.config.stay {
            return Ok(());
        }
        if let Some(node) = table_elsewhere(ws, seen) {
            ws.close().await;
            *ws = {
                let _permit = self.gate.acquire().await.expect("the gate stays open");
                connect_to(&self.config.addr, Some(&node)).await?
            };
            seen.clear();
            call(ws, open, seen).await?;
        }
        Ok(())
    }

    /// Creates the table, sits at white, starts each game, and plays.
    async fn white(
        self,
        table_tx: tokio::sync::watch::Sender<Option<String>>,
        black_seated: oneshot::Receiver<()>,
        rng: SplitMix64,
    ) {
        let setup = async {
            let mut ws = self.connect().await?;
            let mut seen = Vec::new();
            let options = TableOptions {
                log: self.config.log,
                ..TableOptions::default()
            };
            let table = create_and_open(&mut ws, options, &mut seen).await?;
            let join = Request::Command {
                table: table.clone(),
                command: Command::Join {
                    color: Some(SeatColor::White),
                },
            };
            call(&mut ws, join, &mut seen).await?;
            let _ = table_tx.send(Some(table.clone()));
            black_seated.await.context("black never sat down")?;
            anyhow::Ok((ws, table, seen))
        };
        let result = setup.await;
        // Black and the spectators wait for a table; without one they must not wait
        // forever.
        drop(table_tx);
        self.ready.wait().await;
        match result {
            Ok((ws, table, seen)) => {
                let mut p = Playing::new(self, ws, table, SeatColor::White, rng, seen);
                p.start_game().await;
                p.play().await;
            }
            Err(e) => {
                self.shared.error(format!("white's setup: {e:#}"));
                self.shared.player_done();
            }
        }
    }

    /// Opens the table white made, sits at black, and plays.
    async fn black(
        self,
        mut table_rx: tokio::sync::watch::Receiver<Option<String>>,
        seated: oneshot::Sender<()>,
        rng: SplitMix64,
    ) {
        let setup = async {
            let mut ws = self.connect().await?;
            let table = loop {
                if let Some(t) = table_rx.borrow_and_update().clone() {
                    break t;
                }
                table_rx
                    .changed()
                    .await
                    .context("white never made a table")?;
            };
            let mut seen = Vec::new();
            self.open(&mut ws, &table, &mut seen).await?;
            let join = Request::Command {
                table: table.clone(),
                command: Command::Join {
                    color: Some(SeatColor::Black),
                },
            };
            call(&mut ws, join, &mut seen).await?;
            let _ = seated.send(());
            anyhow::Ok((ws, table, seen))
        };
        let result = setup.await;
        self.ready.wait().await;
        match result {
            Ok((ws, table, seen)) => {
                let mut p = Playing::new(self, ws, table, SeatColor::Black, rng, seen);
                p.play().await;
            }
            Err(e) => {
                self.shared.error(format!("black's setup: {e:#}"));
                self.shared.player_done();
            }
        }
    }

    /// Watches the table and checks that no event is missed.
    async fn spectator(self, mut table_rx: tokio::sync::watch::Receiver<Option<String>>) {
        let setup = async {
            let mut ws = self.connect().await?;
            let table = loop {
                if let Some(t) = table_rx.borrow_and_update().clone() {
                    break t;
                }
                table_rx.changed().await.context("no table to watch")?;
            };
            let mut seen = Vec::new();
            self.open(&mut ws, &table, &mut seen).await?;
            anyhow::Ok((ws, table, seen))
        };
        let result = setup.await;
        self.ready.wait().await;
        let (mut ws, table, seen) = match result {
            Ok(x) => x,
            Err(e) => {
                self.shared.error(format!("a spectator's setup: {e:#}"));
                return;
            }
        };
        let mut version = seen
            .iter()
            .rev()
            .find_map(|m| match m {
                ServerMessage::Snapshot { table } => Some(table.version),
                _ => None,
            })
            .unwrap_or(0);
        for m in &seen {
            if let ServerMessage::Event { version: v, .. } = m {
                version = version.max(*v);
            }
        }
        // Watch until the players are done: they stop acting at the end of the run and
        // their last actions are delivered within moments.
        let until = tokio::time::Instant::now() + self.config.duration + SPECTATOR_GRACE;
        loop {
            let msg = tokio::select! {
                m = ws.recv() => m,
                _ = tokio::time::sleep_until(until) => break,
            };
            let msg = match msg {
                Ok(m) => m,
                Err(e) => {
                    self.shared
                        .error(format!("a spectator's connection: {e:#}"));
                    return;
                }
            };
            if let ServerMessage::Event {
                version: v, event, ..
            } = msg
            {
                self.shared.spectator_events.fetch_add(1, Ordering::Relaxed);
                if v != version + 1 {
                    self.shared
                        .spectator_missed
                        .fetch_add(v.saturating_sub(version + 1), Ordering::Relaxed);
                }
                version = v;
                if let TableEvent::Acted { ply, .. } = &event {
                    let key = (table.clone(), *ply as usize - 1);
                    let sent = self
                        .shared
                        .sent
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get(&key)
                        .copied();
                    if let Some(sent) = sent {
                        self.shared
                            .spectator_latency
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(sent.elapsed().as_micros() as u64);
                    }
                }
            }
        }
        ws.close().await;
    }
}

/// A seated player during the run.
struct Playing {
    task: PlayerTask,
    ws: Connection,
    table: String,
    color: SeatColor,
    rng: SplitMix64,
    /// The game, as the table's messages make it.
    game: Follower,
    /// The action in flight: request id, token, its number, when sent.
    in_flight: Option<(u64, String, usize, Instant)>,
    /// When to act next, once it is our turn.
    act_at: Option<tokio::time::Instant>,
    /// Actions sent from then on count for the steady state.
    steady_from: Instant,
    end: tokio::time::Instant,
}

impl Playing {
    fn new(
        task: PlayerTask,
        ws: Connection,
        table: String,
        color: SeatColor,
        rng: SplitMix64,
        seen: Vec<ServerMessage>,
    ) -> Playing {
        let end = tokio::time::Instant::now() + task.config.duration;
        let steady_from = Instant::now() + task.config.warmup;
        let mut p = Playing {
            task,
            ws,
            table,
            color,
            rng,
            game: Follower::default(),
            in_flight: None,
            act_at: None,
            steady_from,
            end,
        };
        for m in seen {
            p.note(&m);
        }
        p
    }

    fn shared(&self) -> &Shared {
        &self.task.shared
    }

    /// Follows the game.
    fn note(&mut self, msg: &ServerMessage) {
        self.game.apply(Some(&self.table), msg);
    }

    /// Whether it is our turn and we know what we may play.
    fn my_turn(&self) -> bool {
        self.game.game.as_ref().is_some_and(|g| {
            g.result.is_none()
                && g.stage != StageName::Over
                && g.to_move == self.color
                && !g.legal.is_empty()
        })
    }

    async fn start_game(&mut self) {
        let start = Request::Command {
            table: self.table.clone(),
            command: Command::Start,
        };
        if let Err(e) = self.ws.send(start).await {
            self.shared().error(format!("start: {e}"));
        } else {
            self.shared().games_started.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn think(&mut self) -> Duration {
        let base = self.task.config.think.as_micros() as u64;
        let jitter = if base == 0 {
            0
        } else {
            self.rng.next_u64() % (base + 1)
        };
        Duration::from_micros(base / 2 + jitter)
    }

    async fn play(&mut self) {
        loop {
            let now = tokio::time::Instant::now();
            let playing = now < self.end;
            if !playing && self.in_flight.is_none() {
                break;
            }
            if playing && self.in_flight.is_none() && self.my_turn() && self.act_at.is_none() {
                self.act_at = Some(now + self.think());
            }
            let act_at = self.act_at.filter(|_| playing);
            let msg = tokio::select! {
                m = self.ws.recv() => m,
                _ = sleep_until_opt(act_at) => {
                    self.act_at = None;
                    self.act().await;
                    continue;
                }
                _ = tokio::time::sleep_until(self.end), if playing => continue,
            };
            match msg {
                Ok(m) => self.handle(m).await,
                Err(e) => {
                    self.shared().error(format!("a player's connection: {e:#}"));
                    self.shared().player_done();
                    return;
                }
            }
        }
        self.shared().player_done();
        self.shared().all_players_done().await;
        self.ws.close().await;
    }

    async fn act(&mut self) {
        if !self.my_turn() {
            return;
        }
        let game = self.game.game.as_ref().expect("my turn means a game");
        let token = game.legal[self.rng.below(game.legal.len())].clone();
        let ply = game.moves.len();
        let sent = Instant::now();
        if self.task.config.spectators > 0 {
            // Kept for the whole run: spectators may see the action after its reply.
            self.shared()
                .sent
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert((self.table.clone(), ply), sent);
        }
        let request = Request::Act {
            table: self.table.clone(),
            action: token.clone(),
            ply: Some(ply as u32),
        };
        match self.ws.send(request).await {
            Ok(id) => self.in_flight = Some((id, token, ply, sent)),
            Err(e) => self.shared().error(format!("sending an action: {e}")),
        }
    }

    async fn handle(&mut self, msg: ServerMessage) {
        self.note(&msg);
        match msg {
            ServerMessage::Reply { id: Some(id), .. } => {
                if self.in_flight.as_ref().is_none_or(|f| f.0 != id) {
                    return;
                }
                let (_, token, ply, sent) = self.in_flight.take().expect("just checked");
                let rtt = sent.elapsed().as_micros() as u64;
                self.shared()
                    .rtt
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(rtt);
                if sent >= self.steady_from {
                    self.shared()
                        .rtt_steady
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(rtt);
                }
                self.shared().actions.fetch_add(1, Ordering::Relaxed);
                self.shared().slowest.fetch_max(rtt, Ordering::Relaxed);
                if let Some(g) = &self.game.game {
                    self.shared()
                        .acknowledged
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .entry(g.id)
                        .or_default()
                        .push((ply, token));
                }
            }
            ServerMessage::Error { id, code, text, .. } => {
                if let Some((want, ..)) = &self.in_flight {
                    if id == Some(*want) {
                        self.in_flight = None;
                    }
                }
                self.shared()
                    .error(format!("{:?} refused ({code}): {text}", self.color));
            }
            // White counts finished games and starts the next.
            ServerMessage::Event {
                event: TableEvent::GameOver { .. },
                ..
            } if self.color == SeatColor::White => {
                self.shared().games_finished.fetch_add(1, Ordering::Relaxed);
                if tokio::time::Instant::now() < self.end {
                    self.start_game().await;
                }
            }
            _ => {}
        }
    }
}

async fn sleep_until_opt(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles() {
        let p = Percentiles::of((1..=100).collect());
        assert_eq!(p.count, 100);
        assert_eq!(p.p50, Duration::from_micros(51));
        assert_eq!(p.p99, Duration::from_micros(99));
        assert_eq!(p.max, Duration::from_micros(100));
        assert_eq!(Percentiles::of(Vec::new()).count, 0);
    }
}
