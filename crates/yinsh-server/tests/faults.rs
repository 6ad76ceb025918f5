//! Faults: clients that vanish, do not read or come back all at once; a database that
//! goes away.

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use yinsh_client::ws::{Connect, Connection};
use yinsh_server::Config;
use yinsh_server::protocol::{Request, ServerMessage, Since, TableEvent, TableOptions};
use yinsh_server::testkit::OwnPostgres;

use crate::common::{Client, TestServer, fast_config, http_send, seated_pair};

#[tokio::test]
async fn a_client_that_vanishes_without_closing_is_noticed() {
    let server = TestServer::start_with(Config {
        ping_every: Duration::from_millis(100),
        idle_timeout: Duration::from_millis(600),
        ..fast_config()
    })
    .await;
    let (table, white, mut black) = seated_pair(&server, TableOptions::default()).await;
    // White's machine is gone: the socket stays open but nothing is read or answered
    // (not even pings).
    let frozen = white;
    let start = Instant::now();
    let online = black
        .event(|e| match e {
            TableEvent::Presence { online, .. } => Some(*online),
            _ => None,
        })
        .await;
    assert!(!online);
    // Cut off after the idle timeout, announced once absent for the presence delay.
    let noticed = Duration::from_millis(600) + yinsh_server::table::core::PRESENCE_DELAY;
    assert!(
        start.elapsed() < noticed + Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // The seat is kept for when they come back.
    let mut back = Client::connect(server.addr, Some(&frozen.cookie)).await;
    let view = back.open(&table).await;
    assert_eq!(view.seats.white.unwrap().id, frozen.player.id);
    drop(frozen);
}

/// A client whose socket takes in almost nothing and that never reads.
async fn slow_reader(server: &TestServer, table: &str) -> Connection {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(2048).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let mut ws = Connect::to(server.addr).over(stream).await.unwrap();
    let open = Request::Open {
        table: table.to_owned(),
        since: None,
    };
    ws.send_as(None, open).await.unwrap();
    ws
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_read_is_cut_off_and_holds_nobody_up() {
    // About 5 MB: more than the kernel buffers (up to 4 MB) and the outbox hold.
    const LINES: usize = 10_000;
    let server = TestServer::start_with(Config {
        outbox: 256,
        send_timeout: Duration::from_millis(500),
        ..fast_config()
    })
    .await;
    let (table, mut white, black) = seated_pair(&server, TableOptions::default()).await;
    // Black leaves the table: only white, the watcher and the slow client remain.
    drop(black);
    let mut watcher = server.client().await;
    watcher.open(&table).await;
    let _slow = slow_reader(&server, &table).await;
    watcher
        .event(|e| matches!(e, TableEvent::Spectators { count: 2, .. }).then_some(()))
        .await;

    // The watcher reads all along: it must see every line, and the slow client go.
    let watching = tokio::spawn(async move {
        let (mut seen, mut cut) = (0, false);
        while seen < LINES || !cut {
            let chat = watcher
                .event(|e| match e {
                    TableEvent::Chat { .. } => Some(true),
                    TableEvent::Spectators { count: 1, .. } => Some(false),
                    _ => None,
                })
                .await;
            if chat {
                seen += 1;
            } else {
                cut = true;
            }
        }
        seen
    });
    // White chats a lot: far more than the slow client's socket and outbox can hold.
    let line = "x".repeat(480);
    let mut slowest = Duration::ZERO;
    for i in 0..LINES {
        let start = Instant::now();
        white
            .chat(&table, &format!("{i} {line}"))
            .await
            .expect("chat accepted");
        slowest = slowest.max(start.elapsed());
    }
    // Nobody waited for the slow client (a wait would be its send timeout, again and
    // again).
    assert!(
        slowest < Duration::from_secs(2),
        "a chat line took {slowest:?}"
    );
    assert_eq!(watching.await.unwrap(), LINES);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_clients_reconnect_at_once() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    const N: usize = 300;
    let clients = join_all((0..N).map(|_| async {
        let mut c = Client::connect(server.addr, None).await;
        let view = c.open(&table).await;
        (c.cookie.clone(), view)
    }))
    .await;
    // All of them drop at once (a network blip), the game goes on, and they all come
    // back at once, each resuming from what it saw.
    black.act(&table, "a5").await.unwrap();
    let start = Instant::now();
    let back = join_all(clients.into_iter().map(|(cookie, view)| {
        let table = table.clone();
        let addr = server.addr;
        async move {
            let mut c = Client::connect(addr, Some(&cookie)).await;
            let (epoch, version) = (view.epoch, view.version);
            c.hold(view);
            let id = c
                .send(Request::Open {
                    table: table.clone(),
                    since: Some(Since { epoch, version }),
                })
                .await;
            c.until(|m| match m {
                ServerMessage::Reply { id: Some(i), .. } if *i == id => Some(()),
                ServerMessage::Error {
                    id: Some(i), text, ..
                } if *i == id => {
                    panic!("resume refused: {text}")
                }
                _ => None,
            })
            .await;
            c
        }
    }))
    .await;
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // Each one caught up (black's a5 was among what it missed), and sees the next move.
    white.act(&table, "b5").await.unwrap();
    for mut c in back {
        let moves = c.game_after(3).await.moves;
        assert_eq!(moves, ["e3", "a5", "b5"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_refuses_actions_and_play_resumes_after_it() {
    let Some(pg) = OwnPostgres::start("database outage test") else {
        return;
    };
    let server = TestServer::on(&pg.url, fast_config()).await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let (other, mut first, _second) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    first.chat(&other, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    let before = black.game_after(2).await;
    let version = black.events.last().unwrap().0;

    pg.pause();
    // Refused with a clear reason, never acknowledged, nothing announced.
    let refused = white.act(&table, "b5").await.unwrap_err();
    assert_eq!(refused.0, "store_unavailable", "{}", refused.1);
    // Another table knows at once: no waiting for the database's time-out there.
    let start = Instant::now();
    assert_eq!(
        first.act(&other, "e3").await.unwrap_err().0,
        "store_unavailable"
    );
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        white.act(&table, "b5").await.unwrap_err().0,
        "store_unavailable"
    );
    // The server stays up: chat (not stored) and pings still work.
    black.chat(&table, "is it down?").await.unwrap();
    let id = black.send(Request::Ping).await;
    black
        .until(|m| matches!(m, ServerMessage::Pong { id: Some(i) } if *i == id).then_some(()))
        .await;
    assert!(
        !black
            .events
            .iter()
            .any(|(v, e)| *v > version && matches!(e, TableEvent::Acted { .. }))
    );
    assert_eq!(black.game.as_ref().unwrap().moves, before.moves);
    let (status, _) = server.get("/api/health").await;
    assert_eq!(status, 503, "health reports the outage");
    // The server still takes players: a load balancer keeps it (`/api/health/node`).
    assert_eq!(server.get("/api/health/node").await.0, 200);

    pg.resume();
    // Play resumes where it stopped (the pool reconnects).
    let mut played = white.act(&table, "b5").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while played.is_err() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        played = white.act(&table, "b5").await;
    }
    played.expect("the action is accepted once the database is back");
    let mut played = first.act(&other, "e3").await;
    while played.is_err() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        played = first.act(&other, "e3").await;
    }
    played.expect("the other table plays again too");
    assert_eq!(black.game_after(3).await.moves, ["e3", "a5", "b5"]);
    let stored = server
        .store
        .game(yinsh_server::vocab::GameId(before.id))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.actions.len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_stops_the_clocks_and_holds_results_until_they_are_stored() {
    let Some(pg) = OwnPostgres::start("database outage test") else {
        return;
    };
    let server = TestServer::on(&pg.url, fast_config()).await;
    let options = TableOptions {
        time: Some(yinsh_server::protocol::TimeSetting {
            minutes: 2,
            increment: 0,
        }),
        ..TableOptions::default()
    };
    let (table, mut white, mut black) = seated_pair(&server, options).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    let id = black.game_after(2).await.id;

    pg.pause();
    // The first refusal tells the table: its clocks stop, everyone is told.
    let refused = white.act(&table, "b5").await.unwrap_err();
    assert_eq!(refused.0, "store_unavailable", "{}", refused.1);
    black
        .event(|e| matches!(e, TableEvent::Interrupted).then_some(()))
        .await;
    let stopped = black.game.as_ref().unwrap().clocks.unwrap();
    assert_eq!(stopped.running, None, "{stopped:?}");
    assert!(black.game.as_ref().unwrap().paused);
    // Later requests are refused at once, and the table answers chat meanwhile.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let start = Instant::now();
    assert_eq!(
        white.act(&table, "b5").await.unwrap_err().0,
        "store_unavailable"
    );
    black.chat(&table, "still there?").await.unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    // A resignation is held: not announced, the game over for everyone.
    let (key, _) = black.chat(&table, "/resign").await.unwrap();
    assert_eq!(key, "result_held");
    assert_eq!(
        white.act(&table, "b5").await.unwrap_err().0,
        "result_pending"
    );
    assert!(
        !white
            .events
            .iter()
            .any(|(_, e)| matches!(e, TableEvent::GameOver { .. })),
        "announced before it was stored"
    );

    pg.resume();
    // Stored once the database is back, and only then announced; the clocks are as
    // they stood when the outage began.
    let result = tokio::time::timeout(
        Duration::from_secs(30),
        white.event(|e| match e {
            TableEvent::GameOver { result } => Some(result.clone()),
            _ => None,
        }),
    )
    .await
    .expect("the result is announced once stored");
    assert_eq!(result.termination, "resignation");
    assert_eq!(
        result.winner,
        Some(yinsh_server::protocol::SeatColor::White)
    );
    let end = white.game.as_ref().unwrap().clocks.unwrap();
    assert_eq!(
        end.white_ms, stopped.white_ms,
        "the outage was nobody's time"
    );
    let stored = server
        .store
        .game(yinsh_server::vocab::GameId(id))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.result.unwrap().termination, "resignation");
}

/// A request of the outage test: method, path, headers, body, and its status after.
type Asked<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], &'a str, u16);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_an_outage_the_http_api_says_so_and_works_again_after_it() {
    let Some(pg) = OwnPostgres::start("HTTP API outage test") else {
        return;
    };
    let server = TestServer::on(&pg.url, fast_config()).await;
    let mut ann = crate::accounts::Browser::new(server.addr);
    assert_eq!(ann.register("Ann", "a long password").await.0, 201);
    let ask = serde_json::json!({"name": "program", "scopes": ["bot:play", "board:play"]});
    let (status, made) = ann.send("POST", "/api/token", Some(ask)).await;
    assert_eq!(status, 201, "{made}");
    let bearer = format!("Bearer {}", made["token"].as_str().unwrap());
    let cookie = format!("yinsh_session={}", ann.cookie.clone().unwrap());
    let origin = format!("http://{}", server.addr);
    let page = [("Cookie", cookie.as_str()), ("Origin", origin.as_str())];
    let json_page = [
        ("Cookie", cookie.as_str()),
        ("Origin", origin.as_str()),
        ("Content-Type", "application/json"),
    ];
    let program = [("Authorization", bearer.as_str())];
    let sgf =
        include_str!("../../yinsh/tests/fixtures/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf");
    let new_token = r#"{"name":"second","scopes":["board:play"]}"#;
    // What the API is asked in an outage: by a program with a token, by the account page,
    // an import, the archive and its export (method, path, headers, body, status after).
    let requests: [Asked; 8] = [
        ("GET", "/api/account", &program, "", 200),
        ("GET", "/api/stream/event", &program, "", 200),
        ("POST", "/api/board/game/nosuch/resign", &program, "", 404),
        ("GET", "/api/token", &page, "", 200),
        ("POST", "/api/token", &json_page, new_token, 201),
        ("POST", "/api/import", &page, sgf, 201),
        ("GET", "/api/archive", &[], "", 200),
        ("GET", "/api/games/export?max=5", &[], "", 200),
    ];

    pg.pause();
    // All at once: each waits out the pool's time-out for a connection.
    let answers = join_all(requests.iter().map(|(method, path, headers, body, _)| {
        http_send(server.addr, method, path, headers, body)
    }))
    .await;
    for ((method, path, ..), (status, _, answer)) in requests.iter().zip(answers) {
        // Never a 401 (a program would think its token revoked) nor an empty 200.
        assert_eq!(status, 503, "{method} {path}: {answer}");
        let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert!(
            answer["error"].as_str().is_some(),
            "{method} {path}: {answer}"
        );
    }

    pg.resume();
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.get("/api/health").await.0 != 200 {
        assert!(Instant::now() < deadline, "the database is back");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for (method, path, headers, body, after) in requests {
        if path == "/api/stream/event" {
            // A stream: its head is enough.
            let status = crate::bot::stream_status(server.addr, path, &bearer).await;
            assert_eq!(status, after, "{method} {path}");
            continue;
        }
        let (status, _, answer) = http_send(server.addr, method, path, headers, body).await;
        assert_eq!(status, after, "{method} {path}: {answer}");
    }
    // Nothing the outage refused was half done: one token made after it, one import.
    let (_, tokens) = ann.send("GET", "/api/token", None).await;
    assert_eq!(tokens.as_array().unwrap().len(), 2, "{tokens}");
    let (_, archive) = server.get("/api/archive").await;
    let archive: serde_json::Value = serde_json::from_str(&archive).unwrap();
    assert_eq!(archive["games"].as_array().unwrap().len(), 1, "{archive}");
}
