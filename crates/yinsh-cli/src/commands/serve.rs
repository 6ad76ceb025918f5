//! `yinsh serve`: the game server.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

/// Arguments of `yinsh serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// The database: `sqlite://<file>?mode=rwc` (the default, a file in the working
    /// directory) or `postgres://user:password@host/database`.
    #[arg(
        long,
        env = "YINSH_DATABASE_URL",
        default_value = "sqlite://yinsh.db?mode=rwc"
    )]
    database_url: String,
    /// The built web client to serve at `/` (default: `client/dist` when it exists).
    #[arg(long)]
    static_dir: Option<PathBuf>,
    /// Refuse `/bot` (no engine seats).
    #[arg(long, conflicts_with = "engine")]
    no_bots: bool,
    /// Make no arenas by schedule (by default an hourly and a daily arena are always
    /// coming; docs/tournaments.md).
    #[arg(long)]
    no_arena_schedule: bool,
    /// Seat this engine program (any program speaking the engine protocol of
    /// docs/protocol.md, run through `sh -c`, one process per engine seat) instead of
    /// the built-in engine, e.g. `--engine "yinsh engine --baseline"`.
    #[arg(long, value_name = "COMMAND")]
    engine: Option<String>,
    /// Analysis workers in this process, each one engine thread (0: only remote
    /// workers analyse).
    #[arg(long, default_value_t = 1, value_name = "N")]
    analysis_workers: usize,
    /// The nodes analyses search each position with (docs/engine.md, "Analysis").
    #[arg(long, default_value_t = yinsh_server::analysis::NODES, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1_000..=1_000_000_000))]
    analysis_nodes: u64,
    /// The key remote analysis workers (`yinsh worker --key`) must give; without it
    /// the server takes no remote workers.
    #[arg(long, env = "YINSH_WORKER_KEY", value_name = "KEY")]
    worker_key: Option<String>,
    /// The site is served over HTTPS by a TLS proxy in front: session cookies carry
    /// `Secure` (docs/deploy.md).
    #[arg(long)]
    secure_cookies: bool,
    /// A reverse proxy in front of the server (repeatable): a request from this
    /// address counts as coming from the client address the proxy writes in
    /// `X-Forwarded-For` (log-in limits; docs/deploy.md).
    #[arg(long, value_name = "ADDRESS")]
    trusted_proxy: Vec<std::net::IpAddr>,
    /// Engine searches for the analysis board that may run at once, one thread each
    /// (0: no live engine).
    #[arg(long, default_value_t = 1, value_name = "N")]
    live_engines: usize,
    /// How long one such search thinks, in seconds.
    #[arg(long, default_value_t = yinsh_server::analysis::live::TIME.as_secs(), value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=120))]
    live_time: u64,
    /// Run as a node of a cluster: the Redis server whose pub/sub carries the
    /// messages between the nodes (`redis://host:port`). Every node uses the same
    /// PostgreSQL database (`--database-url postgres://…`; docs/scaling.md).
    #[arg(long, env = "YINSH_CLUSTER", value_name = "REDIS_URL")]
    cluster: Option<String>,
    /// This node's id in the cluster, the same across its restarts (a node back under
    /// its id takes its tables back at once). Default: the host name and the port.
    #[arg(long, env = "YINSH_NODE_ID", value_name = "ID", requires = "cluster")]
    node_id: Option<String>,
    /// Serve the metrics, `GET /metrics` in the Prometheus text format, on this
    /// address (off by default; docs/deploy.md, "Metrics"). Keep it off the public
    /// address: it is for the deployment's Prometheus.
    #[arg(long, env = "YINSH_METRICS_BIND", value_name = "ADDR")]
    metrics_bind: Option<String>,
    /// How the log lines on stderr are written: `text` for people, `json` (one object
    /// a line) for log shippers. What is logged is chosen by `RUST_LOG` (default
    /// `warn,yinsh_server=info,yinsh=info`; docs/deploy.md, "Logs").
    #[arg(long, value_enum, default_value_t = LogFormat::Text, value_name = "FORMAT")]
    log_format: LogFormat,
    /// Send mail (notifications, digests, address verification, password resets)
    /// through this SMTP relay, `smtp://HOST:PORT`: a local mail server that relays
    /// onward (no TLS or password from here; docs/deploy.md, "Mail"). Without it the
    /// server sends no mail.
    #[arg(
        long,
        env = "YINSH_SMTP_URL",
        value_name = "URL",
        requires = "mail_from"
    )]
    smtp_url: Option<String>,
    /// Who the mail is from, e.g. `"YINSH <noreply@yinsh.example>"`.
    #[arg(long, env = "YINSH_MAIL_FROM", value_name = "ADDRESS")]
    mail_from: Option<String>,
    /// The site's public address, for the links in mail (default: `http://` and
    /// `--bind`), e.g. `https://yinsh.example`.
    #[arg(long, env = "YINSH_PUBLIC_URL", value_name = "URL")]
    public_url: Option<String>,
    /// Threads that serve connections and tables (default: one per core). Nodes of a
    /// cluster that share a machine do better with a share of its cores each
    /// (docs/performance.md). Engine searches run on threads of their own.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// A line of text each, for people.
    Text,
    /// A JSON object each (time, level, target, fields, spans), for log shippers.
    Json,
}

/// What is logged when `RUST_LOG` says nothing: the server's own news (a store that
/// fails or answers again, a node that joins or leaves, registrations, failed log-ins)
/// and every other crate's warnings and errors.
pub const DEFAULT_LOG: &str = "warn,yinsh_server=info,yinsh=info";

/// Logs on stderr, filtered by `RUST_LOG` (else [`DEFAULT_LOG`]), in `format`.
fn init_logs(format: LogFormat) -> anyhow::Result<()> {
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var(EnvFilter::DEFAULT_ENV) {
        Ok(spec) if !spec.trim().is_empty() => EnvFilter::try_new(&spec)
            .with_context(|| format!("RUST_LOG='{spec}' does not read as a log filter"))?,
        _ => EnvFilter::new(DEFAULT_LOG),
    };
    use std::io::IsTerminal;
    let logs = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(filter);
    // Set once per process (a second server in the same process keeps the first's).
    let _ = match format {
        LogFormat::Text => logs.try_init(),
        LogFormat::Json => logs
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .try_init(),
    };
    Ok(())
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    init_logs(args.log_format)?;
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = args.threads {
        anyhow::ensure!(threads > 0, "--threads must be at least 1");
        runtime.worker_threads(threads);
    }
    let runtime = runtime
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(args, out))
}

async fn serve(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.cluster.is_some() && !args.database_url.starts_with("postgres") {
        anyhow::bail!(
            "--cluster needs a PostgreSQL database that every node shares \
             (--database-url postgres://…), not '{}'",
            args.database_url
        );
    }
    let store = yinsh_server::store::open(&args.database_url)
        .await
        .with_context(|| format!("cannot open the database '{}'", args.database_url))?;
    let static_dir = args
        .static_dir
        .clone()
        .or_else(|| Some(PathBuf::from("client/dist")).filter(|d| d.is_dir()));
    let config = yinsh_server::Config {
        // Without a folder, the client built into the binary (if it was built first).
        embedded: embedded_client(),
        static_dir,
        bots: match (&args.engine, args.no_bots) {
            (_, true) => None,
            (Some(command), false) => Some(external_bots(command.clone())),
            (None, false) => Some(yinsh_server::builtin_bots()),
        },
        analysis_workers: args.analysis_workers,
        analysis_nodes: args.analysis_nodes,
        worker_key: args.worker_key.clone().filter(|k| !k.is_empty()),
        live_engines: args.live_engines,
        secure_cookies: args.secure_cookies,
        trusted_proxies: args.trusted_proxy.clone(),
        live_time: std::time::Duration::from_secs(args.live_time),
        arenas: if args.no_arena_schedule {
            Vec::new()
        } else {
            yinsh_server::tournament::schedule::default_schedule()
        },
        mail: match (&args.smtp_url, &args.mail_from) {
            (Some(url), Some(from)) => {
                let public = args
                    .public_url
                    .clone()
                    .unwrap_or_else(|| format!("http://{}", args.bind));
                Some(
                    yinsh_server::mail::MailConfig::new(url, from, &public)
                        .map_err(anyhow::Error::msg)?,
                )
            }
            _ => None,
        },
        ..yinsh_server::Config::default()
    };
    let config = match &args.cluster {
        None => config,
        Some(url) => {
            let bus = yinsh_server::cluster::bus::RedisBus::connect(url)
                .await
                .with_context(|| format!("cannot reach the cluster's Redis at '{url}'"))?;
            yinsh_server::Config {
                node_id: Some(
                    args.node_id
                        .clone()
                        .unwrap_or_else(|| default_node_id(&args.bind)),
                ),
                bus: Some(std::sync::Arc::new(bus)),
                ..config
            }
        }
    };
    let node = config.node_id.clone();
    if config.embedded.is_none() && config.static_dir.is_none() {
        eprintln!(
            "warning: no web client to serve (this binary was built before client/dist; \
             build the client, then the binary, or pass --static-dir); the API works"
        );
    }
    let server = yinsh_server::Server::new(store, config).await?;
    let listener = tokio::net::TcpListener::bind(&args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    let addr = listener.local_addr()?;
    let metrics = match &args.metrics_bind {
        None => None,
        Some(bind) => Some(
            tokio::net::TcpListener::bind(bind)
                .await
                .with_context(|| format!("cannot listen on {bind} for the metrics"))?,
        ),
    };
    match &node {
        None => writeln!(
            out,
            "yinsh server listening on http://{addr} ({} tables restored)",
            server.lobby().len()
        )?,
        Some(node) => writeln!(
            out,
            "yinsh server listening on http://{addr} as node {node} of a cluster ({} tables here)",
            server.lobby().len()
        )?,
    }
    if let Some(metrics) = metrics {
        writeln!(out, "metrics on http://{}/metrics", metrics.local_addr()?)?;
        server.serve_metrics(metrics);
    }
    out.flush()?;
    server.serve(listener, shutdown()).await?;
    Ok(())
}

/// A node's id when none is given: the machine's host name and the port it listens on
/// (the same after a restart).
fn default_node_id(bind: &str) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "node".to_owned());
    let port = bind.rsplit(':').next().unwrap_or(bind);
    format!("{host}:{port}")
}

/// Engine seats played by the program `command`.
fn external_bots(command: String) -> yinsh_server::BotFactory {
    use yinsh_engine::Engine;
    std::sync::Arc::new(move |level| {
        let mut engine = super::external::ExternalEngine::new(command.clone());
        engine.set_level(level);
        Box::new(engine)
    })
}

/// The web client as it was built (`client/dist`) when this binary was: in a release
/// build its files are inside the binary; a debug build reads them from that folder.
#[derive(rust_embed::Embed)]
#[folder = "../../client/dist"]
#[allow_missing = true]
struct Client;

/// The built-in client's files, when it has any.
fn embedded_client() -> Option<yinsh_server::EmbeddedFiles> {
    Client::get("index.html")?;
    Some(std::sync::Arc::new(|path: &str| {
        Client::get(path).map(|file| file.data)
    }))
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
