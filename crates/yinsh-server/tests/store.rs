//! The store's behaviour, the same on SQLite and PostgreSQL, and a server restarted on
//! the same database.
//!
//! PostgreSQL runs when `YINSH_TEST_POSTGRES_URL` names a database (the test command
//! starts one on loopback and sets it, with `YINSH_REQUIRE_POSTGRES=1` so that a
//! missing database fails rather than skips).

use std::sync::Arc;

use yinsh_server::protocol::{Pair, TableOptions, TimeSetting, VariantName};
use yinsh_server::store::{
    ArchiveQuery, NewGame, SeatRecord, Store, StoreErrorKind, StoredAction, StoredResult,
};

use crate::common::{Client, TestServer, postgres_database, seated_pair};

fn seat(id: Option<i64>, name: &str, bot: Option<u8>) -> SeatRecord {
    SeatRecord {
        player_id: id,
        name: name.to_owned(),
        bot,
    }
}

fn action(token: &str, at: i64) -> StoredAction {
    StoredAction {
        token: token.to_owned(),
        white_ms: Some(59_000),
        black_ms: Some(60_000),
        at,
    }
}

/// Everything the server asks of a store, against `store` (empty).
async fn exercise(store: Arc<dyn Store>) {
    store.ping().await.unwrap();
    assert_eq!(store.session_player("nohash").await.unwrap(), None);
    let alice = store.create_guest("hash-a", "Alice").await.unwrap();
    let bob = store.create_guest("hash-b", "Bob_%").await.unwrap();
    assert_ne!(alice.id, bob.id);
    assert_eq!(
        store.session_player("hash-a").await.unwrap(),
        Some(alice.clone())
    );
    assert_eq!(
        store
            .create_guest("hash-a", "Again")
            .await
            .unwrap_err()
            .kind,
        StoreErrorKind::Conflict,
        "a token hash is unique"
    );

    let options = TableOptions {
        variant: VariantName::Blitz,
        handicap: Some(Pair { white: 1, black: 2 }),
        turn_limit: Some(40),
        time: Some(TimeSetting {
            minutes: 1,
            increment: 0,
        }),
        log: true,
    };
    let new = NewGame {
        table_id: "abc123".to_owned(),
        options: options.clone(),
        white: seat(Some(alice.id), "Alice", None),
        black: seat(None, "Engine (level 3)", Some(3)),
        started_at: 1_000,
    };
    let g1 = store.create_game(&new).await.unwrap();
    for (i, t) in ["e3", "a5", "b5"].iter().enumerate() {
        store
            .append_action(g1, i as u32, &action(t, 2_000 + i as i64))
            .await
            .unwrap();
    }
    assert_eq!(
        store
            .append_action(g1, 2, &action("b6", 9))
            .await
            .unwrap_err()
            .kind,
        StoreErrorKind::Conflict,
        "one action per ply"
    );
    store.truncate_actions(g1, 2).await.unwrap();
    store
        .append_action(g1, 2, &action("c6", 3_000))
        .await
        .unwrap();

    let unfinished = store.unfinished_games().await.unwrap();
    assert_eq!(unfinished.len(), 1);
    let u = &unfinished[0];
    assert_eq!(u.id, g1);
    assert_eq!(u.game, new);
    let tokens: Vec<&str> = u.actions.iter().map(|a| a.token.as_str()).collect();
    assert_eq!(tokens, ["e3", "a5", "c6"]);
    assert_eq!(u.actions[0].white_ms, Some(59_000));
    assert_eq!(u.result, None);

    // Not in the archive until finished.
    let q = ArchiveQuery {
        limit: 10,
        ..ArchiveQuery::default()
    };
    assert_eq!(store.archive(&q).await.unwrap().total, 0);
    let result = StoredResult {
        winner: Some("black".to_owned()),
        termination: "time".to_owned(),
        finished_at: 5_000,
    };
    store.finish_game(g1, &result, true).await.unwrap();
    assert!(store.unfinished_games().await.unwrap().is_empty());

    // A second game, not logged: gone when it ends.
    let g2 = store
        .create_game(&NewGame {
            white: seat(Some(bob.id), "Bob_%", None),
            black: seat(Some(alice.id), "Alice", None),
            started_at: 90_000_000,
            options: TableOptions {
                log: false,
                ..TableOptions::default()
            },
            ..new.clone()
        })
        .await
        .unwrap();
    store
        .append_action(g2, 0, &action("e3", 90_000_001))
        .await
        .unwrap();
    store
        .finish_game(
            g2,
            &StoredResult {
                winner: None,
                termination: "agreement".to_owned(),
                finished_at: 90_000_002,
            },
            false,
        )
        .await
        .unwrap();
    assert_eq!(store.game(g2).await.unwrap(), None);

    // A third, logged, to search among.
    let g3 = store
        .create_game(&NewGame {
            white: seat(Some(bob.id), "Bob_%", None),
            started_at: 200_000_000,
            ..new.clone()
        })
        .await
        .unwrap();
    store
        .finish_game(
            g3,
            &StoredResult {
                winner: Some("white".to_owned()),
                termination: "resignation".to_owned(),
                finished_at: 200_000_001,
            },
            true,
        )
        .await
        .unwrap();

    let all = store.archive(&q).await.unwrap();
    assert_eq!(all.total, 2);
    assert_eq!(all.games[0].id, g3, "newest first");
    assert_eq!(all.action_counts, [0, 3]);
    assert_eq!(all.games[1].result, Some(result));
    let search = |player: &str| ArchiveQuery {
        player: Some(player.to_owned()),
        limit: 10,
        ..ArchiveQuery::default()
    };
    assert_eq!(store.archive(&search("bob_")).await.unwrap().total, 1);
    assert_eq!(
        store.archive(&search("b_b")).await.unwrap().total,
        0,
        "_ is literal"
    );
    assert_eq!(store.archive(&search("ALICE")).await.unwrap().total, 1);
    assert_eq!(
        store.archive(&search("%")).await.unwrap().total,
        1,
        "% is literal"
    );
    let dated = ArchiveQuery {
        from: Some(100_000_000),
        limit: 10,
        ..ArchiveQuery::default()
    };
    assert_eq!(store.archive(&dated).await.unwrap().total, 1);
    let paged = ArchiveQuery {
        limit: 1,
        offset: 1,
        ..ArchiveQuery::default()
    };
    let page = store.archive(&paged).await.unwrap();
    assert_eq!((page.total, page.games[0].id), (2, g1));
    let full = store.game(g1).await.unwrap().unwrap();
    assert_eq!(full.actions.len(), 3);
}

#[tokio::test]
async fn sqlite_store() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("s.db").display());
    exercise(yinsh_server::store::open(&url).await.unwrap()).await;
}

#[tokio::test]
async fn postgres_store() {
    let Some(url) = postgres_database("store").await else {
        return;
    };
    exercise(yinsh_server::store::open(&url).await.unwrap()).await;
}

/// Plays some turns on a server, stops it, starts another on the same database, and
/// finds the game with its actions, its seats and fair clocks.
async fn restart(url: &str) {
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 10,
            increment: 0,
        }),
        ..TableOptions::default()
    };
    let config = crate::common::fast_config;
    let mut server = TestServer::on(url, config()).await;
    let (table, mut white, mut black) = seated_pair(&server, options).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    let before = white.game_after(2).await;
    let (cookie, name) = (white.cookie.clone(), white.player.name.clone());
    server.stop().await;
    drop(white);
    drop(black);
    // Down for a while: not charged to anyone.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;

    let server = TestServer::on(url, config()).await;
    let (_, body) = server.get("/api/tables").await;
    assert!(body.contains(&table), "{body}");
    let mut white = Client::connect(server.addr, Some(&cookie)).await;
    assert_eq!(white.player.name, name);
    let view = white.open(&table).await;
    assert_eq!(view.seats.white.unwrap().name, name);
    let game = view.game.unwrap();
    assert_eq!(game.moves, ["e3", "a5"]);
    let (b, a) = (before.clocks.unwrap(), game.clocks.unwrap());
    assert_eq!(a.black_ms, b.black_ms);
    assert!(
        a.white_ms + 300 > b.white_ms && a.white_ms <= b.white_ms + 50,
        "white had {b:?} before and {a:?} after"
    );
    // White still holds the seat and plays on.
    white
        .act(&table, "b5")
        .await
        .expect("white plays after the restart");
}

#[tokio::test]
async fn sqlite_restart_restores_games() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("r.db").display());
    restart(&url).await;
}

#[tokio::test]
async fn postgres_restart_restores_games() {
    let Some(url) = postgres_database("restart").await else {
        return;
    };
    restart(&url).await;
}
