//! The YINSH game server: lobby, tables with two seats and spectators, chat and slash
//! commands, server-side clocks, the public archive, engine seats, and reconnection
//! without losing anything.
//!
//! One actor task per table owns all of its state ([`table`]); connections speak the
//! WebSocket protocol of [`protocol`] (documented with examples in `docs/protocol.md`);
//! every accepted action is committed to the [`store`] before it is broadcast.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! let store = yinsh_server::store::open("sqlite://yinsh.db?mode=rwc").await?;
//! let server = yinsh_server::Server::new(store, yinsh_server::Config::default()).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! server.serve(listener, std::future::pending()).await?;
//! # Ok(())
//! # }
//! ```

pub mod account;
pub mod analysis;
pub mod archive;
pub mod bot;
pub mod cluster;
pub mod follow;
pub mod game;
mod http;
pub mod i18n;
pub mod lobby;
pub mod mail;
pub mod meet;
pub mod metrics;
pub mod notify;
pub mod protocol;
pub mod rating;
pub mod refusal;
pub mod store;
pub mod table;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod tournament;
pub mod vocab;
mod ws;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use yinsh_engine::Engine;

use crate::lobby::Lobby;
use crate::store::Stores;

/// Makes an engine for a bot seat at a strength level (1–10).
pub type BotFactory = Arc<dyn Fn(u8) -> Box<dyn Engine> + Send + Sync>;

/// The built-in engine, one search thread and a small hash table per bot seat.
pub fn builtin_bots() -> BotFactory {
    Arc::new(|level| {
        let mut engine = yinsh_engine::search::Searcher::with_hash_size(16);
        engine.set_threads(1);
        engine.set_level(level);
        Box::new(engine)
    })
}

/// A web client built into the program: the file at a path (`index.html`,
/// `assets/index-3f2a.js`), if it has one.
pub type EmbeddedFiles = Arc<dyn Fn(&str) -> Option<std::borrow::Cow<'static, [u8]>> + Send + Sync>;

/// How the server runs.
#[derive(Clone)]
pub struct Config {
    /// The built web client to serve at `/`, if any.
    pub static_dir: Option<PathBuf>,
    /// A web client built into the program, served when there is no `static_dir`.
    pub embedded: Option<EmbeddedFiles>,
    /// The site is served over HTTPS (behind a TLS proxy): session cookies carry
    /// `Secure`, so a browser never sends them over plain HTTP.
    pub secure_cookies: bool,
    /// Addresses of reverse proxies in front of the server: a request from one of
    /// them counts as coming from the last address of its `X-Forwarded-For` (the one
    /// the proxy saw) for the log-in limits. From anyone else the header is ignored.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Engines for `/bot`; `None` refuses the command.
    pub bots: Option<BotFactory>,
    /// The most tables open at once.
    pub max_tables: usize,
    /// The largest WebSocket message served (bytes); larger ones get an error.
    pub max_message: usize,
    /// Messages a connection may send per second, on average.
    pub rate_per_sec: u32,
    /// Messages a connection may send in a burst.
    pub rate_burst: u32,
    /// Messages queued for a connection; a client that lets more pile up (it does not
    /// read) is cut off.
    pub outbox: usize,
    /// A send to a client that takes longer than this cuts the connection off.
    pub send_timeout: Duration,
    /// How often the server pings each connection.
    pub ping_every: Duration,
    /// A connection the server hears nothing from (no message, no pong) for this long
    /// is closed.
    pub idle_timeout: Duration,
    /// How long a client may take to send a request's headers, counted from the moment
    /// the connection opened or the previous response went out. A connection that has
    /// not sent a whole request head by then (a slow or silent client, or an idle
    /// keep-alive connection) is closed. Upgraded WebSocket connections are not
    /// affected (they have `idle_timeout`).
    pub header_timeout: Duration,
    /// Analysis workers in this process (each one engine thread); 0 leaves analysis to
    /// remote workers.
    pub analysis_workers: usize,
    /// The nodes analyses search each position with.
    pub analysis_nodes: u64,
    /// The key remote analysis workers (`yinsh worker`) give; none refuses them.
    pub worker_key: Option<String>,
    /// How long a worker holds an analysis job without a word (a progress report
    /// renews it); then the job goes to the next worker that asks.
    pub analysis_lease: Duration,
    /// Searches for the analysis board (`analyse`) that may run at once, one engine
    /// thread each; more wait their turn. 0 turns the live engine off.
    pub live_engines: usize,
    /// How long one such search thinks.
    pub live_time: Duration,
    /// This server's id as a node of a cluster on a shared PostgreSQL database: the
    /// tables it opens are leased to it in the store, and it takes over the tables of
    /// nodes that die ([`cluster::node`]). `None`: a server on its own.
    pub node_id: Option<String>,
    /// The cluster's message bus (with `node_id`): the lobby lists every node's tables.
    /// `None`: an in-process bus, which no other node hears.
    pub bus: Option<Arc<dyn cluster::bus::Bus>>,
    /// How mail goes out (`--smtp-url`); `None` sends none.
    pub mail: Option<mail::MailConfig>,
    /// A correspondence game nobody looks at is unloaded ("asleep") after this long
    /// without a watcher or an action; it is loaded again when someone opens it or
    /// acts in it, or when its deadline or a deadline warning is due
    /// ([`table::sleep`]).
    pub sleep_after: Duration,
    /// The arenas the server makes by itself, so that one is always coming
    /// ([`tournament::schedule`]); none when empty.
    pub arenas: Vec<tournament::schedule::Scheduled>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            static_dir: None,
            embedded: None,
            secure_cookies: false,
            trusted_proxies: Vec::new(),
            bots: Some(builtin_bots()),
            max_tables: 10_000,
            max_message: 16 * 1024,
            rate_per_sec: 20,
            rate_burst: 40,
            outbox: 512,
            send_timeout: Duration::from_secs(10),
            ping_every: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(60),
            header_timeout: Duration::from_secs(10),
            analysis_workers: 1,
            analysis_nodes: analysis::NODES,
            worker_key: None,
            analysis_lease: analysis::LEASE,
            live_engines: 1,
            live_time: analysis::live::TIME,
            node_id: None,
            bus: None,
            mail: None,
            sleep_after: table::sleep::SLEEP_AFTER,
            arenas: tournament::schedule::default_schedule(),
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("static_dir", &self.static_dir)
            .field("embedded", &self.embedded.is_some())
            .field("secure_cookies", &self.secure_cookies)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("bots", &self.bots.is_some())
            .field("max_tables", &self.max_tables)
            .field("max_message", &self.max_message)
            .field("rate_per_sec", &self.rate_per_sec)
            .field("rate_burst", &self.rate_burst)
            .field("outbox", &self.outbox)
            .field("send_timeout", &self.send_timeout)
            .field("ping_every", &self.ping_every)
            .field("sleep_after", &self.sleep_after)
            .field("arenas", &self.arenas.len())
            .field("idle_timeout", &self.idle_timeout)
            .field("header_timeout", &self.header_timeout)
            .field("analysis_workers", &self.analysis_workers)
            .field("analysis_nodes", &self.analysis_nodes)
            .field("worker_key", &self.worker_key.as_ref().map(|_| "…"))
            .field("analysis_lease", &self.analysis_lease)
            .field("live_engines", &self.live_engines)
            .field("live_time", &self.live_time)
            .field("node_id", &self.node_id)
            .field("bus", &self.bus.is_some())
            .finish()
    }
}

/// What every table and connection shares.
#[derive(Clone)]
///
/// One field per domain's services: a domain's code reaches for its own (`ctx.tables`,
/// `ctx.analysis`, `ctx.meet`, …) and its store in `ctx.stores`; the analysis domain's
/// code is handed only its [`analysis::Services`].
pub struct Ctx {
    /// The stores, one per domain.
    pub stores: Stores,
    /// What every live table runs with: the store's outage flag, the epoch, engines.
    pub tables: table::Services,
    /// The open tables.
    pub lobby: Lobby,
    /// The open connections of each player: who is online, and how to reach them.
    pub online: lobby::online::Online,
    /// The open WebSocket connections of each session (by token hash), so that a
    /// rotation can close those opened with the old token.
    pub sessions: account::session::Connections,
    /// Seeks and challenges.
    pub meet: meet::Meet,
    /// Computer analysis: its jobs and workers, progress for the pages, the live engine.
    pub analysis: analysis::Services,
    /// This server as a node of a cluster, and its routing, if it is one.
    pub cluster: Option<cluster::Cluster>,
    /// What a deployment scrapes ([`Server::metrics_router`]).
    pub metrics: Arc<metrics::Metrics>,
    /// Notifications, and the count of each player's games that wait for them.
    pub notify: notify::Notifier,
    /// Mail, when the server sends it.
    pub mail: mail::Mailer,
    /// What the tournament director hears from the tables.
    pub tournaments: tournament::Tournaments,
}

impl Ctx {
    /// This server as a node of a cluster, if it is one.
    pub fn node(&self) -> Option<&Arc<cluster::node::Node>> {
        self.cluster.as_ref().map(|c| &c.node)
    }

    /// Its routing to the other nodes' tables, if it is a node of a cluster.
    pub fn router(&self) -> Option<&Arc<cluster::route::Router>> {
        self.cluster.as_ref().map(|c| &c.router)
    }
}

/// Aborts a task when dropped.
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A server ready to serve: its tables restored from the store.
pub struct Server {
    ctx: Ctx,
    config: Config,
}

impl Server {
    /// A server over `stores` (one store for everything: `Arc<dyn Store>`, or a
    /// [`Stores`] of one per domain); unfinished games are restored with their tables and
    /// clocks.
    pub async fn new(stores: impl Into<Stores>, config: Config) -> anyhow::Result<Server> {
        let stores = stores.into();
        let epoch = epoch();
        let metrics = Arc::new(metrics::Metrics::new());
        // A node of a cluster talks to the others over the bus, on the channels of its
        // cluster (the one on its database: others may share the bus).
        let bus = match config.node_id {
            None => None,
            Some(_) => {
                let bus = config
                    .bus
                    .clone()
                    .unwrap_or_else(|| Arc::new(cluster::bus::LocalBus::new()));
                let mut fresh = [0u8; 6];
                getrandom::getrandom(&mut fresh).expect("the system's random source works");
                let fresh: String = fresh.iter().map(|b| format!("{b:02x}")).collect();
                let cluster = stores.leases.cluster_id(&fresh).await?;
                let bus: Arc<dyn cluster::bus::Bus> =
                    Arc::new(cluster::bus::Prefixed::new(bus, &cluster).counted(&metrics));
                Some(bus)
            }
        };
        let cluster = config
            .node_id
            .as_deref()
            .zip(bus.clone())
            .map(|(node, bus)| cluster::Cluster {
                node: cluster::node::Node::new(node),
                router: cluster::route::Router::new(node, epoch, bus),
            });
        let online = lobby::online::Online::default();
        let mailer = match &config.mail {
            Some(mail) => mail::Mailer::start(stores.mail.clone(), mail),
            None => mail::Mailer::off(),
        };
        let notify = notify::Notifier::start(
            stores.notifications.clone(),
            stores.games.clone(),
            online.clone(),
            mailer.clone(),
        );
        let ctx = Ctx {
            tables: table::Services {
                outage: store::Outage::default(),
                epoch,
                bots: config.bots.clone(),
                engine_slots: Arc::new(tokio::sync::Semaphore::new(
                    std::thread::available_parallelism().map_or(1, |n| n.get()),
                )),
                sleep_after: config.sleep_after,
                waking: table::sleep::Waking::default(),
            },
            lobby: Lobby::new(config.max_tables),
            sessions: account::session::Connections::default(),
            online,
            notify: notify.clone(),
            mail: mailer,
            meet: meet::Meet::default(),
            analysis: analysis::Services {
                jobs: stores.analyses.clone(),
                games: stores.games.clone(),
                hub: analysis::Hub::default(),
                worker_key: config.worker_key.as_deref().map(Arc::from),
                nodes: config.analysis_nodes,
                lease: config.analysis_lease,
                live: analysis::live::Live::new(config.live_engines, config.live_time),
                notify,
            },
            stores,
            cluster,
            metrics,
            tournaments: tournament::Tournaments::default(),
        };
        // The decoy hash an unknown name's log-in is checked against, made now: made
        // at the first such log-in, that one would take two hashes' time and tell.
        tokio::task::spawn_blocking(account::decoy_hash);
        match ctx.node().cloned() {
            None => {
                let unfinished = ctx.stores.games.unfinished_games().await?;
                restore_games(&ctx, &unfinished, &[]).await?;
            }
            Some(node) => {
                // In the lobby first (the tables it opens next are announced), alive,
                // then its own tables back (from a run before under this id) and those
                // of dead nodes; then on, every second.
                let bus = bus.expect("a node has a bus");
                let presence = cluster::lobby::join(bus, node.id.clone(), ctx.clone()).await?;
                if let Some(router) = ctx.router() {
                    router.start(ctx.clone(), config.clone()).await?;
                    let reach = cluster::route::Reach::new(presence, router.clone());
                    ctx.online.join_cluster(Arc::new(reach));
                }
                cluster::node::renew(&ctx, &node).await?;
                let owners = ctx
                    .stores
                    .leases
                    .take_over(&node.id, true, u32::MAX)
                    .await?;
                cluster::node::adopt(&ctx, &owners).await?;
                cluster::node::start(ctx.clone(), node);
            }
        }
        analysis::start_workers(&ctx.analysis, config.analysis_workers).await;
        Ok(Server { ctx, config })
    }

    /// The tables open now.
    pub fn lobby(&self) -> &Lobby {
        &self.ctx.lobby
    }

    /// What its tables and connections share (for benchmarks driving tables directly).
    pub fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    /// The metrics endpoint, `GET /metrics` in the Prometheus text format, to serve on
    /// an address of its own (`yinsh serve --metrics-bind`): what a deployment scrapes
    /// is not for the players to read.
    pub fn metrics_router(&self) -> axum::Router {
        http::metrics_router(self.ctx.clone())
    }

    /// Serves [`Server::metrics_router`] on `listener`, beside the server, for as long
    /// as the process runs.
    pub fn serve_metrics(&self, listener: tokio::net::TcpListener) {
        let app = self.metrics_router();
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!("the metrics endpoint stopped: {e}");
            }
        });
    }

    /// Serves HTTP and WebSocket connections on `listener` until `shutdown` completes.
    ///
    /// Each connection speaks HTTP/1.1 and must send every request head within
    /// [`Config::header_timeout`], or it is closed; WebSocket upgrades are handed on
    /// to the protocol. When `shutdown` completes no new connection is accepted, idle
    /// HTTP connections are closed, and the requests under way are answered first
    /// (upgraded WebSockets are no longer HTTP connections and are not waited for).
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        use hyper_util::rt::{TokioIo, TokioTimer};
        use hyper_util::service::TowerToHyperService;
        use tokio::sync::watch;

        let header_timeout = self.config.header_timeout;
        // A node that stops gives its tables up at once (the others take them over now,
        // not when its lease runs out).
        let leaving = (self.ctx.node().cloned()).map(|n| (n, self.ctx.stores.leases.clone()));
        // The daily digests are made while the server serves (stopped when this ends,
        // or when it is dropped).
        let digests = tokio::spawn(mail::digest_loop(self.ctx.clone())).abort_handle();
        let _digests = AbortOnDrop(digests);
        // So is the sweep that wakes asleep correspondence games when they are due.
        let _sweep = AbortOnDrop(table::sleep::start_sweep(self.ctx.clone()));
        // And the tournament director.
        let _director = AbortOnDrop(tournament::start(
            self.ctx.clone(),
            self.config.arenas.clone(),
        ));
        let app = http::router(self.ctx, self.config);
        // `stopping` closes when the shutdown signal comes; every connection task holds
        // a `done` receiver, so `all_done` sees when the last one ended.
        let (stopping, stop_rx) = watch::channel(());
        tokio::spawn(async move {
            shutdown.await;
            drop(stop_rx);
        });
        let (all_done, done) = watch::channel(());
        loop {
            let (tcp, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        accept_failed(e).await;
                        continue;
                    }
                },
                _ = stopping.closed() => break,
            };
            // Small messages go out at once (no Nagle delay behind the previous one).
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::warn!("cannot set TCP_NODELAY: {e}");
            }
            // Each request knows the address it came from (log-in limits).
            let service = TowerToHyperService::new(tower::Layer::layer(
                &axum::Extension(http::app::Peer(peer)),
                app.clone(),
            ));
            let stopping = stopping.clone();
            let done = done.clone();
            tokio::spawn(async move {
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout);
                let conn = builder
                    .serve_connection(TokioIo::new(tcp), service)
                    .with_upgrades();
                let mut conn = std::pin::pin!(conn);
                let mut stop = std::pin::pin!(stopping.closed());
                let mut shutting_down = false;
                loop {
                    tokio::select! {
                        result = conn.as_mut() => {
                            if let Err(e) = result {
                                // Header timeouts, clients that hang up, bad requests.
                                tracing::debug!("connection ended: {e}");
                            }
                            break;
                        }
                        _ = &mut stop, if !shutting_down => {
                            shutting_down = true;
                            conn.as_mut().graceful_shutdown();
                        }
                    }
                }
                drop(done);
            });
        }
        drop(done);
        drop(listener);
        if let Some((node, store)) = leaving {
            node.halt();
            match store.end_node(&node.id).await {
                Ok(()) => tracing::info!(node = node.id, "left the cluster"),
                Err(e) => tracing::warn!(node = node.id, "cannot end the node's lease: {e}"),
            }
        }
        all_done.closed().await;
        Ok(())
    }
}

/// Opens the tables of unfinished stored `games` again (a restart, or tables taken
/// over from a dead node): the ids of the tables opened. A game that cannot be
/// restored is logged and left.
pub(crate) async fn restore_games(
    ctx: &Ctx,
    games: &[game::store::StoredGame],
    owners: &[cluster::store::TableOwner],
) -> store::StoreResult<Vec<String>> {
    let bot_accounts =
        game::store::BotAccounts::of(ctx.stores.accounts.as_ref(), games.iter().map(|g| &g.game))
            .await?;
    let mut opened = Vec::new();
    for stored in games {
        let table = stored.game.table_id.as_str();
        let fence = owners
            .iter()
            .find(|o| o.table == table)
            .and_then(|o| cluster::node::fence(ctx, table, o.incarnation));
        match table::restore(ctx.clone(), stored, &bot_accounts, fence) {
            Ok((handle, summary)) => {
                opened.push(handle.id.to_string());
                ctx.lobby.insert(handle, summary, None);
            }
            Err(e) => tracing::error!(game = %stored.id, "cannot restore game: {e}"),
        }
    }
    Ok(opened)
}

/// After a failed `accept`: a connection that went away before it was accepted is
/// nothing; anything else (such as too many open files) is logged and waited out, so
/// that the loop does not spin.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!("cannot accept a connection: {e}");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// A new run's epoch: the milliseconds since 1970 times 1,000 plus a random number
/// below 1,000, so that two nodes started in one millisecond still differ (and it stays
/// below 2^53, exact in JavaScript).
pub fn epoch() -> u64 {
    let mut bytes = [0u8; 2];
    getrandom::getrandom(&mut bytes).expect("the system's random source works");
    now_ms() as u64 * 1000 + u64::from(u16::from_le_bytes(bytes) % 1000)
}

/// Milliseconds since 1970 (UTC), by the system clock.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
