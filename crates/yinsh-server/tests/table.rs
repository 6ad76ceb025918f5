//! Table commands, offers and bad input, through real connections.

use yinsh_server::protocol::{
    Code, Command, OptionChange, Request, SeatColor, ServerMessage, StageName, TableEvent,
    TableOptions, TableStatus, TimeSetting, VariantName,
};
use yinsh_server::{Config, builtin_bots};

use crate::common::{TestServer, seated_pair};

fn code<T>(r: Result<T, (String, String)>) -> String {
    match r {
        Ok(_) => "ok".to_owned(),
        Err((code, _)) => code,
    }
}

#[tokio::test]
async fn seats_options_and_the_start() {
    let server = TestServer::start().await;
    let mut alice = server.client().await;
    let mut bob = server.client().await;
    let mut carol = server.client().await;
    let table = alice.create(TableOptions::default()).await;
    for c in [&mut alice, &mut bob, &mut carol] {
        c.open(&table).await;
    }
    // The lobby lists it.
    let (_, body) = server.get("/api/tables").await;
    assert!(body.contains(&table), "{body}");

    assert_eq!(code(alice.chat(&table, "/join").await), "ok");
    // A seated player is no longer a spectator.
    let names = carol
        .event(|e| match e {
            TableEvent::Spectators { names, .. } if names.len() == 2 => Some(names.clone()),
            _ => None,
        })
        .await;
    assert!(!names.contains(&alice.player.name), "{names:?}");
    // Who may do what is the table core's (table::core::tests); here the wire.
    assert_eq!(code(bob.chat(&table, "/join white").await), "seat_taken");
    assert_eq!(
        code(alice.chat(&table, "/option turns soon").await),
        "command_usage"
    );
    assert_eq!(code(alice.chat(&table, "/option time 5+3").await), "ok");
    assert_eq!(
        code(
            alice
                .command(
                    &table,
                    Command::Option {
                        change: OptionChange::Variant {
                            variant: VariantName::Blitz
                        }
                    }
                )
                .await
        ),
        "ok"
    );
    // Everyone saw the options change.
    let options = carol
        .event(|e| match e {
            TableEvent::Options { options, .. } if options.variant == VariantName::Blitz => {
                Some(options.clone())
            }
            _ => None,
        })
        .await;
    assert_eq!(
        options.time,
        Some(TimeSetting {
            minutes: 5,
            increment: 3
        })
    );
    assert_eq!(code(bob.chat(&table, "/join").await), "ok");
    let (key, text) = carol.chat(&table, "/who").await.unwrap();
    assert_eq!(key, "who");
    assert!(
        text.contains(&alice.player.name) && text.contains(&carol.player.name),
        "{text}"
    );
    // Seated guests are marked as guests.
    assert!(
        text.contains(&format!("{} (guest)", alice.player.name)),
        "{text}"
    );
    assert_eq!(code(carol.chat(&table, "/help").await), "ok");
    assert_eq!(code(carol.chat(&table, "/dance").await), "unknown_command");

    assert_eq!(code(bob.chat(&table, "/start").await), "ok");
    let game = carol.game_after(0).await;
    assert_eq!(game.stage, StageName::Place);
    assert_eq!(game.targets.white, 1);
    let white_ms = game.clocks.unwrap().white_ms;
    assert!((299_000..=300_000).contains(&white_ms), "{white_ms}");
    // Only the player to act is given the legal actions.
    assert!(game.legal.is_empty());
    assert_eq!(alice.my_turn(0).await.legal.len(), 85);
    assert_eq!(code(alice.chat(&table, "/leave").await), "leave_running");
    // Spectator changes are announced at most once a second.
    carol
        .event(|e| matches!(e, TableEvent::Spectators { count: 1, .. }).then_some(()))
        .await;
    let (_, body) = server.get("/api/tables").await;
    let tables: Vec<yinsh_server::protocol::TableSummary> = serde_json::from_str(&body).unwrap();
    assert_eq!(tables[0].status, TableStatus::Playing);
    assert_eq!(tables[0].spectators, 1);
}

#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let mut spectator = server.client().await;
    spectator.open(&table).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    let before = spectator.game_after(1).await;
    let version = spectator.events.last().unwrap().0;

    assert_eq!(code(white.act(&table, "a5").await), "not_your_turn");
    assert_eq!(code(spectator.act(&table, "a5").await), "not_seated");
    assert_eq!(code(black.act(&table, "e3").await), "illegal_action");
    assert_eq!(code(black.act(&table, "e3-e5").await), "illegal_action");
    assert_eq!(code(black.act(&table, "z99").await), "bad_action");
    let stale = black
        .call(Request::Act {
            table: table.clone(),
            action: "a5".to_owned(),
            ply: Some(0),
        })
        .await;
    assert_eq!(code(stale), "stale");
    assert_eq!(code(black.act("nosuch", "a5").await), "no_table");
    let mut stranger = server.client().await;
    assert_eq!(code(stranger.act(&table, "a5").await), "not_open");
    assert_eq!(code(spectator.chat(&table, "").await), "empty_chat");
    assert_eq!(
        code(spectator.chat(&table, &"x".repeat(501)).await),
        "chat_too_long"
    );

    // Malformed and oversized messages: an error, and the connection keeps working.
    black.send_text("{not json").await;
    let e = black
        .until(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await;
    assert_eq!(e, "bad_message");
    black.send_text(r#"{"type":"act","id":7}"#).await;
    let e = black
        .until(|m| match m {
            ServerMessage::Error { id, code, .. } => Some((*id, *code)),
            _ => None,
        })
        .await;
    assert_eq!(e, (Some(7), Code::BadMessage));
    black
        .send_text(&format!(
            r#"{{"type":"chat","table":"{table}","text":"{}"}}"#,
            "y".repeat(40_000)
        ))
        .await;
    let e = black
        .until(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await;
    assert_eq!(e, "too_large");

    // Nothing changed: no event went out, the game is as it was, and black can play.
    let ping = spectator.send(Request::Ping).await;
    spectator
        .until(|m| matches!(m, ServerMessage::Pong { id: Some(i) } if *i == ping).then_some(()))
        .await;
    assert_eq!(spectator.events.last().unwrap().0, version);
    assert_eq!(spectator.game.as_ref().unwrap(), &before);
    black.act(&table, "a5").await.expect("black plays on");
}

#[tokio::test]
async fn floods_are_cut_to_the_rate_limit() {
    let server = TestServer::start_with(Config {
        bots: None,
        rate_per_sec: 5,
        rate_burst: 10,
        ..Config::default()
    })
    .await;
    let mut c = server.client().await;
    for _ in 0..30 {
        c.send(Request::Ping).await;
    }
    let (mut pongs, mut limited) = (0, 0);
    while pongs + limited < 30 {
        match c.recv().await {
            ServerMessage::Pong { .. } => pongs += 1,
            ServerMessage::Error { code, .. } if code == "rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert!((10..=12).contains(&pongs), "{pongs} answered");
    assert!(limited >= 18);
}

#[tokio::test]
async fn draws_takebacks_and_resignation() {
    // The rules of offers are the table core's (table::core::tests); here the wire:
    // requests, answers and the events everyone sees.
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();

    // A takeback by white undoes white's turn and black's reply.
    assert_eq!(code(white.chat(&table, "/takeback").await), "ok");
    assert_eq!(code(black.chat(&table, "/accept").await), "ok");
    let undone = white
        .event(|e| match e {
            TableEvent::TookBack { actions } => Some(*actions),
            _ => None,
        })
        .await;
    assert_eq!(undone, 2);
    let game = white.game.clone().unwrap();
    assert!(game.moves.is_empty());
    assert_eq!(game.to_move, SeatColor::White);
    white.act(&table, "e4").await.unwrap();

    // A declined draw, then an accepted one.
    assert_eq!(code(black.chat(&table, "/draw").await), "ok");
    assert_eq!(code(white.chat(&table, "/decline").await), "ok");
    let by = black
        .event(|e| match e {
            TableEvent::Declined { by } => Some(*by),
            _ => None,
        })
        .await;
    assert_eq!(by, SeatColor::White);
    assert_eq!(code(black.chat(&table, "/draw").await), "ok");
    assert_eq!(code(white.chat(&table, "/accept").await), "ok");
    let result = black
        .event(|e| match e {
            TableEvent::GameOver { result } => Some(result.clone()),
            _ => None,
        })
        .await;
    assert_eq!(result.score, "1/2-1/2");
    assert_eq!(result.termination, "agreement");

    // A new game at the same table, then a resignation.
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    assert_eq!(code(white.chat(&table, "/resign").await), "ok");
    let result = black
        .event(|e| match e {
            TableEvent::GameOver { result } => Some(result.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        (result.score.as_str(), result.termination.as_str()),
        ("0-1", "resignation")
    );
    assert_eq!(code(white.chat(&table, "/leave").await), "ok");
}

/// An engine that says it thought a while (one second per depth, three depths) and
/// plays the first legal action, keeping the limits it was given.
struct Scripted(std::sync::Arc<std::sync::Mutex<Vec<yinsh_engine::Limits>>>);

impl yinsh_engine::Engine for Scripted {
    fn name(&self) -> String {
        "scripted".to_owned()
    }
    fn new_game(&mut self, _: yinsh::Rules) {}
    fn set_level(&mut self, _: u8) {}
    fn search(
        &mut self,
        pos: &yinsh::Position,
        limits: &yinsh_engine::Limits,
        _: &std::sync::atomic::AtomicBool,
        report: &mut dyn FnMut(&yinsh_engine::SearchInfo),
    ) -> yinsh_engine::SearchResult {
        self.0.lock().unwrap().push(*limits);
        let best = pos.legal_actions()[0];
        let mut info = None;
        for depth in 1..=3u32 {
            let i = yinsh_engine::SearchInfo {
                depth,
                score: yinsh_engine::Score::Cp(12),
                nodes: u64::from(depth) * 1000,
                time: std::time::Duration::from_secs(u64::from(depth)),
                pv: vec![best],
            };
            report(&i);
            info = Some(i);
        }
        yinsh_engine::SearchResult {
            best,
            info: info.unwrap(),
        }
    }
}

#[tokio::test]
async fn the_engine_seat_tells_how_far_it_thinks_and_plays_at_full_strength_when_asked() {
    let limits = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = limits.clone();
    let server = TestServer::start_with(Config {
        bots: Some(std::sync::Arc::new(move |_| {
            Box::new(Scripted(seen.clone())) as Box<dyn yinsh_engine::Engine>
        })),
        ..crate::common::fast_config()
    })
    .await;
    let mut human = server.client().await;
    let mut watcher = server.client().await;
    let table = human.create(TableOptions::default()).await;
    human.open(&table).await;
    watcher.open(&table).await;
    human.chat(&table, "/join black").await.unwrap();
    human.chat(&table, "/bot 10").await.unwrap();
    human.chat(&table, "/option time 10+5").await.unwrap();
    assert_eq!(
        code(human.chat(&table, "/option engine fast").await),
        "command_usage"
    );
    human.chat(&table, "/start").await.unwrap();
    // Everyone at the table hears how deep the engine got, never its evaluation.
    let thinking = |m: &ServerMessage| match m {
        ServerMessage::Thinking {
            color,
            depth,
            nodes,
            ms,
            ..
        } => Some((*color, *depth, *nodes, *ms)),
        _ => None,
    };
    for c in [&mut human, &mut watcher] {
        // One report a depth (a second apart each); the first two are checked.
        assert_eq!(c.until(thinking).await, (SeatColor::White, 1, 1000, 1000));
        assert_eq!(c.until(thinking).await, (SeatColor::White, 2, 2000, 2000));
    }
    human.my_turn(1).await;
    {
        let l = limits.lock().unwrap();
        assert_eq!(l[0].cap, Some(std::time::Duration::from_secs(6)));
        assert!(l[0].clock.is_some());
    }
    human.chat(&table, "/resign").await.unwrap();
    human
        .event(|e| matches!(e, TableEvent::GameOver { .. }).then_some(()))
        .await;
    // At full strength, the engine spends its clock as in a match.
    let (_, text) = human.chat(&table, "/option engine full").await.unwrap();
    assert!(text.contains("engine full"), "{text}");
    let view = human.open(&table).await;
    assert!(view.options.engine_full);
    human.chat(&table, "/start").await.unwrap();
    human.my_turn(1).await;
    let l = limits.lock().unwrap();
    assert_eq!(l.last().unwrap().cap, None);
    assert!(l.last().unwrap().clock.is_some());
}

#[tokio::test]
async fn the_engine_takes_a_seat_and_plays() {
    let server = TestServer::start_with(Config {
        bots: Some(builtin_bots()),
        ..crate::common::fast_config()
    })
    .await;
    let mut human = server.client().await;
    let table = human.create(TableOptions::default()).await;
    human.open(&table).await;
    assert_eq!(code(human.chat(&table, "/bot 1").await), "not_seated");
    human.chat(&table, "/join black").await.unwrap();
    assert_eq!(code(human.chat(&table, "/bot 11").await), "bad_level");
    let (_, text) = human.chat(&table, "/bot 1").await.unwrap();
    assert!(text.contains("level 1"), "{text}");
    human.chat(&table, "/start").await.unwrap();
    // The engine (white) places first, then answers each of the human's actions.
    let mut pos = yinsh::Position::new();
    let mut played = 0;
    for _ in 0..3 {
        let game = human.my_turn(played + 1).await;
        let engine_action: yinsh::Action = game.moves[played].parse().unwrap();
        pos.play(engine_action).expect("the engine plays legally");
        assert_eq!(game.to_move, SeatColor::Black);
        let mine = game.legal[0].clone();
        human.act(&table, &mine).await.unwrap();
        pos.play(mine.parse().unwrap()).unwrap();
        played += 2;
    }
    human.game_after(played + 1).await;
    assert_eq!(code(human.chat(&table, "/takeback").await), "ok");
    let undone = human
        .event(|e| match e {
            TableEvent::TookBack { actions } => Some(*actions),
            _ => None,
        })
        .await;
    assert_eq!(undone, 2);
    // The engine grants takebacks and plays on rather than agreeing a draw.
    assert_eq!(code(human.chat(&table, "/draw").await), "ok");
    let declined = human
        .event(|e| match e {
            TableEvent::Declined { by } => Some(*by),
            _ => None,
        })
        .await;
    assert_eq!(declined, SeatColor::White);
    // The engine is named in the reader's language.
    human
        .call(Request::Hello {
            lang: "nl".to_owned(),
        })
        .await
        .unwrap();
    let (_, who) = human.chat(&table, "/who").await.unwrap();
    assert!(who.contains("Engine (niveau 1)"), "{who}");
    // Its games are archived with its level, for clients to name it in theirs.
    human.chat(&table, "/resign").await.unwrap();
    human
        .event(|e| matches!(e, TableEvent::GameOver { .. }).then_some(()))
        .await;
    let (_, body) = server.get("/api/archive").await;
    let page: yinsh_server::protocol::ArchivePage = serde_json::from_str(&body).unwrap();
    assert_eq!(page.games[0].white_bot, Some(1));
    assert_eq!(page.games[0].black_bot, None);
    assert_eq!(
        (page.games[0].white_guest, page.games[0].black_guest),
        (false, true)
    );
}

#[tokio::test]
async fn the_lobby_and_the_stats_tell_what_runs_and_what_ended() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    // A second tab of the same person is one person online.
    let mut again = crate::common::Client::connect(server.addr, Some(&white.cookie)).await;
    again.open(&table).await;
    let stats =
        |body: String| -> yinsh_server::protocol::Stats { serde_json::from_str(&body).unwrap() };
    let (status, body) = server.get("/api/stats").await;
    assert_eq!(status, 200);
    let before = stats(body);
    assert_eq!(
        (before.players_online, before.tables, before.games),
        (2, 1, 0)
    );
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.game_after(1).await;
    assert_eq!(stats(server.get("/api/stats").await.1).games, 1);
    black.chat(&table, "/resign").await.unwrap();
    white
        .event(|e| matches!(e, TableEvent::GameOver { .. }).then_some(()))
        .await;
    // The table waits for a rematch, and the lobby says how its last game ended.
    let (_, body) = server.get("/api/tables").await;
    let tables: Vec<yinsh_server::protocol::TableSummary> = serde_json::from_str(&body).unwrap();
    assert_eq!(tables[0].status, TableStatus::Waiting);
    let last = tables[0].last_result.clone().expect("the last result");
    assert_eq!(
        (last.score.as_str(), last.termination.as_str()),
        ("1-0", "resignation")
    );
    assert_eq!(stats(server.get("/api/stats").await.1).games, 0);
    // Setting an option to what it is tells nobody anything.
    let (key, _) = white.chat(&table, "/option log on").await.unwrap();
    assert_eq!(key, "option_unchanged");
    let (key, _) = white.chat(&table, "/option log off").await.unwrap();
    assert_eq!(key, "option_set");
    let options = black
        .event(|e| match e {
            TableEvent::Options { options, .. } => Some(options.clone()),
            _ => None,
        })
        .await;
    assert!(!options.log);
    assert_eq!(
        black
            .events
            .iter()
            .filter(|(_, e)| matches!(e, TableEvent::Options { .. }))
            .count(),
        1
    );
}

#[tokio::test]
async fn replies_come_in_the_players_language() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let table = c.create(TableOptions::default()).await;
    c.open(&table).await;
    assert_eq!(
        code(
            c.call(Request::Hello {
                lang: "xx".to_owned()
            })
            .await
        ),
        "bad_message"
    );
    c.call(Request::Hello {
        lang: "nl".to_owned(),
    })
    .await
    .unwrap();
    let (_, text) = c.chat(&table, "/join white").await.unwrap();
    assert!(text.contains("wit"), "{text}");
    let (_, en) = {
        let mut e = server.client().await;
        e.open(&table).await;
        e.chat(&table, "/join white").await.unwrap_err()
    };
    let (code_nl, nl) = c.chat(&table, "/dance").await.unwrap_err();
    assert_eq!(code_nl, "unknown_command");
    assert!(!nl.contains("Unknown"), "{nl}");
    assert!(en.contains("seat is taken"), "{en}");
}

#[tokio::test]
async fn the_lobby_lists_tables_live_and_forgets_empty_ones() {
    let server = TestServer::start_with(crate::common::paused_config()).await;
    let mut watcher = server.client().await;
    watcher.send(Request::Lobby).await;
    let tables = watcher
        .until(|m| match m {
            ServerMessage::Lobby { tables, .. } => Some(tables.clone()),
            _ => None,
        })
        .await;
    assert!(tables.is_empty());
    let mut host = server.client().await;
    let table = host.create(TableOptions::default()).await;
    let summary = watcher
        .until(|m| match m {
            ServerMessage::LobbyTable { table: t } if t.id == table => Some(t.clone()),
            _ => None,
        })
        .await;
    assert!(summary.seats.white.is_none() && summary.seats.black.is_none());
    host.open(&table).await;
    host.chat(&table, "/join black").await.unwrap();
    let summary = watcher
        .until(|m| match m {
            ServerMessage::LobbyTable { table: t } if t.seats.black.is_some() => Some(t.clone()),
            _ => None,
        })
        .await;
    assert_eq!(summary.seats.black.unwrap().name, host.player.name);
    host.chat(&table, "/leave").await.unwrap();

    // Nobody left at the table: it closes after a while of nothing.
    drop(host);
    watcher
        .until(|m| match m {
            ServerMessage::LobbyTable { table: t } if t.id == table && t.spectators == 0 => {
                Some(())
            }
            _ => None,
        })
        .await;
    // Two minutes pass at once (paused tokio time, then real time again).
    tokio::time::pause();
    tokio::time::advance(std::time::Duration::from_secs(121)).await;
    tokio::time::resume();
    watcher
        .until(|m| {
            matches!(m, ServerMessage::LobbyRemoved { table: t } if *t == table).then_some(())
        })
        .await;
    let (_, body) = server.get("/api/tables").await;
    assert_eq!(body, "[]");
}

/// The legal actions go to the player to act only, once after each change: the
/// player who just acted and a spectator are sent none.
#[tokio::test]
async fn only_the_player_to_act_is_given_the_legal_actions() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let mut watcher = server.client().await;
    watcher.open(&table).await;
    white.chat(&table, "/start").await.unwrap();
    let tokens = ["e3", "a5", "b5", "c6"];
    for (n, token) in tokens.iter().enumerate() {
        let mover = if n % 2 == 0 { &mut white } else { &mut black };
        let game = mover.my_turn(n).await;
        assert!(game.legal.iter().any(|a| a == token), "{:?}", game.legal);
        mover.act(&table, token).await.unwrap();
        // Its action's event cleared its legal actions, and none came after it.
        let after = mover.game.clone().unwrap();
        assert_eq!(after.moves.len(), n + 1);
        assert!(after.legal.is_empty(), "{:?}", after.legal);
    }
    let last = white
        .events
        .last()
        .unwrap()
        .0
        .max(black.events.last().unwrap().0);
    watcher
        .until(|m| match m {
            ServerMessage::Legal { .. } => panic!("a spectator was sent legal actions"),
            ServerMessage::Event { version, .. } if *version >= last => Some(()),
            _ => None,
        })
        .await;
    assert_eq!(watcher.game.unwrap().moves, tokens);
}
