//! Server clocks: a player whose time runs out loses, also when disconnected and when
//! nobody sends anything (on paused tokio time).

use std::time::Duration;
use yinsh_server::vocab::GameId;

use yinsh_server::protocol::{
    Request, SeatColor, ServerMessage, TableEvent, TableOptions, TimeSetting,
};

use crate::common::{TestServer, seated_pair};

/// Moves tokio's clock on by `by` at once (firing the timers due), then lets real
/// time run again: with time paused for longer, the runtime would also jump over the
/// moments it waits for the database thread or a socket.
async fn jump(by: Duration) {
    tokio::time::pause();
    tokio::time::advance(by).await;
    tokio::time::resume();
}

#[tokio::test]
async fn a_disconnected_player_loses_on_time() {
    let server = TestServer::start_with(crate::common::paused_config()).await;
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 1,
            increment: 2,
        }),
        ..TableOptions::default()
    };
    let (table, mut white, mut black) = seated_pair(&server, options).await;
    let mut spectator = server.client().await;
    spectator.open(&table).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    white.act(&table, "b5").await.unwrap();
    // The increment was added after each completed turn.
    let clocks = spectator.game_after(3).await.clocks.unwrap();
    assert!(
        clocks.white_ms > 60_000 && clocks.white_ms <= 64_000,
        "{clocks:?}"
    );
    assert_eq!(clocks.running, Some(SeatColor::Black));
    let black_left = clocks.black_ms;

    // Black goes away; from now on time only moves when the runtime is idle, and
    // nothing is sent by anyone.
    drop(black);
    // Nobody sends anything from now on. The clock jumps (paused tokio time) to two
    // seconds before black's time is up: the game still runs.
    jump(Duration::from_millis(black_left - 2000)).await;
    let ping = spectator.send(Request::Ping).await;
    spectator
        .until(|m| matches!(m, ServerMessage::Pong { id: Some(i) } if *i == ping).then_some(()))
        .await;
    assert!(
        !spectator
            .events
            .iter()
            .any(|(_, e)| matches!(e, TableEvent::GameOver { .. })),
        "lost before the time was up"
    );
    // Past it: the server's own timer ends the game.
    jump(Duration::from_millis(2100)).await;
    let result = spectator
        .event(|e| match e {
            TableEvent::GameOver { result } => Some(result.clone()),
            _ => None,
        })
        .await;
    assert_eq!(result.termination, "time");
    assert_eq!(result.winner, Some(SeatColor::White));
    let game = spectator.game.clone().unwrap();
    let end = game.clocks.unwrap();
    assert_eq!((end.black_ms, end.running), (0, None));
    assert_eq!(end.white_ms, clocks.white_ms, "white's clock did not run");
    // The loss is stored (written again shortly if the store failed meanwhile: on
    // paused time, its timeouts can fire early).
    let stored = loop {
        let stored = server.store.game(GameId(game.id)).await.unwrap().unwrap();
        if let Some(result) = stored.result {
            break result;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(stored.termination, "time");
    // White's action after the flag is refused.
    assert_eq!(white.act(&table, "b6").await.unwrap_err().0, "no_game");
}
