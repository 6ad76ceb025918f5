//! Correspondence games through real connections: days per turn that survive a
//! restart, a deadline that falls whoever is online, and one that passed while the
//! server was down.

use std::time::Duration;

use yinsh_server::protocol::{
    Correspondence, Ending, ResultView, SeatColor, TableEvent, TableOptions,
};
use yinsh_server::vocab::GameId;

use crate::common::{Client, TestServer, fast_config, paused_config, seated_pair};

const DAY: Duration = Duration::from_secs(24 * 3600);

fn days(days: u8) -> TableOptions {
    TableOptions {
        correspondence: Some(Correspondence { days: Some(days) }),
        ..TableOptions::default()
    }
}

fn game_over(e: &TableEvent) -> Option<ResultView> {
    match e {
        TableEvent::GameOver { result } => Some(result.clone()),
        _ => None,
    }
}

/// A game of one day per turn at a server over a new SQLite file, started, with White's
/// `e3` played: the database's address, the server, the table, the players' cookies and
/// the game's id.
async fn one_turn_played(
    dir: &tempfile::TempDir,
) -> (String, TestServer, String, [String; 2], GameId) {
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
    let server = TestServer::on(&url, fast_config()).await;
    let (table, mut white, mut black) = seated_pair(&server, days(1)).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    let game = black.game_after(1).await;
    let clocks = game.clocks.expect("days per turn are a clock");
    assert_eq!(clocks.days, Some(1));
    assert_eq!(clocks.running, Some(SeatColor::Black));
    let day = DAY.as_millis() as u64;
    assert!(
        clocks.black_ms <= day && clocks.black_ms > day - 60_000,
        "a whole day"
    );
    let cookies = [white.cookie.clone(), black.cookie.clone()];
    (url, server, table, cookies, GameId(game.id))
}

#[tokio::test]
async fn a_correspondence_game_goes_on_across_a_restart_and_falls_at_its_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let (url, mut server, table, [w, b], id) = one_turn_played(&dir).await;
    server.stop().await;
    // Connections that outlast days of paused time.
    let month = DAY * 30;
    let config = yinsh_server::Config {
        ping_every: month,
        idle_timeout: month * 2,
        send_timeout: month * 2,
        ..paused_config()
    };
    let again = TestServer::on(&url, config).await;
    // Black's day runs on from the restart, with nobody connected.
    let mut black = Client::connect(again.addr, Some(&b)).await;
    let view = black.open(&table).await;
    let game = view.game.expect("restored");
    assert_eq!(game.moves, ["e3"]);
    let clocks = game.clocks.unwrap();
    assert_eq!(clocks.running, Some(SeatColor::Black));
    assert!(clocks.black_ms <= DAY.as_millis() as u64);
    assert!(clocks.black_ms > (DAY - Duration::from_secs(60)).as_millis() as u64);
    black.act(&table, "a5").await.unwrap();
    let mut white = Client::connect(again.addr, Some(&w)).await;
    white.open(&table).await;
    let game = white.game_after(2).await;
    assert_eq!(game.clocks.unwrap().running, Some(SeatColor::White));
    // White goes away and does not come back within the day: lost on time, not
    // adjudicated as abandoned after minutes.
    drop(white);
    tokio::time::pause();
    tokio::time::advance(DAY / 2).await;
    tokio::time::resume();
    let stored = again.store.game(id).await.unwrap().unwrap();
    assert_eq!(stored.result, None, "half a day away changes nothing");
    tokio::time::pause();
    tokio::time::advance(DAY / 2 + Duration::from_secs(1)).await;
    tokio::time::resume();
    let result = black.event(game_over).await;
    assert_eq!(
        (result.winner, result.termination),
        (Some(SeatColor::Black), Ending::Time)
    );
    let stored = again.store.game(id).await.unwrap().unwrap();
    assert_eq!(stored.result.unwrap().termination, "time");
}

#[tokio::test]
async fn a_deadline_that_passed_while_the_server_was_down_falls_when_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let (url, mut server, table, [_, b], id) = one_turn_played(&dir).await;
    server.stop().await;
    drop(server);
    // Two days pass with the server down: the record says White played e3 then.
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let two_days = 2 * DAY.as_millis() as i64;
    sqlx::query("UPDATE actions SET at = at - $1")
        .bind(two_days)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE games SET started_at = started_at - $1")
        .bind(two_days)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let again = TestServer::on(&url, fast_config()).await;
    let result = loop {
        let stored = again.store.game(id).await.unwrap().unwrap();
        if let Some(result) = stored.result {
            break result;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(result.termination, "time");
    assert_eq!(result.winner.as_deref(), Some("white"));
    let mut black = Client::connect(again.addr, Some(&b)).await;
    let view = black.open(&table).await;
    let over = view.game.and_then(|g| g.result).expect("over");
    assert_eq!(over.winner, Some(SeatColor::White));
}

#[tokio::test]
async fn the_correspondence_seek_list_keeps_seeks_for_players_who_are_away() {
    use serde_json::{Value, json};

    use crate::accounts::Browser;

    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("s.db").display());
    let mut server = TestServer::on(&url, fast_config()).await;
    let account = |name: &'static str, addr| async move {
        let mut b = Browser::new(addr);
        assert_eq!(b.send("POST", "/api/session", None).await.0, 200);
        assert_eq!(b.register(name, "correct horse").await.0, 201);
        b
    };
    let mut ann = account("Ann", server.addr).await;
    let seeks = "/api/seeks/correspondence";
    let seek =
        |days: Value, rated: bool| json!({"variant": "standard", "days": days, "rated": rated});
    // What a seek may ask for.
    for (body, code) in [
        (seek(json!(4), false), "bad_option"),
        (seek(json!(0), false), "bad_option"),
        (
            json!({"days": 3, "time": {"minutes": 5, "increment": 0}}),
            "",
        ),
        (json!({"variant": "chess"}), ""),
        (json!({"days": "3"}), ""),
    ] {
        let (status, answer) = ann.send("POST", seeks, Some(body.clone())).await;
        assert_eq!(status, 400, "{body}: {answer}");
        if !code.is_empty() {
            assert_eq!(answer["code"], code, "{answer}");
        }
    }
    let mut guest = Browser::new(server.addr);
    guest.send("POST", "/api/session", None).await;
    let (status, answer) = guest.send("POST", seeks, Some(seek(json!(3), true))).await;
    assert_eq!((status, &answer["code"]), (400, &json!("rated_guest")));
    let (status, made) = ann.send("POST", seeks, Some(seek(json!(3), true))).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["options"]["correspondence"], json!({"days": 3}));
    assert_eq!(
        (made["rating"].clone(), made["provisional"].clone()),
        (json!(1500), json!(true))
    );
    let id = made["id"].as_str().unwrap().to_owned();
    let mut others = Vec::new();
    for _ in 0..4 {
        let (status, other) = ann
            .send("POST", seeks, Some(seek(Value::Null, false)))
            .await;
        assert_eq!(status, 201, "{other}");
        others.push(other["id"].as_str().unwrap().to_owned());
    }
    let (status, answer) = ann.send("POST", seeks, Some(seek(json!(1), false))).await;
    assert_eq!((status, &answer["code"]), (400, &json!("too_many_seeks")));

    // The server restarts; Ann has no connection at all: her seeks stand.
    server.stop().await;
    let server = TestServer::on(&url, fast_config()).await;
    ann.addr = server.addr;
    guest.addr = server.addr;
    let (status, list) = guest.send("GET", seeks, None).await;
    assert_eq!(status, 200);
    let list = list["seeks"].as_array().unwrap().clone();
    assert_eq!(list.len(), 5);
    assert_eq!(list[0]["id"], json!(id), "oldest first");
    assert_eq!(list[0]["player"]["name"], "Ann");
    assert_eq!(list[0]["player"]["online"], false);

    // Withdrawing: only one's own.
    let mut bob = account("Bob", server.addr).await;
    let path = |id: &str| format!("{seeks}/{id}");
    assert_eq!(bob.send("DELETE", &path(&others[0]), None).await.0, 404);
    assert_eq!(ann.send("DELETE", &path(&others[0]), None).await.0, 204);
    assert_eq!(ann.send("DELETE", &path(&others[0]), None).await.0, 404);

    // Taking one: not one's own, not rated by a guest; once.
    let accept = format!("{seeks}/{id}/accept");
    let (status, answer) = ann.send("POST", &accept, None).await;
    assert_eq!((status, &answer["code"]), (400, &json!("own_seek")));
    let (status, answer) = guest.send("POST", &accept, None).await;
    assert_eq!((status, &answer["code"]), (400, &json!("rated_guest")));
    let (status, taken) = bob.send("POST", &accept, None).await;
    assert_eq!(status, 200, "{taken}");
    let table = taken["table"].as_str().unwrap().to_owned();
    let (status, answer) = bob.send("POST", &accept, None).await;
    assert_eq!((status, &answer["code"]), (404, &json!("no_seek")));
    let (_, list) = guest.send("GET", seeks, None).await;
    assert_eq!(list["seeks"].as_array().unwrap().len(), 3);

    // Ann finds the game when she comes back.
    let (_, playing) = ann.send("GET", "/api/account/playing", None).await;
    let game = &playing["nowPlaying"][0];
    assert_eq!(game["gameId"], json!(table), "{playing}");
    assert_eq!(
        (&game["daysPerTurn"], &game["rated"]),
        (&json!(3), &json!(true))
    );
    let ann_color = game["color"].clone();
    assert_ne!(ann_color, taken["color"]);
    // Told once, when the game waits for her (the notice is kept as the game starts).
    let mut notes = Value::Null;
    for _ in 0..100 {
        notes = ann.send("GET", "/api/notifications", None).await.1;
        if ann_color != "white" || notes["unread"] != 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let turns: Vec<&Value> = notes["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["notice"]["kind"] == "your_turn")
        .collect();
    if ann_color == "white" {
        assert_eq!(turns.len(), 1, "{notes}");
        assert_eq!(turns[0]["notice"]["table"], json!(table));
        assert_eq!(turns[0]["notice"]["opponent"], "Bob");
    } else {
        assert!(turns.is_empty(), "{notes}");
    }
    let ann_ws = Client::connect(server.addr, ann.cookie.as_deref()).await;
    let mut ann_ws = ann_ws;
    let view = ann_ws.open(&table).await;
    assert!(view.game.is_some_and(|g| g.result.is_none()));
}

/// Unwatched correspondence tables fall asleep a moment after their last watcher left.
fn sleepy() -> yinsh_server::Config {
    yinsh_server::Config {
        sleep_after: Duration::from_millis(300),
        ..fast_config()
    }
}

/// Waits until `table` is no longer loaded at `server`.
pub(crate) async fn asleep(server: &TestServer, table: &str) {
    for _ in 0..500 {
        if server.ctx.lobby.get(table).is_none() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("table {table} did not fall asleep");
}

/// Moves the game `id` of the database at `url` `by` into the past, and makes it due
/// to wake if it sleeps.
async fn age(url: &str, id: GameId, by: Duration) {
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let ms = by.as_millis() as i64;
    for sql in [
        "UPDATE actions SET at = at - $1 WHERE game_id = $2",
        "UPDATE games SET started_at = started_at - $1 WHERE id = $2",
        "UPDATE games SET wake_at = wake_at - $1 WHERE id = $2",
    ] {
        sqlx::query(sql)
            .bind(ms)
            .bind(id.0)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
}

#[tokio::test]
async fn a_correspondence_game_nobody_looks_at_sleeps_and_wakes_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("z.db").display());
    let mut server = TestServer::on(&url, sleepy()).await;
    let (table, mut white, mut black) = seated_pair(&server, days(3)).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.game_after(1).await;
    let (w, b) = (white.cookie.clone(), black.cookie.clone());
    // Watched, it stays.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(server.ctx.lobby.get(&table).is_some(), "watched: loaded");
    drop((white, black));
    asleep(&server, &table).await;
    let id = server
        .store
        .unfinished_game_at(&table)
        .await
        .unwrap()
        .unwrap();
    let wake = id.wake_at.expect("asleep");
    // Three days per turn: it wakes for the warning a day before the deadline.
    let two_days = 2 * DAY.as_millis() as i64;
    let now = yinsh_server::now_ms();
    assert!(
        (wake - (now + two_days)).abs() < 60_000,
        "wakes in two days: {}",
        wake - now
    );

    // Opened, it is loaded again as it was, and marked awake.
    let mut black = Client::connect(server.addr, Some(&b)).await;
    let view = black.open(&table).await;
    let game = view.game.expect("the game");
    assert_eq!(game.moves, ["e3"]);
    assert_eq!(game.clocks.unwrap().running, Some(SeatColor::Black));
    let stored = server.store.game(id.id).await.unwrap().unwrap();
    assert_eq!(stored.wake_at, None, "awake while loaded");
    black.act(&table, "a5").await.unwrap();
    drop(black);
    asleep(&server, &table).await;

    // Across a restart it stays asleep, and a move wakes it there.
    server.stop().await;
    let server = TestServer::on(&url, sleepy()).await;
    assert!(
        server.ctx.lobby.get(&table).is_none(),
        "not loaded at start"
    );
    let mut white = Client::connect(server.addr, Some(&w)).await;
    white.open(&table).await;
    white.act(&table, "e4").await.unwrap();
    let game = white.game_after(3).await;
    assert_eq!(game.moves, ["e3", "a5", "e4"]);
    drop(white);
    asleep(&server, &table).await;
    let metrics = server.metrics.render(0, None);
    for counted in ["yinsh_tables_woken_total 1", "yinsh_tables_slept_total 1"] {
        assert!(metrics.contains(counted), "{counted}: {metrics}");
    }
    assert_eq!(
        server
            .store
            .unfinished_game_at(&table)
            .await
            .unwrap()
            .unwrap()
            .actions
            .len(),
        3
    );
}

#[tokio::test]
async fn an_asleep_game_is_woken_for_its_warning_and_falls_at_its_deadline() {
    use crate::notify::{account, agreed};
    use yinsh_server::protocol::{Notice, ServerMessage};

    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("w.db").display());
    let mut server = TestServer::on(&url, sleepy()).await;
    let (_, mut ann) = account(&server, "Ann").await;
    let (_, mut bob) = account(&server, "Bob").await;
    let table = agreed(&mut ann, &mut bob, days(2)).await;
    ann.open(&table).await;
    ann.act(&table, "e3").await.unwrap();
    ann.call(yinsh_server::protocol::Request::Close {
        table: table.clone(),
    })
    .await
    .unwrap();
    asleep(&server, &table).await;
    let id = server
        .store
        .unfinished_game_at(&table)
        .await
        .unwrap()
        .unwrap()
        .id;
    let deadlines = |c: &ServerMessage| match c {
        ServerMessage::Notified { notification, .. } => match &notification.notice {
            Notice::Deadline { hours, .. } => Some(*hours),
            _ => None,
        },
        _ => None,
    };

    // A day and a minute later: the sweep wakes it, and Bob is told 24 hours are left.
    age(&url, id, DAY + Duration::from_secs(60)).await;
    assert_eq!(yinsh_server::table::sleep::sweep(&server.ctx).await, 1);
    assert_eq!(bob.note(deadlines).await, 24);
    asleep(&server, &table).await;
    let wake = server
        .store
        .game(id)
        .await
        .unwrap()
        .unwrap()
        .wake_at
        .unwrap();
    let now = yinsh_server::now_ms();
    let left = wake - now;
    let expected = 23 * 3600 * 1000 - 60_000;
    assert!(
        (left - expected).abs() < 60_000,
        "next for the last hour: {left}"
    );
    // Woken by a look in between, it does not warn again.
    let mut look = Client::connect(server.addr, Some(ann.cookie.as_str())).await;
    look.open(&table).await;
    drop(look);
    asleep(&server, &table).await;
    assert_eq!(yinsh_server::table::sleep::sweep(&server.ctx).await, 0);

    // Past the deadline, with the server down meanwhile: Bob, who has spent all but an
    // hour of his vacation this year, spends that hour when the game wakes.
    server.stop().await;
    age(&url, id, DAY).await;
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let year = yinsh_server::game::vacation::year_of(yinsh_server::now_ms());
    sqlx::query(
        "INSERT INTO vacation (game_id, ply, player_id, year, hours, spent_at) \
         SELECT 0, 0, id, $1, 239, 0 FROM players WHERE name = 'Bob'",
    )
    .bind(year)
    .execute(&pool)
    .await
    .unwrap();
    let server = TestServer::on(&url, sleepy()).await;
    asleep(&server, &table).await;
    let spent: i64 = sqlx::query_scalar(
        "SELECT CAST(SUM(hours) AS BIGINT) FROM vacation WHERE game_id = $1 AND ply = 1",
    )
    .bind(id.0)
    .fetch_one(&pool)
    .await
    .unwrap_or(0);
    assert_eq!(spent, 1, "an hour of vacation");
    let stored = server.store.game(id).await.unwrap().unwrap();
    assert_eq!(stored.result, None, "not lost while on vacation");
    let left = stored.wake_at.unwrap() - yinsh_server::now_ms();
    assert!(
        left > 50 * 60_000 && left < 60 * 60_000,
        "asleep until the hour ends: {left}"
    );
    // Opened meanwhile, the game shows the hour and Bob's balance.
    let mut look = Client::connect(server.addr, Some(ann.cookie.as_str())).await;
    let clocks = look.open(&table).await.game.unwrap().clocks.unwrap();
    assert_eq!(clocks.vacation.unwrap().black, Some(0));
    assert!(clocks.black_ms > 50 * 60_000 && clocks.black_ms < 60 * 60_000);
    drop(look);
    asleep(&server, &table).await;
    // The hour ends with no vacation left: lost on time when it wakes.
    age(&url, id, Duration::from_secs(3600)).await;
    pool.close().await;
    let result = loop {
        yinsh_server::table::sleep::sweep(&server.ctx).await;
        let stored = server.store.game(id).await.unwrap().unwrap();
        if let Some(result) = stored.result {
            break result;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        (result.termination.as_str(), result.winner.as_deref()),
        ("time", Some("white"))
    );
    let stored = server.store.game(id).await.unwrap().unwrap();
    assert_eq!(stored.wake_at, None, "a finished game sleeps no more");
}
