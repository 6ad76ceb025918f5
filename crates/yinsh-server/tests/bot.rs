//! The bot API with the real server: an account with an API token becomes a bot, follows
//! its events over NDJSON, is challenged by a person over the WebSocket, accepts,
//! streams the game and plays it through HTTP — with the table's own checks — chats
//! and resigns; bots seek, paired only with people who welcome bots; the board API is
//! for people. A bot
//! plays a whole rated game against a person; a late move loses on time; a bot's seat
//! is still marked BOT after a restart.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use yinsh_server::protocol::{Request, ServerMessage, TableOptions, Title};

use crate::accounts::Browser;
use crate::common::{Client, TestServer, http_send};

/// An NDJSON stream read line by line.
pub(crate) struct Lines(yinsh_client::http::Lines);

impl Lines {
    pub(crate) async fn open(addr: SocketAddr, path: &str, token: &str) -> (u16, Lines) {
        let (status, lines) = yinsh_client::http::Lines::open(&addr.to_string(), token, path)
            .await
            .expect("the stream's head");
        (status, Lines(lines))
    }

    /// `POST path` with a form body, read as a stream.
    pub(crate) async fn post(
        addr: SocketAddr,
        path: &str,
        token: &str,
        form: &str,
    ) -> (u16, Lines) {
        let (status, lines) = yinsh_client::http::Lines::post(&addr.to_string(), token, path, form)
            .await
            .expect("the stream's head");
        (status, Lines(lines))
    }

    /// The next line that is not a keep-alive, as JSON (`None` when the stream ended).
    pub(crate) async fn next(&mut self) -> Option<Value> {
        tokio::time::timeout(Duration::from_secs(20), self.0.next())
            .await
            .expect("a line in time")
            .expect("JSON lines")
    }

    /// Lines until one of type `kind`.
    pub(crate) async fn until(&mut self, kind: &str) -> Value {
        loop {
            let line = self
                .next()
                .await
                .unwrap_or_else(|| panic!("no {kind}: the stream ended"));
            if line["type"] == kind {
                return line;
            }
        }
    }
}

/// The status of a stream's response (its head only; the stream is dropped).
pub(crate) async fn stream_status(addr: SocketAddr, path: &str, bearer: &str) -> u16 {
    let token = bearer.strip_prefix("Bearer ").unwrap_or(bearer);
    Lines::open(addr, path, token).await.0
}

/// `POST path` with the token (and a form body): status and JSON.
pub(crate) async fn post(server: &TestServer, token: &str, path: &str, form: &str) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let mut headers = vec![("Authorization", auth.as_str())];
    if !form.is_empty() {
        headers.push(("Content-Type", "application/x-www-form-urlencoded"));
    }
    let (status, _, body) = http_send(server.addr, "POST", path, &headers, form).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// A bot account (upgraded) with a `bot:play` token: its browser and token.
pub(crate) async fn bot_account(server: &TestServer, name: &str) -> (Browser, String) {
    let (browser, token) = account(server, name, &["bot:play"]).await;
    let (status, body) = post(server, &token, "/api/bot/account/upgrade", "").await;
    assert_eq!(status, 200, "{body}");
    (browser, token)
}

/// A registered account with a token of `scopes`: its browser and token.
pub(crate) async fn account(server: &TestServer, name: &str, scopes: &[&str]) -> (Browser, String) {
    let mut browser = Browser::new(server.addr);
    assert_eq!(browser.register(name, "a long password").await.0, 201);
    let ask = json!({"name": "program", "scopes": scopes});
    let (status, made) = browser.send("POST", "/api/token", Some(ask)).await;
    assert_eq!(status, 201, "{made}");
    (browser, made["token"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_bot_is_challenged_and_plays_through_the_api() {
    bot_plays(&TestServer::start().await).await;
}

#[tokio::test]
async fn a_bot_plays_on_postgres() {
    let Some(url) = crate::common::postgres_database("bot").await else {
        return;
    };
    bot_plays(&TestServer::on(&url, crate::common::fast_config()).await).await;
}

async fn bot_plays(server: &TestServer) {
    let (robo, token) = account(server, "Robo", &["bot:play"]).await;
    let (bob_browser, bob_token) = account(server, "Bob", &["board:play", "bot:play"]).await;

    // Not a bot yet: the bot routes say so. Upgraded once, for good.
    let (status, body) = post(server, &token, "/api/bot/game/x/resign", "").await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("upgrade"),
        "{body}"
    );
    assert_eq!(
        post(server, &token, "/api/bot/account/upgrade", "").await.0,
        200
    );
    assert_eq!(
        post(server, &token, "/api/bot/account/upgrade", "").await.0,
        400
    );
    // A token without the scope, and no token, get nothing.
    let (status, _) = post(server, &bob_token, "/api/challenge/x/accept", "").await;
    assert_eq!(
        status, 404,
        "bot:play may answer challenges; this one does not exist"
    );
    let (status, _, _) = http_send(server.addr, "POST", "/api/bot/account/upgrade", &[], "").await;
    assert_eq!(status, 401);

    // The bot's events; the person challenges it by name from the WebSocket.
    let (status, mut events) = Lines::open(server.addr, "/api/stream/event", &token).await;
    assert_eq!(status, 200);
    let mut bob = Client::connect(server.addr, bob_browser.cookie.as_deref()).await;
    assert_eq!(bob.player.name, "Bob");
    bob.call(Request::Challenge {
        to: Some("robo".to_owned()),
        options: TableOptions::default(),
        color: Some(yinsh_server::protocol::SeatColor::White),
    })
    .await
    .unwrap();
    let challenge = events.until("challenge").await;
    assert_eq!(challenge["challenge"]["from"]["name"], "Bob");
    assert_eq!(challenge["challenge"]["to"]["title"], "BOT");
    let id = challenge["challenge"]["id"].as_str().unwrap().to_owned();
    let (status, body) = post(server, &token, &format!("/api/challenge/{id}/accept"), "").await;
    assert_eq!(status, 200, "{body}");
    let start = events.until("gameStart").await;
    assert_eq!(start["game"]["color"], "black");
    let table = start["game"]["id"].as_str().unwrap().to_owned();
    bob.until(|m| matches!(m, ServerMessage::Paired { .. }).then_some(()))
        .await;
    bob.open(&table).await;

    // The game's stream: everything first, then a state after each action.
    let path = format!("/api/bot/game/stream/{table}");
    let (status, mut game) = Lines::open(server.addr, &path, &token).await;
    assert_eq!(status, 200);
    let full = game.next().await.unwrap();
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["white"]["name"], "Bob");
    assert_eq!(full["black"]["title"], "BOT");
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["status"], "started");
    bob.act(&table, "e5").await.unwrap();
    let state = game.until("gameState").await;
    assert_eq!(state["moves"], "e5");
    // The bot acts as a person does, with the same checks: legal, in turn.
    let mv = |t: &str| format!("/api/bot/game/{table}/move/{t}");
    let (status, body) = post(server, &token, &mv("e5"), "").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("illegal_action")),
        "{body}"
    );
    assert_eq!(post(server, &token, &mv("f6"), "").await.0, 200);
    assert_eq!(game.until("gameState").await["moves"], "e5 f6");
    let (status, body) = post(server, &token, &mv("g6"), "").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("not_your_turn")),
        "{body}"
    );
    // Another table's id, and the board API with a bot's token: refused.
    assert_eq!(
        post(server, &token, "/api/bot/game/nosuch/move/e3", "")
            .await
            .0,
        404
    );
    let board = format!("/api/board/game/{table}/move/e3");
    assert_eq!(post(server, &token, &board, "").await.0, 403);

    // A chat line reaches the person and the stream.
    let chat = format!("/api/bot/game/{table}/chat");
    assert_eq!(
        post(server, &token, &chat, "room=player&text=good+luck")
            .await
            .0,
        200
    );
    assert_eq!(game.until("chatLine").await["text"], "good luck");
    // A program's line is said as written, never taken for a command.
    assert_eq!(post(server, &token, &chat, "text=%2Fresign").await.0, 200);
    assert_eq!(game.until("chatLine").await["text"], "/resign");

    // Resigning ends the game, its stream, and tells the event stream.
    assert_eq!(
        post(server, &token, &format!("/api/bot/game/{table}/resign"), "")
            .await
            .0,
        200
    );
    let last = game.until("gameState").await;
    assert_eq!(
        (&last["status"], &last["winner"]),
        (&json!("resign"), &json!("white"))
    );
    assert_eq!(
        game.next().await,
        None,
        "the game's stream ends with the game"
    );
    let finish = events.until("gameFinish").await;
    assert_eq!(finish["game"]["id"], table);

    // Bob played a game: no bot for him.
    let (status, body) = post(server, &bob_token, "/api/bot/account/upgrade", "").await;
    assert_eq!(status, 400, "{body}");
    let robo_ws = Client::connect(server.addr, robo.cookie.as_deref()).await;
    assert_eq!(robo_ws.player.title, Some(Title::Bot));
}

#[tokio::test]
async fn people_play_their_own_games_through_the_board_api_and_challenge_from_it() {
    let server = TestServer::start().await;
    let (_, ann) = account(&server, "Ann", &["board:play", "challenge:write"]).await;
    let (_, cy) = account(&server, "Cy", &["board:play", "challenge:write"]).await;
    // A challenge lives as long as its challenger is online: the event stream first.
    let (status, body) = post(&server, &ann, "/api/challenge/cy", "").await;
    assert_eq!(status, 400, "{body}");
    let (_, mut ann_events) = Lines::open(server.addr, "/api/stream/event", &ann).await;
    let (_, mut cy_events) = Lines::open(server.addr, "/api/stream/event", &cy).await;
    for bad in [
        "rated=maybe",
        "clock.limit=90",
        "variant=chess",
        "color=red",
        "clock.increment=3",
    ] {
        assert_eq!(
            post(&server, &ann, "/api/challenge/cy", bad).await.0,
            400,
            "{bad}"
        );
    }
    assert_eq!(
        post(&server, &ann, "/api/challenge/nobody", "").await.0,
        400
    );
    let (status, made) = post(
        &server,
        &ann,
        "/api/challenge/Cy",
        "clock.limit=300&clock.increment=2&color=white",
    )
    .await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(
        made["challenge"]["options"]["time"],
        json!({"minutes": 5, "increment": 2})
    );
    let id = made["challenge"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        cy_events.until("challenge").await["challenge"]["id"],
        id.as_str()
    );
    // Declined: both hear it; then a second one, accepted.
    assert_eq!(
        post(&server, &cy, &format!("/api/challenge/{id}/decline"), "")
            .await
            .0,
        200
    );
    assert_eq!(
        ann_events.until("challengeDeclined").await["challenge"]["id"],
        id.as_str()
    );
    // A program flooding challenges is held to five standing ones, as a person is.
    let mut flood = Vec::new();
    for _ in 0..5 {
        let (status, made) = post(&server, &ann, "/api/challenge/cy", "").await;
        assert_eq!(status, 200, "{made}");
        flood.push(made["challenge"]["id"].as_str().unwrap().to_owned());
    }
    let (status, body) = post(&server, &ann, "/api/challenge/cy", "").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("too_many_challenges")),
        "{body}"
    );
    for id in &flood {
        assert_eq!(
            post(&server, &cy, &format!("/api/challenge/{id}/decline"), "")
                .await
                .0,
            200
        );
    }
    let (_, made) = post(&server, &ann, "/api/challenge/cy", "color=white").await;
    let id = made["challenge"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        post(&server, &cy, &format!("/api/challenge/{id}/accept"), "")
            .await
            .0,
        200
    );
    let table = ann_events.until("gameStart").await["game"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        cy_events.until("gameStart").await["game"]["id"],
        table.as_str()
    );

    // Both play from programs; the bot routes are not theirs.
    let (_, mut stream) =
        Lines::open(server.addr, &format!("/api/board/game/stream/{table}"), &cy).await;
    assert_eq!(stream.next().await.unwrap()["type"], "gameFull");
    let mv = |t: &str| format!("/api/board/game/{table}/move/{t}");
    assert_eq!(post(&server, &ann, &mv("e5"), "").await.0, 200);
    assert_eq!(post(&server, &cy, &mv("f6"), "").await.0, 200);
    assert_eq!(stream.until("gameState").await["moves"], "e5");
    assert_eq!(stream.until("gameState").await["moves"], "e5 f6");
    let bot_route = format!("/api/bot/game/{table}/move/e4");
    assert_eq!(post(&server, &ann, &bot_route, "").await.0, 403);
    // Aborted while barely begun: the stream and the events say so.
    assert_eq!(
        post(&server, &ann, &format!("/api/board/game/{table}/abort"), "")
            .await
            .0,
        200
    );
    assert_eq!(stream.until("gameState").await["status"], "aborted");
    assert_eq!(
        cy_events.until("gameFinish").await["game"]["status"],
        "aborted"
    );
}

/// `POST path` for a program that keeps to its rate limit: after a 429, it waits a
/// little and asks again, as a bot should.
async fn post_paced(server: &TestServer, token: &str, path: &str) -> (u16, Value) {
    loop {
        let (status, body) = post(server, token, path, "").await;
        if status != 429 {
            return (status, body);
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// The position after the actions of a `gameState`'s `moves`.
fn replay(moves: &str) -> yinsh::Position {
    let mut pos = yinsh::Position::new();
    for token in moves.split_whitespace() {
        pos.play(token.parse().expect("a token of the game"))
            .expect("the stream's actions are legal");
    }
    pos
}

#[tokio::test]
async fn a_bot_plays_a_whole_rated_game_against_a_person() {
    let server = TestServer::start().await;
    let (_, token) = bot_account(&server, "Robo").await;
    let (ann_browser, _) = account(&server, "Ann", &["board:play"]).await;
    let mut ann = Client::connect(server.addr, ann_browser.cookie.as_deref()).await;

    // The bot challenges the person to a rated game; she accepts from her page.
    let (_, mut events) = Lines::open(server.addr, "/api/stream/event", &token).await;
    let (status, made) = post(
        &server,
        &token,
        "/api/challenge/ann",
        "rated=true&clock.limit=300&clock.increment=0&color=black",
    )
    .await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["challenge"]["options"]["rated"], true);
    let id = ann
        .until(|m| match m {
            ServerMessage::Challenge { challenge } => Some(challenge.id.clone()),
            _ => None,
        })
        .await;
    assert_eq!(id, made["challenge"]["id"].as_str().unwrap());
    ann.call(Request::AcceptChallenge { challenge: id })
        .await
        .unwrap();
    let start = events.until("gameStart").await;
    assert_eq!(start["game"]["color"], "black");
    let table = start["game"]["id"].as_str().unwrap().to_owned();
    ann.open(&table).await;

    // To the end: the bot reads its stream, finds its actions with the rules library
    // (the last legal one), and posts them; she plays the first legal action of her view.
    // These two ways of playing give a decided game (a draw would leave equal ratings
    // where they were).
    let (_, mut game) = Lines::open(
        server.addr,
        &format!("/api/bot/game/stream/{table}"),
        &token,
    )
    .await;
    let full = game.next().await.unwrap();
    assert_eq!(
        (&full["type"], &full["rated"]),
        (&json!("gameFull"), &json!(true))
    );
    let mut state = full["state"].clone();
    let mut bot_actions = 0;
    while state["status"] == "started" {
        let moves = state["moves"].as_str().unwrap().to_owned();
        let pos = replay(&moves);
        let played = moves.split_whitespace().count();
        if pos.is_over() {
            // The last action's line; the result's line follows.
            state = game.until("gameState").await;
            assert_eq!(state["moves"], moves.as_str(), "the result's line");
            break;
        }
        if pos.turn() == yinsh::Color::Black {
            let action = pos.legal_actions().into_iter().next_back().unwrap();
            let path = format!("/api/bot/game/{table}/move/{action}");
            let (status, body) = post_paced(&server, &token, &path).await;
            assert_eq!(status, 200, "{action} after {moves:?}: {body}");
            bot_actions += 1;
        } else {
            let view = ann.my_turn(played).await;
            ann.act(&table, &view.legal[0]).await.unwrap();
        }
        state = game.until("gameState").await;
        assert_eq!(
            state["moves"].as_str().unwrap().split_whitespace().count(),
            played + 1,
            "one state per action"
        );
    }
    let moves = state["moves"].as_str().unwrap().to_owned();
    let end = replay(&moves);
    assert!(end.is_over(), "the stream ends the game where the rules do");
    assert!(
        bot_actions > 20,
        "a whole game: {bot_actions} actions of the bot"
    );
    assert_eq!(game.next().await, None, "the stream ends with the game");
    assert_eq!(
        events.until("gameFinish").await["game"]["id"],
        table.as_str()
    );

    // Both ratings moved, once, and the person saw the same result.
    let result = ann
        .event(|e| match e {
            yinsh_server::protocol::TableEvent::GameOver { result } => Some(result.clone()),
            _ => None,
        })
        .await;
    let ratings = result
        .ratings
        .expect("a rated game's result carries ratings");
    assert_eq!((ratings.white.before, ratings.black.before), (1500, 1500));
    // Whoever the rules say won gained.
    let winner = end
        .outcome()
        .and_then(|o| o.winner)
        .expect("a decided game");
    assert_eq!(result.winner, Some(winner.into()), "{result:?}");
    let (won, lost) = match winner {
        yinsh::Color::White => (ratings.white.after, ratings.black.after),
        yinsh::Color::Black => (ratings.black.after, ratings.white.after),
    };
    assert!(won > 1500 && lost < 1500, "{ratings:?}");
    for (name, after) in [("robo", ratings.black.after), ("ann", ratings.white.after)] {
        let (status, _, body) =
            http_send(server.addr, "GET", &format!("/api/player/{name}"), &[], "").await;
        assert_eq!(status, 200, "{body}");
        let page: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(page["ratings"][0]["rating"], after, "{name}: {page}");
        assert_eq!(page["ratings"][0]["games"], 1, "{name}: {page}");
        assert_eq!(page["recent"][0]["options"]["rated"], true);
    }
    // Marked BOT on its page, in the archive and in the replay.
    let get = |path: String| async move {
        let (status, _, body) = http_send(server.addr, "GET", &path, &[], "").await;
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str::<Value>(&body).unwrap()
    };
    assert_eq!(get("/api/player/robo".to_owned()).await["title"], "BOT");
    let listed = &get("/api/archive".to_owned()).await["games"][0];
    assert_eq!(
        (&listed["black_title"], &listed["white_title"]),
        (&json!("BOT"), &Value::Null)
    );
    let replay = get(format!("/api/archive/{}", full["gameId"])).await;
    assert_eq!(replay["black_title"], "BOT", "{replay}");
    assert!(
        replay["record"]
            .as_str()
            .unwrap()
            .contains("[BlackTitle \"BOT\"]")
    );
}

/// A bot (Robo, black) and a person (Ann, white, connected and watching) at a game of
/// one minute each that Ann challenged it to: the bot's token, her connection, the table.
pub(crate) async fn bot_game(server: &TestServer) -> (String, Client, String) {
    let (_, token) = bot_account(server, "Robo").await;
    let (ann_browser, _) = account(server, "Ann", &["board:play"]).await;
    let mut ann = Client::connect(server.addr, ann_browser.cookie.as_deref()).await;
    let (_, mut events) = Lines::open(server.addr, "/api/stream/event", &token).await;
    ann.call(Request::Challenge {
        to: Some("Robo".to_owned()),
        options: TableOptions {
            time: Some(yinsh_server::protocol::TimeSetting {
                minutes: 1,
                increment: 0,
            }),
            ..TableOptions::default()
        },
        color: Some(yinsh_server::protocol::SeatColor::White),
    })
    .await
    .unwrap();
    let id = events.until("challenge").await["challenge"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let accept = format!("/api/challenge/{id}/accept");
    assert_eq!(post(server, &token, &accept, "").await.0, 200);
    let table = events.until("gameStart").await["game"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ann.open(&table).await;
    (token, ann, table)
}

#[tokio::test]
async fn a_bots_move_after_its_time_ran_out_is_refused_and_the_game_lost_on_time() {
    let server = TestServer::start_with(crate::common::paused_config()).await;
    let (token, mut ann, table) = bot_game(&server).await;
    let path = format!("/api/bot/game/stream/{table}");
    let (_, mut game) = Lines::open(server.addr, &path, &token).await;
    assert_eq!(game.next().await.unwrap()["type"], "gameFull");
    ann.act(&table, "e5").await.unwrap();
    let state = game.until("gameState").await;
    assert!(state["btime"].as_u64().unwrap() <= 60_000, "{state}");

    // The bot thinks past its minute; its move then comes too late.
    tokio::time::pause();
    tokio::time::advance(Duration::from_secs(61)).await;
    tokio::time::resume();
    let (status, body) = post(
        &server,
        &token,
        &format!("/api/bot/game/{table}/move/f6"),
        "",
    )
    .await;
    // The table's timer ended the game at the deadline, so the move finds none (had it
    // come first, the table would refuse it as `out_of_time` and end the game the same
    // way: `table::core`'s tests).
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("no_game")),
        "{body}"
    );
    let last = game.until("gameState").await;
    assert_eq!(
        (&last["status"], &last["winner"], &last["moves"]),
        (&json!("outoftime"), &json!("white"), &json!("e5")),
        "{last}"
    );
    assert_eq!(last["btime"], 0);
    assert_eq!(game.next().await, None);
}

#[tokio::test]
async fn a_bots_seat_keeps_its_mark_after_a_restart() {
    let mut server = TestServer::start().await;
    let (token, mut ann, table) = bot_game(&server).await;
    ann.act(&table, "e5").await.unwrap();
    let mv = format!("/api/bot/game/{table}/move/f6");
    assert_eq!(post(&server, &token, &mv, "").await.0, 200);
    server.stop().await;
    let again = TestServer::with_store(server.store.clone(), crate::common::fast_config()).await;
    let view = again.client().await.open(&table).await;
    let black = view.seats.black.expect("the bot's seat, restored");
    assert_eq!(
        (black.name.as_str(), black.title),
        ("Robo", Some(Title::Bot))
    );
    assert_eq!(view.seats.white.unwrap().title, None);
    assert_eq!(view.game.unwrap().moves, ["e5", "f6"]);
}

/// The seeks the lobby lists now (a new watcher's snapshot).
pub(crate) async fn seeks(server: &TestServer) -> Vec<yinsh_server::protocol::SeekView> {
    let mut watcher = server.client().await;
    watcher.send(Request::Lobby).await;
    watcher
        .until(|m| match m {
            ServerMessage::Lobby { seeks, .. } => Some(seeks.clone()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_bot_seeks_and_is_paired_only_with_people_who_welcome_bots() {
    let server = TestServer::start().await;
    let (robo, token) = bot_account(&server, "Robo").await;
    // A seek asks for a clock and says what it means.
    for form in ["", "time=0", "time=3&rated=maybe", "time=3&variant=giant"] {
        let (status, body) = post(&server, &token, "/api/bot/seek", form).await;
        assert_eq!(status, 400, "{form}: {body}");
    }
    let timed = TableOptions {
        time: Some(yinsh_server::protocol::TimeSetting {
            minutes: 3,
            increment: 2,
        }),
        ..TableOptions::default()
    };
    // Ann seeks 3+2 without welcoming bots; the bot seeks the same game: both stand.
    let (ann_browser, _) = account(&server, "Ann", &["board:play"]).await;
    let mut ann = Client::connect(server.addr, ann_browser.cookie.as_deref()).await;
    ann.call(Request::Seek {
        options: timed.clone(),
        bots: false,
    })
    .await
    .unwrap();
    let (status, mut seeking) =
        Lines::post(server.addr, "/api/bot/seek", &token, "time=3&increment=2").await;
    assert_eq!(status, 200);
    let listed = seeks(&server).await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    let bot_seek = listed.iter().find(|s| s.player.name == "Robo").unwrap();
    assert_eq!(bot_seek.player.title, Some(Title::Bot));
    assert!(bot_seek.bots);
    // The bot cannot take Ann's seek either (over its WebSocket, as a page would).
    let ann_seek = listed.iter().find(|s| s.player.name == "Ann").unwrap();
    let mut robo_ws = Client::connect(server.addr, robo.cookie.as_deref()).await;
    let refused = robo_ws
        .call(Request::AcceptSeek {
            seek: ann_seek.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.0, "bot_pairing");

    // Ann welcomes bots: paired at once, and the bot's seek ends with the game's start.
    ann.call(Request::Seek {
        options: timed.clone(),
        bots: true,
    })
    .await
    .unwrap();
    let (table, color) = ann
        .until(|m| match m {
            ServerMessage::Paired { table, color, .. } => Some((table.clone(), *color)),
            _ => None,
        })
        .await;
    let start = seeking.until("gameStart").await;
    assert_eq!(start["game"]["id"], table);
    assert_ne!(start["game"]["color"], serde_json::to_value(color).unwrap());
    assert_eq!(seeking.next().await, None, "the seek's stream ends");
    let (_, mut game) = Lines::open(
        server.addr,
        &format!("/api/bot/game/stream/{table}"),
        &token,
    )
    .await;
    let full = game.until("gameFull").await;
    assert_eq!(full["state"]["status"], "started", "{full}");
    assert!(seeks(&server).await.is_empty());

    // A person may take a bot's seek from the lobby: that is their choice.
    let (bea_browser, _) = account(&server, "Bea", &["board:play"]).await;
    let mut bea = Client::connect(server.addr, bea_browser.cookie.as_deref()).await;
    let (_, mut seeking) =
        Lines::post(server.addr, "/api/bot/seek", &token, "time=3&increment=2").await;
    let listed = seeks(&server).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    bea.call(Request::AcceptSeek {
        seek: listed[0].id.clone(),
    })
    .await
    .unwrap();
    let start = seeking.until("gameStart").await;
    assert_ne!(start["game"]["id"], table);

    // Closing the stream withdraws the seek.
    let (_, seeking) = Lines::post(server.addr, "/api/bot/seek", &token, "time=5").await;
    assert_eq!(seeks(&server).await.len(), 1);
    drop(seeking);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !seeks(&server).await.is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "the seek stands");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_correspondence_game_is_agreed_and_streamed_with_its_days_per_turn() {
    let server = TestServer::start().await;
    let (_, ann) = account(&server, "Ann", &["board:play", "challenge:write"]).await;
    let (_, cy) = account(&server, "Cy", &["board:play", "challenge:write"]).await;
    let (_, mut ann_events) = Lines::open(server.addr, "/api/stream/event", &ann).await;
    let (_, mut cy_events) = Lines::open(server.addr, "/api/stream/event", &cy).await;
    for bad in ["days=4", "days=0", "days=300", "days=3&clock.limit=300"] {
        let (status, body) = post(&server, &ann, "/api/challenge/cy", bad).await;
        assert_eq!(status, 400, "{bad}: {body}");
        if bad == "days=4" {
            let text = body["error"].as_str().unwrap();
            assert!(text.contains("[1, 2, 3, 5, 7, 10, 14]"), "{text}");
        }
    }
    let (status, made) = post(
        &server,
        &ann,
        "/api/challenge/cy",
        "days=3&rated=true&color=white",
    )
    .await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(
        made["challenge"]["options"]["correspondence"],
        json!({"days": 3})
    );
    let id = made["challenge"]["id"].as_str().unwrap().to_owned();
    cy_events.until("challenge").await;
    let accept = format!("/api/challenge/{id}/accept");
    assert_eq!(post(&server, &cy, &accept, "").await.0, 200);
    let start = ann_events.until("gameStart").await;
    assert_eq!(start["game"]["isMyTurn"], true, "{start}");
    let table = start["game"]["id"].as_str().unwrap().to_owned();
    let start = cy_events.until("gameStart").await;
    assert_eq!(start["game"]["isMyTurn"], false, "{start}");
    // Ann plays; a stream opened now says the game waits for Cy.
    let act = format!("/api/board/game/{table}/move/e3");
    assert_eq!(post(&server, &ann, &act, "").await.0, 200);
    let (_, mut again) = Lines::open(server.addr, "/api/stream/event", &cy).await;
    let start = again.until("gameStart").await;
    assert_eq!(
        (&start["game"]["id"], &start["game"]["isMyTurn"]),
        (&json!(table), &json!(true)),
        "{start}"
    );
    let (_, mut stream) =
        Lines::open(server.addr, &format!("/api/board/game/stream/{table}"), &cy).await;
    let full = stream.next().await.unwrap();
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["speed"], "correspondence", "{full}");
    assert_eq!(full["daysPerTurn"], 3, "{full}");
    assert_eq!(full["rated"], true, "{full}");
    assert_eq!(full["clock"], Value::Null, "no live clock: {full}");
}
