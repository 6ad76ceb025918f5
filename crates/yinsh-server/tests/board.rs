//! The analysis board with the real server: positions and records read over HTTP, the
//! engine's live lines over the WebSocket, and tables that begin from a position
//! ("play on from here") — played, taken back, archived with their start, analysed and
//! played by the engine.

use std::time::Duration;

use serde_json::{Value, json};
use yinsh::Position;
use yinsh::notation::record::Record;
use yinsh_server::protocol::{
    Command, OptionChange, PositionLine, Request, SeatColor, ServerMessage, TableOptions,
    VariantName,
};
use yinsh_server::{Config, builtin_bots};

use crate::common::{TestServer, fast_config, http_send, seated_pair};

/// Black to move after `c3 a2 k10 a5 i4 b7 j5 e10 g2 h11` and nine ring moves, with
/// one white ring removed (docs/notation.md).
const MIDGAME: &str = "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b move 1-0 3-3 9";

async fn post(server: &TestServer, path: &str, body: &str) -> (u16, Value) {
    let (status, _, text) = http_send(
        server.addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        body,
    )
    .await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn positions_and_records_are_read_for_the_board() {
    let server = TestServer::start().await;
    // The empty board, and two placements from it.
    let (status, body) = post(&server, "/api/position", "{}").await;
    assert_eq!(status, 200, "{body}");
    let line: PositionLine = serde_json::from_value(body).unwrap();
    assert_eq!(line.positions.len(), 1);
    assert_eq!(line.positions[0].frame.position, Position::new().to_fen());
    assert_eq!(line.positions[0].legal.len(), 85);
    let (_, body) = post(&server, "/api/position", r#"{"actions":["e3","a5"]}"#).await;
    let line: PositionLine = serde_json::from_value(body).unwrap();
    assert_eq!(line.positions[2].frame.board.rings.black, vec!["a5"]);
    assert_eq!(line.positions[2].frame.to_move, SeatColor::White);

    // From a position, with its rules; the legal actions are the rules library's.
    let body = json!({"position": MIDGAME, "actions": ["b6-b3"]}).to_string();
    let (status, body) = post(&server, "/api/position", &body).await;
    assert_eq!(status, 200, "{body}");
    let line: PositionLine = serde_json::from_value(body).unwrap();
    let start = Position::from_fen(MIDGAME).unwrap();
    let legal: Vec<String> = start
        .legal_actions()
        .iter()
        .map(|a| a.to_string())
        .collect();
    assert_eq!(line.positions[0].legal, legal);
    assert_eq!(line.positions[0].frame.removed.white, 1);
    assert_eq!(line.positions[1].frame.to_move, SeatColor::White);

    // Refused with a reason, and which action could not be played.
    let (status, body) = post(&server, "/api/position", r#"{"actions":["e3","e3"]}"#).await;
    assert_eq!((status, body["index"].as_u64()), (422, Some(1)), "{body}");
    assert!(body["error"].as_str().unwrap().contains("'e3'"), "{body}");
    // Not JSON is a 400, JSON of the wrong shape a 422 (as axum answers them).
    for (bad, expected) in [
        (r#"{"position":"4/7/8 w place"}"#, 400),
        ("not json", 400),
        (r#"{"actions":"e3"}"#, 422),
        (r#"{"moves":[]}"#, 422),
    ] {
        let (status, body) = post(&server, "/api/position", bad).await;
        assert_eq!(status, expected, "{bad}: {body}");
        assert!(body["error"].is_string(), "{bad}: {body}");
    }
    let many = json!({ "actions": vec!["e3"; 601] }).to_string();
    assert_eq!(post(&server, "/api/position", &many).await.0, 400);
    let huge = format!(r#"{{"position":"{}"}}"#, "x".repeat(20_000));
    assert_eq!(post(&server, "/api/position", &huge).await.0, 413);

    // Records in our format and boardspace SGF files, through the importers.
    let text = format!("[White \"ann\"]\n[Position \"{MIDGAME}\"]\n\n2.b6-b3 *\n");
    let (status, body) = post(&server, "/api/record/parse", &text).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["white"], "ann");
    assert_eq!(body["actions"], json!(["b6-b3"]));
    assert_eq!(body["positions"][0]["position"], MIDGAME);
    assert!(body["record"].as_str().unwrap().contains("[Position"));
    let sgf = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../yinsh/tests/fixtures/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf"
    ))
    .unwrap();
    let (status, body) = post(&server, "/api/record/parse", &sgf).await;
    assert_eq!(status, 200, "{body}");
    let actions = body["actions"].as_array().unwrap().len();
    assert!(actions > 40, "{actions}");
    assert_eq!(body["positions"].as_array().unwrap().len(), actions + 1);
    assert_eq!(body["result"]["score"], "0-1");
    for bad in ["1.e3 2.e3", "(;GM[24]"] {
        let (status, body) = post(&server, "/api/record/parse", bad).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("not a readable")
        );
    }
    let big = "e3 ".repeat(100_000);
    assert_eq!(post(&server, "/api/record/parse", &big).await.0, 413);
}

/// The engine lines `client` receives for `position` until the last one.
async fn lines_until_done(
    client: &mut crate::common::Client,
    position: &str,
) -> Vec<(u32, Vec<String>, f64)> {
    let mut lines = Vec::new();
    loop {
        if let ServerMessage::EngineLine {
            position: p,
            depth,
            line,
            movers,
            eval,
            done,
            id,
            ..
        } = client.recv_untimed().await
        {
            if p == position {
                assert!(id.is_some(), "lines name the request they answer");
                // Who plays each action of the line, as the rules say.
                let mut pos = Position::from_fen(position).unwrap();
                assert_eq!(movers.len(), line.len());
                for (token, mover) in line.iter().zip(&movers) {
                    assert_eq!(SeatColor::from(pos.turn()), *mover, "{line:?}");
                    pos.play(token.parse().unwrap()).unwrap();
                }
                lines.push((depth, line, eval.white_chance));
                if done {
                    return lines;
                }
            }
        }
    }
}

#[tokio::test]
async fn the_engine_thinks_aloud_about_a_position() {
    let server = TestServer::start_with(Config {
        live_time: Duration::from_millis(700),
        ..fast_config()
    })
    .await;
    let mut client = server.client().await;
    let (key, _) = client
        .call(Request::Analyse {
            position: MIDGAME.to_owned(),
        })
        .await
        .unwrap();
    assert_eq!(key, "analysing");
    // The one slot is taken: another connection's position waits its turn, and says so.
    let mut other = server.client().await;
    let empty = Position::new().to_fen();
    let (key, _) = other
        .call(Request::Analyse {
            position: empty.clone(),
        })
        .await
        .unwrap();
    assert_eq!(key, "analysis_queued");
    let lines = tokio::time::timeout(
        Duration::from_secs(30),
        lines_until_done(&mut client, MIDGAME),
    )
    .await
    .expect("a search of 0.7 s ends");
    let queued = tokio::time::timeout(
        Duration::from_secs(30),
        lines_until_done(&mut other, &empty),
    )
    .await
    .expect("the waiting search runs after it");
    assert!(!queued.is_empty());
    assert!(lines.len() >= 2, "{lines:?}");
    let start = Position::from_fen(MIDGAME).unwrap();
    for (depth, line, chance) in &lines {
        assert!(*depth >= 1 && (0.0..=1.0).contains(chance));
        // Every line is playable from the position.
        let mut pos = start;
        for token in line {
            pos.play(token.parse().unwrap()).unwrap();
        }
    }
    assert!(lines.windows(2).all(|w| w[0].0 <= w[1].0), "depths grow");
    // White has a ring out already: the engine sees White ahead.
    assert!(lines.last().unwrap().2 > 0.5, "{lines:?}");

    // A finished position gets its result at once; nonsense is refused.
    let over = "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 w end 1-0 1-1 9";
    client
        .call(Request::Analyse {
            position: over.to_owned(),
        })
        .await
        .unwrap();
    let lines = lines_until_done(&mut client, over).await;
    assert_eq!(lines, vec![(0, vec![], 1.0)]);
    let refused = client
        .call(Request::Analyse {
            position: "4/7/8".to_owned(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.0, "bad_position");

    // A new position ends the search before; stop_analyse ends this one.
    client
        .call(Request::Analyse {
            position: MIDGAME.to_owned(),
        })
        .await
        .unwrap();
    client
        .call(Request::Analyse {
            position: empty.clone(),
        })
        .await
        .unwrap();
    assert_eq!(
        client.call(Request::StopAnalyse).await.unwrap().0,
        "analysis_stopped"
    );
    let quiet = tokio::time::timeout(Duration::from_millis(1500), async {
        loop {
            if let ServerMessage::EngineLine { done: true, .. } = client.recv_untimed().await {
                return;
            }
        }
    })
    .await;
    assert!(quiet.is_err(), "a stopped search does not finish");

    // A server without live engines says so.
    let off = TestServer::start_with(Config {
        live_engines: 0,
        ..fast_config()
    })
    .await;
    let mut client = off.client().await;
    let refused = client
        .call(Request::Analyse { position: empty })
        .await
        .unwrap_err();
    assert_eq!(refused.0, "bots_disabled");
}

#[tokio::test]
async fn a_table_begins_from_a_position_and_keeps_it() {
    let server = TestServer::start().await;
    // The position's rules win over the options' (blitz asked, standard given).
    let options = TableOptions {
        variant: VariantName::Blitz,
        position: Some(MIDGAME.to_owned()),
        ..TableOptions::default()
    };
    let (table, mut white, mut black) = seated_pair(&server, options).await;
    let summary = server_summary(&server, &table).await;
    assert_eq!(summary["options"]["variant"], "standard");
    assert_eq!(summary["options"]["position"], MIDGAME);
    // Its rules cannot change, and it is never rated.
    for change in [
        OptionChange::Variant {
            variant: VariantName::Blitz,
        },
        OptionChange::Handicap { white: 2, black: 3 },
        OptionChange::Turns { limit: Some(30) },
        OptionChange::Rated { on: true },
    ] {
        let refused = white
            .command(&table, Command::Option { change })
            .await
            .unwrap_err();
        assert_eq!(refused.0, "bad_option", "{refused:?}");
    }
    white.command(&table, Command::Start).await.unwrap();
    let game = black.game_after(0).await;
    assert_eq!(game.position, MIDGAME);
    assert_eq!(game.to_move, SeatColor::Black);
    assert_eq!(game.removed.white, 1);
    black.act(&table, "b6-b3").await.unwrap();
    white.game_after(1).await;
    white.act(&table, "g2-g5").await.unwrap();
    black.game_after(2).await;
    // A takeback goes back to the position, not to the empty board.
    black.chat(&table, "/takeback").await.unwrap();
    white.chat(&table, "/accept").await.unwrap();
    let back = loop {
        let game = white.game_after(0).await;
        if game.moves.is_empty() {
            break game;
        }
        white.recv().await;
    };
    assert_eq!(back.position, MIDGAME);
    black.game_after(0).await;
    black.act(&table, "b6-b3").await.unwrap();
    white.game_after(1).await;
    white.command(&table, Command::Resign).await.unwrap();
    let id = loop {
        let game = black.game_after(1).await;
        if game.result.is_some() {
            break game.id;
        }
        black.recv().await;
    };

    // The archive keeps the start: frames from it, a record that names it.
    let (status, body) = server.get(&format!("/api/archive/{id}")).await;
    assert_eq!(status, 200, "{body}");
    let archived: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(archived["options"]["position"], MIDGAME);
    assert_eq!(archived["frames"][0]["removed"]["white"], 1);
    let record = Record::parse(archived["record"].as_str().unwrap()).unwrap();
    assert_eq!(record.position, Some(Position::from_fen(MIDGAME).unwrap()));
    assert_eq!(record.actions.len(), 1);
    let (_, text) = server.get(&format!("/api/archive/{id}/record")).await;
    assert!(
        text.contains(&format!("[Position \"{MIDGAME}\"]")),
        "{text}"
    );
    assert!(text.contains("2.b6-b3"), "{text}");

    // Nonsense, a finished game, or a rated game from a position: refused.
    let mut other = server.client().await;
    for (position, rated) in [
        ("4/7/8", false),
        ("bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 w end 1-0 1-1 9", false),
        (MIDGAME, true),
    ] {
        let options = TableOptions {
            position: Some(position.to_owned()),
            rated,
            time: Some(yinsh_server::protocol::TimeSetting {
                minutes: 5,
                increment: 0,
            }),
            ..TableOptions::default()
        };
        let refused = other
            .call(Request::CreateTable { options })
            .await
            .unwrap_err();
        assert_eq!(refused.0, "bad_option", "{position}");
    }
}

/// The lobby's summary of `table`, as JSON.
async fn server_summary(server: &TestServer, table: &str) -> Value {
    let (_, body) = server.get("/api/tables").await;
    let tables: Value = serde_json::from_str(&body).unwrap();
    tables
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == table)
        .cloned()
        .unwrap_or_else(|| panic!("{table} in {tables}"))
}

#[tokio::test]
async fn the_engine_plays_on_from_a_position_and_the_game_is_analysed() {
    let server = TestServer::start_with(Config {
        bots: Some(builtin_bots()),
        analysis_workers: 1,
        analysis_nodes: 2_000,
        ..fast_config()
    })
    .await;
    let mut human = server.client().await;
    let table = human
        .create(TableOptions {
            position: Some(MIDGAME.to_owned()),
            ..TableOptions::default()
        })
        .await;
    human.open(&table).await;
    human.chat(&table, "/join white").await.unwrap();
    human.chat(&table, "/bot 1").await.unwrap();
    human.chat(&table, "/start").await.unwrap();
    // The engine (black) acts first from the position, legally.
    let game = human.game_after(1).await;
    let mut pos = Position::from_fen(MIDGAME).unwrap();
    pos.play(game.moves[0].parse().unwrap())
        .expect("the engine plays from the position");
    assert_eq!(game.position, pos.to_fen());
    human.command(&table, Command::Resign).await.unwrap();
    let id = loop {
        let game = human.game_after(1).await;
        if game.result.is_some() {
            break game.id;
        }
        human.recv().await;
    };
    // Its analysis searches from the position.
    let path = format!("/api/archive/{id}/analysis");
    let (status, _, _) = http_send(
        server.addr,
        "POST",
        &path,
        &[("Origin", &format!("http://{}", server.addr))],
        "",
    )
    .await;
    assert_eq!(status, 202);
    let result = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let (_, body) = server.get(&path).await;
            let state: Value = serde_json::from_str(&body).unwrap();
            if state["state"] == "done" {
                return state;
            }
            assert_ne!(state["state"], "failed", "{state}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("analysed");
    assert_eq!(result["result"]["actions"].as_array().unwrap().len(), 1);
    // White is a ring up at the start: the engine sees it.
    assert!(result["result"]["start"]["white_chance"].as_f64().unwrap() > 0.5);
}
