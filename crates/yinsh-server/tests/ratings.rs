//! Rated games with the real server on both stores: only accounts play them, the
//! result and both rating changes are stored together and announced together, once;
//! players' pages and leaderboards show them.

use std::sync::Arc;

use serde_json::json;
use yinsh_server::account::store::NewAccount;
use yinsh_server::game::store::{GameWrite, NewGame, SeatRecord, StoredResult};
use yinsh_server::protocol::{Command, TableEvent, TableOptions, TimeSetting};
use yinsh_server::rating::RatingCategory;
use yinsh_server::store::Store;

use crate::accounts::Browser;
use crate::common::{Client, TestServer, postgres_database};

fn rated(minutes: u32, increment: u32) -> TableOptions {
    TableOptions {
        time: Some(TimeSetting { minutes, increment }),
        rated: true,
        ..TableOptions::default()
    }
}

/// A registered player: their browser (for the HTTP API) and a connection.
async fn account(server: &TestServer, name: &str) -> (Browser, Client) {
    let mut browser = Browser::new(server.addr);
    assert_eq!(browser.send("POST", "/api/session", None).await.0, 200);
    let (status, body) = browser.register(name, "correct horse").await;
    assert_eq!(status, 201, "{body}");
    let client = Client::connect(server.addr, browser.cookie.as_deref()).await;
    assert_eq!(client.player.name, name);
    (browser, client)
}

async fn game_over(client: &mut Client) -> yinsh_server::protocol::ResultView {
    client
        .event(|e| match e {
            TableEvent::GameOver { result } => Some(result.clone()),
            _ => None,
        })
        .await
}

async fn rated_games(server: &TestServer) {
    let (mut ann, mut a) = account(server, "Ann").await;
    let (_bob, mut b) = account(server, "Bob").await;
    let mut guest = server.client().await;

    // A rated table needs a clock; guests may not sit at one, nor the engine.
    let casual = a.create(TableOptions::default()).await;
    a.open(&casual).await;
    a.chat(&casual, "/join white").await.unwrap();
    let refused = a.chat(&casual, "/option rated on").await.unwrap_err();
    assert_eq!(refused.0, "bad_option", "{refused:?}");

    let table = a.create(rated(5, 0)).await;
    for c in [&mut a, &mut b, &mut guest] {
        c.open(&table).await;
    }
    a.chat(&table, "/join white").await.unwrap();
    assert_eq!(
        guest.chat(&table, "/join black").await.unwrap_err().0,
        "rated_guest"
    );
    b.chat(&table, "/join black").await.unwrap();
    a.command(&table, Command::Start).await.unwrap();
    a.act(&table, "e3").await.unwrap();
    b.game_after(1).await;
    b.act(&table, "a5").await.unwrap();
    a.game_after(2).await;
    a.act(&table, "b5").await.unwrap();
    b.command(&table, Command::Resign).await.unwrap();
    let result = game_over(&mut a).await;
    let ratings = result.ratings.expect("a rated game announces its ratings");
    assert_eq!(game_over(&mut b).await, result, "both see the same");
    let (white, black) = (ratings.white, ratings.black);
    assert_eq!((white.before, black.before), (1500, 1500));
    assert!(white.after > 1500 && black.after < 1500, "{ratings:?}");
    assert!(white.provisional && black.provisional);
    // The game view keeps them for whoever comes later.
    let late = guest.open(&table).await;
    assert_eq!(late.game.unwrap().result.unwrap().ratings, Some(ratings));

    // Ann's page: the rating, the game, the history and the head-to-head.
    let (status, page) = ann.send("GET", "/api/player/ann?vs=BOB", None).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["name"], "Ann", "found ignoring case, shown as written");
    assert_eq!(page["online"], true);
    let quick = &page["ratings"][0];
    assert_eq!(quick["category"], "standard-quick");
    assert_eq!(quick["rating"], white.after);
    assert_eq!(
        (&quick["games"], &quick["wins"], &quick["losses"]),
        (&json!(1), &json!(1), &json!(0))
    );
    assert_eq!(quick["provisional"], true);
    assert_eq!(page["history"].as_array().unwrap().len(), 1);
    assert_eq!(page["history"][0]["rating"], white.after);
    assert_eq!(page["games"], 1);
    assert_eq!(page["recent"][0]["black"], "Bob");
    assert_eq!(page["recent"][0]["options"]["rated"], true);
    assert_eq!(
        page["head_to_head"],
        json!({"opponent": "Bob", "wins": 1, "draws": 0, "losses": 0})
    );
    // Guests have no page; names that cannot be accounts are not looked up.
    let guest_name = guest.player.name.clone();
    for name in [guest_name.as_str(), "nobody", "x", "a%25b"] {
        let (status, body) = ann.send("GET", &format!("/api/player/{name}"), None).await;
        assert_eq!(status, 404, "{name}: {body}");
    }
    // Not enough games for any leaderboard yet.
    let (status, board) = ann
        .send("GET", "/api/leaderboard?category=standard-quick", None)
        .await;
    assert_eq!((status, &board["players"]), (200, &json!([])));
    let (status, body) = ann
        .send("GET", "/api/leaderboard?category=chess", None)
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, all) = ann.send("GET", "/api/leaderboard", None).await;
    assert_eq!(status, 200);
    assert_eq!(all.as_array().unwrap().len(), 10, "every category");

    // The engine's levels with their estimated ratings, weakest first.
    let (status, levels) = ann.send("GET", "/api/engine", None).await;
    assert_eq!(status, 200);
    assert_eq!(levels.as_array().unwrap().len(), 10);
    assert_eq!(levels[0], json!({"level": 1, "rating": 800}));
    assert!(levels[9]["rating"].as_i64() > levels[8]["rating"].as_i64());

    // Who is online: the accounts by name, the guest counted.
    let (_, stats) = ann.send("GET", "/api/stats", None).await;
    assert_eq!(stats["accounts_online"], json!(["Ann", "Bob"]));
    assert_eq!(stats["players_online"], 3);

    // An aborted rated game changes nothing.
    b.chat(&table, "/leave").await.unwrap();
    a.chat(&table, "/leave").await.unwrap();
    b.chat(&table, "/join white").await.unwrap();
    a.chat(&table, "/join black").await.unwrap();
    b.command(&table, Command::Start).await.unwrap();
    b.command(&table, Command::Abort).await.unwrap();
    let (_, page) = ann.send("GET", "/api/player/Ann", None).await;
    assert_eq!(page["ratings"][0]["games"], 1);
}

#[tokio::test]
async fn sqlite_rated_games() {
    rated_games(&TestServer::start().await).await;
}

#[tokio::test]
async fn postgres_rated_games() {
    let Some(url) = postgres_database("ratings").await else {
        return;
    };
    rated_games(&TestServer::on(&url, crate::common::fast_config()).await).await;
}

/// Two accounts in `store`.
async fn two_accounts(store: &dyn Store) -> (SeatRecord, SeatRecord) {
    let mut seats = Vec::new();
    for (hash, name) in [("h-cleo", "Cleo"), ("h-dirk", "Dirk")] {
        let guest = store
            .create_guest(hash, &format!("{name}Guest"))
            .await
            .unwrap();
        let account = NewAccount {
            name: name.to_owned(),
            skeleton: yinsh_server::account::skeleton(name),
            password_hash: "$argon2id$not-checked-here".to_owned(),
        };
        store.register(hash, &account).await.unwrap();
        seats.push(SeatRecord {
            player_id: Some(guest.id),
            name: name.to_owned(),
            bot: None,
        });
    }
    let dirk = seats.pop().unwrap();
    (seats.pop().unwrap(), dirk)
}

fn result(winner: Option<&str>, at: i64) -> StoredResult {
    StoredResult {
        winner: winner.map(str::to_owned),
        termination: "resignation".to_owned(),
        finished_at: at,
    }
}

/// The store rates a game once however often its result is written, and only rated
/// games between two accounts.
async fn rated_once(store: Arc<dyn Store>) {
    let (cleo, dirk) = two_accounts(store.as_ref()).await;
    let new = |options: TableOptions, at: i64| NewGame {
        table_id: "t".to_owned(),
        options,
        white: cleo.clone(),
        black: dirk.clone(),
        started_at: at,
    };
    let day = 86_400_000;
    let game = store
        .create_game(&new(rated(10, 5), day), None)
        .await
        .unwrap();
    let write = GameWrite::Result(result(Some("black"), day + 60_000));
    let first = store
        .write_game(game, &write, true, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.white.category.name(), "standard-rapid");
    assert!(first.black.after > first.black.before);
    assert_eq!(first.white.before, 1500.0);
    // Written again (a retry after a lost answer): the same changes, nothing new.
    let again = store
        .write_game(game, &write, true, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again, first);
    let dirk_id = dirk.player_id.unwrap();
    let ratings = store.ratings(dirk_id).await.unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!((ratings[0].rating.games, ratings[0].wins), (1, 1));
    assert_eq!(store.rating_history(dirk_id).await.unwrap().len(), 1);

    // A casual game, and a rated one against a guest (the table would not start it;
    // the store does not trust that): no rating changes.
    let casual = store
        .create_game(&new(TableOptions::default(), day), None)
        .await
        .unwrap();
    let write = GameWrite::Result(result(Some("white"), day + 1));
    assert_eq!(
        store.write_game(casual, &write, true, None).await.unwrap(),
        None
    );
    let guest = store.create_guest("h-guest", "BraveLynx7").await.unwrap();
    let against_guest = NewGame {
        black: SeatRecord {
            player_id: Some(guest.id),
            name: guest.name.clone(),
            bot: None,
        },
        ..new(rated(10, 5), day)
    };
    let g = store.create_game(&against_guest, None).await.unwrap();
    assert_eq!(store.write_game(g, &write, true, None).await.unwrap(), None);
    assert_eq!(store.ratings(guest.id).await.unwrap(), vec![]);

    // Many rated games settle both ratings; then both are on the leaderboard, best
    // first, and nobody else. (Two players who only meet each other level off near a
    // deviation of 76: the bar here is 80; the site's is 75.)
    let mut at = day * 2;
    let mut settled = false;
    for i in 0..200 {
        at += 600_000;
        let g = store
            .create_game(&new(rated(10, 5), at), None)
            .await
            .unwrap();
        let winner = if i % 3 == 0 { "black" } else { "white" };
        let write = GameWrite::Result(result(Some(winner), at + 1));
        store
            .write_game(g, &write, true, None)
            .await
            .unwrap()
            .unwrap();
        let board = store
            .leaderboard(RatingCategory::StandardRapid, 80.0, 10, 10)
            .await
            .unwrap();
        if board.len() == 2 {
            assert!(board[0].1.rating.rating >= board[1].1.rating.rating);
            assert!(board.iter().all(|(_, r)| r.rating.deviation <= 80.0));
            assert!(i + 2 >= 10, "ten games at least");
            settled = true;
            break;
        }
    }
    assert!(settled, "ratings settle within 200 games");
    assert_eq!(
        store
            .leaderboard(RatingCategory::BlitzRapid, 75.0, 10, 10)
            .await
            .unwrap()
            .len(),
        0
    );
    let cleo_id = cleo.player_id.unwrap();
    let h2h = store.head_to_head(cleo_id, dirk_id).await.unwrap();
    let history = store.rating_history(cleo_id).await.unwrap();
    assert_eq!(
        (h2h.wins + h2h.draws + h2h.losses) as usize,
        history.len() + 1
    );
    assert_eq!(
        history.len() as u32,
        store.ratings(cleo_id).await.unwrap()[0].rating.games
    );
    let colors = store.recent_colors(cleo_id, 3).await.unwrap();
    assert_eq!(colors, vec![yinsh::Color::White; 3]);
}

#[tokio::test]
async fn sqlite_rates_once() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("r.db").display());
    rated_once(yinsh_server::store::open(&url).await.unwrap()).await;
}

#[tokio::test]
async fn postgres_rates_once() {
    let Some(url) = postgres_database("rates_once").await else {
        return;
    };
    rated_once(yinsh_server::store::open(&url).await.unwrap()).await;
}

/// Property: whatever the games and however often each result is written (retries),
/// every rated game between two accounts moves each rating once — the games counted in
/// the ratings are the rated games finished, each write of one game gives the same
/// changes, and a win never lowers the winner's rating.
#[test]
fn ratings_move_once_per_game_whatever_is_written_again() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // (winner: white, black or a draw; rated; times written)
    let games = proptest::collection::vec((0..3u8, any::<bool>(), 1..4usize), 1..12);
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&games, |games| {
        rt.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}?mode=rwc", dir.path().join("p.db").display());
            let store = yinsh_server::store::open(&url).await.unwrap();
            let (cleo, dirk) = two_accounts(store.as_ref()).await;
            let (cleo_id, dirk_id) = (cleo.player_id.unwrap(), dirk.player_id.unwrap());
            let mut rated_games = 0;
            for (i, (winner, is_rated, writes)) in games.iter().enumerate() {
                let at = 86_400_000 + i as i64 * 600_000;
                let options = if *is_rated {
                    rated(10, 5)
                } else {
                    TableOptions::default()
                };
                let new = NewGame {
                    table_id: "t".to_owned(),
                    options,
                    white: cleo.clone(),
                    black: dirk.clone(),
                    started_at: at,
                };
                let id = store.create_game(&new, None).await.unwrap();
                let winner = [Some("white"), Some("black"), None][*winner as usize];
                let write = GameWrite::Result(result(winner, at + 1));
                let before = store.ratings(cleo_id).await.unwrap();
                let first = store.write_game(id, &write, true, None).await.unwrap();
                for _ in 1..*writes {
                    let again = store.write_game(id, &write, true, None).await.unwrap();
                    prop_assert_eq!(&again, &first);
                }
                prop_assert_eq!(first.is_some(), *is_rated);
                if let Some(changes) = &first {
                    rated_games += 1;
                    prop_assert_eq!(
                        before.first().map_or(1500.0, |r| r.rating.rating),
                        changes.white.before
                    );
                    match winner {
                        Some("white") => prop_assert!(changes.white.after >= changes.white.before),
                        Some("black") => prop_assert!(changes.black.after >= changes.black.before),
                        _ => {}
                    }
                }
            }
            for id in [cleo_id, dirk_id] {
                let ratings = store.ratings(id).await.unwrap();
                let counted = ratings.first().map_or(0, |r| r.rating.games);
                prop_assert_eq!(counted, rated_games);
                let history = store.rating_history(id).await.unwrap();
                prop_assert_eq!(history.len() as u32, rated_games);
            }
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
