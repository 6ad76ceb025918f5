//! The client against a real server on port 0: the handshake, the session cookie, a
//! request's reply and refusal, the end of a connection, and HTTP answers.

use std::net::SocketAddr;

use yinsh_client::http;
use yinsh_client::ws::{Connect, Error};
use yinsh_server::protocol::{Code, Command, Request, SeatColor, ServerMessage, TableOptions};
use yinsh_server::{Config, Server};

/// A server over a new SQLite file, without bots; stopped when the guard drops.
struct Running {
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
    _dir: tempfile::TempDir,
}

async fn server() -> Running {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
    let store = yinsh_server::store::open(&url).await.unwrap();
    let config = Config {
        bots: None,
        analysis_workers: 0,
        ..Config::default()
    };
    let server = Server::new(store, config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = server
            .serve(listener, async {
                let _ = stopped.await;
            })
            .await;
    });
    Running {
        addr,
        _stop: stop,
        _dir: dir,
    }
}

#[tokio::test]
async fn a_guest_is_welcomed_and_comes_back_as_the_same_player_with_its_cookie() {
    let s = server().await;
    let first = Connect::to(s.addr).open().await.unwrap();
    assert!(first.player.guest, "{:?}", first.player);
    let cookie = first
        .cookie()
        .expect("the server sets a session")
        .to_owned();
    let again = Connect::to(s.addr).cookie(&cookie).open().await.unwrap();
    assert_eq!(again.player.name, first.player.name);
    assert_eq!(again.cookie(), Some(cookie.as_str()));
    let other = Connect::to(s.addr).small_buffers().open().await.unwrap();
    assert_ne!(other.player.name, first.player.name);
    assert_eq!(other.node, None, "a lone server names no node");
}

#[tokio::test]
async fn a_request_is_answered_by_its_reply_or_refused_with_a_code() {
    let s = server().await;
    let mut ws = Connect::to(s.addr).open().await.unwrap();
    let created = ws
        .call(
            Request::CreateTable {
                options: TableOptions::default(),
            },
            |_| {},
        )
        .await
        .unwrap();
    let table = created.table.expect("a new table's id");
    let mut before = Vec::new();
    let open = Request::Open {
        table: table.clone(),
        since: None,
    };
    ws.call(open, |m| before.push(m)).await.unwrap();
    assert!(
        before
            .iter()
            .any(|m| matches!(m, ServerMessage::Snapshot { table: t } if t.id == table)),
        "the snapshot comes before the reply: {before:?}"
    );
    // Starting with one seat taken is refused, and the connection goes on.
    let join = Request::Command {
        table: table.clone(),
        command: Command::Join {
            color: Some(SeatColor::White),
        },
    };
    ws.call(join, |_| {}).await.unwrap();
    let start = Request::Command {
        table: table.clone(),
        command: Command::Start,
    };
    match ws.call(start, |_| {}).await {
        Err(Error::Refused { code, text }) => {
            assert_eq!(code, Code::NeedTwoPlayers, "{text}");
            assert!(!text.is_empty())
        }
        other => panic!("a start with one player was not refused: {other:?}"),
    }
    // Ids go up by one per request.
    let a = ws.send(Request::Lobby).await.unwrap();
    let b = ws.send(Request::Lobby).await.unwrap();
    assert_eq!(b, a + 1);
}

#[tokio::test]
async fn a_server_that_is_gone_is_an_error_not_a_hang() {
    let s = server().await;
    let addr = s.addr;
    let mut ws = Connect::to(addr).open().await.unwrap();
    drop(s);
    // The server stops serving: the connection ends, or (if it lingers) the next
    // message never comes; a new connection is refused.
    let next = tokio::time::timeout(std::time::Duration::from_secs(5), ws.recv()).await;
    if let Ok(next) = next {
        assert!(matches!(next, Err(Error::Closed(_))), "{next:?}");
    }
    let refused = Connect::to(addr).open().await;
    assert!(
        matches!(refused, Err(Error::Connect(_))),
        "{:?}",
        refused.err()
    );
    let bad = Connect::to(addr).header("bad header", "x").open().await;
    assert!(matches!(bad, Err(Error::Connect(_))));
}

#[tokio::test]
async fn http_answers_come_whole_with_status_and_headers() {
    let s = server().await;
    let addr = s.addr.to_string();
    let health = http::request(&addr, "GET", "/api/health", &[], "")
        .await
        .unwrap();
    assert_eq!(health.status, 200);
    assert!(
        health
            .header("content-type")
            .is_some_and(|t| t.contains("json"))
    );
    let v: serde_json::Value = serde_json::from_str(&health.body).unwrap();
    assert!(v.is_object(), "{v}");
    let missing = http::request(&addr, "GET", "/api/game/999999", &[], "")
        .await
        .unwrap();
    assert_eq!(missing.status, 404);
    let (status, _) = http::get_json(&addr, "no-such-key", "/api/account")
        .await
        .unwrap();
    assert_eq!(status, 401);
    assert!(
        http::request("127.0.0.1:1", "GET", "/", &[], "")
            .await
            .is_err()
    );
}
