//! The store's behaviour, the same on SQLite and PostgreSQL, and a server restarted on
//! the same database.
//!
//! PostgreSQL runs when `YINSH_TEST_POSTGRES_URL` names a database (the test command
//! starts one on loopback and sets it, with `YINSH_REQUIRE_POSTGRES=1` so that a
//! missing database fails rather than skips).

use std::collections::HashSet;
use std::sync::Arc;

use axum::http::HeaderMap;
use yinsh::ByColor;
use yinsh_server::account::session;
use yinsh_server::archive::store::ArchiveQuery;
use yinsh_server::cluster::store::Fence;
use yinsh_server::game::store::{GameWrite, NewGame, SeatRecord, StoredAction, StoredResult};
use yinsh_server::protocol::{Pair, TableOptions, TimeSetting, VariantName};
use yinsh_server::store::{Store, StoreErrorKind};
use yinsh_server::vocab::{Level, PlayerId};

use crate::common::{Client, TestServer, postgres_database, seated_pair};

fn seat(id: Option<PlayerId>, name: &str, bot: Option<u8>) -> SeatRecord {
    SeatRecord {
        player_id: id,
        name: name.to_owned(),
        bot: bot.and_then(Level::new),
    }
}

fn append(ply: u32, action: StoredAction) -> GameWrite {
    GameWrite::Action {
        ply,
        action,
        result: None,
    }
}

fn action(token: &str, at: i64) -> StoredAction {
    StoredAction {
        token: token.to_owned(),
        white_ms: Some(59_000),
        black_ms: Some(60_000),
        at,
        to_act: Some(yinsh::Color::Black),
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
        correspondence: None,
        log: true,
        rated: false,
        position: None,
        engine_full: true,
        tournament: Some("arena123".to_owned()),
    };
    let new = NewGame {
        table_id: "abc123".to_owned(),
        options: options.clone(),
        white: seat(Some(alice.id), "Alice", None),
        black: seat(None, "Engine (level 3)", Some(3)),
        started_at: 1_000,
    };
    let g1 = store.create_game(&new, None).await.unwrap();
    for (i, t) in ["e3", "a5", "b5"].iter().enumerate() {
        store
            .write_game(
                g1,
                &append(i as u32, action(t, 2_000 + i as i64)),
                true,
                None,
            )
            .await
            .unwrap();
    }
    assert_eq!(
        store
            .write_game(g1, &append(2, action("b6", 9)), true, None)
            .await
            .unwrap_err()
            .kind,
        StoreErrorKind::Conflict,
        "one action per ply"
    );
    let takeback = GameWrite::Takeback {
        keep: 2,
        takebacks: ByColor { white: 0, black: 1 },
    };
    store.write_game(g1, &takeback, true, None).await.unwrap();
    store
        .write_game(g1, &append(2, action("c6", 3_000)), true, None)
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
    assert_eq!((u.takebacks.white, u.takebacks.black), (0, 1));

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
    store
        .write_game(g1, &GameWrite::Result(result.clone()), true, None)
        .await
        .unwrap();
    // At most one result: a second one changes nothing.
    let again = StoredResult {
        winner: None,
        ..result.clone()
    };
    store
        .write_game(g1, &GameWrite::Result(again), true, None)
        .await
        .unwrap();
    assert!(store.unfinished_games().await.unwrap().is_empty());

    // A second game, not logged: gone when it ends.
    let g2 = store
        .create_game(
            &NewGame {
                white: seat(Some(bob.id), "Bob_%", None),
                black: seat(Some(alice.id), "Alice", None),
                started_at: 90_000_000,
                options: TableOptions {
                    log: false,
                    ..TableOptions::default()
                },
                ..new.clone()
            },
            None,
        )
        .await
        .unwrap();
    store
        .write_game(g2, &append(0, action("e3", 90_000_001)), false, None)
        .await
        .unwrap();
    let agreed = StoredResult {
        winner: None,
        termination: "agreement".to_owned(),
        finished_at: 90_000_002,
    };
    store
        .write_game(g2, &GameWrite::Result(agreed), false, None)
        .await
        .unwrap();
    assert_eq!(store.game(g2).await.unwrap(), None);

    // A third, logged, to search among.
    let g3 = store
        .create_game(
            &NewGame {
                white: seat(Some(bob.id), "Bob_%", None),
                started_at: 200_000_000,
                ..new.clone()
            },
            None,
        )
        .await
        .unwrap();
    let resigned = StoredResult {
        winner: Some("white".to_owned()),
        termination: "resignation".to_owned(),
        finished_at: 200_000_001,
    };
    store
        .write_game(g3, &GameWrite::Result(resigned), true, None)
        .await
        .unwrap();
    // A last action with its result: one transaction; an aborted game is gone.
    let g4 = store.create_game(&new, None).await.unwrap();
    let last = GameWrite::Action {
        ply: 0,
        action: action("e3", 300_000_000),
        result: Some(StoredResult {
            finished_at: 300_000_001,
            ..result.clone()
        }),
    };
    store.write_game(g4, &last, false, None).await.unwrap();
    assert_eq!(store.game(g4).await.unwrap(), None, "not logged: deleted");
    let g5 = store.create_game(&new, None).await.unwrap();
    store
        .write_game(g5, &GameWrite::Abort, true, None)
        .await
        .unwrap();
    assert_eq!(store.game(g5).await.unwrap(), None, "aborted: deleted");

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
    turns_and_notices(yinsh_server::store::open(&url).await.unwrap()).await;
    seeks(yinsh_server::store::open(&url).await.unwrap()).await;
    mail(yinsh_server::store::open(&url).await.unwrap()).await;
    vacation(yinsh_server::store::open(&url).await.unwrap()).await;
}

#[tokio::test]
async fn postgres_store() {
    let Some(url) = postgres_database("store").await else {
        return;
    };
    exercise(yinsh_server::store::open(&url).await.unwrap()).await;
    turns_and_notices(yinsh_server::store::open(&url).await.unwrap()).await;
    seeks(yinsh_server::store::open(&url).await.unwrap()).await;
    mail(yinsh_server::store::open(&url).await.unwrap()).await;
    vacation(yinsh_server::store::open(&url).await.unwrap()).await;
}

/// Vacation: 240 hours a year for accounts (none for guests and bots), spent up to
/// the hours asked for at an action and never twice, loaded with the game's table, and
/// no longer lengthening a turn taken back.
async fn vacation(store: Arc<dyn Store>) {
    use yinsh_server::account::store::{NewAccount, Registration};
    use yinsh_server::game::vacation::{GameVacation, HOURS_A_YEAR, Spent};
    use yinsh_server::protocol::Correspondence;

    let account = |name: &str| NewAccount {
        name: name.to_owned(),
        skeleton: yinsh_server::account::skeleton(name),
        password_hash: "$argon2id$not-checked-here".to_owned(),
    };
    let mut players = Vec::new();
    for name in ["Vera", "Walt"] {
        store
            .create_guest(&format!("h-{name}"), name)
            .await
            .unwrap();
        let Registration::Registered(p) = store
            .register(&format!("h-{name}"), &account(name))
            .await
            .unwrap()
        else {
            panic!("registered");
        };
        players.push(p);
    }
    let (vera, walt) = (players[0].clone(), players[1].clone());
    let guest = store.create_guest("h-gus", "VacGus").await.unwrap();
    let year = 2026;
    assert_eq!(
        store.vacation_left(vera.id, year).await.unwrap(),
        Some(HOURS_A_YEAR)
    );
    assert_eq!(store.vacation_left(guest.id, year).await.unwrap(), None);
    store.create_guest("h-bea", "VacBea").await.unwrap();
    store.register("h-bea", &account("BeaBot")).await.unwrap();
    let bea = store.session_player("h-bea").await.unwrap().unwrap();
    assert!(store.upgrade_to_bot(bea.id).await.unwrap());
    assert_eq!(store.vacation_left(bea.id, year).await.unwrap(), None);

    let new = NewGame {
        table_id: "vac1".to_owned(),
        options: TableOptions {
            correspondence: Some(Correspondence { days: Some(1) }),
            ..TableOptions::default()
        },
        white: seat(Some(vera.id), "Vera", None),
        black: seat(Some(walt.id), "Walt", None),
        started_at: 5_000,
    };
    let game = store.create_game(&new, None).await.unwrap();
    store
        .write_game(game, &append(0, action("e3", 6_000)), false, None)
        .await
        .unwrap();
    // Walt's clock falls at action 1: an hour, then three in all, then the same again.
    let spend = |hours| store.spend_vacation(game, 1, walt.id, year, hours, None);
    let spent = |here, left| Spent {
        here,
        left: Some(left),
    };
    assert_eq!(spend(1).await.unwrap(), spent(1, 239));
    assert_eq!(spend(3).await.unwrap(), spent(3, 237));
    assert_eq!(spend(3).await.unwrap(), spent(3, 237), "written again");
    assert_eq!(spend(2).await.unwrap(), spent(3, 237), "never lowered");
    // Another year has its own hours; a guest has none to spend.
    assert_eq!(
        store.vacation_left(walt.id, year + 1).await.unwrap(),
        Some(HOURS_A_YEAR)
    );
    let none = store
        .spend_vacation(game, 1, guest.id, year, 5, None)
        .await
        .unwrap();
    assert_eq!(none.left, None);
    // The table loaded again sees the hours spent on its turn (this year's balances).
    let loaded = store.unfinished_game_at("vac1").await.unwrap().unwrap();
    let this_year = yinsh_server::game::vacation::year_of(yinsh_server::now_ms());
    let left = ByColor {
        white: store.vacation_left(vera.id, this_year).await.unwrap(),
        black: store.vacation_left(walt.id, this_year).await.unwrap(),
    };
    assert_eq!(loaded.vacation, GameVacation { here: 3, left });
    // No more than the year's balance.
    let most = store
        .spend_vacation(game, 1, walt.id, year, 1_000, None)
        .await
        .unwrap();
    assert_eq!(most, spent(HOURS_A_YEAR, 0));
    // The list of a player's games counts the hours in the time left.
    let running = store.running_games_of(walt.id).await.unwrap();
    let here = |running: &[yinsh_server::game::store::RunningGame]| {
        running.iter().find(|g| g.id == game).unwrap().vacation_here
    };
    assert_eq!(here(&running), HOURS_A_YEAR);
    // Taken back past action 1, the hours stay spent but lengthen no turn.
    store
        .write_game(
            game,
            &GameWrite::Takeback {
                keep: 0,
                takebacks: ByColor { white: 1, black: 0 },
            },
            false,
            None,
        )
        .await
        .unwrap();
    store
        .write_game(game, &append(0, action("e4", 7_000)), false, None)
        .await
        .unwrap();
    let loaded = store.unfinished_game_at("vac1").await.unwrap().unwrap();
    assert_eq!(loaded.vacation.here, 0);
    assert_eq!(here(&store.running_games_of(walt.id).await.unwrap()), 0);
    assert_eq!(store.vacation_left(walt.id, year).await.unwrap(), Some(0));
}

/// Mail: an address verified by its link, the kinds mailed, the links' limits and
/// uses, the outbox's quiet time, dedupe, claims, retries and digests.
async fn mail(store: Arc<dyn Store>) {
    use yinsh_server::mail::store::{NewMail, NewToken, Purpose};
    use yinsh_server::protocol::NoticeKind::{Challenge, Deadline, YourTurn};

    let gus = store.create_guest("hash-g", "Gus").await.unwrap();
    let token = |hash: &'static str, purpose, at| NewToken {
        hash,
        player: gus.id,
        purpose,
        address: "gus@example.org",
        kind: None,
        at,
        expires_at: Some(at + 1_000),
    };
    assert_eq!(store.mail_address(gus.id).await.unwrap(), None);
    let v1 = token("v1", Purpose::Verify, 10_000);
    assert!(
        store
            .set_mail_address(gus.id, "gus@example.org", "nl", &v1)
            .await
            .unwrap()
    );
    let address = store.mail_address(gus.id).await.unwrap().unwrap();
    assert_eq!((address.verified, address.lang.as_str()), (false, "nl"));
    assert_eq!(
        store.verify_mail("v1", 11_500, &[YourTurn]).await.unwrap(),
        None,
        "expired"
    );
    assert_eq!(
        store
            .verify_mail("nope", 10_500, &[YourTurn])
            .await
            .unwrap(),
        None
    );
    let verified = store
        .verify_mail("v1", 10_500, &[YourTurn, Deadline])
        .await
        .unwrap();
    assert_eq!(verified.as_deref(), Some("gus@example.org"));
    let address = store.mail_address(gus.id).await.unwrap().unwrap();
    assert!(address.verified);
    assert_eq!(address.kinds, vec![YourTurn, Deadline]);
    // The same address again needs no verification.
    let v2 = token("v2", Purpose::Verify, 12_000);
    assert!(
        !store
            .set_mail_address(gus.id, "GUS@example.org", "de", &v2)
            .await
            .unwrap()
    );
    assert_eq!(
        store
            .mail_tokens_since(Some(gus.id), "", Purpose::Verify, 0)
            .await
            .unwrap(),
        1
    );
    assert!(
        store
            .set_mail_settings(gus.id, &[Challenge, YourTurn], true, "en")
            .await
            .unwrap()
    );
    let owner = store.verified_owner("GUS@EXAMPLE.ORG").await.unwrap();
    assert_eq!(owner, None, "a guest has no password to reset");

    // The outbox: quiet time, dedupe, claims, retries.
    let mail = |about: &str, dedupe: Option<&str>| NewMail {
        dedupe: dedupe.map(str::to_owned),
        player: Some(gus.id),
        address: "gus@example.org".into(),
        kind: "your_turn".into(),
        about: about.into(),
        subject: "s".into(),
        text: "t".into(),
        html: "h".into(),
        unsubscribe: Some("u".into()),
    };
    assert!(
        store
            .enqueue_mail(&mail("table:a", None), 1_000, Some(0))
            .await
            .unwrap()
    );
    assert!(
        !store
            .enqueue_mail(&mail("table:a", None), 2_000, Some(500))
            .await
            .unwrap(),
        "quiet"
    );
    assert!(
        store
            .enqueue_mail(&mail("table:a", None), 3_000, Some(2_500))
            .await
            .unwrap()
    );
    assert!(
        store
            .mailed_since(gus.id, "your_turn", "table:a", 3_000)
            .await
            .unwrap()
    );
    assert!(
        !store
            .mailed_since(gus.id, "your_turn", "table:a", 3_001)
            .await
            .unwrap()
    );
    assert!(
        !store
            .mailed_since(gus.id, "deadline", "table:a", 0)
            .await
            .unwrap()
    );
    assert!(
        store
            .enqueue_mail(&mail("digest", Some("d:1")), 3_000, None)
            .await
            .unwrap()
    );
    assert!(
        !store
            .enqueue_mail(&mail("digest", Some("d:1")), 4_000, None)
            .await
            .unwrap()
    );
    assert_eq!(store.next_mail_due().await.unwrap(), Some(1_000));
    let (a, b) = tokio::join!(
        store.claim_mail(5_000, 9_000, 10),
        store.claim_mail(5_000, 9_000, 10)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.len() + b.len(), 3, "each mail claimed once");
    assert!(
        store.claim_mail(6_000, 9_000, 10).await.unwrap().is_empty(),
        "claimed"
    );
    let ids: Vec<i64> = a.iter().chain(&b).map(|m| m.id).collect();
    store.mail_sent(ids[0], 6_000).await.unwrap();
    store
        .mail_not_sent(ids[1], 6_000, Some(20_000), "421 try later")
        .await
        .unwrap();
    store
        .mail_not_sent(ids[2], 6_000, None, "550 no such user")
        .await
        .unwrap();
    assert_eq!(store.next_mail_due().await.unwrap(), Some(20_000));
    let again = store.claim_mail(20_000, 30_000, 10).await.unwrap();
    assert_eq!(
        (again.len(), again[0].id, again[0].attempts),
        (1, ids[1], 1)
    );

    // Digests: due for a verified address with the digest and "your turn" chosen.
    let due = store.digests_due(0).await.unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!((due[0].0, due[0].1.digest), (gus.id, true));
    store.digest_done(gus.id, 50_000).await.unwrap();
    assert!(store.digests_due(40_000).await.unwrap().is_empty());
    assert_eq!(store.digests_due(60_000).await.unwrap().len(), 1);

    // Unsubscribing: a kind, then everything.
    let u1 = NewToken {
        kind: Some(Challenge),
        expires_at: None,
        ..token("u1", Purpose::Unsubscribe, 1)
    };
    store.add_mail_token(&u1).await.unwrap();
    assert!(!store.unsubscribe("u0").await.unwrap());
    assert!(store.unsubscribe("u1").await.unwrap());
    assert_eq!(
        store.mail_address(gus.id).await.unwrap().unwrap().kinds,
        vec![YourTurn]
    );
    store
        .add_mail_token(&NewToken {
            expires_at: None,
            ..token("u2", Purpose::Unsubscribe, 1)
        })
        .await
        .unwrap();
    assert!(store.unsubscribe("u2").await.unwrap());
    let address = store.mail_address(gus.id).await.unwrap().unwrap();
    assert_eq!((address.kinds.len(), address.digest), (0, false));

    // A reset link works once, and not for a guest's password.
    store
        .add_mail_token(&token("r1", Purpose::Reset, 100))
        .await
        .unwrap();
    assert_eq!(
        store.mail_token("r1", Purpose::Reset, 500).await.unwrap(),
        Some(gus.id)
    );
    assert_eq!(
        store.mail_token("r1", Purpose::Verify, 500).await.unwrap(),
        None
    );
    assert_eq!(
        store.reset_password("r1", 2_000, "h").await.unwrap(),
        None,
        "expired"
    );
    assert_eq!(
        store.reset_password("r1", 500, "h").await.unwrap(),
        Some(gus.id)
    );
    assert_eq!(
        store.reset_password("r1", 600, "h").await.unwrap(),
        None,
        "used"
    );
    store.remove_mail_address(gus.id).await.unwrap();
    assert_eq!(store.mail_address(gus.id).await.unwrap(), None);
}

/// The correspondence seek list: a player's limit, oldest first, taken once and never
/// by its own player, withdrawn only by its own.
async fn seeks(store: Arc<dyn Store>) {
    use yinsh_server::account::store::Player;
    use yinsh_server::meet::store::StoredSeek;
    use yinsh_server::protocol::Correspondence;

    let eve = store.create_guest("hash-e", "Eve").await.unwrap();
    let finn = store.create_guest("hash-f", "Finn").await.unwrap();
    let seek = |id: &str, at: i64| StoredSeek {
        id: id.to_owned(),
        player: Player {
            id: eve.id,
            name: "Eve".to_owned(),
            bot: false,
        },
        rating: Some(1612),
        provisional: false,
        options: TableOptions {
            correspondence: Some(Correspondence { days: Some(3) }),
            ..TableOptions::default()
        },
        bots: true,
        created_at: at,
    };
    assert!(store.add_seek(&seek("s2", 2_000), 2).await.unwrap());
    assert!(store.add_seek(&seek("s1", 1_000), 2).await.unwrap());
    assert!(
        !store.add_seek(&seek("s3", 3_000), 2).await.unwrap(),
        "over the limit"
    );
    let list = store.correspondence_seeks().await.unwrap();
    assert_eq!(list, vec![seek("s1", 1_000), seek("s2", 2_000)]);
    assert_eq!(
        store.correspondence_seek("s2").await.unwrap(),
        Some(seek("s2", 2_000))
    );
    assert_eq!(store.correspondence_seek("s9").await.unwrap(), None);

    assert_eq!(
        store.take_seek("s1", eve.id).await.unwrap(),
        None,
        "one's own"
    );
    assert!(
        !store.withdraw_seek("s1", finn.id).await.unwrap(),
        "not his"
    );
    let (a, b) = tokio::join!(
        store.take_seek("s1", finn.id),
        store.take_seek("s1", finn.id)
    );
    let taken: Vec<_> = [a.unwrap(), b.unwrap()].into_iter().flatten().collect();
    assert_eq!(taken, vec![seek("s1", 1_000)], "taken once");
    assert!(store.withdraw_seek("s2", eve.id).await.unwrap());
    assert!(!store.withdraw_seek("s2", eve.id).await.unwrap());
    assert!(store.correspondence_seeks().await.unwrap().is_empty());
}

/// Whose turn a player's running games wait for, through actions and a takeback; a
/// player's notifications: an unread one replaced by a newer about the same thing,
/// the newest kept, read one or all, kinds switched off.
async fn turns_and_notices(store: Arc<dyn Store>) {
    use yinsh::Color::{Black, White};
    use yinsh_server::notify::KEPT;
    use yinsh_server::protocol::{Notice, NoticeKind};

    let carl = store.create_guest("hash-c", "Carl").await.unwrap();
    let dora = store.create_guest("hash-d", "Dora").await.unwrap();
    let new = NewGame {
        table_id: "turns1".to_owned(),
        options: TableOptions::default(),
        white: seat(Some(carl.id), "Carl", None),
        black: seat(Some(dora.id), "Dora", None),
        started_at: 5_000,
    };
    let id = store.create_game(&new, None).await.unwrap();
    let running = store.running_games_of(dora.id).await.unwrap();
    assert_eq!(running.len(), 1);
    assert_eq!(
        (running[0].id, running[0].actions, running[0].last.clone()),
        (id, 0, None)
    );
    let to = |token: &str, to_act| StoredAction {
        to_act: Some(to_act),
        ..action(token, 6_000)
    };
    for (ply, (token, next)) in [("e3", Black), ("a5", White), ("b5", Black)]
        .into_iter()
        .enumerate()
    {
        store
            .write_game(id, &append(ply as u32, to(token, next)), true, None)
            .await
            .unwrap();
    }
    let last = |games: Vec<yinsh_server::game::store::RunningGame>| {
        let g = &games[0];
        (
            g.actions,
            g.last.as_ref().map(|a| (a.token.clone(), a.to_act)),
        )
    };
    let running = store.running_games_of(carl.id).await.unwrap();
    assert_eq!(last(running), (3, Some(("b5".to_owned(), Some(Black)))));
    let takeback = GameWrite::Takeback {
        keep: 2,
        takebacks: ByColor { white: 1, black: 0 },
    };
    store.write_game(id, &takeback, true, None).await.unwrap();
    let running = store.running_games_of(carl.id).await.unwrap();
    assert_eq!(
        last(running),
        (2, Some(("a5".to_owned(), Some(White)))),
        "the last kept says"
    );
    let done = StoredResult {
        winner: None,
        termination: "agreement".to_owned(),
        finished_at: 7_000,
    };
    store
        .write_game(id, &GameWrite::Result(done), true, None)
        .await
        .unwrap();
    assert!(store.running_games_of(carl.id).await.unwrap().is_empty());

    // Notifications.
    let turn = |table: &str| Notice::YourTurn {
        table: table.to_owned(),
        opponent: "Dora".to_owned(),
    };
    let (first, unread) = store
        .notify(carl.id, &turn("t1"), 10)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((unread, first.read), (1, false));
    let (second, unread) = store
        .notify(carl.id, &turn("t1"), 11)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(unread, 1, "the unread one about the same table is replaced");
    let list = store.notifications(carl.id, 10).await.unwrap();
    assert_eq!(list.notifications, std::slice::from_ref(&second));
    assert_eq!(
        store
            .mark_read(carl.id, Some(&[second.id]), 12)
            .await
            .unwrap(),
        0
    );
    let (third, _) = store
        .notify(carl.id, &turn("t1"), 13)
        .await
        .unwrap()
        .unwrap();
    let list = store.notifications(carl.id, 10).await.unwrap();
    assert_eq!(list.unread, 1);
    assert_eq!(list.notifications.len(), 2, "a read one stays");
    assert_eq!(list.notifications[0], third, "newest first");
    assert!(list.notifications[1].read);
    // Another player's ids change nothing.
    assert_eq!(
        store
            .mark_read(dora.id, Some(&[third.id]), 14)
            .await
            .unwrap(),
        0
    );
    assert_eq!(store.notifications(carl.id, 10).await.unwrap().unread, 1);
    let kinds = [NoticeKind::YourTurn, NoticeKind::Deadline];
    assert_eq!(
        store
            .mark_read_about(carl.id, &kinds, "table:t2", 15)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .mark_read_about(carl.id, &kinds, &turn("t1").about(), 15)
            .await
            .unwrap(),
        Some(0)
    );
    // Only the newest are kept.
    for n in 0..KEPT + 5 {
        store
            .notify(dora.id, &turn(&format!("k{n}")), 20 + i64::from(n))
            .await
            .unwrap();
    }
    let list = store.notifications(dora.id, KEPT + 10).await.unwrap();
    assert_eq!((list.unread, list.notifications.len() as u32), (KEPT, KEPT));
    assert_eq!(
        list.notifications[0].notice,
        turn(&format!("k{}", KEPT + 4))
    );
    assert_eq!(store.mark_read(dora.id, None, 300).await.unwrap(), 0);
    // A kind switched off is not kept.
    store
        .set_notices_off(dora.id, &[NoticeKind::YourTurn, NoticeKind::YourTurn])
        .await
        .unwrap();
    assert_eq!(
        store.notices_off(dora.id).await.unwrap(),
        [NoticeKind::YourTurn]
    );
    assert_eq!(
        store.notify(dora.id, &turn("off"), 400).await.unwrap(),
        None
    );
    let challenge = Notice::Challenge {
        challenge: "c1".to_owned(),
        from: "Carl".to_owned(),
    };
    assert!(
        store
            .notify(dora.id, &challenge, 401)
            .await
            .unwrap()
            .is_some()
    );
    store.set_notices_off(dora.id, &[]).await.unwrap();
    assert!(store.notices_off(dora.id).await.unwrap().is_empty());
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

/// A whole random game, to its end at the board: its tokens and its result.
fn random_game(seed: u64) -> (Vec<String>, yinsh::notation::record::GameResult) {
    let mut rng = yinsh::random::SplitMix64::new(seed);
    let mut pos = yinsh::Position::new();
    let mut tokens = Vec::new();
    while let Some(a) = yinsh::random::random_action(&pos, &mut rng) {
        pos.play(a).unwrap();
        tokens.push(a.to_string());
    }
    (tokens, pos.outcome().unwrap().into())
}

/// Stores a game of `tokens` between two guests at table `table`.
async fn store_game(
    store: &Arc<dyn Store>,
    table: &str,
    tokens: &[String],
) -> yinsh_server::vocab::GameId {
    let white = store
        .create_guest(&format!("{table}-w"), &format!("{table}W"))
        .await;
    let black = store
        .create_guest(&format!("{table}-b"), &format!("{table}B"))
        .await;
    let (white, black) = (white.unwrap(), black.unwrap());
    let new = NewGame {
        table_id: table.to_owned(),
        options: TableOptions::default(),
        white: seat(Some(white.id), &white.name, None),
        black: seat(Some(black.id), &black.name, None),
        started_at: 1_000,
    };
    let id = store.create_game(&new, None).await.unwrap();
    for (ply, t) in tokens.iter().enumerate() {
        let write = append(ply as u32, action(t, 2_000 + ply as i64));
        store.write_game(id, &write, true, None).await.unwrap();
    }
    id
}

/// Games stored before rule E3 changed may end with a `pass` after the last marker,
/// which today's rules refuse: they still read, in the archive and at their table.
#[tokio::test]
async fn games_stored_with_the_old_last_pass_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display());
    let store = yinsh_server::store::open(&url).await.unwrap();
    let (tokens, end) = random_game(3);
    let mut old = tokens.clone();
    old.push("pass".to_owned());
    // A finished game in the archive...
    let finished = store_game(&store, "old1", &old).await;
    let result = StoredResult {
        winner: end.winner.map(|c| {
            if c == yinsh::Color::White {
                "white"
            } else {
                "black"
            }
            .to_owned()
        }),
        termination: end.termination.name().to_owned(),
        finished_at: 9_000,
    };
    let write = GameWrite::Result(result);
    store
        .write_game(finished, &write, true, None)
        .await
        .unwrap();
    // ...and one whose result was never written (a crash right after the pass).
    let unfinished = store_game(&store, "old2", &old).await;

    let server = TestServer::with_store(store.clone(), crate::common::fast_config()).await;
    let (status, body) = server.get(&format!("/api/archive/{}", finished.0)).await;
    assert_eq!(status, 200, "{body}");
    let full: yinsh_server::protocol::ArchivedGame = serde_json::from_str(&body).unwrap();
    assert_eq!(full.moves.len(), tokens.len(), "the last pass is left out");
    assert_eq!(full.frames.len(), tokens.len() + 1);
    assert_eq!(full.entry.actions as usize, tokens.len());
    let record = yinsh::notation::record::Record::parse(&full.record).expect("a record");
    assert!(record.replay().unwrap().is_over());
    let (status, _) = server
        .get(&format!("/api/archive/{}/record", finished.0))
        .await;
    assert_eq!(status, 200);

    // The unfinished one is restored over at the board; its result is stored at once,
    // then announced to whoever watches.
    let mut watcher = server.client().await;
    let game = watcher.open("old2").await.game.unwrap();
    assert_eq!(game.moves.len(), tokens.len());
    if game.result.is_none() {
        watcher
            .event(|e| {
                matches!(e, yinsh_server::protocol::TableEvent::GameOver { .. }).then_some(())
            })
            .await;
    }
    let stored = store.game(unfinished).await.unwrap().unwrap();
    let result = stored.result.expect("the result is stored");
    assert_eq!(result.termination, end.termination.name());
}

// ---- Unique guest names ----

/// Guests' names are unique in the store, ignoring case: a taken name is a conflict,
/// a new guest whose random name is taken gets another, and many new guests get as
/// many names.
async fn unique_names(store: Arc<dyn Store>) {
    let first = store
        .create_guest("hash-1", "SwiftOtter4821")
        .await
        .unwrap();
    for (hash, name) in [("hash-2", "SwiftOtter4821"), ("hash-3", "swiftotter4821")] {
        let e = store.create_guest(hash, name).await.unwrap_err();
        assert_eq!(e.kind, StoreErrorKind::Conflict, "{name}: {e}");
        // Nothing of the refused guest is kept: its session is none.
        assert_eq!(store.session_player(hash).await.unwrap(), None);
    }
    // A taken token hash is a conflict too.
    let e = store
        .create_guest("hash-1", "CalmOwl1234")
        .await
        .unwrap_err();
    assert_eq!(e.kind, StoreErrorKind::Conflict, "{e}");

    // A new guest whose first names are taken gets the next free one.
    let mut names = ["SwiftOtter4821", "SWIFTOTTER4821", "CalmOwl1234"].into_iter();
    let (player, token) = session::identify_with(store.as_ref(), &HeaderMap::new(), || {
        names.next().unwrap().to_owned()
    })
    .await
    .expect("a guest with the third name");
    assert_eq!(player.name, "CalmOwl1234");
    assert_ne!(player.id, first.id);
    let token = token.expect("a new session");
    assert_eq!(
        store
            .session_player(&session::hash_token(&token))
            .await
            .unwrap(),
        Some(player)
    );
    // Only taken names: a conflict that says so, after a bounded number of tries.
    let mut tries = 0;
    let e = session::identify_with(store.as_ref(), &HeaderMap::new(), || {
        tries += 1;
        "SwiftOtter4821".to_owned()
    })
    .await
    .unwrap_err();
    assert_eq!(e.kind, StoreErrorKind::Conflict);
    assert!(e.to_string().contains("no free guest name"), "{e}");
    assert_eq!(tries, session::GUEST_NAME_TRIES);

    // Many new guests, as the server makes them: all names different.
    let mut seen = HashSet::from(["swiftotter4821".to_owned(), "calmowl1234".to_owned()]);
    for _ in 0..300 {
        let (player, _) = session::identify(store.as_ref(), &HeaderMap::new())
            .await
            .unwrap();
        assert!(
            seen.insert(player.name.to_lowercase()),
            "{} twice",
            player.name
        );
    }
    // A name source that repeats itself (a tiny name space) still gives distinct names.
    let mut n = 0u64;
    for _ in 0..40 {
        let (player, _) = session::identify_with(store.as_ref(), &HeaderMap::new(), || {
            n += 1;
            format!("TinyPool{}", n % 50)
        })
        .await
        .unwrap();
        assert!(
            seen.insert(player.name.to_lowercase()),
            "{} twice",
            player.name
        );
    }
}

#[tokio::test]
async fn sqlite_guest_names_are_unique() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("u.db").display());
    unique_names(yinsh_server::store::open(&url).await.unwrap()).await;
}

#[tokio::test]
async fn postgres_guest_names_are_unique() {
    let Some(url) = postgres_database("unique_names").await else {
        return;
    };
    unique_names(yinsh_server::store::open(&url).await.unwrap()).await;
}

/// A migrator of the first migration of `folder` alone: the schema of the servers
/// before names were unique.
async fn first_migration(folder: &str) -> (sqlx::migrate::Migrator, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(folder)
        .join("0001_init.sql");
    std::fs::copy(&from, dir.path().join("0001_init.sql")).unwrap();
    let old = sqlx::migrate::Migrator::new(dir.path()).await.unwrap();
    assert_eq!(old.iter().count(), 1);
    (old, dir)
}

/// Players of the old schema, ids 1–9 in order: names taken two and three times (in
/// other cases too), and names that renaming by the id alone would take
/// (`SwiftOtter7` with id 3 would be `SwiftOtter73`).
const OLD_NAMES: [&str; 9] = [
    "SwiftOtter7",
    "CalmOwl42",
    "SwiftOtter7",
    "swiftotter7",
    "CalmOwl42",
    "SwiftOtter73",
    "BoldYak1",
    "BoldYak1",
    "BoldYak18",
];

/// The SQL that fills an old database with `names` (ids 1, 2, … in order), a session
/// `hash-<id>` for each, and an unfinished game of the first two.
fn old_rows(names: &[&str]) -> String {
    let mut sql = String::new();
    for (i, name) in names.iter().enumerate() {
        let id = i + 1;
        sql.push_str(&format!(
            "INSERT INTO players (name, created_at) VALUES ('{name}', {id});\n\
             INSERT INTO sessions (token_hash, player_id, created_at) VALUES ('hash-{id}', {id}, {id});\n"
        ));
    }
    sql.push_str(&format!(
        "INSERT INTO games (table_id, options, white_id, white_name, black_id, black_name, \
         started_at) VALUES ('old', '{{\"variant\":\"standard\",\"log\":true}}', 2, '{}', 3, '{}', 5);",
        names[1], names[2]
    ));
    sql
}

/// After the migration: the oldest of each name keeps it, the others are renamed, all
/// names differ (ignoring case), sessions and games are as they were, and names are
/// unique from now on.
async fn check_migrated(url: &str) {
    let store = yinsh_server::store::open(url).await.unwrap();
    let mut names = Vec::new();
    for id in 1..=OLD_NAMES.len() as i64 {
        let player = store
            .session_player(&format!("hash-{id}"))
            .await
            .unwrap()
            .expect("the session is kept");
        assert_eq!(player.id, PlayerId(id));
        names.push(player.name);
    }
    assert_eq!(
        names,
        [
            "SwiftOtter7",
            "CalmOwl42",
            "SwiftOtter703",
            "swiftotter704",
            "CalmOwl4205",
            "SwiftOtter73",
            "BoldYak1",
            "BoldYak108",
            "BoldYak18",
        ]
        .map(String::from),
        "the later ones renamed: a 0 and the id after the name"
    );
    let distinct: HashSet<String> = names.iter().map(|n| n.to_lowercase()).collect();
    assert_eq!(distinct.len(), names.len());
    let games = store.unfinished_games().await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (
            games[0].game.white.name.as_str(),
            games[0].game.black.name.as_str()
        ),
        ("CalmOwl42", "SwiftOtter7"),
        "games keep the names they were played under"
    );
    let e = store
        .create_guest("hash-new", "CALMOWL42")
        .await
        .unwrap_err();
    assert_eq!(e.kind, StoreErrorKind::Conflict, "{e}");
    let fresh = store.create_guest("hash-new", "CalmOwl4242").await.unwrap();
    // (PostgreSQL's sequence counted the refused one too.)
    assert!(fresh.id.0 > OLD_NAMES.len() as i64, "{fresh:?}");
}

#[tokio::test]
async fn sqlite_duplicate_names_are_renamed_by_the_migration() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display());
    let (old, _migrations) = first_migration("sqlite").await;
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    old.run(&pool).await.unwrap();
    sqlx::raw_sql(&old_rows(&OLD_NAMES))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    check_migrated(&url).await;
}

#[tokio::test]
async fn postgres_duplicate_names_are_renamed_by_the_migration() {
    let Some(url) = postgres_database("old_names").await else {
        return;
    };
    let (old, _migrations) = first_migration("postgres").await;
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    old.run(&pool).await.unwrap();
    sqlx::raw_sql(&old_rows(&OLD_NAMES))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    check_migrated(&url).await;
}

/// Should a renamed name be taken all the same (no name the server made is: those
/// end in one or two digits), the migration fails whole and the store does not open:
/// nobody is renamed, the names stay as they were.
#[tokio::test]
async fn a_migration_that_cannot_make_names_unique_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display());
    let (old, _migrations) = first_migration("sqlite").await;
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    old.run(&pool).await.unwrap();
    let names = ["SwiftOtter7", "SwiftOtter703", "SwiftOtter7"];
    sqlx::raw_sql(&old_rows(&names))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let e = match yinsh_server::store::open(&url).await {
        Ok(_) => panic!("the store opened"),
        Err(e) => e,
    };
    assert_eq!(e.kind, StoreErrorKind::Conflict, "{e}");
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let kept: Vec<String> = sqlx::query_scalar("SELECT name FROM players ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(kept, names);
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(applied, [1]);
}

/// A new game at `table` between two bots (no players needed).
fn new_game(table: &str) -> NewGame {
    NewGame {
        table_id: table.to_owned(),
        options: TableOptions::default(),
        white: seat(None, &format!("Engine 1 at {table}"), Some(1)),
        black: seat(None, "Engine 2", Some(2)),
        started_at: 1_000,
    }
}

/// A game with no actions yet, between two bots.
async fn empty_game(store: &Arc<dyn Store>, table: &str) -> yinsh_server::vocab::GameId {
    store.create_game(&new_game(table), None).await.unwrap()
}

/// Games and actions of many tables that arrive together are committed together (each
/// game gets its own id back), and an action that the database refuses fails alone:
/// the others in its batch are stored.
async fn group_commit(store: Arc<dyn Store>) {
    // Started together: stored in a few statements.
    let news: Vec<NewGame> = (0..200).map(|n| new_game(&format!("g{n}"))).collect();
    let games: Vec<_> =
        futures_util::future::join_all(news.iter().map(|g| store.create_game(g, None)))
            .await
            .into_iter()
            .map(Result::unwrap)
            .collect();
    let distinct: std::collections::HashSet<_> = games.iter().collect();
    assert_eq!(distinct.len(), 200);
    let first = append(0, action("e5", 2_000));
    store
        .write_game(games[7], &first, false, None)
        .await
        .unwrap();
    // All of them queued before the writer looks (they are polled together): one
    // batch, with game 7's action 0 a second time among them.
    let writes: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(n, &g)| {
            let ply = u32::from(n == 7);
            let write = append(ply, action(&format!("a{}", n % 9 + 1), 3_000));
            (g, write)
        })
        .chain([(games[7], append(0, action("f6", 3_000)))])
        .collect();
    let results = futures_util::future::join_all(
        writes
            .iter()
            .map(|(g, write)| store.write_game(*g, write, false, None)),
    )
    .await;
    let refused: Vec<_> = results.iter().filter(|r| r.is_err()).collect();
    assert_eq!(refused.len(), 1, "{results:?}");
    assert_eq!(
        refused[0].as_ref().unwrap_err().kind,
        StoreErrorKind::Conflict
    );
    assert!(results[..200].iter().all(|r| r.is_ok()));
    let unfinished = store.unfinished_games().await.unwrap();
    assert_eq!(unfinished.len(), 200);
    for game in unfinished {
        let n = games.iter().position(|g| *g == game.id).unwrap();
        // The id each table was given is its own game's.
        assert_eq!(game.game, news[n]);
        let tokens: Vec<_> = game.actions.iter().map(|a| a.token.as_str()).collect();
        let expected = format!("a{}", n % 9 + 1);
        if n == 7 {
            assert_eq!(tokens, ["e5", expected.as_str()]);
        } else {
            assert_eq!(tokens, [expected.as_str()]);
        }
    }
}

#[tokio::test]
async fn sqlite_group_commit() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("g.db").display());
    group_commit(yinsh_server::store::open(&url).await.unwrap()).await;
}

#[tokio::test]
async fn postgres_group_commit() {
    let Some(url) = postgres_database("group").await else {
        return;
    };
    group_commit(yinsh_server::store::open(&url).await.unwrap()).await;
}

/// The largest size the SQLite log file reached while `actions` actions were stored
/// one commit each (and the archive read between them) under `policy`.
async fn wal_high_water(policy: yinsh_server::store::WalPolicy, actions: u32) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.db");
    let url = format!("sqlite://{}?mode=rwc", path.display());
    let store: Arc<dyn Store> = Arc::new(
        yinsh_server::store::SqlStore::connect_with(&url, policy)
            .await
            .unwrap(),
    );
    let wal = dir.path().join("w.db-wal");
    let mut games = Vec::new();
    for n in 0..20 {
        games.push(empty_game(&store, &format!("w{n}")).await);
    }
    let mut high = 0;
    for ply in 0..actions / 20 {
        for &game in &games {
            let write = append(ply, action("e5", 2_000 + i64::from(ply)));
            store.write_game(game, &write, false, None).await.unwrap();
        }
        if ply % 10 == 0 {
            store.archive(&ArchiveQuery::default()).await.unwrap();
        }
        high = high.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
        // The checkpoints run beside the commits (as the tables' players think).
        tokio::task::yield_now().await;
    }
    high
}

/// Checkpoints beside the commits keep SQLite's log small however long the server
/// writes; without them (and with the committing connection's own checkpoints far
/// away) the same writes grow it many times over (to about 50 MB).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_log_stays_small() {
    use std::time::Duration;
    use yinsh_server::store::WalPolicy;
    let bounded = WalPolicy {
        every: Duration::from_millis(20),
        truncate_above: 512 << 10,
        size_limit: 512 << 10,
        safety_pages: 1_000_000,
    };
    let unbounded = WalPolicy {
        every: Duration::from_secs(3_600),
        ..bounded
    };
    let kept = wal_high_water(bounded, 6_000).await;
    let grown = wal_high_water(unbounded, 6_000).await;
    eprintln!("log high water: {kept} bytes with checkpoints, {grown} without");
    // About 2 MB here (the writes of a few intervals); the bound leaves room for a
    // loaded machine, where the checkpoints and the writes both run slower.
    assert!(kept < 8 << 20, "the log reached {kept} bytes");
    assert!(
        grown > 4 * kept,
        "without checkpoints: {grown} bytes, with: {kept}"
    );
}

/// The tables of `owners`, in order.
fn owned(owners: &[yinsh_server::cluster::store::TableOwner]) -> Vec<(&str, &str, i64)> {
    owners
        .iter()
        .map(|o| (o.table.as_str(), o.node.as_str(), o.incarnation))
        .collect()
}

/// Cluster leases: who owns a table, and taking over the tables of a node whose lease
/// ran out.
async fn leases(store: Arc<dyn Store>) {
    const MINUTE: i64 = 60_000;
    // The first node to start sets the cluster's id; the others get that one.
    assert_eq!(store.cluster_id("c0ffee").await.unwrap(), "c0ffee");
    assert_eq!(store.cluster_id("beef00").await.unwrap(), "c0ffee");
    store.renew_node("a", 1, MINUTE).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    store.renew_node("b", 1, MINUTE).await.unwrap();
    assert!(store.claim_table("t1", "a").await.unwrap());
    assert!(
        !store.claim_table("t1", "b").await.unwrap(),
        "an id is owned once"
    );
    assert!(store.claim_table("t2", "a").await.unwrap());
    assert!(store.claim_table("t3", "b").await.unwrap());
    let t1 = store.table_owner("t1").await.unwrap().unwrap();
    assert_eq!((t1.node.as_str(), t1.incarnation), ("a", 1));
    assert_eq!(store.table_owner("nope").await.unwrap(), None);

    // Nobody takes a living node's tables. The run alive longest is listed first: a
    // renewal keeps its place, a new run of a node (a restart) goes last.
    assert!(store.take_over("b", false, 100).await.unwrap().is_empty());
    assert_eq!(store.live_nodes().await.unwrap(), ["a", "b"]);
    store.renew_node("a", 1, MINUTE).await.unwrap();
    assert_eq!(store.live_nodes().await.unwrap(), ["a", "b"]);
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    store.renew_node("a", 2, MINUTE).await.unwrap();
    assert_eq!(store.live_nodes().await.unwrap(), ["b", "a"]);
    store.renew_node("b", 1, MINUTE).await.unwrap();
    assert_eq!(store.live_nodes().await.unwrap(), ["b", "a"]);

    // A node that stops gives its tables up at once; each changes hands once.
    store.end_node("a").await.unwrap();
    assert_eq!(store.live_nodes().await.unwrap(), ["b"]);
    let taken = store.take_over("b", false, 100).await.unwrap();
    assert_eq!(owned(&taken), [("t1", "b", 2), ("t2", "b", 2)]);
    assert!(taken.iter().all(|o| o.previous == "a"), "{taken:?}");
    assert!(store.take_over("c", false, 100).await.unwrap().is_empty());
    assert_eq!(owned(&store.tables_of("a").await.unwrap()), []);

    // A lease that runs out by the database's clock; a node that never had a lease.
    store.renew_node("c", 1, 1).await.unwrap();
    assert!(store.claim_table("t4", "c").await.unwrap());
    assert!(store.claim_table("t5", "ghost").await.unwrap());
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let taken = store.take_over("a", false, 1).await.unwrap();
    assert_eq!(owned(&taken), [("t4", "a", 2)], "at most `limit` tables");
    let taken = store.take_over("a", false, 10).await.unwrap();
    assert_eq!(owned(&taken), [("t5", "a", 2)]);
    store.renew_node("a", 2, MINUTE).await.unwrap();
    store.renew_node("c", 1, MINUTE).await.unwrap();

    // A node back under its id takes its own tables again, as a new incarnation.
    let own = store.take_over("b", true, 100).await.unwrap();
    assert_eq!(
        owned(&own),
        [("t1", "b", 3), ("t2", "b", 3), ("t3", "b", 2)]
    );

    // Letting go: only the owner can.
    store.release_table("t1", "a").await.unwrap();
    assert!(store.table_owner("t1").await.unwrap().is_some());
    store.release_table("t1", "b").await.unwrap();
    assert_eq!(store.table_owner("t1").await.unwrap(), None);
    assert!(
        store.claim_table("t1", "c").await.unwrap(),
        "a released id is free"
    );

    // Two nodes taking over at once share the tables out: none goes to both.
    store.renew_node("d", 1, 1).await.unwrap();
    for n in 0..40 {
        assert!(store.claim_table(&format!("d{n:02}"), "d").await.unwrap());
    }
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    store.renew_node("e", 1, MINUTE).await.unwrap();
    store.renew_node("f", 1, MINUTE).await.unwrap();
    let (e, f) = tokio::join!(
        store.take_over("e", false, 25),
        store.take_over("f", false, 25)
    );
    let (e, f) = (e.unwrap(), f.unwrap());
    let mut all: Vec<&str> = e.iter().chain(&f).map(|o| o.table.as_str()).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), e.len() + f.len(), "no table taken twice");
    assert!(e.len() <= 25 && f.len() <= 25);
    let rest = store.take_over("e", false, 100).await.unwrap();
    assert_eq!(e.len() + f.len() + rest.len(), 40);

    // The unfinished games at some tables (a node restoring what it took over).
    let game = empty_game(&store, "t2").await;
    empty_game(&store, "elsewhere").await;
    let at = store
        .unfinished_games_at(&["t2".to_owned(), "t9".to_owned()])
        .await
        .unwrap();
    assert_eq!(at.iter().map(|g| g.id).collect::<Vec<_>>(), [game]);

    fenced_writes(&store, game).await;
}

/// Writes that carry a fence are made only while the table is still the fence's node's
/// at its incarnation: a node that lost a table can never write to its game. `game` is
/// at table t2, which node b owns at incarnation 3.
async fn fenced_writes(store: &Arc<dyn Store>, game: yinsh_server::vocab::GameId) {
    let fence = |node: &str, incarnation| Fence {
        table: "t2".to_owned(),
        node: node.to_owned(),
        incarnation,
    };
    let (now, stale, other) = (fence("b", 3), fence("b", 2), fence("a", 3));
    store
        .write_game(game, &append(0, action("e3", 2_000)), false, Some(&now))
        .await
        .unwrap();
    for fence in [&stale, &other] {
        let refused = store
            .write_game(game, &append(1, action("a5", 2_001)), false, Some(fence))
            .await;
        assert_eq!(
            refused.unwrap_err().kind,
            StoreErrorKind::Moved,
            "{fence:?}"
        );
    }
    // In one batch with writes whose fences hold: only the stale one is refused.
    let games = [empty_game(store, "t3").await, empty_game(store, "t4").await];
    let owner = |t: &str, node: &str, incarnation| Fence {
        table: t.to_owned(),
        node: node.to_owned(),
        incarnation,
    };
    let fences = [owner("t3", "b", 2), owner("t4", "a", 2)];
    let writes = [
        (games[0], append(0, action("c3", 2_002)), fences[0].clone()),
        (game, append(1, action("a5", 2_003)), stale.clone()),
        (games[1], append(0, action("d4", 2_004)), fences[1].clone()),
    ];
    let results = futures_util::future::join_all(
        writes
            .iter()
            .map(|(g, w, f)| store.write_game(*g, w, false, Some(f))),
    )
    .await;
    assert!(results[0].is_ok() && results[2].is_ok(), "{results:?}");
    assert_eq!(results[1].as_ref().unwrap_err().kind, StoreErrorKind::Moved);
    // A result, and a new game, under a stale fence: nothing written.
    let result = GameWrite::Result(StoredResult {
        winner: Some("white".to_owned()),
        termination: "resignation".to_owned(),
        finished_at: 2_005,
    });
    let refused = store.write_game(game, &result, true, Some(&stale)).await;
    assert_eq!(refused.unwrap_err().kind, StoreErrorKind::Moved);
    let new = NewGame {
        table_id: "t2".to_owned(),
        options: TableOptions::default(),
        white: seat(None, "Engine 1", Some(1)),
        black: seat(None, "Engine 2", Some(2)),
        started_at: 3_000,
    };
    let refused = store.create_game(&new, Some(&other)).await;
    assert_eq!(refused.unwrap_err().kind, StoreErrorKind::Moved);
    let at = store.unfinished_games_at(&["t2".to_owned()]).await.unwrap();
    assert_eq!(at.len(), 1, "no game made under a stale fence");
    let tokens: Vec<_> = at[0].actions.iter().map(|a| a.token.as_str()).collect();
    assert_eq!(tokens, ["e3"], "only the write whose fence held");
}

#[tokio::test]
async fn sqlite_leases() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("l.db").display());
    leases(yinsh_server::store::open(&url).await.unwrap()).await;
}

#[tokio::test]
async fn postgres_leases() {
    let Some(url) = postgres_database("leases").await else {
        return;
    };
    leases(yinsh_server::store::open(&url).await.unwrap()).await;
}

/// A transaction that reads before it writes (registering reads the session, then
/// writes the player) waits for the write lock another connection holds a moment — as
/// SQLite's log checkpointer does for an instant — instead of failing at once with
/// "database is locked".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_writes_wait_for_a_lock_held_a_moment_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("l.db").display());
    let store = yinsh_server::store::open(&url).await.unwrap();
    store.create_guest("h-ines", "InesGuest").await.unwrap();
    let other = sqlx::SqlitePool::connect(&url).await.unwrap();
    let mut holder = other.acquire().await.unwrap();
    sqlx::raw_sql("BEGIN IMMEDIATE")
        .execute(&mut *holder)
        .await
        .unwrap();
    let register = tokio::spawn(async move {
        let account = yinsh_server::account::store::NewAccount {
            name: "Ines".to_owned(),
            skeleton: yinsh_server::account::skeleton("Ines"),
            password_hash: "$argon2id$not-checked-here".to_owned(),
        };
        store.register("h-ines", &account).await
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    sqlx::raw_sql("COMMIT").execute(&mut *holder).await.unwrap();
    let registered = register.await.unwrap();
    assert!(registered.is_ok(), "{registered:?}");
}
