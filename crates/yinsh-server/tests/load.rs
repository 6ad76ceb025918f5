//! The load generator in a short run: many games at once with spectators, nothing
//! refused, nothing missed, and every acknowledged action in the store.

use std::time::Duration;

use yinsh_client::load::{LoadConfig, run};

use yinsh_server::protocol::SeatColor;

use crate::common::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_action_is_stored_under_load() {
    let server = TestServer::start_with(yinsh_server::Config {
        bots: None,
        ..yinsh_server::Config::default()
    })
    .await;
    let config = LoadConfig {
        addr: server.addr.to_string(),
        games: 24,
        spectators: 3,
        think: Duration::from_millis(20),
        duration: Duration::from_secs(3),
        log: true,
        ..LoadConfig::default()
    };
    let report = run(config, |_| {}).await.expect("the run completes");
    assert_eq!(report.errors, 0, "{:?}", report.error_samples);
    assert_eq!(report.spectator_missed, 0);
    assert!(report.actions > 24 * 10, "only {} actions", report.actions);
    assert!(report.spectator_events >= report.actions * 3);
    assert!(report.server_peak_rss.is_some());
    // The server's processor time while playing (here the test's whole process).
    let cpu = report
        .server_cpu
        .expect("the server reports its processor time");
    assert!(cpu > 0.0 && cpu < 60.0, "{cpu} s");
    assert!(report.cpu_per_1000_actions().is_some());
    let mut checked = 0;
    for (game, tokens) in &report.acknowledged {
        let stored = server
            .store
            .game(yinsh_server::vocab::GameId(*game))
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("game {game} is not stored"));
        let stored: Vec<(usize, String)> = stored
            .actions
            .iter()
            .enumerate()
            .map(|(ply, a)| (ply, a.token.clone()))
            .collect();
        assert_eq!(stored, *tokens, "game {game}");
        checked += tokens.len();
    }
    assert_eq!(checked as u64, report.actions);
}

/// `yinsh seat-times` against a server with engine seats: whole games, every one of the
/// seat's decisions timed, the clocks read at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seat_times_of_whole_games_are_measured() {
    let server = TestServer::start_with(yinsh_server::Config {
        bots: Some(yinsh_server::builtin_bots()),
        ..crate::common::fast_config()
    })
    .await;
    let config = yinsh_client::seat_times::SeatConfig {
        addr: server.addr.to_string(),
        level: 1,
        time: Some(yinsh_server::protocol::TimeSetting {
            minutes: 5,
            increment: 0,
        }),
        full: false,
        games: 2,
        opponent_level: 4,
        opponent_time: Duration::from_millis(20),
    };
    let mut told = 0;
    let games = yinsh_client::seat_times::run(&config, |_| told += 1)
        .await
        .expect("the games are played");
    assert_eq!((games.len(), told), (2, 2));
    for (g, color) in games.iter().zip([SeatColor::White, SeatColor::Black]) {
        assert_eq!(g.engine, color);
        // At least its five placements, each timed, none of them long at level 1.
        assert!(g.decisions.len() >= 5, "{g:?}");
        assert!(
            g.decisions.iter().all(|d| *d < Duration::from_secs(5)),
            "{g:?}"
        );
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&g.score.as_str()),
            "{g:?}"
        );
        let left = g.engine_left.expect("a timed game ends with the clocks");
        assert!(
            left > Duration::ZERO && left <= Duration::from_secs(300),
            "{g:?}"
        );
        assert!(!g.engine_lost_on_time());
    }
}
