//! Open game data with the real server: the archive streamed as a file of records or as
//! NDJSON, with clock times, filtered by player, days, ratedness and number; bad
//! parameters refused.

use serde_json::Value;
use yinsh::notation::record::Record;
use yinsh_server::protocol::{Command, TableOptions, TimeSetting};

use crate::accounts::Browser;
use crate::common::{Client, TestServer, http_send, seated_pair};

/// A short timed game between `white` and `black` at a new table, resigned by Black.
async fn play(white: &mut Client, black: &mut Client) {
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 3,
            increment: 2,
        }),
        ..TableOptions::default()
    };
    let table = white.create(options).await;
    white.open(&table).await;
    black.open(&table).await;
    white.chat(&table, "/join white").await.unwrap();
    black.chat(&table, "/join black").await.unwrap();
    white.command(&table, Command::Start).await.unwrap();
    let done = white.game_after(0).await.moves.len();
    white.act(&table, "e3").await.unwrap();
    black.game_after(done + 1).await;
    black.act(&table, "a5").await.unwrap();
    white.game_after(done + 2).await;
    black.command(&table, Command::Resign).await.unwrap();
    loop {
        if white.game_after(2).await.result.is_some() {
            break;
        }
        white.recv().await;
    }
}

async fn export(server: &TestServer, query: &str, ndjson: bool) -> (u16, String) {
    let accept = if ndjson {
        "application/x-ndjson"
    } else {
        "*/*"
    };
    let path = format!("/api/games/export{query}");
    let (status, _, body) = http_send(server.addr, "GET", &path, &[("Accept", accept)], "").await;
    (status, body)
}

#[tokio::test]
async fn the_archive_is_exported_as_records_or_ndjson() {
    let server = TestServer::start().await;
    // Two games of guests, one of Ann's.
    let (_, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    play(&mut white, &mut black).await;
    play(&mut black, &mut white).await;
    let mut ann = Browser::new(server.addr);
    assert_eq!(ann.register("Ann", "a long password").await.0, 201);
    let mut ann = Client::connect(server.addr, ann.cookie.as_deref()).await;
    play(&mut ann, &mut white).await;

    // Every game, newest first, as a file of records with their clock times.
    let (status, text) = export(&server, "", false).await;
    assert_eq!(status, 200);
    let records = Record::parse_all(&text).unwrap();
    assert_eq!(records.len(), 3, "{text}");
    assert_eq!(records[0].white, "Ann");
    for r in &records {
        assert_eq!(r.actions.len(), 2);
        assert_eq!(r.clocks.len(), 2, "clock times after each turn");
        assert!(r.header("Game").is_some());
    }
    // As NDJSON: one game a line, with the actions' clocks and the record.
    let (status, lines) = export(&server, "?max=2", true).await;
    assert_eq!(status, 200);
    let games: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["white"]["name"], "Ann");
    assert_eq!(games[0]["moves"][0]["action"], "e3");
    assert!(games[0]["moves"][0]["white_ms"].is_number());
    assert_eq!(games[0]["result"]["termination"], "resignation");
    assert!(Record::parse(games[0]["record"].as_str().unwrap()).is_ok());

    // Filters: a player, days, ratedness.
    let (_, text) = export(&server, "?player=ann", false).await;
    assert_eq!(Record::parse_all(&text).unwrap().len(), 1);
    assert_eq!(export(&server, "?player=nobody", false).await.0, 404);
    assert_eq!(export(&server, "?rated=true", false).await.1, "");
    let today = yinsh::notation::date::record_date(yinsh_server::now_ms() / 1000).replace('.', "-");
    let (_, text) = export(&server, &format!("?since={today}&until={today}"), false).await;
    assert_eq!(Record::parse_all(&text).unwrap().len(), 3);
    let (_, text) = export(&server, "?until=2020-01-01", false).await;
    assert_eq!(text, "");
    for bad in [
        "?max=0",
        "?max=x",
        "?since=2026-13-01",
        "?rated=maybe",
        "?color=white",
    ] {
        let (status, body) = export(&server, bad, false).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
}

#[tokio::test]
async fn an_export_of_hundreds_of_games_streams_every_one_to_its_result() {
    let server = TestServer::start().await;
    // 250 random games played to their end, stored as imports (three pages of 100).
    let mut rng = yinsh::random::SplitMix64::new(17);
    let mut finals = Vec::new();
    for i in 0..250i64 {
        let (game, actions, result, end) = yinsh_server::testkit::random_import(&mut rng, i);
        server
            .store
            .import_game(&game, &actions, &result)
            .await
            .unwrap();
        finals.push(end);
    }
    let (status, text) = export(&server, "", false).await;
    assert_eq!(status, 200);
    let records = Record::parse_all(&text).unwrap();
    assert_eq!(records.len(), 250);
    // Newest first; each replays to its stored end (parse_all checked the results).
    for (record, end) in records.iter().zip(finals.iter().rev()) {
        assert_eq!(record.replay().unwrap(), *end);
    }
    let (_, lines) = export(&server, "?max=150", true).await;
    assert_eq!(lines.lines().count(), 150);
}
