//! Notifications and a player's running games through real connections: a challenge
//! and a correspondence turn reach the bell, the header's count follows whose turn it
//! is, `GET /api/account/playing` lists the games, a deadline warns, a game that ended
//! while away is told; the inbox's routes refuse what they must.

use std::time::Duration;

use serde_json::{Value, json};
use yinsh_server::protocol::{
    Correspondence, Notice, NotificationView, Outcome, Request, SeatColor, ServerMessage,
    TableOptions,
};

use crate::accounts::Browser;
use crate::common::{Client, TestServer, paused_config};

pub(crate) fn days(days: u8) -> TableOptions {
    TableOptions {
        correspondence: Some(Correspondence { days: Some(days) }),
        ..TableOptions::default()
    }
}

/// A registered player: their browser (for the HTTP API) and a connection.
pub(crate) async fn account(server: &TestServer, name: &str) -> (Browser, Client) {
    let mut browser = Browser::new(server.addr);
    assert_eq!(browser.send("POST", "/api/session", None).await.0, 200);
    let (status, body) = browser.register(name, "correct horse").await;
    assert_eq!(status, 201, "{body}");
    let client = Client::connect(server.addr, browser.cookie.as_deref()).await;
    (browser, client)
}

async fn notified(c: &mut Client) -> (NotificationView, u32) {
    c.note(|m| match m {
        ServerMessage::Notified {
            notification,
            unread,
        } => Some((notification.clone(), *unread)),
        _ => None,
    })
    .await
}

async fn unread(c: &mut Client, n: u32) {
    c.note(|m| matches!(m, ServerMessage::Unread { unread } if *unread == n).then_some(()))
        .await
}

async fn my_turn(c: &mut Client, n: u32) {
    c.note(|m| matches!(m, ServerMessage::MyTurn { count } if *count == n).then_some(()))
        .await
}

/// Ann challenges Bob to a game with `options`, Ann White; Bob accepts: the table.
/// Bob is told of the challenge in his bell, which is read once he accepted.
pub(crate) async fn agreed(ann: &mut Client, bob: &mut Client, options: TableOptions) -> String {
    let challenge = Request::Challenge {
        to: Some("Bob".to_owned()),
        options,
        color: Some(SeatColor::White),
    };
    ann.call(challenge).await.expect("challenge sent");
    let (note, count) = notified(bob).await;
    let Notice::Challenge { challenge, from } = note.notice else {
        panic!("a challenge notice: {note:?}");
    };
    assert_eq!((from.as_str(), count, note.read), ("Ann", 1, false));
    bob.call(Request::AcceptChallenge { challenge })
        .await
        .expect("accepted");
    unread(bob, 0).await;
    bob.note(|m| match m {
        ServerMessage::Paired {
            table,
            color,
            my_turn,
        } => {
            assert_eq!((*color, *my_turn), (SeatColor::Black, false));
            Some(table.clone())
        }
        _ => None,
    })
    .await
}

#[tokio::test]
async fn a_correspondence_turn_reaches_the_bell_the_count_and_the_list_of_games() {
    let server = TestServer::start().await;
    let (mut ann_http, mut ann) = account(&server, "Ann").await;
    let (mut bob_http, mut bob) = account(&server, "Bob").await;
    let table = agreed(&mut ann, &mut bob, days(2)).await;

    // Ann, White, is to act, away from the table: her bell and her count say so, and
    // both lists.
    let (note, _) = notified(&mut ann).await;
    assert_eq!(
        note.notice,
        Notice::YourTurn {
            table: table.clone(),
            opponent: "Bob".to_owned()
        }
    );
    my_turn(&mut ann, 1).await;
    let (status, list) = ann_http.send("GET", "/api/account/playing", None).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["myTurn"], 1);
    let game = &list["nowPlaying"][0];
    assert_eq!(game["gameId"], json!(table));
    assert_eq!(game["color"], "white");
    assert_eq!(game["isMyTurn"], true);
    assert_eq!(game["hasMoved"], false);
    assert_eq!(game["speed"], "correspondence");
    assert_eq!(game["daysPerTurn"], 2);
    assert_eq!(game["opponent"]["username"], "Bob");
    assert_eq!(game["opponent"]["id"], "bob");
    assert_eq!(game["opponent"]["rating"], 1500);
    let left = game["secondsLeft"].as_u64().unwrap();
    assert!(left <= 2 * 86_400 && left > 2 * 86_400 - 60, "{left}");
    let (_, list) = bob_http.send("GET", "/api/account/playing", None).await;
    assert_eq!(list["myTurn"], 0);
    assert_eq!(list["nowPlaying"][0]["isMyTurn"], false);
    assert_eq!(list["nowPlaying"][0]["color"], "black");

    // Ann plays at the table; Bob is not looking at it: his bell rings.
    ann.open(&table).await;
    ann.act(&table, "e3").await.unwrap();
    let (note, count) = notified(&mut bob).await;
    assert_eq!(
        note.notice,
        Notice::YourTurn {
            table: table.clone(),
            opponent: "Ann".to_owned()
        }
    );
    assert_eq!(count, 1);
    my_turn(&mut bob, 1).await;
    my_turn(&mut ann, 0).await;
    let (_, list) = bob_http.send("GET", "/api/account/playing", None).await;
    assert_eq!(list["nowPlaying"][0]["isMyTurn"], true);
    assert_eq!(list["nowPlaying"][0]["lastMove"], "e3");
    let (status, inbox) = bob_http.send("GET", "/api/notifications", None).await;
    assert_eq!(status, 200);
    assert_eq!(inbox["unread"], 1);
    let kinds: Vec<&str> = inbox["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["notice"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["your_turn", "challenge"], "newest first");

    // Bob plays his turn: its notice is read. Ann is at the table: no notice for her
    // but the one of the game's start, when she was not, read since she played.
    bob.open(&table).await;
    bob.act(&table, "a5").await.unwrap();
    unread(&mut bob, 0).await;
    my_turn(&mut ann, 1).await;
    let (_, inbox) = ann_http.send("GET", "/api/notifications", None).await;
    assert_eq!(inbox["unread"], 0);
    let notices = inbox["notifications"].as_array().unwrap();
    assert_eq!(notices.len(), 1, "{inbox}");
    assert_eq!(notices[0]["notice"]["opponent"], "Bob");
    assert_eq!(notices[0]["read"], true);

    // Bob switches "your turn" off and leaves the table: Ann's next action tells him
    // nothing, but his count still follows.
    let (status, settings) = bob_http
        .send(
            "POST",
            "/api/notifications/settings",
            Some(json!({"off": ["your_turn"]})),
        )
        .await;
    assert_eq!((status, settings), (200, json!({"off": ["your_turn"]})));
    bob.call(Request::Close {
        table: table.clone(),
    })
    .await
    .unwrap();
    ann.act(&table, "e4").await.unwrap();
    my_turn(&mut bob, 1).await;
    let (_, inbox) = bob_http.send("GET", "/api/notifications", None).await;
    assert_eq!(inbox["notifications"].as_array().unwrap().len(), 2);
    assert_eq!(inbox["unread"], 0);

    // Ann leaves; Bob resigns: Ann, away, is told she won.
    ann.call(Request::Close {
        table: table.clone(),
    })
    .await
    .unwrap();
    bob.open(&table).await;
    bob.chat(&table, "/resign").await.unwrap();
    let (note, _) = notified(&mut ann).await;
    let Notice::GameOver {
        table: t,
        opponent,
        outcome,
        ..
    } = note.notice
    else {
        panic!("game over: {note:?}");
    };
    assert_eq!(
        (t, opponent, outcome),
        (table, "Bob".to_owned(), Outcome::Win)
    );
    my_turn(&mut ann, 0).await;
    let (_, list) = ann_http.send("GET", "/api/account/playing", None).await;
    assert_eq!(list, json!({"nowPlaying": [], "myTurn": 0}));

    // Marking read: one, then all.
    let (_, inbox) = ann_http.send("GET", "/api/notifications", None).await;
    let id = inbox["notifications"][0]["id"].clone();
    let (status, body) = ann_http
        .send(
            "POST",
            "/api/notifications/read",
            Some(json!({"ids": [id]})),
        )
        .await;
    assert_eq!((status, body), (200, json!({"unread": 0})));
    unread(&mut ann, 0).await;
    let (status, body) = ann_http.send("POST", "/api/notifications/read", None).await;
    assert_eq!((status, body), (200, json!({"unread": 0})));
}

#[tokio::test]
async fn the_inbox_refuses_what_it_must() {
    let server = TestServer::start().await;
    let (mut ann_http, _ann) = account(&server, "Ann").await;
    let mut nobody = Browser::new(server.addr);
    for (method, path) in [
        ("GET", "/api/notifications"),
        ("POST", "/api/notifications/read"),
        ("GET", "/api/notifications/settings"),
        ("GET", "/api/account/playing"),
    ] {
        let (status, body) = nobody.send(method, path, None).await;
        assert_eq!(status, 401, "{path}: {body}");
    }
    let bad: [(&str, Value); 3] = [
        ("/api/notifications/settings", json!({"off": ["weather"]})),
        ("/api/notifications/settings", json!({"on": []})),
        ("/api/notifications/read", json!({"ids": "all"})),
    ];
    for (path, body) in bad {
        let (status, answer) = ann_http.send("POST", path, Some(body.clone())).await;
        assert_eq!(status, 400, "{path} {body}: {answer}");
        assert!(answer["error"].as_str().is_some());
    }
    let (status, _) = ann_http
        .send("POST", "/api/notifications/settings", None)
        .await;
    assert_eq!(status, 400, "settings need a body");
    let (status, settings) = ann_http
        .send("GET", "/api/notifications/settings", None)
        .await;
    assert_eq!((status, settings), (200, json!({"off": []})), "unchanged");
    let (status, _) = ann_http
        .send("GET", "/api/notifications?limit=x", None)
        .await;
    assert_eq!(status, 400);
    // Another site's page may not change them.
    let cookie = format!("yinsh_session={}", ann_http.cookie.clone().unwrap());
    let (status, _, _) = crate::common::http_send(
        server.addr,
        "POST",
        "/api/notifications/read",
        &[("Origin", "https://elsewhere.example"), ("Cookie", &cookie)],
        "",
    )
    .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn the_player_to_act_is_warned_before_a_correspondence_deadline() {
    let day = Duration::from_secs(24 * 3600);
    let month = day * 30;
    let config = yinsh_server::Config {
        ping_every: month,
        idle_timeout: month * 2,
        send_timeout: month * 2,
        ..paused_config()
    };
    let server = TestServer::start_with(config).await;
    let (_, mut ann) = account(&server, "Ann").await;
    let (_, mut bob) = account(&server, "Bob").await;
    let table = agreed(&mut ann, &mut bob, days(2)).await;
    ann.open(&table).await;
    ann.act(&table, "e3").await.unwrap();
    let (note, _) = notified(&mut bob).await;
    assert!(matches!(note.notice, Notice::YourTurn { .. }));
    // A day later, 24 hours are left; 23 hours after that, one.
    for (hours, wait) in [
        (24, day + Duration::from_secs(1)),
        (1, day - Duration::from_secs(3600)),
    ] {
        tokio::time::pause();
        tokio::time::advance(wait).await;
        tokio::time::resume();
        let (note, _) = notified(&mut bob).await;
        assert_eq!(
            note.notice,
            Notice::Deadline {
                table: table.clone(),
                opponent: "Ann".to_owned(),
                hours
            }
        );
    }
}
