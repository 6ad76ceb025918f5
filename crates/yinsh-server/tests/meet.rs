//! Meeting people with the real server: quick pairing (seeks paired by the server or
//! accepted from the lobby), challenges to a name (accepted, declined, withdrawn), open
//! challenges by link, `/challenge` in a table's chat, and what each refuses.

use yinsh_server::protocol::{
    ChallengeView, GoneReason, Request, SeatColor, SeekView, ServerMessage, TableOptions,
    TimeSetting,
};

use crate::accounts::Browser;
use crate::common::{Client, TestServer};

fn timed(minutes: u32, increment: u32, rated: bool) -> TableOptions {
    TableOptions {
        time: Some(TimeSetting { minutes, increment }),
        rated,
        ..TableOptions::default()
    }
}

/// Sends `request`; its answer (`Ok(key)` or `Err(code)`) and the other messages that
/// came before it.
async fn call(c: &mut Client, request: Request) -> (Result<String, String>, Vec<ServerMessage>) {
    let id = c.send(request).await;
    let mut before = Vec::new();
    loop {
        match c.recv().await {
            ServerMessage::Reply {
                id: Some(i), key, ..
            } if i == id => return (Ok(key), before),
            ServerMessage::Error {
                id: Some(i), code, ..
            } if i == id => {
                return (Err(code.to_string()), before);
            }
            other => before.push(other),
        }
    }
}

/// Waits for the `paired` message (looking first at `seen`).
async fn paired(c: &mut Client, seen: &[ServerMessage]) -> (String, SeatColor) {
    let find = |m: &ServerMessage| match m {
        ServerMessage::Paired { table, color, .. } => Some((table.clone(), *color)),
        _ => None,
    };
    if let Some(p) = seen.iter().find_map(find) {
        return p;
    }
    c.until(find).await
}

async fn challenge_msg(c: &mut Client) -> ChallengeView {
    c.until(|m| match m {
        ServerMessage::Challenge { challenge } => Some(challenge.clone()),
        _ => None,
    })
    .await
}

async fn gone(c: &mut Client) -> (String, GoneReason) {
    c.until(|m| match m {
        ServerMessage::ChallengeGone { challenge, reason } => Some((challenge.clone(), *reason)),
        _ => None,
    })
    .await
}

async fn account(server: &TestServer, name: &str) -> Client {
    let mut browser = Browser::new(server.addr);
    browser.send("POST", "/api/session", None).await;
    assert_eq!(browser.register(name, "correct horse").await.0, 201);
    Client::connect(server.addr, browser.cookie.as_deref()).await
}

/// Both players of a pairing open its table: the game runs, they sit where told.
async fn check_table(a: &mut Client, b: &mut Client, table: &str, a_color: SeatColor) {
    let view = a.open(table).await;
    b.open(table).await;
    let game = view.game.expect("the game has begun");
    assert!(game.moves.is_empty() && game.result.is_none());
    let (a_seat, b_seat) = match a_color {
        SeatColor::White => (view.seats.white, view.seats.black),
        SeatColor::Black => (view.seats.black, view.seats.white),
    };
    assert_eq!(a_seat.unwrap().name, a.player.name);
    assert_eq!(b_seat.unwrap().name, b.player.name);
}

#[tokio::test]
async fn quick_pairing() {
    let server = TestServer::start().await;
    let mut g1 = server.client().await;
    let mut g2 = server.client().await;
    let mut watcher = server.client().await;
    watcher.send(Request::Lobby).await;
    watcher
        .until(|m| matches!(m, ServerMessage::Lobby { .. }).then_some(()))
        .await;

    // What a seek may ask for.
    for (options, code) in [
        (TableOptions::default(), "bad_option"),
        (timed(3, 2, true), "rated_guest"),
    ] {
        let (answer, _) = call(
            &mut g1,
            Request::Seek {
                options,
                bots: false,
            },
        )
        .await;
        assert_eq!(answer.unwrap_err(), code);
    }
    // Two casual seeks of the same game are paired at once, colours opposite.
    let (answer, _) = call(
        &mut g1,
        Request::Seek {
            options: timed(3, 2, false),
            bots: false,
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "seeking");
    let seek: SeekView = watcher
        .until(|m| match m {
            ServerMessage::LobbySeek { seek } => Some(seek.clone()),
            _ => None,
        })
        .await;
    assert_eq!(seek.player.name, g1.player.name);
    assert!(seek.player.guest && seek.rating.is_none());
    let (answer, seen) = call(
        &mut g2,
        Request::Seek {
            options: timed(3, 2, false),
            bots: false,
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "seeking");
    let (table, c2) = paired(&mut g2, &seen).await;
    let (table1, c1) = paired(&mut g1, &[]).await;
    assert_eq!(table, table1);
    assert_ne!(c1, c2);
    check_table(&mut g1, &mut g2, &table, c1).await;
    // The lobby saw the seek go.
    let removed = watcher
        .until(|m| match m {
            ServerMessage::LobbySeekRemoved { seek } => Some(seek.clone()),
            _ => None,
        })
        .await;
    assert_eq!(removed, seek.id);

    // Rated seeks between accounts; one is accepted from the lobby.
    let mut ann = account(&server, "Ann").await;
    let mut bob = account(&server, "Bob").await;
    let (answer, _) = call(
        &mut ann,
        Request::Seek {
            options: timed(5, 0, true),
            bots: false,
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "seeking");
    bob.send(Request::Lobby).await;
    let seek = bob
        .until(|m| match m {
            ServerMessage::Lobby { seeks, .. } => seeks.first().cloned(),
            _ => None,
        })
        .await;
    assert_eq!(
        (seek.player.name.as_str(), seek.rating),
        ("Ann", Some(1500))
    );
    assert!(seek.provisional);
    let (answer, _) = call(
        &mut ann,
        Request::AcceptSeek {
            seek: seek.id.clone(),
        },
    )
    .await;
    assert_eq!(answer.unwrap_err(), "own_seek");
    let (answer, _) = call(
        &mut g1,
        Request::AcceptSeek {
            seek: seek.id.clone(),
        },
    )
    .await;
    assert_eq!(
        answer.unwrap_err(),
        "rated_guest",
        "a guest cannot take a rated seek"
    );
    let (answer, seen) = call(
        &mut bob,
        Request::AcceptSeek {
            seek: seek.id.clone(),
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "paired");
    let (table, bob_color) = paired(&mut bob, &seen).await;
    let (_, ann_color) = paired(&mut ann, &[]).await;
    assert_ne!(bob_color, ann_color);
    check_table(&mut bob, &mut ann, &table, bob_color).await;
    let view = bob.open(&table).await;
    assert!(view.options.rated, "a rated seek makes a rated game");
    let (answer, _) = call(&mut bob, Request::AcceptSeek { seek: seek.id }).await;
    assert_eq!(answer.unwrap_err(), "no_seek");

    // A seek ends with its connection, and by cancelling.
    let (answer, _) = call(
        &mut g2,
        Request::Seek {
            options: timed(1, 0, false),
            bots: false,
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "seeking");
    let (answer, _) = call(&mut g2, Request::CancelSeek).await;
    assert_eq!(answer.unwrap(), "seek_canceled");
    let (answer, _) = call(&mut g2, Request::CancelSeek).await;
    assert_eq!(answer.unwrap_err(), "no_seek");
    let mut g3 = server.client().await;
    let (answer, _) = call(
        &mut g3,
        Request::Seek {
            options: timed(1, 0, false),
            bots: false,
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "seeking");
    let name = g3.player.name.clone();
    let seek = watcher
        .until(|m| match m {
            ServerMessage::LobbySeek { seek } if seek.player.name == name => Some(seek.id.clone()),
            _ => None,
        })
        .await;
    drop(g3);
    watcher
        .until(|m| {
            matches!(m, ServerMessage::LobbySeekRemoved { seek: s } if *s == seek).then_some(())
        })
        .await;
}

#[tokio::test]
async fn challenges() {
    let server = TestServer::start().await;
    let mut ann = account(&server, "Ann").await;
    let mut bob = account(&server, "Bob").await;
    let mut guest = server.client().await;
    let rated = timed(10, 5, true);
    let challenge = |to: &str, options: &TableOptions, color| Request::Challenge {
        to: Some(to.to_owned()),
        options: options.clone(),
        color,
    };

    for (to, options, code) in [
        ("nobody", &rated, "player_offline"),
        ("ann", &rated, "own_challenge"),
        (guest.player.name.as_str(), &rated, "rated_guest"),
        (
            "bob",
            &TableOptions {
                time: None,
                ..rated.clone()
            },
            "bad_option",
        ),
    ] {
        let (answer, _) = call(&mut ann, challenge(to, options, None)).await;
        assert_eq!(answer.unwrap_err(), code, "{to}");
    }

    // Declined: both are told.
    let (answer, seen) = call(&mut ann, challenge("BOB", &rated, Some(SeatColor::White))).await;
    assert_eq!(answer.unwrap(), "challenge_sent");
    let c = challenge_msg(&mut bob).await;
    // The challenger hears of it first.
    assert!(seen.contains(&ServerMessage::Challenge {
        challenge: c.clone()
    }));
    assert_eq!(
        (c.from.name.as_str(), c.to.as_ref().unwrap().name.as_str()),
        ("Ann", "Bob")
    );
    assert_eq!(c.color, Some(SeatColor::White));
    let (answer, _) = call(
        &mut ann,
        Request::DeclineChallenge {
            challenge: c.id.clone(),
        },
    )
    .await;
    assert_eq!(
        answer.unwrap_err(),
        "no_challenge",
        "only Bob may decline it"
    );
    let (answer, _) = call(
        &mut guest,
        Request::AcceptChallenge {
            challenge: c.id.clone(),
        },
    )
    .await;
    assert_eq!(answer.unwrap_err(), "no_challenge", "nor accept it");
    let (answer, _) = call(
        &mut bob,
        Request::DeclineChallenge {
            challenge: c.id.clone(),
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "challenge_declined");
    assert_eq!(gone(&mut ann).await, (c.id.clone(), GoneReason::Declined));

    // Accepted: a rated game, Ann white as she asked.
    let (answer, _) = call(&mut ann, challenge("Bob", &rated, Some(SeatColor::White))).await;
    assert_eq!(answer.unwrap(), "challenge_sent");
    let c = challenge_msg(&mut bob).await;
    // A connection opened later is told of the challenge that stands.
    let mut bob2 = Client::connect(server.addr, Some(&bob.cookie)).await;
    assert_eq!(challenge_msg(&mut bob2).await.id, c.id);
    let (answer, seen) = call(
        &mut bob,
        Request::AcceptChallenge {
            challenge: c.id.clone(),
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "challenge_accepted");
    let (table, color) = paired(&mut bob, &seen).await;
    assert_eq!(color, SeatColor::Black);
    let (table_a, color_a) = paired(&mut ann, &[]).await;
    assert_eq!(
        (table_a.as_str(), color_a),
        (table.as_str(), SeatColor::White)
    );
    check_table(&mut ann, &mut bob, &table, SeatColor::White).await;

    // Withdrawn.
    let (answer, _) = call(&mut ann, challenge("bob", &rated, None)).await;
    assert_eq!(answer.unwrap(), "challenge_sent");
    let c = challenge_msg(&mut bob2).await;
    let (answer, _) = call(
        &mut ann,
        Request::CancelChallenge {
            challenge: c.id.clone(),
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "challenge_canceled");
    assert_eq!(gone(&mut bob2).await, (c.id.clone(), GoneReason::Canceled));

    // An open challenge: whoever opens the link may accept it.
    let open = Request::Challenge {
        to: None,
        options: timed(3, 0, false),
        color: None,
    };
    let (answer, seen) = call(&mut guest, open).await;
    assert_eq!(answer.unwrap(), "challenge_open");
    let c = seen
        .iter()
        .find_map(|m| match m {
            ServerMessage::Challenge { challenge } => Some(challenge.clone()),
            _ => None,
        })
        .expect("the challenge");
    assert!(c.to.is_none());
    let (status, body) = server.get(&format!("/api/challenge/{}", c.id)).await;
    assert_eq!(status, 200, "{body}");
    let (answer, seen) = call(
        &mut bob2,
        Request::AcceptChallenge {
            challenge: c.id.clone(),
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "challenge_accepted");
    let (table, _) = paired(&mut bob2, &seen).await;
    let (table_g, _) = paired(&mut guest, &[]).await;
    assert_eq!(table, table_g);
    assert_eq!(server.get(&format!("/api/challenge/{}", c.id)).await.0, 404);

    // `/challenge` in a table's chat offers that table's game with what it changes.
    let t = guest.create(timed(5, 3, false)).await;
    guest.open(&t).await;
    let line = format!("/challenge {} black", ann.player.name.to_lowercase());
    let (answer, _) = call(
        &mut guest,
        Request::Chat {
            table: t.clone(),
            text: line,
        },
    )
    .await;
    assert_eq!(answer.unwrap(), "challenge_sent");
    let c = challenge_msg(&mut ann).await;
    assert_eq!(c.options, timed(5, 3, false));
    assert_eq!(c.color, Some(SeatColor::Black));
    let (answer, _) = call(
        &mut guest,
        Request::Chat {
            table: t.clone(),
            text: "/challenge".to_owned(),
        },
    )
    .await;
    assert_eq!(answer.unwrap_err(), "command_usage");
    // The challenger leaves: the challenge ends.
    drop(guest);
    assert_eq!(gone(&mut ann).await, (c.id, GoneReason::Canceled));
}
