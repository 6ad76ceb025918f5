//! The server's per-action path without sockets: a request at a table's actor, the
//! rules check, the commit to the store (SQLite, a file), and the events queued for
//! the two players' connections, until the reply. One iteration is one action of a
//! random game (a new game at the same table when one ends).
//!
//! ```sh
//! cargo bench -p yinsh-server --bench action
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_main};
use tokio::sync::{Notify, mpsc};
use yinsh::random::{SplitMix64, random_action};
use yinsh_server::account::store::Player;
use yinsh_server::protocol::{TableOptions, TimeSetting};
use yinsh_server::store::Store;
use yinsh_server::table::{Conn, Request, TableHandle, next_conn_id};
use yinsh_server::{Config, Ctx, Server};

/// A table with two players seated, their connections open, a game under way.
struct Bench {
    ctx: Ctx,
    players: [Player; 2],
    outboxes: Vec<mpsc::Receiver<Arc<str>>>,
    handle: TableHandle,
    position: yinsh::Position,
    /// Actions of this game so far.
    ply: u32,
    rng: SplitMix64,
    /// Events received on the connections (all of them drained after each action).
    events: u64,
    bytes: u64,
}

impl Bench {
    async fn new(store: Arc<dyn Store>) -> Bench {
        let config = Config {
            bots: None,
            analysis_workers: 0,
            live_engines: 0,
            ..Config::default()
        };
        let server = Server::new(store.clone(), config).await.unwrap();
        let ctx = server.ctx().clone();
        let white = store
            .create_guest("bench-w", "BenchWhite0001")
            .await
            .unwrap();
        let black = store
            .create_guest("bench-b", "BenchBlack0001")
            .await
            .unwrap();
        let mut bench = Bench {
            handle: table(&ctx),
            ctx,
            players: [white, black],
            outboxes: Vec::new(),
            position: yinsh::Position::new(),
            ply: 0,
            rng: SplitMix64::new(7),
            events: 0,
            bytes: 0,
        };
        bench.begin().await;
        bench
    }

    /// A new table, both players at it, its game begun.
    async fn new_game(&mut self) {
        self.handle = table(&self.ctx);
        self.begin().await;
    }

    /// Both players at this table, their connections open, its game begun.
    async fn begin(&mut self) {
        let [white, black] = self.players.clone();
        self.handle.pair(white, black).await.unwrap();
        self.outboxes.clear();
        for player in self.players.clone() {
            let (tx, rx) = mpsc::channel(4096);
            let conn = Conn {
                id: next_conn_id(),
                player,
                tx,
                kick: Arc::new(Notify::new()),
            };
            self.handle.open(conn, None).await.unwrap();
            self.outboxes.push(rx);
        }
        self.position = yinsh::Position::new();
        self.ply = 0;
        self.drain();
    }

    fn drain(&mut self) {
        for rx in &mut self.outboxes {
            while let Ok(text) = rx.try_recv() {
                self.events += 1;
                self.bytes += text.len() as u64;
            }
        }
    }

    /// One action of the player to move: asked, stored, announced, answered.
    async fn act(&mut self) {
        let Some(action) = random_action(&self.position, &mut self.rng) else {
            self.new_game().await;
            return;
        };
        let mover = match self.position.turn() {
            yinsh::Color::White => self.players[0].clone(),
            yinsh::Color::Black => self.players[1].clone(),
        };
        let ply = self.ply;
        self.handle
            .request(
                mover,
                Request::Act {
                    token: action.to_string(),
                    ply: Some(ply),
                },
            )
            .await
            .expect("a legal action is accepted");
        self.position.play(action).unwrap();
        self.ply += 1;
        self.drain();
    }
}

fn table(ctx: &Ctx) -> TableHandle {
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 60,
            increment: 0,
        }),
        log: true,
        ..TableOptions::default()
    };
    let (handle, summary) =
        yinsh_server::table::spawn(ctx.clone(), ctx.lobby.fresh_id(), options, None);
    ctx.lobby.insert(handle.clone(), summary, None);
    handle
}

fn per_action(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("bench.db").display()
    );
    let mut bench = runtime.block_on(async {
        let store = yinsh_server::store::open(&url).await.unwrap();
        Bench::new(store).await
    });
    c.bench_function("action: request, commit (SQLite), events, reply", |b| {
        b.iter_custom(|iters| {
            runtime.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    bench.act().await;
                }
                start.elapsed()
            })
        })
    });
    if bench.events > 0 {
        eprintln!(
            "{} events received, {:.0} bytes each on average",
            bench.events,
            bench.bytes as f64 / bench.events as f64
        );
    }
}

/// The group lives in a private module: `criterion_group!` makes an undocumented `pub fn`.
mod group {
    use super::{Criterion, Duration, per_action};

    criterion::criterion_group! {
        name = benches;
        config = Criterion::default().measurement_time(Duration::from_secs(10));
        targets = per_action
    }
}

criterion_main!(group::benches);
