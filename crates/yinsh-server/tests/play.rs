//! Whole games through real connections: a fixture game to its result with a
//! spectator, the archive with `log on` and `log off`, reconnecting mid-game.

use yinsh::notation::record::Record;
use yinsh::{Action, Position, Stage};
use yinsh_server::protocol::{
    ArchivePage, ArchivedGame, Command, OptionChange, Request, SeatColor, ServerMessage, Since,
    StageName, TableEvent, TableOptions,
};
use yinsh_server::vocab::GameId;

use crate::common::{Client, TestServer, seated_pair};

fn fixture() -> Record {
    Record::parse(include_str!("fixtures/opponent-row.txt")).expect("fixture reads")
}

/// Plays `actions` at `table`, each by the client whose turn it is.
async fn play(table: &str, white: &mut Client, black: &mut Client, actions: &[Action]) {
    let mut pos = Position::new();
    for (i, a) in actions.iter().enumerate() {
        let mover = match pos.turn() {
            yinsh::Color::White => &mut *white,
            yinsh::Color::Black => &mut *black,
        };
        let token = a.to_string();
        let r = mover.act(table, &token).await;
        assert!(r.is_ok(), "action {i} {token}: {r:?}");
        pos.play(*a).unwrap();
    }
}

#[tokio::test]
async fn a_recorded_game_is_played_to_its_result_and_archived() {
    let record = fixture();
    // The fixture has what the test is about: the opponent's row taken before a move,
    // and a row window chosen out of several.
    let mut pos = Position::new();
    let (mut opponent_rows, mut choices) = (0, 0);
    for a in &record.actions {
        if pos.stage() == (Stage::RemoveRow { after_move: false }) {
            opponent_rows += 1;
        }
        if matches!(pos.stage(), Stage::RemoveRow { .. }) && pos.legal_actions().len() > 1 {
            choices += 1;
        }
        pos.play(*a).unwrap();
    }
    assert!(opponent_rows > 0 && choices > 0);

    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let mut spectator = server.client().await;
    spectator.open(&table).await;
    assert_eq!(
        white.chat(&table, "/start").await.map(|r| r.0),
        Ok("started".to_owned())
    );
    play(&table, &mut white, &mut black, &record.actions).await;

    // Everyone sees the end.
    for c in [&mut white, &mut black, &mut spectator] {
        let result = c
            .event(|e| match e {
                TableEvent::GameOver { result } => Some(result.clone()),
                _ => None,
            })
            .await;
        assert_eq!(result.score, "0-1");
        assert_eq!(result.termination, "target reached");
        assert_eq!(result.winner, Some(SeatColor::Black));
    }
    // The spectator saw every action, in order, with versions counting up by one.
    let seen: Vec<String> = spectator
        .events
        .iter()
        .filter_map(|(_, e)| match e {
            TableEvent::Acted { action, .. } => Some(action.clone()),
            _ => None,
        })
        .collect();
    let expected: Vec<String> = record.actions.iter().map(|a| a.to_string()).collect();
    assert_eq!(seen, expected);
    let versions: Vec<u64> = spectator.events.iter().map(|(v, _)| *v).collect();
    assert!(
        versions.windows(2).all(|w| w[1] == w[0] + 1),
        "{versions:?}"
    );
    let game = spectator.game.clone().unwrap();
    assert_eq!(game.stage, StageName::Over);
    assert!(game.legal.is_empty());

    // The archive has it, and its record replays to the same result.
    let (status, body) = server.get("/api/archive").await;
    assert_eq!(status, 200, "{body}");
    let page: ArchivePage = serde_json::from_str(&body).unwrap();
    assert_eq!(page.total, 1);
    let entry = &page.games[0];
    assert_eq!(entry.white, white.player.name);
    assert!(entry.white_guest && entry.black_guest, "guests, marked so");
    assert_eq!(entry.actions as usize, record.actions.len());
    let (status, text) = server
        .get(&format!("/api/archive/{}/record", entry.id))
        .await;
    assert_eq!(status, 200);
    let archived = Record::parse(&text).expect("the download is a record");
    assert_eq!(archived.actions, record.actions);
    assert_eq!(archived.result, record.result);
    assert_eq!(archived.replay().unwrap(), pos);
    let (_, body) = server.get(&format!("/api/archive/{}", entry.id)).await;
    let full: ArchivedGame = serde_json::from_str(&body).unwrap();
    assert_eq!(full.moves.len(), record.actions.len());
    assert_eq!(full.frames.len(), record.actions.len() + 1);
    assert!(full.frames[0].board.rings.white.is_empty());
    let last = full.frames.last().unwrap();
    assert_eq!(last.stage, StageName::Over);
    assert_eq!(last.board, spectator.game.as_ref().unwrap().board);
    assert_eq!(full.record, text);

    // Search by player name, and by a name nobody has.
    let name = &black.player.name[..4];
    let (_, body) = server.get(&format!("/api/archive?player={name}")).await;
    assert_eq!(serde_json::from_str::<ArchivePage>(&body).unwrap().total, 1);
    let (_, body) = server.get("/api/archive?player=nobody%25here").await;
    assert_eq!(serde_json::from_str::<ArchivePage>(&body).unwrap().total, 0);
    let (status, _) = server.get("/api/archive/999999/record").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn log_off_leaves_nothing_once_the_game_ends() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let r = white
        .command(
            &table,
            Command::Option {
                change: OptionChange::Log { on: false },
            },
        )
        .await;
    assert!(r.is_ok(), "{r:?}");
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    let game_id = white.game_after(1).await.id;
    // While it runs, it is stored (a crash would lose nothing).
    let stored = server
        .store
        .game(GameId(game_id))
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(stored.actions.len(), 1);
    black.chat(&table, "/resign").await.unwrap();
    white
        .event(|e| match e {
            TableEvent::GameOver { .. } => Some(()),
            _ => None,
        })
        .await;
    assert_eq!(server.store.game(GameId(game_id)).await.unwrap(), None);
    let (_, body) = server.get("/api/archive").await;
    assert_eq!(serde_json::from_str::<ArchivePage>(&body).unwrap().total, 0);
    let (status, _) = server.get(&format!("/api/archive/{game_id}")).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_reconnecting_player_gets_what_they_missed_and_keeps_the_seat() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    let seen = white.game_after(2).await;
    assert_eq!(seen.moves.len(), 2);
    let last = white.events.last().unwrap().0;
    let snapshot_epoch = white.open(&table).await.epoch;

    // White's connection drops; black plays on and chats.
    let cookie = white.cookie.clone();
    drop(white);
    black
        .event(|e| match e {
            TableEvent::Presence { online: false, .. } => Some(()),
            _ => None,
        })
        .await;
    black.chat(&table, "still there?").await.unwrap();

    // White comes back with the same session and resumes from the last version.
    let mut white = Client::connect(server.addr, Some(&cookie)).await;
    let id = white
        .send(Request::Open {
            table: table.clone(),
            since: Some(Since {
                epoch: snapshot_epoch,
                version: last,
            }),
        })
        .await;
    let mut missed = Vec::new();
    loop {
        match white.recv().await {
            ServerMessage::Snapshot { .. } => panic!("expected a resume, not a snapshot"),
            ServerMessage::Event { version, event, .. } => missed.push((version, event)),
            // White is to act: the events carry no legal actions, this does.
            ServerMessage::Legal { version, .. } => assert_eq!(version, missed.last().unwrap().0),
            ServerMessage::Reply { id: Some(i), .. } if i == id => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(missed.first().unwrap().0, last + 1);
    assert!(
        missed
            .iter()
            .any(|(_, e)| matches!(e, TableEvent::Chat { line } if line.text == "still there?"))
    );
    // Opening again on the same connection (a resync) keeps the events coming.
    white.open(&table).await;
    black.chat(&table, "once more").await.unwrap();
    white
        .event(|e| matches!(e, TableEvent::Chat { line } if line.text == "once more").then_some(()))
        .await;
    // The seat is still white's.
    white
        .act(&table, "b5")
        .await
        .expect("white still plays white");
    black.game_after(3).await;

    // A resume from another epoch (a restarted server) gets a snapshot.
    let mut other = server.client().await;
    other
        .send(Request::Open {
            table: table.clone(),
            since: Some(Since {
                epoch: 1,
                version: 1,
            }),
        })
        .await;
    let view = other
        .until(|m| match m {
            ServerMessage::Snapshot { table } => Some(table.clone()),
            _ => None,
        })
        .await;
    assert_eq!(view.game.unwrap().moves, vec!["e3", "a5", "b5"]);
}

#[tokio::test]
async fn records_carry_the_clock_after_each_turn() {
    let server = crate::common::TestServer::start().await;
    let options = yinsh_server::protocol::TableOptions {
        time: Some(yinsh_server::protocol::TimeSetting {
            minutes: 5,
            increment: 3,
        }),
        ..yinsh_server::protocol::TableOptions::default()
    };
    let (table, mut white, mut black) = crate::common::seated_pair(&server, options).await;
    white
        .command(&table, yinsh_server::protocol::Command::Start)
        .await
        .unwrap();
    for (i, token) in ["e3", "a5", "b5"].into_iter().enumerate() {
        let player = if i % 2 == 0 { &mut white } else { &mut black };
        player.game_after(i).await;
        player.act(&table, token).await.unwrap();
    }
    black
        .command(&table, yinsh_server::protocol::Command::Resign)
        .await
        .unwrap();
    let id = white.game_after(3).await.id;
    let (status, text) = server.get(&format!("/api/archive/{id}/record")).await;
    assert_eq!(status, 200);
    let record = yinsh::notation::record::Record::parse(&text).unwrap();
    assert_eq!(record.clocks.len(), 3, "{text}");
    for ms in &record.clocks {
        // Each turn's player had the start, less a moment, plus an increment a turn.
        let ms = ms.expect("every turn has its clock");
        assert!((300_000..=306_000).contains(&ms), "{ms} in {text}");
    }
    assert!(text.contains("1.e3 {[%clk 0:05:0"), "{text}");
}
