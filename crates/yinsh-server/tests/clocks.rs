//! Server clocks: a player whose time runs out loses, also when disconnected and when
//! nobody sends anything (on paused tokio time).

use std::time::Duration;

use yinsh_server::protocol::{SeatColor, ServerMessage, TableEvent, TableOptions, TimeSetting};

use crate::common::{TestServer, seated_pair};

#[tokio::test]
async fn a_disconnected_player_loses_on_time() {
    // No keep-alive timers before the flag: on paused time they would fire at once.
    let server = TestServer::start_with(yinsh_server::Config {
        ping_every: Duration::from_secs(3600),
        idle_timeout: Duration::from_secs(7200),
        ..crate::common::fast_config()
    })
    .await;
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
    tokio::time::pause();
    let start = tokio::time::Instant::now();
    let result = loop {
        if let ServerMessage::Event {
            event: TableEvent::GameOver { result },
            ..
        } = spectator.recv_untimed().await
        {
            break result;
        }
    };
    let waited = start.elapsed();
    tokio::time::resume();
    assert_eq!(result.termination, "time");
    assert_eq!(result.winner, Some(SeatColor::White));
    // Not before black's time was up. (How long after is not measurable here: once
    // the flag falls, storing the result lets paused time run on to other timers.)
    assert!(
        waited + Duration::from_millis(100) >= Duration::from_millis(black_left),
        "lost after {waited:?} with {black_left} ms left"
    );
    let game = spectator.game.clone().unwrap();
    let end = game.clocks.unwrap();
    assert_eq!((end.black_ms, end.running), (0, None));
    assert_eq!(end.white_ms, clocks.white_ms, "white's clock did not run");
    // The loss is stored (written again shortly if the store failed meanwhile: on
    // paused time, its timeouts can fire early).
    let stored = loop {
        let stored = server.store.game(game.id).await.unwrap().unwrap();
        if let Some(result) = stored.result {
            break result;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(stored.termination, "time");
    // White's action after the flag is refused.
    assert_eq!(white.act(&table, "b6").await.unwrap_err().0, "no_game");
}
