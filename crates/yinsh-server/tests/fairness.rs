//! Fair play at the table: takebacks that mint no time and survive a restart, no game
//! forced on an absent player, aborts, claims when the opponent left, abandoned tables,
//! and no event after `closed`.

use std::time::Duration;

use yinsh_server::protocol::{
    Command, Request, SeatColor, ServerMessage, TableEvent, TableOptions, TableStatus, TimeSetting,
};
use yinsh_server::vocab::GameId;

use crate::common::{Client, TestServer, paused_config, seated_pair};

fn timed(minutes: u32, increment: u32) -> TableOptions {
    TableOptions {
        time: Some(TimeSetting { minutes, increment }),
        ..TableOptions::default()
    }
}

fn code<T>(r: Result<T, (String, String)>) -> String {
    match r {
        Ok(_) => "ok".to_owned(),
        Err((code, _)) => code,
    }
}

/// Moves tokio's clock on by `by` at once, then lets real time run again.
async fn jump(by: Duration) {
    tokio::time::pause();
    tokio::time::advance(by).await;
    tokio::time::resume();
}

#[tokio::test]
async fn takebacks_mint_no_time_are_limited_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
    let server = TestServer::on(&url, crate::common::fast_config()).await;
    let (table, mut white, mut black) = seated_pair(&server, timed(1, 60)).await;
    white.chat(&table, "/start").await.unwrap();
    // Act, take back, accept: three times; the clock never grows past the start.
    for _ in 0..3 {
        white.act(&table, "e3").await.unwrap();
        white.chat(&table, "/takeback").await.unwrap();
        black.chat(&table, "/accept").await.unwrap();
        black
            .event(|e| matches!(e, TableEvent::TookBack { .. }).then_some(()))
            .await;
        let clocks = black.game.as_ref().unwrap().clocks.unwrap();
        assert!(clocks.white_ms <= 60_000, "{clocks:?}");
        assert_eq!(clocks.black_ms, 60_000);
    }
    white.act(&table, "e3").await.unwrap();
    assert_eq!(
        code(white.chat(&table, "/takeback").await),
        "takeback_limit"
    );
    black.act(&table, "a5").await.unwrap();
    let before = black.game_after(2).await;
    assert_eq!(before.takebacks.white, 3);
    // Black takes back a5: the clocks are those after e3, stored with it.
    black.chat(&table, "/takeback").await.unwrap();
    white.chat(&table, "/accept").await.unwrap();
    let after = loop {
        let g = white.game_after(1).await;
        if g.moves.len() == 1 {
            break g;
        }
        white.recv().await;
    };
    let stored = server.store.game(GameId(after.id)).await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 1);
    assert_eq!(
        (stored.takebacks.white, stored.takebacks.black),
        (3, 1),
        "the counts are stored"
    );
    let e3 = &stored.actions[0];
    // A restart finds the same clocks and the same counts.
    let again = TestServer::on(&url, crate::common::fast_config()).await;
    let mut w2 = Client::connect(again.addr, Some(&white.cookie)).await;
    let view = w2.open(&table).await;
    let game = view.game.expect("restored");
    assert_eq!(game.moves, ["e3"]);
    assert_eq!(game.takebacks.white, 3);
    let clocks = game.clocks.unwrap();
    assert_eq!(Some(clocks.white_ms), e3.white_ms);
    // Black, to act, is not back yet: their clock waits for them.
    assert_eq!(Some(clocks.black_ms), e3.black_ms);
    assert_eq!(clocks.running, None);
    assert_eq!(code(w2.chat(&table, "/takeback").await), "takeback_limit");
}

#[tokio::test]
async fn no_game_starts_against_a_player_who_is_not_at_the_table() {
    let server = TestServer::start().await;
    let (table, mut white, black) = seated_pair(&server, timed(5, 0)).await;
    white.chat(&table, "/start").await.unwrap();
    white.chat(&table, "/resign").await.unwrap();
    // Black closes the tab without /leave; white shortens the clock and starts.
    drop(black);
    white
        .event(|e| matches!(e, TableEvent::Presence { online: false, .. }).then_some(()))
        .await;
    white.chat(&table, "/option time 1").await.unwrap();
    assert_eq!(code(white.chat(&table, "/start").await), "opponent_away");
}

#[tokio::test]
async fn a_game_barely_begun_is_aborted_without_a_result() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let mut spectator = server.client().await;
    spectator.open(&table).await;
    assert_eq!(code(white.chat(&table, "/abort").await), "no_game");
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    let id = spectator.game_after(1).await.id;
    assert_eq!(code(spectator.chat(&table, "/abort").await), "not_seated");
    black.command(&table, Command::Abort).await.unwrap();
    let by = spectator
        .event(|e| match e {
            TableEvent::Aborted { by } => Some(*by),
            _ => None,
        })
        .await;
    assert_eq!(by, Some(SeatColor::Black));
    let view = spectator.open(&table).await;
    assert!(view.game.is_none());
    assert_eq!(server.store.game(GameId(id)).await.unwrap(), None);
    // Later in a game it is too late.
    white.chat(&table, "/start").await.unwrap();
    for (p, a) in [(0, "e3"), (1, "a5"), (0, "b5"), (1, "c6")] {
        let c = if p == 0 { &mut white } else { &mut black };
        c.act(&table, a).await.unwrap();
    }
    assert_eq!(code(white.chat(&table, "/abort").await), "abort_too_late");
}

#[tokio::test]
async fn the_opponent_of_a_player_who_left_claims_the_win() {
    let server = TestServer::start_with(paused_config()).await;
    let (table, mut white, mut black) = seated_pair(&server, timed(10, 5)).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    drop(black);
    white
        .event(|e| matches!(e, TableEvent::Presence { online: false, .. }).then_some(()))
        .await;
    assert_eq!(code(white.chat(&table, "/claim").await), "cannot_claim");
    // 10+5 is a 40 s grace.
    jump(Duration::from_secs(41)).await;
    let by = white
        .event(|e| match e {
            TableEvent::Claimable { by } => Some(*by),
            _ => None,
        })
        .await;
    assert_eq!(by, SeatColor::White);
    assert_eq!(white.chat(&table, "/claim").await.unwrap().0, "claimed");
    let result = white
        .event(|e| match e {
            TableEvent::GameOver { result } => Some(result.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        (result.winner, result.termination.as_str()),
        (Some(SeatColor::White), "abandoned")
    );
}

#[tokio::test]
async fn an_untimed_game_both_players_left_is_adjudicated_and_its_table_closes() {
    let server = TestServer::start_with(paused_config()).await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    for (p, a) in [(0, "e3"), (1, "a5"), (0, "b5"), (1, "c6")] {
        let c = if p == 0 { &mut white } else { &mut black };
        c.act(&table, a).await.unwrap();
    }
    let id = white.game_after(4).await.id;
    drop(white);
    drop(black);
    // Five minutes later the game is over, stored as abandoned; the table is waiting.
    let mut result = None;
    for _ in 0..10 {
        jump(Duration::from_secs(61)).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        result = server.store.game(GameId(id)).await.unwrap().unwrap().result;
        if result.is_some() {
            break;
        }
    }
    let result = result.expect("adjudicated");
    assert_eq!(result.termination, "abandoned");
    // And the empty table closes.
    let mut gone = false;
    for _ in 0..10 {
        jump(Duration::from_secs(61)).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        if !server_tables(&server).await.iter().any(|t| t.id == table) {
            gone = true;
            break;
        }
        assert_ne!(
            server_tables(&server)
                .await
                .iter()
                .find(|t| t.id == table)
                .unwrap()
                .status,
            TableStatus::Playing
        );
    }
    assert!(gone, "the table closed");
}

async fn server_tables(server: &TestServer) -> Vec<yinsh_server::protocol::TableSummary> {
    let (_, body) = server.get("/api/tables").await;
    serde_json::from_str(&body).unwrap()
}

#[tokio::test]
async fn after_closed_no_event_of_the_table_arrives() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    for round in 0..30 {
        // White speaks or acts at the moment black closes the table.
        let request = if round == 0 {
            Request::Act {
                table: table.clone(),
                action: "e3".to_owned(),
                ply: None,
            }
        } else {
            Request::Chat {
                table: table.clone(),
                text: format!("line {round}"),
            }
        };
        let sent = white.send(request).await;
        let id = black
            .send(Request::Close {
                table: table.clone(),
            })
            .await;
        black
            .until(|m| {
                matches!(m, ServerMessage::Reply { id: Some(i), .. } if *i == id).then_some(())
            })
            .await;
        // Nothing of the table after the `closed` reply.
        let ping = black.send(Request::Ping).await;
        loop {
            match black.recv().await {
                ServerMessage::Pong { id: Some(i) } if i == ping => break,
                ServerMessage::Event { .. } | ServerMessage::Snapshot { .. } => {
                    panic!("an event after closed (round {round})")
                }
                _ => {}
            }
        }
        white
            .until(|m| {
                matches!(m, ServerMessage::Reply { id: Some(i), .. } if *i == sent).then_some(())
            })
            .await;
        black.open(&table).await;
    }
}
