//! Test helpers: a server on port 0 over a fresh store, WebSocket clients, plain HTTP.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;
use yinsh_client::ws::{Connect, Connection, Error};
use yinsh_server::follow::Follower;
use yinsh_server::protocol::{
    Command, GameView, PlayerView, Request, ServerMessage, TableEvent, TableOptions, TableView,
};
use yinsh_server::store::{Store, Stores};
use yinsh_server::{Config, Server};

/// The default configuration without bots and with a high rate limit.
pub fn fast_config() -> Config {
    Config {
        bots: None,
        rate_per_sec: 10_000,
        rate_burst: 10_000,
        // Analysis workers only where a test asks for them (tests/analysis.rs).
        analysis_workers: 0,
        ..Config::default()
    }
}

/// For tests on paused time, where any pending timer fires as soon as the runtime
/// idles (even while a socket or the database is busy): the connections' keep-alive and
/// send timers pushed out of the way.
pub fn paused_config() -> Config {
    Config {
        ping_every: Duration::from_secs(3600),
        idle_timeout: Duration::from_secs(7200),
        send_timeout: Duration::from_secs(7200),
        ..fast_config()
    }
}

/// A running server and what it stands on.
pub struct TestServer {
    pub addr: SocketAddr,
    pub store: Arc<dyn Store>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    _dir: Option<tempfile::TempDir>,
    /// The server as a node of a cluster, if it is one.
    pub node: Option<Arc<yinsh_server::cluster::node::Node>>,
    /// Its routing to the other nodes, if it is a node of a cluster.
    pub router: Option<Arc<yinsh_server::cluster::route::Router>>,
    /// Its metrics.
    pub metrics: Arc<yinsh_server::metrics::Metrics>,
    /// What its tables share (to look at its lobby, or sweep its asleep games now).
    pub ctx: yinsh_server::Ctx,
}

impl TestServer {
    /// A server over a new SQLite file, without bots, with a rate limit that test
    /// clients playing at full speed stay under.
    pub async fn start() -> TestServer {
        TestServer::start_with(fast_config()).await
    }

    /// A server over a new SQLite file with `config`.
    pub async fn start_with(config: Config) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
        let mut s = TestServer::on(&url, config).await;
        s._dir = Some(dir);
        s
    }

    /// A server over the database at `url`.
    pub async fn on(url: &str, config: Config) -> TestServer {
        let store = yinsh_server::store::open(url).await.expect("store opens");
        TestServer::with_store(store, config).await
    }

    /// A server over `store`.
    pub async fn with_store(store: Arc<dyn Store>, config: Config) -> TestServer {
        let stores = Stores::from(store.clone());
        TestServer::with_stores(store, stores, config).await
    }

    /// A server over `stores`, whose store for the test's own reads is `store`.
    pub async fn with_stores(store: Arc<dyn Store>, stores: Stores, config: Config) -> TestServer {
        let server = Server::new(stores, config).await.expect("server");
        let node = server.ctx().node().cloned();
        let router = server.ctx().router().cloned();
        let metrics = server.ctx().metrics.clone();
        let ctx = server.ctx().clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .serve(listener, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        TestServer {
            addr,
            store,
            stop: Some(stop),
            task: Some(task),
            _dir: None,
            node,
            router,
            metrics,
            ctx,
        }
    }

    /// Keeps `dir` (the database's folder) until the server is dropped.
    pub fn keep(&mut self, dir: tempfile::TempDir) {
        self._dir = Some(dir);
    }

    /// Stops serving (the store stays).
    pub async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
            let _ = task.await;
        }
    }

    /// A new guest.
    pub async fn client(&self) -> Client {
        Client::connect(self.addr, None).await
    }

    /// `GET path`: status and body.
    pub async fn get(&self, path: &str) -> (u16, String) {
        http(self.addr, "GET", path, &[]).await
    }
}

/// A plain HTTP/1.1 request: status and body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String) {
    let (status, _, body) = http_full(addr, method, path, headers).await;
    (status, body)
}

/// A plain HTTP/1.1 request: status, headers (lower-case names) and body.
pub async fn http_full(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, String) {
    http_send(addr, method, path, headers, "").await
}

/// A plain HTTP/1.1 request with a `body`: status, headers (lower-case names) and body.
pub async fn http_send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    let answer = tokio::time::timeout(
        Duration::from_secs(10),
        yinsh_client::http::request(&addr.to_string(), method, path, headers, body),
    )
    .await
    .expect("HTTP answer in time")
    .expect("an HTTP answer");
    (answer.status, answer.headers, answer.body)
}

/// A WebSocket client speaking the protocol.
pub struct Client {
    ws: Connection,
    pub cookie: String,
    pub player: PlayerView,
    /// Table events received, in order.
    pub events: Vec<(u64, TableEvent)>,
    /// The game, as the messages received make it.
    pub game: Option<GameView>,
    follower: Follower,
    /// How far [`Client::event`] has looked in `events`.
    cursor: usize,
    /// What was pushed to the player rather than to a table (challenges, pairings,
    /// notifications, the count of turns), in order, but those [`Client::note`] took.
    pub notes: Vec<ServerMessage>,
}

/// How long a test waits for a message before failing.
pub const WAIT: Duration = Duration::from_secs(20);

impl Client {
    /// Connects, with the session cookie `cookie` if given (a new guest otherwise).
    pub async fn connect(addr: SocketAddr, cookie: Option<&str>) -> Client {
        let mut connect = Connect::to(addr);
        if let Some(c) = cookie {
            connect = connect.cookie(c);
        }
        let ws = connect.open().await.expect("connects");
        Client {
            cookie: ws.cookie().expect("a session cookie").to_owned(),
            player: ws.player.clone(),
            ws,
            events: Vec::new(),
            game: None,
            follower: Follower::default(),
            cursor: 0,
            notes: Vec::new(),
        }
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send_text(text).await.unwrap();
    }

    /// Sends a request with a fresh id, which it returns.
    pub async fn send(&mut self, request: Request) -> u64 {
        self.ws.send(request).await.unwrap()
    }

    /// The next message (noting events and game views).
    pub async fn recv(&mut self) -> ServerMessage {
        tokio::time::timeout(WAIT, self.recv_untimed())
            .await
            .expect("a message in time")
    }

    /// The next message, however long it takes (for tests on paused time).
    pub async fn recv_untimed(&mut self) -> ServerMessage {
        let msg = self.ws.recv().await.unwrap_or_else(|e| panic!("{e}"));
        if let ServerMessage::Event { version, event, .. } = &msg {
            self.events.push((*version, event.clone()));
        }
        if matches!(
            msg,
            ServerMessage::Challenge { .. }
                | ServerMessage::Paired { .. }
                | ServerMessage::Notified { .. }
                | ServerMessage::Unread { .. }
                | ServerMessage::MyTurn { .. }
        ) {
            self.notes.push(msg.clone());
        }
        if self.follower.apply(None, &msg) {
            self.game = self.follower.game.clone();
        }
        msg
    }

    /// Whether the server closes the connection within the wait (messages before the
    /// close are read and dropped).
    pub async fn closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(WAIT, self.ws.recv_text()).await {
                Ok(Err(Error::Closed(_))) => return true,
                Ok(_) => continue,
                Err(_) => return false,
            }
        }
    }

    /// Receives until `f` picks a message.
    pub async fn until<T>(&mut self, mut f: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let msg = self.recv().await;
            if let Some(t) = f(&msg) {
                return t;
            }
        }
    }

    /// The next table event (after the last one this found) that `f` picks, whether it
    /// arrived already (while waiting for a reply) or is still to come.
    pub async fn event<T>(&mut self, mut f: impl FnMut(&TableEvent) -> Option<T>) -> T {
        loop {
            while self.cursor < self.events.len() {
                let i = self.cursor;
                self.cursor += 1;
                if let Some(t) = f(&self.events[i].1) {
                    return t;
                }
            }
            self.recv().await;
        }
    }

    /// The first message pushed to the player that `f` picks (taken out of `notes`),
    /// whether it arrived already or is still to come.
    pub async fn note<T>(&mut self, mut f: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        let mut looked = 0;
        loop {
            while looked < self.notes.len() {
                if let Some(t) = f(&self.notes[looked]) {
                    self.notes.remove(looked);
                    return t;
                }
                looked += 1;
            }
            self.recv().await;
        }
    }

    /// Sends a request and waits for its reply (`Ok(key, text)`) or error
    /// (`Err(code, text)`).
    pub async fn call(&mut self, request: Request) -> Result<(String, String), (String, String)> {
        let id = self.send(request).await;
        self.until(|m| match m {
            ServerMessage::Reply {
                id: Some(i),
                key,
                text,
                ..
            } if *i == id => Some(Ok((key.clone(), text.clone()))),
            ServerMessage::Error {
                id: Some(i),
                code,
                text,
                ..
            } if *i == id => Some(Err((code.to_string(), text.clone()))),
            _ => None,
        })
        .await
    }

    /// Creates a table and gives its id.
    pub async fn create(&mut self, options: TableOptions) -> String {
        let id = self.send(Request::CreateTable { options }).await;
        self.until(|m| match m {
            ServerMessage::Reply {
                id: Some(i),
                table: Some(t),
                ..
            } if *i == id => Some(t.clone()),
            ServerMessage::Error {
                id: Some(i), text, ..
            } if *i == id => panic!("create: {text}"),
            _ => None,
        })
        .await
    }

    /// Opens a table: its snapshot.
    pub async fn open(&mut self, table: &str) -> TableView {
        let id = self
            .send(Request::Open {
                table: table.to_owned(),
                since: None,
            })
            .await;
        let mut view = None;
        loop {
            match self.recv().await {
                ServerMessage::Snapshot { table } => view = Some(table),
                ServerMessage::Reply { id: Some(i), .. } if i == id => {
                    return view.expect("snapshot first");
                }
                ServerMessage::Error {
                    id: Some(i), text, ..
                } if i == id => panic!("open: {text}"),
                _ => {}
            }
        }
    }

    /// A chat line or slash command.
    pub async fn chat(
        &mut self,
        table: &str,
        text: &str,
    ) -> Result<(String, String), (String, String)> {
        self.call(Request::Chat {
            table: table.to_owned(),
            text: text.to_owned(),
        })
        .await
    }

    /// A command (a button).
    pub async fn command(
        &mut self,
        table: &str,
        command: Command,
    ) -> Result<(String, String), (String, String)> {
        self.call(Request::Command {
            table: table.to_owned(),
            command,
        })
        .await
    }

    /// A game action.
    pub async fn act(
        &mut self,
        table: &str,
        action: &str,
    ) -> Result<(String, String), (String, String)> {
        self.call(Request::Act {
            table: table.to_owned(),
            action: action.to_owned(),
            ply: None,
        })
        .await
    }

    /// Holds the table as `view` shows it, as a client that reconnects does before it
    /// resumes (the events it missed are applied to it).
    pub fn hold(&mut self, view: TableView) {
        self.follower
            .apply(None, &ServerMessage::Snapshot { table: view });
        self.game = self.follower.game.clone();
    }

    /// Waits until the game has `plies` actions or more and this client has been given
    /// its legal actions (it is to act): the game then.
    pub async fn my_turn(&mut self, plies: usize) -> GameView {
        loop {
            if let Some(g) = &self.game {
                if g.moves.len() >= plies && !g.legal.is_empty() {
                    return g.clone();
                }
            }
            self.recv().await;
        }
    }

    /// Waits for the event with version `v` or later and gives the game then.
    pub async fn game_after(&mut self, plies: usize) -> GameView {
        loop {
            if let Some(g) = &self.game {
                if g.moves.len() >= plies {
                    return g.clone();
                }
            }
            self.recv().await;
        }
    }
}

/// Two guests seated at a new table (white, black) with `options`, both watching.
pub async fn seated_pair(server: &TestServer, options: TableOptions) -> (String, Client, Client) {
    let mut white = server.client().await;
    let mut black = server.client().await;
    let table = white.create(options).await;
    white.open(&table).await;
    black.open(&table).await;
    white
        .chat(&table, "/join white")
        .await
        .expect("white joins");
    black
        .chat(&table, "/join black")
        .await
        .expect("black joins");
    (table, white, black)
}

/// A fresh PostgreSQL database named after `name`, when the test command started a
/// PostgreSQL server (`YINSH_TEST_POSTGRES_URL`); `None` (the test skips) otherwise, unless
/// `YINSH_REQUIRE_POSTGRES` says it must be there.
pub async fn postgres_database(name: &str) -> Option<String> {
    let Ok(base) = std::env::var("YINSH_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var("YINSH_REQUIRE_POSTGRES").is_err(),
            "YINSH_REQUIRE_POSTGRES is set but YINSH_TEST_POSTGRES_URL is not"
        );
        eprintln!("PostgreSQL tests skipped: YINSH_TEST_POSTGRES_URL is not set");
        return None;
    };
    // A database per test, created through the maintenance one.
    use sqlx::Connection;
    let mut admin = sqlx::PgConnection::connect(&base)
        .await
        .expect("PostgreSQL answers");
    let db = format!("yinsh_test_{name}_{}", std::process::id());
    for sql in [
        format!("DROP DATABASE IF EXISTS {db}"),
        format!("CREATE DATABASE {db}"),
    ] {
        sqlx::query(&sql).execute(&mut admin).await.unwrap();
    }
    let (prefix, _) = base.rsplit_once('/').expect("a database URL");
    Some(format!("{prefix}/{db}"))
}

/// A real SMTP server for the mail tests: aiosmtpd (`scripts/smtp python`, named by
/// `YINSH_TEST_SMTP_PYTHON`) on a free port of loopback, keeping every mail it takes
/// in a Maildir. Stopped and started again on the same port, it is an SMTP outage.
pub struct SmtpServer {
    python: String,
    pub port: u16,
    dir: tempfile::TempDir,
    child: Option<std::process::Child>,
}

impl SmtpServer {
    /// A server, when the test command made aiosmtpd (`None`: the test skips), unless
    /// `YINSH_REQUIRE_SMTP` says it must be there.
    pub async fn start() -> Option<SmtpServer> {
        let Ok(python) = std::env::var("YINSH_TEST_SMTP_PYTHON") else {
            assert!(
                std::env::var("YINSH_REQUIRE_SMTP").is_err(),
                "YINSH_REQUIRE_SMTP is set but YINSH_TEST_SMTP_PYTHON is not"
            );
            eprintln!("mail tests skipped: YINSH_TEST_SMTP_PYTHON is not set (scripts/smtp)");
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut server = SmtpServer {
            python,
            port,
            dir: tempfile::tempdir().unwrap(),
            child: None,
        };
        server.run().await;
        Some(server)
    }

    /// The `--smtp-url` of it.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Starts it (again), and waits until it answers.
    pub async fn run(&mut self) {
        let maildir = self.dir.path().join("mail");
        let child = std::process::Command::new(&self.python)
            .args(["-m", "aiosmtpd", "-n", "-l"])
            .arg(format!("127.0.0.1:{}", self.port))
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("aiosmtpd starts");
        self.child = Some(child);
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("aiosmtpd did not answer on port {}", self.port);
    }

    /// Stops it: the port refuses connections.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Every mail it took so far (the raw messages), oldest first.
    pub fn mails(&self) -> Vec<String> {
        let new = self.dir.path().join("mail").join("new");
        let mut files: Vec<_> = std::fs::read_dir(&new)
            .map(|d| d.filter_map(|e| e.ok()).collect())
            .unwrap_or_default();
        files.sort_by_key(|e| e.metadata().and_then(|m| m.modified()).ok());
        files
            .iter()
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .collect()
    }

    /// The mails to `address` so far.
    pub fn mails_to(&self, address: &str) -> Vec<String> {
        let to = format!("To: {address}");
        self.mails()
            .into_iter()
            .filter(|m| m.lines().any(|l| l.eq_ignore_ascii_case(&to)))
            .collect()
    }

    /// Waits until `address` got `n` mails: them.
    pub async fn wait_for(&self, address: &str, n: usize) -> Vec<String> {
        for _ in 0..400 {
            let mails = self.mails_to(address);
            if mails.len() >= n {
                return mails;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!(
            "{address} got {} mails, not {n}",
            self.mails_to(address).len()
        );
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        self.stop();
    }
}
