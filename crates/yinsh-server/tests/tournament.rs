//! Arenas with the real server, through the lichess-shaped API: made with their limits
//! checked, joined by four players whose programs follow their events, paired by the
//! director, each game's end scored in the standings, paired again (never the same
//! opponent at once), results and games read back, and the standings the same after
//! a restart.

use serde_json::Value;

use crate::bot::{Lines, account, post};
use crate::common::{TestServer, http_send};

async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    let (status, body) = server.get(path).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// The standing's lines of arena `id`, as (name, score, sheet scores).
pub(crate) async fn standing(server: &TestServer, id: &str) -> Vec<(String, u64, String)> {
    let (status, body) = get(server, &format!("/api/tournament/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["standing"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["score"].as_u64().unwrap(),
                p["sheet"]["scores"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Waits until `f` holds of the standings (the director scores a game as it ends).
async fn standing_until(
    server: &TestServer,
    id: &str,
    f: impl Fn(&[(String, u64, String)]) -> bool,
) -> Vec<(String, u64, String)> {
    for _ in 0..200 {
        let lines = standing(server, id).await;
        if f(&lines) {
            return lines;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the standings never came: {:?}", standing(server, id).await);
}

/// The next game started on a player's event stream: its table and colour.
pub(crate) async fn game_start(events: &mut Lines) -> (String, String) {
    let start = events.until("gameStart").await;
    (
        start["game"]["id"].as_str().unwrap().to_owned(),
        start["game"]["color"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn an_arena_pairs_its_players_scores_each_game_and_pairs_them_again() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("arena.db").display()
    );
    arena_plays(&url).await;
}

#[tokio::test]
async fn an_arena_plays_on_postgres() {
    let Some(url) = crate::common::postgres_database("arena").await else {
        return;
    };
    arena_plays(&url).await;
}

async fn arena_plays(url: &str) {
    let mut server = TestServer::on(url, crate::common::fast_config()).await;
    let scopes = ["tournament:write", "board:play"];
    let mut players = Vec::new();
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        players.push((name, account(&server, name, &scopes).await.1));
    }
    let ann = players[0].1.clone();

    // Made: its limits are checked, and nothing is made when they are not kept.
    let make = |form: &'static str| {
        let token = ann.clone();
        let server = &server;
        async move { post(server, &token, "/api/tournament", form).await }
    };
    for (form, says) in [
        ("minutes=10&clockTime=3", "minutes"),
        ("minutes=20&clockTime=0", "clockTime"),
        ("minutes=20&clockTime=3&clockIncrement=99", "clockIncrement"),
        ("minutes=20&clockTime=3&variant=chess", "variant"),
        ("minutes=20", "clockTime"),
    ] {
        let (status, body) = make(form).await;
        assert_eq!(status, 400, "{form}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{form}: {body}"
        );
    }
    let (status, _, _) = http_send(server.addr, "POST", "/api/tournament", &[], "").await;
    assert_eq!(status, 401, "a token or a session is needed");
    let (status, body) =
        make("name=Evening+Arena&minutes=20&clockTime=3&clockIncrement=2&waitMinutes=0").await;
    assert_eq!(status, 200, "{body}");
    let id = body["id"].as_str().unwrap().to_owned();
    assert_eq!(body["fullName"], "Evening Arena");
    assert_eq!(body["clock"]["limit"], 180);
    assert_eq!(body["createdBy"], "Ann");
    let (_, list) = get(&server, "/api/tournament").await;
    let listed = |key: &str| {
        list[key]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str())
    };
    assert!(listed("created") || listed("started"), "{list}");

    // Joined by all four (twice is refused, an unknown arena is 404); their programs
    // follow their events, so they are here to be paired.
    let mut events = Vec::new();
    for (_, token) in &players {
        let (status, body) = post(&server, token, &format!("/api/tournament/{id}/join"), "").await;
        assert_eq!(status, 200, "{body}");
        let (status, lines) = Lines::open(server.addr, "/api/stream/event", token).await;
        assert_eq!(status, 200);
        events.push(lines);
    }
    let (status, body) = post(&server, &ann, &format!("/api/tournament/{id}/join"), "").await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = post(&server, &ann, "/api/tournament/nosuchid/join", "").await;
    assert_eq!(status, 404);

    // Two games; in each, White places a ring and Black resigns.
    let mut first = Vec::new();
    for e in events.iter_mut() {
        first.push(game_start(e).await);
    }
    let mut tables: Vec<&String> = first.iter().map(|(t, _)| t).collect();
    tables.sort();
    tables.dedup();
    assert_eq!(tables.len(), 2, "{first:?}");
    let token_of = |i: usize| players[i].1.as_str();
    let mut winners = Vec::new();
    for (i, (table, color)) in first.iter().enumerate() {
        if color == "white" {
            // White berserks first (once: a second time is refused); a win this short
            // earns no berserk point.
            let path = format!("/api/board/game/{table}/berserk");
            let (status, body) = post(&server, token_of(i), &path, "").await;
            assert_eq!(status, 200, "{body}");
            let (status, body) = post(&server, token_of(i), &path, "").await;
            assert_eq!(status, 400, "{body}");
            assert_eq!(body["code"], "cannot_berserk", "{body}");
            let (status, body) = post(
                &server,
                token_of(i),
                &format!("/api/board/game/{table}/move/e5"),
                "",
            )
            .await;
            assert_eq!(status, 200, "{body}");
            winners.push(players[i].0);
        }
    }
    for (i, (table, color)) in first.iter().enumerate() {
        if color == "black" {
            let (status, body) = post(
                &server,
                token_of(i),
                &format!("/api/board/game/{table}/resign"),
                "",
            )
            .await;
            assert_eq!(status, 200, "{body}");
        }
    }
    let lines = standing_until(&server, &id, |l| {
        l.iter().filter(|(_, s, _)| *s == 2).count() == 2
    })
    .await;
    let mut top: Vec<&str> = lines[..2].iter().map(|(n, _, _)| n.as_str()).collect();
    top.sort();
    winners.sort();
    assert_eq!(top, winners);
    assert_eq!(lines[0].2, "2");
    assert_eq!(lines[3].2, "0");

    // Paired again a few seconds later, never with the same opponent at once: the two
    // winners meet, and the two losers.
    let mut second = Vec::new();
    for e in events.iter_mut() {
        second.push(game_start(e).await);
    }
    for i in 0..4 {
        let partner = (0..4)
            .find(|&j| j != i && second[j].0 == second[i].0)
            .expect("everyone plays");
        let before = (0..4)
            .find(|&j| j != i && first[j].0 == first[i].0)
            .unwrap();
        assert_ne!(
            partner, before,
            "{} met {} twice in a row",
            players[i].0, players[before].0
        );
        let won = |k: usize| winners.contains(&players[k].0);
        assert_eq!(won(i), won(partner), "winners meet winners");
    }

    // The results in rank order, and the games that ended.
    let (status, _, body) = http_send(
        server.addr,
        "GET",
        &format!("/api/tournament/{id}/results"),
        &[],
        "",
    )
    .await;
    assert_eq!(status, 200);
    let results: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), 4);
    assert_eq!(results[0]["rank"], 1);
    assert_eq!(results[0]["score"], 2);
    assert_eq!(results[3]["score"], 0);
    let (status, _, body) = http_send(
        server.addr,
        "GET",
        &format!("/api/tournament/{id}/games"),
        &[],
        "",
    )
    .await;
    assert_eq!(status, 200);
    let games: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2, "{body}");
    assert!(games.iter().all(|g| g["tournament"] == id.as_str()));

    // A withdrawal after the start is a pause: the points stay; joining again unpauses.
    let (status, body) = post(&server, &ann, &format!("/api/tournament/{id}/withdraw"), "").await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = get(&server, &format!("/api/tournament/{id}")).await;
    let ann_line = body["standing"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Ann")
        .unwrap()
        .clone();
    assert_eq!(ann_line["withdraw"], true, "{ann_line}");

    // After a restart, the same standings.
    let before = standing(&server, &id).await;
    drop(events);
    server.stop().await;
    let server = TestServer::on(url, crate::common::fast_config()).await;
    assert_eq!(standing(&server, &id).await, before);
    let (status, body) = post(&server, &ann, &format!("/api/tournament/{id}/join"), "").await;
    assert_eq!(status, 200, "coming back: {body}");
}

/// A game of the arena that ended where the director did not hear it (another node,
/// or while it was down) is found in the store and scored; one that never began is
/// ended as aborted and scores nothing.
#[tokio::test]
async fn games_whose_end_was_not_heard_are_found_in_the_store() {
    use yinsh_server::game::store::{GameWrite, NewGame, SeatRecord, StoredAction, StoredResult};
    use yinsh_server::protocol::{TableOptions, TimeSetting, VariantName};
    use yinsh_server::tournament::store::{
        ArenaSettings, Status, StoredArena, StoredEntrant, StoredPairing,
    };

    let server = TestServer::start().await;
    let store = server.store.clone();
    let now = yinsh_server::now_ms();
    let mut ids = Vec::new();
    let names = ["Eve", "Fay", "Gus", "Hal"];
    for name in names {
        account(&server, name, &["tournament:write"]).await;
        ids.push(store.player_named(name).await.unwrap().unwrap().player.id);
    }
    let clock = TimeSetting {
        minutes: 3,
        increment: 2,
    };
    let arena = StoredArena {
        id: "unheard1".to_owned(),
        name: "Unheard".to_owned(),
        created_by: None,
        settings: ArenaSettings {
            minutes: 60,
            clock,
            variant: VariantName::Standard,
            rated: false,
            bots: false,
        },
        starts_at: now - 120_000,
        ends_at: now + 3_600_000,
        status: Status::Started,
        created_at: now - 120_000,
    };
    assert!(store.create_arena(&arena, 3).await.unwrap());
    for (i, name) in names.into_iter().enumerate() {
        let entrant = StoredEntrant {
            player: ids[i],
            name: name.to_owned(),
            bot: false,
            rating: 1500,
            joined_at: now - 100_000 + i as i64,
            paused: false,
        };
        store.join(&arena.id, &entrant).await.unwrap();
    }
    let pairing = |table: &str, (w, b): (usize, usize), ago: i64| StoredPairing {
        table: table.to_owned(),
        white: ids[w],
        black: ids[b],
        started_at: now - ago,
        end: None,
    };
    // Eve's win, stored by a table elsewhere; and a game of Gus and Hal that never
    // began.
    let kept = |p: StoredPairing| {
        let store = store.clone();
        let id = arena.id.clone();
        async move { store.add_pairing(&id, &p).await.unwrap() }
    };
    assert!(kept(pairing("t000001", (0, 1), 30_000)).await);
    assert!(kept(pairing("t000002", (2, 3), 90_000)).await);
    // Nobody plays two games of an arena at once: a second pairing of Eve is refused.
    assert!(!kept(pairing("t000003", (2, 0), 0)).await);
    let seat = |i: usize, name: &str| SeatRecord {
        player_id: Some(ids[i]),
        name: name.to_owned(),
        bot: None,
    };
    let game = NewGame {
        table_id: "t000001".to_owned(),
        options: TableOptions {
            time: Some(clock),
            tournament: Some(arena.id.clone()),
            ..TableOptions::default()
        },
        white: seat(0, "Eve"),
        black: seat(1, "Fay"),
        started_at: now - 30_000,
    };
    let id = store.create_game(&game, None).await.unwrap();
    let action = StoredAction {
        token: "e5".to_owned(),
        white_ms: Some(180_000),
        black_ms: Some(180_000),
        at: now - 29_000,
        to_act: Some(yinsh::Color::Black),
    };
    let write = GameWrite::Action {
        ply: 0,
        action,
        result: None,
    };
    store.write_game(id, &write, true, None).await.unwrap();
    let result = StoredResult {
        winner: Some("white".to_owned()),
        termination: "resignation".to_owned(),
        finished_at: now - 20_000,
    };
    store
        .write_game(id, &GameWrite::Result(result), true, None)
        .await
        .unwrap();
    server.ctx.tournaments.changed();

    let lines = standing_until(&server, &arena.id, |l| l.first().is_some_and(|l| l.1 == 2)).await;
    assert_eq!(lines[0], ("Eve".to_owned(), 2, "2".to_owned()));
    let fay = lines.iter().find(|l| l.0 == "Fay").unwrap();
    assert_eq!(fay, &("Fay".to_owned(), 0, "0".to_owned()));
    let pairings = store.pairings(&arena.id).await.unwrap();
    let ending = |table: &str| {
        pairings
            .iter()
            .find(|p| p.table == table)
            .and_then(|p| p.end)
            .map(|e| e.ending)
    };
    use yinsh_server::tournament::store::Ending;
    assert_eq!(ending("t000001"), Some(Ending::White));
    assert_eq!(ending("t000002"), Some(Ending::Aborted));
    assert!(pairings.iter().all(|p| p.table != "t000003"));
    // Her game over, Eve may be paired again.
    assert!(kept(pairing("t000004", (0, 2), 0)).await);
}

/// The server makes the next hourly and daily arenas by itself, once each, across a
/// restart.
#[tokio::test]
async fn an_hourly_and_a_daily_arena_are_always_coming() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("s.db").display());
    let coming = |list: &Value| -> Vec<(String, String)> {
        list["created"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["fullName"].as_str().unwrap().to_owned(),
                    t["id"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    // Started twice on the same database: one of each coming both times (made once).
    for _ in 0..2 {
        let mut server = TestServer::on(&url, crate::common::fast_config()).await;
        for _ in 0..100 {
            if coming(&get(&server, "/api/tournament").await.1).len() >= 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        // The director has looked by now (it does at once): nothing more was made.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let arenas = coming(&get(&server, "/api/tournament").await.1);
        let mut names: Vec<&str> = arenas.iter().map(|(n, _)| n.as_str()).collect();
        names.sort();
        assert_eq!(names, ["Daily Arena", "Hourly Arena"], "{arenas:?}");
        let (_, hourly) = get(&server, "/api/tournament").await;
        let hourly = hourly["created"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["fullName"] == "Hourly Arena")
            .unwrap()
            .clone();
        assert_eq!(hourly["createdBy"], "yinsh");
        assert_eq!(hourly["clock"]["limit"], 180);
        assert!(hourly["secondsToStart"].as_i64().unwrap() <= 3600);
        server.stop().await;
    }
}

/// Those who joined an arena are told when it begins, in their inbox.
#[tokio::test]
async fn joined_players_are_told_when_the_arena_begins() {
    let server = TestServer::start().await;
    let (mut browser, token) = account(&server, "Gil", &["tournament:write"]).await;
    let (status, body) = post(
        &server,
        &token,
        "/api/tournament",
        "name=Soon&minutes=20&clockTime=3&startDate=0",
    )
    .await;
    assert_eq!(status, 400, "a start in the past is refused: {body}");
    let soon = yinsh_server::now_ms() + 1_500;
    let form = format!("name=Soon&minutes=20&clockTime=3&startDate={soon}");
    let (status, body) = post(&server, &token, "/api/tournament", &form).await;
    assert_eq!(status, 200, "{body}");
    let id = body["id"].as_str().unwrap().to_owned();
    let (status, _) = post(&server, &token, &format!("/api/tournament/{id}/join"), "").await;
    assert_eq!(status, 200);
    for _ in 0..100 {
        let (_, inbox) = browser.send("GET", "/api/notifications", None).await;
        let told = inbox["notifications"].as_array().unwrap().iter().find(|n| {
            n["notice"]["kind"] == "tournament" && n["notice"]["tournament"] == id.as_str()
        });
        if let Some(told) = told {
            assert_eq!(told["notice"]["name"], "Soon");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("never told that the arena began");
}
