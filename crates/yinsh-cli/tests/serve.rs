//! `yinsh serve` as a user runs it: the real binary, killed with SIGKILL mid-game and
//! started again on the same database, loses nothing.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use yinsh_client::ws::{Connect, Connection};
use yinsh_server::follow::Follower;
use yinsh_server::protocol::ServerMessage;

/// The URL of the SQLite database file `db`.
fn sqlite(db: &std::path::Path) -> String {
    format!("sqlite://{}?mode=rwc", db.display())
}

/// A running `yinsh serve`, killed when dropped (a failing test leaves none behind).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `yinsh serve` on a free port over `db`; the child and its address.
fn serve(db: &std::path::Path) -> (Server, String) {
    serve_on(&sqlite(db), &["--no-bots"])
}

/// Starts `yinsh serve` over `db` with `extra` arguments.
fn serve_with(db: &std::path::Path, extra: &[&str]) -> (Server, String) {
    serve_on(&sqlite(db), extra)
}

/// Starts `yinsh serve` over the database at `url` with `extra` arguments.
fn serve_on(url: &str, extra: &[&str]) -> (Server, String) {
    serve_at(url, "127.0.0.1:0", extra)
}

/// Starts `yinsh serve` on `bind` over the database at `url` with `extra` arguments.
fn serve_at(url: &str, bind: &str, extra: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args(["serve", "--bind", bind])
        .args(extra)
        .arg("--database-url")
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("yinsh serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    (Server(child), addr)
}

/// Kills `server` with SIGKILL: no chance to flush or say goodbye.
fn kill(server: &mut Server) {
    server.0.kill().unwrap();
    server.0.wait().unwrap();
}

/// The body of `GET path` from the server at `addr`.
fn get(addr: &str, path: &str) -> Value {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(
        head.starts_with("HTTP/1.0 200") || head.starts_with("HTTP/1.1 200"),
        "{head}"
    );
    serde_json::from_str(body).unwrap()
}

/// A player on a WebSocket connection, speaking the protocol as JSON.
struct Player {
    ws: Connection,
    cookie: String,
    /// The game as the messages received make it, as JSON.
    last: Option<Value>,
    follower: Follower,
    /// The events received and not yet waited for.
    events: Vec<Value>,
}

impl Player {
    async fn connect(addr: &str, cookie: Option<&str>) -> Player {
        let mut connect = Connect::to(addr);
        if let Some(c) = cookie {
            connect = connect.cookie(c);
        }
        Player::on(connect.open().await.unwrap())
    }

    /// The player of the connection `ws`.
    fn on(ws: Connection) -> Player {
        Player {
            cookie: ws.cookie().expect("a session").to_owned(),
            ws,
            last: None,
            follower: Follower::default(),
            events: Vec::new(),
        }
    }

    /// Sends `msg` and waits for the reply with its id (an error fails the test).
    async fn call(&mut self, id: u64, msg: Value) -> Value {
        let v = self.answer(id, msg.clone()).await;
        assert_eq!(v["type"], "reply", "{msg} was refused: {v}");
        v
    }

    /// Sends `msg` and waits for the reply or error with its id; that answer.
    async fn answer(&mut self, id: u64, mut msg: Value) -> Value {
        msg["id"] = json!(id);
        self.ws.send_text(&msg.to_string()).await.unwrap();
        loop {
            let v = self.next().await;
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    /// The first event of `kind` received and not waited for yet, waiting for it if
    /// need be.
    async fn until_event(&mut self, kind: &str) -> Value {
        loop {
            if let Some(i) = self.events.iter().position(|e| e["event"]["kind"] == kind) {
                return self.events.remove(i);
            }
            self.next().await;
        }
    }

    /// The next message, noting the game it carries.
    async fn next(&mut self) -> Value {
        self.next_within(Duration::from_secs(20))
            .await
            .expect("a message in time, the connection open")
    }

    /// Sends `msg` and waits up to `wait` for the reply or error with its id; `None`
    /// when none came in time or the connection closed.
    async fn try_answer(&mut self, id: u64, mut msg: Value, wait: Duration) -> Option<Value> {
        msg["id"] = json!(id);
        let deadline = tokio::time::Instant::now() + wait;
        let sent = self.ws.send_text(&msg.to_string()).await;
        sent.ok()?;
        loop {
            let v = self
                .next_within(deadline - tokio::time::Instant::now())
                .await?;
            if v["id"] == json!(id) {
                return Some(v);
            }
        }
    }

    /// The next message within `wait`, noting the game it carries; `None` when none
    /// came in time or the connection closed.
    async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        // Pings do not count: a message must come within the time.
        let deadline = tokio::time::Instant::now() + wait;
        let text = tokio::time::timeout_at(deadline, self.ws.recv_text())
            .await
            .ok()?
            .ok()?;
        let v: Value = serde_json::from_str(&text).unwrap();
        let msg: ServerMessage = serde_json::from_value(v.clone()).unwrap();
        if self.follower.apply(None, &msg) {
            self.last = self.follower.game.as_ref().map(|g| json!(g));
        }
        if v["type"] == "event" {
            self.events.push(v.clone());
        }
        Some(v)
    }

    /// Waits until the game has `n` actions and this player has been given their legal
    /// actions (it is their turn); the game then.
    async fn until_turn(&mut self, n: usize) -> Value {
        loop {
            if let Some(g) = &self.last {
                let moves = g["moves"].as_array().map_or(0, Vec::len);
                if moves >= n && g["legal"].as_array().is_some_and(|l| !l.is_empty()) {
                    return g.clone();
                }
            }
            self.next().await;
        }
    }

    /// Waits until the game has `n` actions; the game then.
    async fn until_moves(&mut self, n: usize) -> Value {
        loop {
            if let Some(g) = &self.last {
                if g["moves"].as_array().is_some_and(|m| m.len() >= n) {
                    return g.clone();
                }
            }
            self.next().await;
        }
    }
}

fn act(table: &str, token: &str) -> Value {
    json!({"type": "act", "table": table, "action": token})
}

fn chat(table: &str, text: &str) -> Value {
    json!({"type": "chat", "table": table, "text": text})
}

/// Two new guests at a new logged table with a `minutes`+`increment` clock, seated and
/// started: the table, white and black.
async fn started(addr: &str, minutes: u32, increment: u32) -> (String, Player, Player) {
    let time = json!({"minutes": minutes, "increment": increment});
    let options = json!({"variant": "standard", "log": true, "time": time});
    started_by(addr, options, [None, None]).await
}

/// The players of the sessions `cookies` (new guests for none) at a new table with
/// `options`, seated (white, black) and started: the table, white and black.
async fn started_by(
    addr: &str,
    options: Value,
    cookies: [Option<&str>; 2],
) -> (String, Player, Player) {
    started_at([addr, addr], options, cookies).await
}

/// As [`started_by`], white connected to `addrs[0]` (where the table is made) and black
/// to `addrs[1]`.
async fn started_at(
    addrs: [&str; 2],
    options: Value,
    cookies: [Option<&str>; 2],
) -> (String, Player, Player) {
    let mut white = Player::connect(addrs[0], cookies[0]).await;
    let mut black = Player::connect(addrs[1], cookies[1]).await;
    let created = white
        .call(1, json!({"type": "create_table", "options": options}))
        .await;
    let table = created["table"].as_str().unwrap().to_owned();
    white.call(2, json!({"type": "open", "table": table})).await;
    black.call(2, json!({"type": "open", "table": table})).await;
    white.call(3, chat(&table, "/join white")).await;
    black.call(3, chat(&table, "/join black")).await;
    white.call(4, chat(&table, "/start")).await;
    (table, white, black)
}

/// The finished games of the archive at `addr`.
fn archived(addr: &str) -> Vec<Value> {
    get(addr, "/api/archive")["games"]
        .as_array()
        .unwrap()
        .clone()
}

/// Black resigns at `table` and `server` is killed as soon as white hears of it;
/// started again over `url`, its archive holds the game, won by white after `actions`
/// actions: a result announced is a result stored.
async fn resignation_outlives_a_kill(
    url: &str,
    mut server: Server,
    table: &str,
    white: &mut Player,
    black: &mut Player,
    actions: u64,
) {
    black.call(90, chat(table, "/resign")).await;
    let over = white.until_event("game_over").await;
    kill(&mut server);
    assert_eq!(over["event"]["result"]["termination"], "resignation");
    let (_server, addr) = serve_on(url, &["--no-bots"]);
    let games = archived(&addr);
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0]["result"]["termination"], "resignation");
    assert_eq!(games[0]["result"]["winner"], "white");
    assert_eq!(games[0]["actions"], actions);
}

#[tokio::test]
async fn a_takeback_and_a_result_survive_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("yinsh.db");
    let (mut server, addr) = serve(&db);
    let (table, mut white, mut black) = started(&addr, 5, 10).await;
    white.call(10, act(&table, "e3")).await;
    black.call(10, act(&table, "a5")).await;
    let kept = white.until_moves(2).await["clocks"].clone();
    tokio::time::sleep(Duration::from_millis(300)).await;
    white.call(11, act(&table, "b5")).await;
    white.call(12, chat(&table, "/takeback")).await;
    black.call(12, chat(&table, "/accept")).await;
    white.until_event("took_back").await;
    let undone = white.last.clone().unwrap();
    assert_eq!(undone["moves"], json!(["e3", "a5"]));
    assert_eq!(undone["takebacks"]["white"], 1);
    // Back to the start of white's turn, its increment and thinking time (300 ms and
    // more) undone. White's clock runs again from the takeback's commit, so the event
    // may read it a few milliseconds later; black's stands. Views are whole
    // milliseconds rounded down, and `kept` was read a moment after white's clock
    // began, so the takeback's view may be a millisecond above it.
    let (now, then) = (
        undone["clocks"]["white_ms"].as_u64().unwrap(),
        kept["white_ms"].as_u64().unwrap(),
    );
    assert!(
        now <= then + 1 && then.saturating_sub(now) < 100,
        "{now} ms, was {then} ms"
    );
    assert_eq!(undone["clocks"]["black_ms"], kept["black_ms"]);

    kill(&mut server);
    let (server, addr) = serve(&db);
    let mut white = Player::connect(&addr, Some(&white.cookie)).await;
    white.call(1, json!({"type": "open", "table": table})).await;
    let after = white.last.clone().expect("the game is back");
    assert_eq!(after["moves"], json!(["e3", "a5"]), "the takeback was kept");
    assert_eq!(after["takebacks"]["white"], 1);
    assert_eq!(after["clocks"]["black_ms"], kept["black_ms"]);
    let w = after["clocks"]["white_ms"].as_u64().unwrap();
    let k = kept["white_ms"].as_u64().unwrap();
    assert!(w <= k && w + 400 > k, "white had {k} ms, now {w} ms");

    let mut black = Player::connect(&addr, Some(&black.cookie)).await;
    black.call(1, json!({"type": "open", "table": table})).await;
    resignation_outlives_a_kill(&sqlite(&db), server, &table, &mut white, &mut black, 2).await;
}

#[tokio::test]
async fn a_result_held_in_an_outage_is_not_lost_or_invented_by_a_kill() {
    let Some(pg) = yinsh_server::testkit::OwnPostgres::start("held result test") else {
        return;
    };
    let (mut server, addr) = serve_on(&pg.url, &["--no-bots"]);
    let (table, mut white, mut black) = started(&addr, 2, 0).await;
    white.call(10, act(&table, "e3")).await;
    black.call(10, act(&table, "a5")).await;

    pg.pause();
    let refused = white.answer(11, act(&table, "b5")).await;
    assert_eq!(refused["code"], "store_unavailable", "{refused}");
    let stopped = white.until_event("interrupted").await["game"]["clocks"].clone();
    let held = black.call(11, chat(&table, "/resign")).await;
    assert_eq!(held["key"], "result_held");
    // Killed while the result waits for the database: it was never announced, so the
    // game comes back unfinished, and nobody's clock paid for the outage.
    kill(&mut server);
    pg.resume();
    let (server, addr) = serve_on(&pg.url, &["--no-bots"]);
    assert!(archived(&addr).is_empty(), "a result nobody was told of");
    let mut white = Player::connect(&addr, Some(&white.cookie)).await;
    let mut black = Player::connect(&addr, Some(&black.cookie)).await;
    white.call(1, json!({"type": "open", "table": table})).await;
    black.call(1, json!({"type": "open", "table": table})).await;
    let back = black.last.clone().unwrap();
    assert_eq!(back["moves"], json!(["e3", "a5"]));
    assert!(back["result"].is_null(), "{back}");
    assert_eq!(back["clocks"]["black_ms"], stopped["black_ms"]);
    // White's clock is back at the start of the turn (as after any restart), at most
    // as full as it was then and not below where the outage stopped it.
    let w = back["clocks"]["white_ms"].as_u64().unwrap();
    let s = stopped["white_ms"].as_u64().unwrap();
    assert!(s <= w && w <= 120_000, "white had {s} ms, now {w} ms");
    // Play goes on; a resignation now is stored and announced, and outlives a kill.
    white.call(2, act(&table, "b5")).await;
    resignation_outlives_a_kill(&pg.url, server, &table, &mut white, &mut black, 3).await;
}

#[tokio::test]
async fn a_killed_server_restarts_with_every_accepted_action_and_fair_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("yinsh.db");
    let (mut server, addr) = serve(&db);

    let (table, mut white, mut black) = started(&addr, 5, 0).await;
    let tokens = ["e3", "a5", "b5", "c6"];
    for (i, t) in tokens.iter().enumerate() {
        let p = if i % 2 == 0 { &mut white } else { &mut black };
        p.call(10 + i as u64, act(&table, t)).await;
    }
    let before = black.last.clone().unwrap();
    assert_eq!(before["moves"], json!(tokens));

    kill(&mut server);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (mut server, addr) = serve(&db);

    // White comes back with the same session, finds the table and the game, and plays.
    let mut white = Player::connect(&addr, Some(&white.cookie)).await;
    white.call(1, json!({"type": "open", "table": table})).await;
    let after = white.last.clone().expect("a snapshot with the game");
    assert_eq!(after["moves"], json!(tokens));
    // Black's clock is as it was; white's (to move) lost no more than the moments it
    // ran before the kill and after the restart, not the half second the server was down.
    assert_eq!(after["clocks"]["black_ms"], before["clocks"]["black_ms"]);
    let (w0, w1) = (
        before["clocks"]["white_ms"].as_u64().unwrap(),
        after["clocks"]["white_ms"].as_u64().unwrap(),
    );
    assert!(
        w1 + 400 > w0 && w1 <= w0 + 50,
        "white had {w0} ms, now {w1} ms"
    );
    white.call(2, act(&table, "d6")).await;
    let mut black = Player::connect(&addr, Some(&black.cookie)).await;
    black.call(1, json!({"type": "open", "table": table})).await;
    black.call(2, act(&table, "e4")).await;
    assert_eq!(
        black.last.as_ref().unwrap()["moves"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    kill(&mut server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_under_load_keeps_every_acknowledged_action() {
    use yinsh_client::load::{LoadConfig, run};

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("yinsh.db");
    let (mut server, addr) = serve(&db);
    let config = LoadConfig {
        addr: addr.clone(),
        games: 16,
        think: Duration::from_millis(10),
        duration: Duration::from_secs(4),
        log: true,
        ..LoadConfig::default()
    };
    let load = tokio::spawn(run(config, |_| {}));
    // Killed in the middle of it all.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    kill(&mut server);
    let report = load.await.unwrap().expect("the load generator finishes");
    assert!(
        report.actions > 100,
        "only {} actions before the kill",
        report.actions
    );
    assert!(report.errors > 0, "the kill cut connections");

    let (mut server, addr) = serve(&db);
    let store = yinsh_server::store::open(&format!("sqlite://{}?mode=rwc", db.display()))
        .await
        .unwrap();
    for (game, acknowledged) in &report.acknowledged {
        let stored = store
            .game(yinsh_server::vocab::GameId(*game))
            .await
            .unwrap()
            .expect("the game is stored");
        let stored: Vec<(usize, String)> = stored
            .actions
            .iter()
            .enumerate()
            .map(|(ply, a)| (ply, a.token.clone()))
            .collect();
        // Every acknowledged action is there; at most the one in flight at the kill
        // was stored without its acknowledgement arriving.
        assert!(
            stored.len() >= acknowledged.len() && stored.len() <= acknowledged.len() + 1,
            "game {game}: {} stored, {} acknowledged",
            stored.len(),
            acknowledged.len()
        );
        assert_eq!(&stored[..acknowledged.len()], acknowledged.as_slice());
    }
    // The unfinished games came back at their tables, ready to go on.
    let unfinished = store.unfinished_games().await.unwrap();
    assert!(!unfinished.is_empty());
    let mut watcher = Player::connect(&addr, None).await;
    let game = &unfinished[0];
    watcher
        .call(1, json!({"type": "open", "table": game.game.table_id}))
        .await;
    let view = watcher.last.clone().expect("the table shows its game");
    let tokens: Vec<Value> = game.actions.iter().map(|a| json!(a.token)).collect();
    assert_eq!(view["moves"], Value::Array(tokens));
    kill(&mut server);
}

#[tokio::test]
async fn an_engine_program_plays_the_engine_seats() {
    let dir = tempfile::tempdir().unwrap();
    // Any program speaking the engine protocol: here the UCT baseline of our own binary.
    let engine = format!("{} engine --baseline", env!("CARGO_BIN_EXE_yinsh"));
    let (mut server, addr) = serve_with(&dir.path().join("yinsh.db"), &["--engine", &engine]);
    let mut human = Player::connect(&addr, None).await;
    let options = json!({"variant": "blitz", "log": false});
    let created = human
        .call(1, json!({"type": "create_table", "options": options}))
        .await;
    let table = created["table"].as_str().unwrap().to_owned();
    human.call(2, json!({"type": "open", "table": table})).await;
    human
        .call(
            3,
            json!({"type": "chat", "table": table, "text": "/join black"}),
        )
        .await;
    let seated = human
        .call(4, json!({"type": "chat", "table": table, "text": "/bot 2"}))
        .await;
    assert_eq!(seated["key"], "bot_seated");
    human
        .call(
            5,
            json!({"type": "command", "table": table, "command": "start"}),
        )
        .await;
    // The program places white's rings; the human answers with the first legal one.
    for placed in 0..3 {
        let game = human.until_turn(2 * placed + 1).await;
        assert_eq!(game["to_move"], "black", "{game}");
        let mine = game["legal"][0].as_str().unwrap().to_owned();
        human.call(10 + placed as u64, act(&table, &mine)).await;
    }
    human.until_moves(7).await;
    kill(&mut server);
}

/// `POST path` with a JSON `body` from this site's page, as the browser with `cookie`
/// (if any): the status, the session cookie it sets (if any) and the JSON answer.
fn post(
    addr: &str,
    path: &str,
    cookie: Option<&str>,
    body: &Value,
) -> (u16, Option<String>, Value) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let body = body.to_string();
    let cookie = cookie
        .map(|c| format!("Cookie: yinsh_session={c}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "POST {path} HTTP/1.0\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{cookie}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    let set = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .and_then(|l| l.split_once("yinsh_session="))
        .and_then(|(_, v)| v.split(';').next())
        .map(str::to_owned);
    (
        status,
        set,
        serde_json::from_str(body).unwrap_or(Value::Null),
    )
}

/// A new account called `name` at `addr`: its session cookie.
fn register(addr: &str, name: &str) -> String {
    let (status, guest, _) = post(addr, "/api/session", None, &json!({}));
    assert_eq!(status, 200);
    let body = json!({"name": name, "password": "correct horse"});
    let (status, cookie, answer) = post(addr, "/api/account/register", guest.as_deref(), &body);
    assert_eq!(status, 201, "{answer}");
    cookie.expect("a new session cookie")
}

#[tokio::test]
async fn a_rated_result_rates_once_across_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("rated.db");
    let (mut server, addr) = serve(&db);
    let (ann, bob) = (register(&addr, "Ann"), register(&addr, "Bob"));
    let options = json!({"variant": "standard", "log": true, "rated": true,
                         "time": {"minutes": 5, "increment": 0}});
    let (table, mut white, mut black) = started_by(&addr, options, [Some(&ann), Some(&bob)]).await;
    white.call(5, act(&table, "e3")).await;
    black.until_moves(1).await;
    black.call(6, act(&table, "a5")).await;
    black.call(7, chat(&table, "/resign")).await;
    let over = white.until_event("game_over").await;
    // Killed the moment the result is known: it was stored with both ratings.
    kill(&mut server);
    let after = over["event"]["result"]["ratings"]["white"]["after"].clone();
    assert!(after.as_i64().unwrap() > 1500, "{over}");

    let (_server, addr) = serve(&db);
    for (name, won) in [("Ann", 1), ("Bob", 0)] {
        let page = get(&addr, &format!("/api/player/{name}"));
        let rating = &page["ratings"][0];
        assert_eq!(rating["games"], 1, "{name}: {page}");
        assert_eq!(rating["wins"], won, "{name}: {page}");
        assert_eq!(page["history"].as_array().unwrap().len(), 1, "{name}");
    }
    assert_eq!(get(&addr, "/api/player/Ann")["ratings"][0]["rating"], after);
    // Nothing to restore: the game is over, its table gone.
    assert_eq!(get(&addr, "/api/tables"), json!([]));
}

/// A short game played to its resignation at `addr`: its archive id.
async fn archived_game(addr: &str) -> i64 {
    let (table, mut white, mut black) = started(addr, 5, 0).await;
    white.call(5, act(&table, "e3")).await;
    black.until_moves(1).await;
    black.call(6, act(&table, "a5")).await;
    white.until_moves(2).await;
    white.call(7, act(&table, "b5")).await;
    black.call(8, chat(&table, "/resign")).await;
    let over = white.until_event("game_over").await;
    over["game"]["id"].as_i64().unwrap()
}

/// Waits until the analysis of `game` at `addr` is in `state`; the analysis then.
fn analysis_in(addr: &str, game: i64, state: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let analysis = get(addr, &format!("/api/archive/{game}/analysis"));
        if analysis["state"] == state {
            return analysis;
        }
        assert!(std::time::Instant::now() < deadline, "still {analysis}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test]
async fn a_remote_worker_process_analyses_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("worker.db");
    let extra = [
        "--no-bots",
        "--analysis-workers",
        "0",
        "--analysis-nodes",
        "2000",
        "--worker-key",
        "sesame",
    ];
    let (_server, addr) = serve_with(&db, &extra);
    let game = archived_game(&addr).await;
    let (status, _, state) = post(
        &addr,
        &format!("/api/archive/{game}/analysis"),
        None,
        &json!({}),
    );
    assert_eq!((status, &state["state"]), (202, &json!("queued")));
    // A worker with the wrong key is told so and stops.
    let refused = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args([
            "worker",
            "--server",
            &format!("http://{addr}"),
            "--key",
            "wrong",
            "--until-idle",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let worker = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args([
            "worker",
            "--server",
            &format!("http://{addr}"),
            "--key",
            "sesame",
        ])
        .args(["--name", "far-away", "--until-idle"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&worker.stdout);
    assert!(worker.status.success(), "{said}");
    assert!(said.contains(&format!("game {game}: analysed")), "{said}");
    let analysis = analysis_in(&addr, game, "done");
    assert_eq!(analysis["result"]["actions"].as_array().unwrap().len(), 3);
    assert_eq!(analysis["result"]["settings"], "2000 nodes");
}

#[test]
fn a_worker_of_another_version_stops_saying_why() {
    use std::io::{Read, Write};
    // A server of another version: it refuses this worker's engine, whatever it asks.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let mut asked = Vec::new();
        for stream in listener.incoming().take(1) {
            let mut stream = stream.unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let mut request = vec![0u8; 4096];
            let n = stream.read(&mut request).unwrap();
            asked.push(String::from_utf8_lossy(&request[..n]).into_owned());
            let body = r#"{"error":"this server analyses with yinsh-engine 9.9.9"}"#;
            write!(
                stream,
                "HTTP/1.1 409 Conflict\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
        }
        asked
    });
    let mut worker = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args(["worker", "--server", &format!("http://{addr}")])
        .args(["--key", "sesame"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It stops at once; one that tried again would wait 5 s and more between tries.
    let deadline = std::time::Instant::now() + Duration::from_secs(4);
    let status = loop {
        if let Some(status) = worker.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            worker.kill().unwrap();
            panic!("the worker is still asking");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let worker = worker.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&worker.stdout),
        String::from_utf8_lossy(&worker.stderr)
    );
    assert!(!status.success(), "{said}");
    assert!(
        said.contains("409") && said.contains("yinsh-engine 9.9.9"),
        "{said}"
    );
    // It named its engine when it asked.
    let asked = server.join().unwrap();
    let engine = yinsh_server::analysis::engine_name();
    assert!(asked[0].contains(engine), "{}", asked[0]);
}

#[tokio::test]
async fn an_analysis_killed_mid_job_completes_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("analysis.db");
    // Long enough (seconds a position) to be under way when the server is killed.
    let (mut server, addr) = serve_with(&db, &["--no-bots", "--analysis-nodes", "20000000"]);
    let game = archived_game(&addr).await;
    let (status, _, _) = post(
        &addr,
        &format!("/api/archive/{game}/analysis"),
        None,
        &json!({}),
    );
    assert_eq!(status, 202);
    analysis_in(&addr, game, "running");
    kill(&mut server);
    // Started again (shallower, to finish soon): the job left running is taken up.
    let (_server, addr) = serve_with(&db, &["--no-bots", "--analysis-nodes", "2000"]);
    let analysis = analysis_in(&addr, game, "done");
    assert_eq!(analysis["result"]["settings"], "2000 nodes");
    assert_eq!(analysis["result"]["actions"].as_array().unwrap().len(), 3);
}

/// `POST path` with `token` as the bearer and no body: the status and the JSON answer.
fn post_bearer(addr: &str, path: &str, token: &str) -> (u16, Value) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.0\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        serde_json::from_str(body).unwrap_or(Value::Null),
    )
}

/// A bot account "Robo" at `addr`: its API token (scope `bot:play`), upgraded.
fn bot_account(addr: &str) -> String {
    let robo = register(addr, "Robo");
    let ask = json!({"name": "bridge", "scopes": ["bot:play"]});
    let (status, _, made) = post(addr, "/api/token", Some(&robo), &ask);
    assert_eq!(status, 201, "{made}");
    let token = made["token"].as_str().unwrap().to_owned();
    assert_eq!(post_bearer(addr, "/api/bot/account/upgrade", &token).0, 200);
    token
}

/// `yinsh bot` with our own engine behind it, for one untimed game, its output piped.
fn spawn_bridge(addr: &str, token: &str) -> Server {
    spawn_bridge_with(addr, token, &[])
}

/// `yinsh bot` as [`spawn_bridge`] starts it, with `more` arguments.
fn spawn_bridge_with(addr: &str, token: &str, more: &[&str]) -> Server {
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_yinsh"));
    let bridge = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args([
            "bot",
            "--server",
            &format!("http://{addr}"),
            "--token",
            token,
        ])
        .args(["--engine", &engine, "--untimed", "--games", "1"])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    Server(bridge)
}

/// `bob` challenges Robo (White for Bob) as soon as the bot is online, and opens the
/// game's table once paired: the table, and the next request id.
async fn challenge_robo(bob: &mut Player) -> (String, u64) {
    let challenge = json!({"type": "challenge", "to": "Robo",
        "options": {"variant": "standard", "log": true}, "color": "white"});
    let mut id = 1;
    loop {
        let answer = bob.answer(id, challenge.clone()).await;
        id += 1;
        if answer["type"] == "reply" {
            break;
        }
        assert_eq!(answer["code"], "player_offline", "{answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let table = loop {
        let msg = bob.next().await;
        if msg["type"] == "paired" {
            break msg["table"].as_str().unwrap().to_owned();
        }
    };
    bob.call(id, json!({"type": "open", "table": table})).await;
    (table, id + 1)
}

/// Waits (at most 30 s) until the bridge stopped by itself: what it said.
async fn bridge_output(mut bridge: Server) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while bridge.0.try_wait().unwrap().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the bridge did not stop"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut said = String::new();
    std::io::Read::read_to_string(&mut bridge.0.stdout.take().unwrap(), &mut said).unwrap();
    said
}

#[tokio::test]
async fn our_engine_plays_as_a_bot_through_the_bridge() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let (_server, addr) = serve(&db);
    let token = bot_account(&addr);
    // A token the server does not know: the bridge says so and stops.
    let refused = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args([
            "bot",
            "--server",
            &format!("http://{addr}"),
            "--token",
            "yat_0",
        ])
        .args(["--engine", "true"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let bridge = spawn_bridge(&addr, &token);

    // A person challenges the bot once it is online, and plays White.
    let bob = register(&addr, "Bob");
    let mut bob = Player::connect(&addr, Some(&bob)).await;
    let (table, mut id) = challenge_robo(&mut bob).await;
    // Each of the person's placements is answered by the engine's, through the bridge.
    let mut pos = yinsh::Position::new();
    for n in 0..4 {
        let game = bob.until_turn(2 * n).await;
        if n > 0 {
            let theirs: yinsh::Action = game["moves"][2 * n - 1].as_str().unwrap().parse().unwrap();
            pos.play(theirs).expect("the bot plays legally");
        }
        assert_eq!(game["to_move"], "white");
        let mine = game["legal"][0].as_str().unwrap().to_owned();
        pos.play(mine.parse().unwrap()).unwrap();
        bob.call(id, act(&table, &mine)).await;
        id += 1;
    }
    let game = bob.until_moves(8).await;
    let theirs: yinsh::Action = game["moves"][7].as_str().unwrap().parse().unwrap();
    pos.play(theirs).expect("the bot plays legally");
    bob.call(
        id,
        json!({"type": "command", "table": table, "command": "resign"}),
    )
    .await;

    // After its one game the bridge stops by itself, having said what happened.
    let said = bridge_output(bridge).await;
    assert!(said.contains("bot Robo connected"), "{said}");
    assert!(said.contains("accepted"), "{said}");
    assert!(said.contains(&format!("game {table}: resign")), "{said}");
}

#[tokio::test]
async fn the_bridge_joins_an_arena_and_plays_the_game_it_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena.db");
    let (_server, addr) = serve(&db);
    let robo = bot_account(&addr);
    let ann = register(&addr, "Ann");
    let ask = json!({"name": "arenas", "scopes": ["tournament:write"]});
    let (status, _, made) = post(&addr, "/api/token", Some(&ann), &ask);
    assert_eq!(status, 201, "{made}");
    let ann_token = made["token"].as_str().unwrap().to_owned();
    let form = "name=Bots+Welcome&minutes=20&clockTime=1&waitMinutes=0&rated=false&bots=true";
    let (status, arena) = yinsh_client::http::post_form(&addr, &ann_token, "/api/tournament", form)
        .await
        .unwrap();
    assert_eq!(status, 200, "{arena}");
    let id = arena["id"].as_str().unwrap().to_owned();
    let join = format!("/api/tournament/{id}/join");
    let (status, body) = yinsh_client::http::post_form(&addr, &ann_token, &join, "")
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    // Ann is here; the bridge joins and is paired with her.
    let mut ann = Player::connect(&addr, Some(&ann)).await;
    let bridge = spawn_bridge_with(&addr, &robo, &["--tournament", &id]);
    let table = loop {
        let v = ann.next().await;
        if v["type"] == "paired" {
            break v["table"].as_str().unwrap().to_owned();
        }
    };
    ann.call(1, json!({"type": "open", "table": table})).await;
    ann.call(
        2,
        json!({"type": "command", "table": table, "command": "resign"}),
    )
    .await;
    let said = bridge_output(bridge).await;
    assert!(said.contains(&format!("joined the arena {id}")), "{said}");
    assert!(said.contains(&format!("game {table}: resign")), "{said}");
    // Scored: the bot won its arena game.
    for _ in 0..100 {
        let arena = get(&addr, &format!("/api/tournament/{id}"));
        let first = &arena["standing"]["players"][0];
        if first["score"] == 2 {
            assert_eq!(first["name"], "Robo");
            assert_eq!(first["title"], "BOT");
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the bot's win was never scored");
}

#[tokio::test]
async fn a_month_is_exported_as_a_compressed_file_of_records() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("export.db");
    let (_server, addr) = serve(&db);
    let game = archived_game(&addr).await;
    let month = {
        let day = yinsh::notation::date::record_date(yinsh_server::now_ms() / 1000);
        day[..7].replace('.', "-")
    };
    let output = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args(["export", "--database-url", &sqlite(&db), "--month", &month])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(zstd::decode_all(&output.stdout[..]).unwrap()).unwrap();
    let records = yinsh::notation::record::Record::parse_all(&text).unwrap();
    assert_eq!(records.len(), 1, "{text}");
    assert_eq!(records[0].header("Game"), Some(game.to_string().as_str()));
    assert!(String::from_utf8_lossy(&output.stderr).contains(&format!("1 games of {month}")));
    // Another month has none; a month that is not one is refused.
    let empty = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args([
            "export",
            "--database-url",
            &sqlite(&db),
            "--month",
            "2020-01",
        ])
        .output()
        .unwrap();
    assert!(empty.status.success());
    assert_eq!(zstd::decode_all(&empty.stdout[..]).unwrap(), b"");
    let bad = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args([
            "export",
            "--database-url",
            &sqlite(&db),
            "--month",
            "2026-13",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[tokio::test]
async fn a_backup_taken_while_serving_restores_into_a_fresh_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let (_server, addr) = serve(&db);
    let game = archived_game(&addr).await;
    let copy = dir.path().join("backup.db");
    let said = crate::common::success(&[
        "backup",
        "--database-url",
        &sqlite(&db),
        "--output",
        copy.to_str().unwrap(),
    ]);
    assert!(said.contains("backed up to"), "{said}");
    // Not over an existing file.
    let again = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args([
            "backup",
            "--database-url",
            &sqlite(&db),
            "--output",
            copy.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!again.status.success());
    // A fresh server over the copy has every game, and the live one goes on.
    let (_restored, other) = serve(&copy);
    let entry = get(&other, &format!("/api/archive/{game}"));
    assert_eq!(entry["id"], game);
    assert_eq!(get(&addr, &format!("/api/archive/{game}"))["id"], game);
}

/// The PostgreSQL server the test command started (`YINSH_TEST_POSTGRES_URL`), or
/// `None` (the test skips) unless `YINSH_REQUIRE_POSTGRES` says it must be there.
fn postgres_url() -> Option<String> {
    let url = std::env::var("YINSH_TEST_POSTGRES_URL").ok();
    assert!(
        url.is_some() || std::env::var("YINSH_REQUIRE_POSTGRES").is_err(),
        "YINSH_REQUIRE_POSTGRES is set but YINSH_TEST_POSTGRES_URL is not"
    );
    url
}

/// A PostgreSQL program (`pg_dump`, `createdb`, …) of the newest version installed.
fn pg_tool(name: &str) -> std::path::PathBuf {
    let mut versions: Vec<(u32, std::path::PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed")
        .filter_map(|e| {
            let e = e.ok()?;
            Some((e.file_name().to_str()?.parse().ok()?, e.path()))
        })
        .collect();
    versions.sort();
    versions
        .pop()
        .expect("a PostgreSQL version")
        .1
        .join("bin")
        .join(name)
}

/// Runs a PostgreSQL program; its failure fails the test with what it said.
fn pg(name: &str, args: &[&str]) {
    let out = Command::new(pg_tool(name)).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A new, empty database `name` on the server of `base` (made as docs/deploy.md says).
fn new_database(base: &str, name: &str) -> String {
    let name = format!("{name}_{}", std::process::id());
    let maintenance = format!("--maintenance-db={base}");
    pg("dropdb", &[&maintenance, "--if-exists", &name]);
    pg("createdb", &[&maintenance, &name]);
    let (prefix, _) = base.rsplit_once('/').unwrap();
    format!("{prefix}/{name}")
}

#[tokio::test]
async fn a_postgres_dump_taken_while_serving_restores_into_a_fresh_server() {
    let Some(base) = postgres_url() else {
        eprintln!("skipped: no PostgreSQL (YINSH_TEST_POSTGRES_URL)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let live = new_database(&base, "yinsh_dump_live");
    let (_server, addr) = serve_on(&live, &["--no-bots"]);
    let games = [archived_game(&addr).await, archived_game(&addr).await];
    // And a game under way, one action in.
    let (table, mut white, mut black) = started(&addr, 5, 0).await;
    white.call(5, act(&table, "e3")).await;
    black.until_moves(1).await;

    // The documented commands: a dump while the server runs, restored into a new database.
    let dump = dir.path().join("yinsh.dump");
    pg(
        "pg_dump",
        &["--format=custom", "--file", dump.to_str().unwrap(), &live],
    );
    let copy = new_database(&base, "yinsh_dump_copy");
    pg(
        "pg_restore",
        &["--no-owner", "--dbname", &copy, dump.to_str().unwrap()],
    );

    // A fresh server over the copy has every game, and the game under way with its action.
    let (_restored, other) = serve_on(&copy, &["--no-bots"]);
    for game in games {
        assert_eq!(get(&other, &format!("/api/archive/{game}"))["id"], game);
    }
    let mut watcher = Player::connect(&other, None).await;
    watcher
        .call(1, json!({"type": "open", "table": table}))
        .await;
    let game = watcher.until_moves(1).await;
    assert_eq!(game["moves"], json!(["e3"]));
    // The live server goes on.
    assert_eq!(
        get(&addr, &format!("/api/archive/{}", games[0]))["id"],
        games[0]
    );
}

#[tokio::test]
async fn the_bridge_plays_on_after_the_server_was_killed_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot-restart.db");
    // One address for both runs of the server: the bridge knows only that.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let bind = format!("127.0.0.1:{port}");
    let (mut server, addr) = serve_at(&sqlite(&db), &bind, &["--no-bots"]);
    let token = bot_account(&addr);
    let bridge = spawn_bridge(&addr, &token);
    let bob_cookie = register(&addr, "Bob");
    let mut bob = Player::connect(&addr, Some(&bob_cookie)).await;
    let (table, id) = challenge_robo(&mut bob).await;
    let game = bob.until_turn(0).await;
    bob.call(id, act(&table, game["legal"][0].as_str().unwrap()))
        .await;
    bob.until_moves(2).await;

    // The server dies under the bridge and comes back at the same address.
    kill(&mut server);
    let (_server, addr) = serve_at(&sqlite(&db), &bind, &["--no-bots"]);
    let mut bob = Player::connect(&addr, Some(&bob_cookie)).await;
    bob.call(1, json!({"type": "open", "table": table})).await;
    let game = bob.until_turn(2).await;
    bob.call(2, act(&table, game["legal"][0].as_str().unwrap()))
        .await;
    // The bridge found its way back: it answers from the restored game.
    let game = bob.until_moves(4).await;
    let mut pos = yinsh::Position::new();
    for token in game["moves"].as_array().unwrap() {
        pos.play(token.as_str().unwrap().parse().unwrap())
            .expect("every action legal");
    }
    bob.call(
        3,
        json!({"type": "command", "table": table, "command": "resign"}),
    )
    .await;
    let said = bridge_output(bridge).await;
    assert!(
        said.contains("connecting again") || said.contains("following it again"),
        "{said}"
    );
    assert!(said.contains(&format!("game {table}: resign")), "{said}");
}

/// A cluster started by `scripts/cluster` (three nodes of this binary on PostgreSQL and
/// Redis, HAProxy in front), stopped when dropped.
struct Cluster {
    /// HAProxy's address.
    site: String,
    /// The cluster's folder.
    dir: String,
}

impl Cluster {
    /// Starts one; `None` (the test skips) where HAProxy is missing and the test
    /// command did not ask for it.
    fn start() -> Option<Cluster> {
        let has_haproxy = Command::new("sh")
            .args(["-c", "command -v haproxy"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !has_haproxy || std::env::var("YINSH_TEST_POSTGRES_URL").is_err() {
            assert!(
                std::env::var("YINSH_REQUIRE_HAPROXY").is_err(),
                "YINSH_REQUIRE_HAPROXY is set but HAProxy or the test services are missing"
            );
            eprintln!("skipped: no HAProxy, or not run by the test command");
            return None;
        }
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let out = Command::new(format!("{root}/scripts/cluster"))
            .arg("start")
            .env("YINSH_BIN", env!("CARGO_BIN_EXE_yinsh"))
            .env("YINSH_NODE_ARGS", "--no-bots --analysis-workers 0")
            .stderr(Stdio::inherit())
            .output()
            .expect("scripts/cluster runs");
        assert!(out.status.success(), "scripts/cluster start failed");
        let out = String::from_utf8(out.stdout).unwrap();
        let mut lines = out.lines();
        let site = lines
            .next()
            .unwrap()
            .trim_start_matches("http://")
            .to_owned();
        let dir = lines.next().unwrap().to_owned();
        Some(Cluster { site, dir })
    }

    fn file(&self, name: &str) -> String {
        std::fs::read_to_string(format!("{}/{name}", self.dir))
            .unwrap()
            .trim()
            .to_owned()
    }

    /// Node `k`'s own address.
    fn node(&self, k: usize) -> String {
        self.file("nodes").lines().nth(k - 1).unwrap().to_owned()
    }

    fn script(&self, args: &[&str]) {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let status = Command::new(format!("{root}/scripts/cluster"))
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "scripts/cluster {args:?}");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let dir = self.dir.clone();
        self.script(&["stop", &dir]);
    }
}

/// Comes back through the proxy as the player of `cookie` and opens `table`, again and
/// again until the table answers with a game of at least `moves` actions: the player
/// and that game.
async fn back_at(site: &str, cookie: &str, table: &str, moves: usize) -> (Player, Value) {
    loop {
        let Ok(Ok(ws)) = tokio::time::timeout(
            Duration::from_secs(2),
            Connect::to(site).cookie(cookie).open(),
        )
        .await
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut player = Player::on(ws);
        let open = json!({"type": "open", "table": table});
        let answer = player.try_answer(1, open, Duration::from_secs(2)).await;
        if answer.is_some_and(|a| a["type"] == "reply")
            && let Some(game) = player.last.clone()
            && game["moves"].as_array().is_some_and(|m| m.len() >= moves)
        {
            return (player, game);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Three nodes behind HAProxy with games on every node; one node is SIGKILLed. Within
/// 10 s its tables are playable again on the others, every acknowledged action is
/// there, and the players who come back through the proxy play on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_games_go_on_at_the_other_nodes() {
    use yinsh_client::load::{LoadConfig, run};

    let Some(cluster) = Cluster::start() else {
        return;
    };
    let site = cluster.site.clone();
    // A game at a table of node 1: white there, black through the proxy.
    let node1 = cluster.node(1);
    let options = json!({"variant": "standard", "log": true,
                         "time": {"minutes": 10, "increment": 5}});
    let (table, mut white, mut black) = started_at([&node1, &site], options, [None, None]).await;
    white.until_turn(0).await;
    white.call(5, act(&table, "e3")).await;
    black.until_turn(1).await;
    black.call(5, act(&table, "a5")).await;
    white.until_turn(2).await;
    white.call(6, act(&table, "b5")).await;
    black.until_turn(3).await;

    // Games on every node meanwhile, from the load generator through the proxy.
    let config = LoadConfig {
        addr: site.clone(),
        games: 24,
        think: Duration::from_millis(50),
        duration: Duration::from_secs(8),
        log: true,
        ..LoadConfig::default()
    };
    let load = tokio::spawn(run(config, |_| {}));
    tokio::time::sleep(Duration::from_secs(3)).await;
    let killed = std::time::Instant::now();
    cluster.script(&["kill", &cluster.dir, "1"]);

    // Black comes back through the proxy (its connection may have been on the dead
    // node, or routed there) and finds the game with every action, then plays on.
    let (mut black, game) = back_at(&site, &black.cookie.clone(), &table, 3).await;
    assert_eq!(game["moves"], json!(["e3", "a5", "b5"]));
    black.call(2, act(&table, "c4")).await;
    let playable = killed.elapsed();
    assert!(
        playable < Duration::from_secs(10),
        "playable after {playable:?}"
    );
    eprintln!("node 1 killed: its game playable again through the proxy after {playable:?}");
    let (mut white, _) = back_at(&site, &white.cookie.clone(), &table, 4).await;
    white.until_turn(4).await;
    white.call(2, act(&table, "d5")).await;

    // Every table node 1 owned has another owner, and every acknowledged action of the
    // load is stored.
    let report = load.await.unwrap().expect("the load generator finishes");
    assert!(report.actions > 50, "{} actions", report.actions);
    eprintln!(
        "load: {} actions acknowledged, {} errors (the connections the kill cut)",
        report.actions, report.errors
    );
    let store = yinsh_server::store::open(&cluster.file("database"))
        .await
        .unwrap();
    while !store.tables_of("node1").await.unwrap().is_empty() {
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "not all taken over"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for (game, acknowledged) in &report.acknowledged {
        let stored = store
            .game(yinsh_server::vocab::GameId(*game))
            .await
            .unwrap()
            .expect("the game is stored");
        // Every acknowledged action is stored at its ply. (One whose reply was lost
        // with a connection the kill cut is stored too, unacknowledged, and the game
        // may have gone on after it.)
        for (ply, token) in acknowledged {
            let at = stored.actions.get(*ply).map(|a| a.token.as_str());
            assert_eq!(at, Some(token.as_str()), "game {game}, ply {ply}");
        }
    }
    drop((white, black));
}

/// Starts `yinsh serve` over `db` with `--metrics-bind`, `env` set and its stderr kept:
/// the child, its address, the metrics' address and the log lines written so far.
fn serve_observed(
    db: &std::path::Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (
    Server,
    String,
    String,
    std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args(["serve", "--bind", "127.0.0.1:0", "--no-bots"])
        .args(["--metrics-bind", "127.0.0.1:0"])
        .args(extra)
        .arg("--database-url")
        .arg(sqlite(db))
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("yinsh serve starts");
    // Read as it comes: a full pipe would stop the server.
    let logs = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let kept = logs.clone();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut address = |what: &str| {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert!(line.contains(what), "{line:?}");
        line.split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned()
    };
    let addr = address("listening");
    let metrics = address("metrics");
    (Server(child), addr, metrics, logs)
}

/// The metrics served at `url` (`host:port/metrics`): each sample line's name (with its
/// labels) and value; the content type checked.
fn scrape(url: &str) -> std::collections::HashMap<String, f64> {
    use std::io::{Read, Write};
    let (addr, path) = url.split_once('/').unwrap();
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(stream, "GET /{path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.0 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/openmetrics-text"),
        "{head}"
    );
    assert!(body.ends_with("# EOF\n"), "{body}");
    body.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (name, value) = l.rsplit_once(' ').unwrap();
            (name.to_owned(), value.parse().unwrap())
        })
        .collect()
}

#[tokio::test]
async fn a_game_shows_in_the_metrics_and_each_action_in_the_table_s_span() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr, metrics, logs) = serve_observed(
        &dir.path().join("yinsh.db"),
        &[],
        &[("RUST_LOG", "yinsh_server=debug")],
    );
    let before = scrape(&metrics);
    assert_eq!(before["yinsh_actions_total"], 0.0, "{before:?}");
    let (table, mut white, mut black) = started(&addr, 5, 3).await;
    let actions = ["e3", "a5", "b5", "c6", "d6"];
    for (i, action) in actions.iter().enumerate() {
        let player = if i % 2 == 0 { &mut white } else { &mut black };
        player.call(10 + i as u64, act(&table, action)).await;
    }
    black.call(20, chat(&table, "/resign")).await;
    white.until_event("game_over").await;
    let after = scrape(&metrics);
    let grown = |name: &str| after[name] - before.get(name).copied().unwrap_or(0.0);
    assert_eq!(grown("yinsh_actions_total"), actions.len() as f64);
    assert_eq!(grown("yinsh_action_seconds_count"), actions.len() as f64);
    // The game's creation, each action and the result, at least.
    assert!(
        grown("yinsh_store_commit_seconds_count") >= 7.0,
        "{after:?}"
    );
    assert_eq!(after["yinsh_connections"], 2.0);
    assert_eq!(after["yinsh_tables"], 1.0);
    assert!(
        after["yinsh_http_responses_total{status=\"101\"}"] >= 2.0,
        "{after:?}"
    );
    assert_eq!(after["yinsh_analysis_queue"], 0.0);
    drop((white, black));
    drop(server);
    // Each action was logged in the table's span, which names the table.
    let logs = logs.lock().unwrap();
    for action in actions {
        let logged = logs.iter().any(|l| {
            l.contains(&format!("table{{table={table}}}"))
                && l.contains("acted")
                && l.contains(&format!("action=\"{action}\""))
        });
        assert!(logged, "{action} at {table} in\n{}", logs.join("\n"));
    }
}

#[tokio::test]
async fn logs_are_json_lines_with_their_spans_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (server, addr, _, logs) = serve_observed(
        &dir.path().join("yinsh.db"),
        &["--log-format", "json"],
        &[("RUST_LOG", "yinsh_server=debug")],
    );
    let mut guest = Player::connect(&addr, None).await;
    guest.call(1, json!({"type": "hello", "lang": "nl"})).await;
    get(&addr, "/api/health");
    drop(guest);
    drop(server);
    let logs = logs.lock().unwrap();
    assert!(!logs.is_empty());
    let lines: Vec<Value> = logs
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    let in_span = |name: &str| {
        lines.iter().any(|l| {
            l["spans"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["name"] == name))
        })
    };
    assert!(in_span("conn"), "{logs:?}");
    assert!(in_span("request"), "{logs:?}");
}

#[test]
fn a_bad_log_filter_is_refused_saying_why() {
    let out = Command::new(env!("CARGO_BIN_EXE_yinsh"))
        .args(["serve", "--bind", "127.0.0.1:0", "--no-bots"])
        .env("RUST_LOG", "yinsh_server=loud")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("RUST_LOG='yinsh_server=loud'"), "{stderr}");
}

#[test]
fn the_correspondence_load_wakes_asleep_games_and_the_sweep_ends_the_overdue() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("corres.db");
    let output = crate::common::run(&[
        "loadtest",
        "--correspondence",
        "120",
        "--cold-actions",
        "40",
        "--due",
        "20",
        "--db",
        db.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("server started: 0 tables loaded"), "{text}");
    assert!(text.contains("cold actions: 40 in"), "{text}");
    assert!(text.contains("asleep again after"), "{text}");
    assert!(text.contains(": 0 tables loaded, resident"), "{text}");
    assert!(text.contains("woke 20 in"), "{text}");
    assert!(text.contains("20 lost on time"), "{text}");
    assert!(text.contains("errors: 0"), "{text}");
}
