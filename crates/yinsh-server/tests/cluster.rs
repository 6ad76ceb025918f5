//! The parts of a cluster: the message bus over a real Redis server, and nodes on one
//! PostgreSQL database that take over the tables of a node that died.
//!
//! Redis runs when `YINSH_TEST_REDIS_URL` names a server (the test command starts one
//! on loopback with `scripts/redis` and sets it, with `YINSH_REQUIRE_REDIS=1` so that a
//! missing server fails rather than skips).

use std::sync::Arc;
use std::time::Duration;

use yinsh_server::Config;
use yinsh_server::cluster::bus::{Bus, Delivery, LocalBus, RedisBus, Subscription};
use yinsh_server::protocol::{GoneReason, Request, ServerMessage, TableOptions, TimeSetting};

use crate::common::{Client, TestServer, fast_config, postgres_database, seated_pair};

/// The Redis server of the test command, if there is one.
fn redis_url() -> Option<String> {
    match std::env::var("YINSH_TEST_REDIS_URL") {
        Ok(url) => Some(url),
        Err(_) => {
            assert!(
                std::env::var("YINSH_REQUIRE_REDIS").is_err(),
                "YINSH_REQUIRE_REDIS is set but YINSH_TEST_REDIS_URL is not"
            );
            eprintln!("Redis tests skipped: YINSH_TEST_REDIS_URL is not set");
            None
        }
    }
}

/// Channel names of this test run only (tests share the server).
fn channel(name: &str) -> String {
    format!("test:{}:{name}", std::process::id())
}

async fn next(sub: &mut Subscription) -> String {
    let delivery = tokio::time::timeout(Duration::from_secs(10), sub.next())
        .await
        .expect("a delivery within 10 s");
    match delivery {
        Some(Delivery::Message { channel, payload }) => {
            let name = channel.rsplit(':').next().unwrap_or_default().to_owned();
            format!("{name}:{}", String::from_utf8_lossy(&payload))
        }
        Some(Delivery::Gap) => "gap".to_owned(),
        None => "end".to_owned(),
    }
}

/// One test for both, one after the other: cutting the subscribers' connections would
/// cut those of a test running beside it.
#[tokio::test]
async fn redis_bus() {
    let Some(url) = redis_url() else { return };
    delivers_in_order_to_every_subscriber(&url).await;
    a_lost_subscription_comes_back_with_a_gap().await;
}

async fn delivers_in_order_to_every_subscriber(url: &str) {
    let publisher = RedisBus::connect(url).await.unwrap();
    let listener = RedisBus::connect(url).await.unwrap();
    let (x, y) = (channel("order-x"), channel("order-y"));
    let mut both = listener.subscribe(&[x.clone(), y.clone()]).await.unwrap();
    let mut only_y = listener.subscribe(std::slice::from_ref(&y)).await.unwrap();
    for i in 0..500 {
        let to = if i % 3 == 0 { &x } else { &y };
        publisher
            .publish(to, i.to_string().as_bytes())
            .await
            .unwrap();
    }
    for i in 0..500 {
        let name = if i % 3 == 0 { "order-x" } else { "order-y" };
        assert_eq!(next(&mut both).await, format!("{name}:{i}"));
        if i % 3 != 0 {
            assert_eq!(next(&mut only_y).await, format!("order-y:{i}"));
        }
    }
}

async fn a_lost_subscription_comes_back_with_a_gap() {
    // Its own server: cutting every subscriber of the shared one would cut the nodes
    // of the cluster tests running beside this one too.
    let redis = yinsh_server::testkit::OwnRedis::start();
    let url = redis.url.as_str();
    let bus = RedisBus::connect(url).await.unwrap();
    let ch = channel("lost");
    let mut sub = bus.subscribe(std::slice::from_ref(&ch)).await.unwrap();
    bus.publish(&ch, b"before").await.unwrap();
    assert_eq!(next(&mut sub).await, "lost:before");

    // Redis cuts every subscriber's connection (as it does to one that falls behind).
    let client = redis::Client::open(url).unwrap();
    let mut admin = client.get_multiplexed_async_connection().await.unwrap();
    let killed: i64 = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("TYPE")
        .arg("pubsub")
        .query_async(&mut admin)
        .await
        .unwrap();
    assert_eq!(killed, 1);
    assert_eq!(
        next(&mut sub).await,
        "gap",
        "the subscriber hears of the gap"
    );
    // Subscribed again: what is published now arrives.
    bus.publish(&ch, b"after").await.unwrap();
    assert_eq!(next(&mut sub).await, "lost:after");
}

#[tokio::test]
async fn a_bus_that_is_not_there_is_an_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // Nothing listens on a port just freed.
    let e = RedisBus::connect(&format!("redis://127.0.0.1:{port}"))
        .await
        .err()
        .expect("no bus there");
    assert!(e.to_string().starts_with("message bus:"), "{e}");
}

/// The ids of the tables `server` lists.
async fn tables(server: &TestServer) -> Vec<String> {
    let (status, body) = server.get("/api/tables").await;
    assert_eq!(status, 200, "{body}");
    let list: Vec<yinsh_server::protocol::TableSummary> = serde_json::from_str(&body).unwrap();
    list.into_iter().map(|t| t.id).collect()
}

/// Waits (up to 10 s) until the tables `server` lists are as `ok` wants.
async fn listed_soon(server: &TestServer, ok: impl Fn(&[String]) -> bool) {
    let waited = std::time::Instant::now();
    loop {
        let list = tables(server).await;
        if ok(&list) {
            return;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "listed: {list:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The configuration of node `id` of a test's cluster (ids differ between the tests,
/// which share the Redis server): with its own connection to
/// Redis when there is one (the test command's), as separate processes would have; on
/// `local`, one bus in the process, otherwise.
async fn node(id: &str, local: &Arc<dyn Bus>) -> Config {
    let bus: Arc<dyn Bus> = match std::env::var("YINSH_TEST_REDIS_URL") {
        Ok(redis) => Arc::new(RedisBus::connect(&redis).await.unwrap()),
        Err(_) => local.clone(),
    };
    Config {
        node_id: Some(id.to_owned()),
        bus: Some(bus),
        ..fast_config()
    }
}

/// Two nodes of a cluster on the database at `url`: `first` (the meeting node when its
/// id comes first) and `second`, each with its own connection to the bus.
async fn two_nodes(url: &str, first: &str, second: &str) -> (TestServer, TestServer) {
    let local: Arc<dyn Bus> = Arc::new(LocalBus::new());
    let a = TestServer::on(url, node(first, &local).await).await;
    let b = TestServer::on(url, node(second, &local).await).await;
    (a, b)
}

/// Nodes of a cluster on one PostgreSQL database: a node that dies has its tables
/// taken over by another, which restores their games; the players reconnect there
/// and play on.
#[tokio::test]
async fn a_dead_nodes_tables_are_taken_over() {
    let Some(url) = postgres_database("failover").await else {
        return;
    };
    let (mut a, b) = two_nodes(&url, "fa", "fb").await;
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 10,
            increment: 0,
        }),
        ..TableOptions::default()
    };
    let (table, mut white, mut black) = seated_pair(&a, options.clone()).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    let mut lone = a.client().await;
    let waiting = lone.create(TableOptions::default()).await;
    let (on_b, _, _) = seated_pair(&b, options).await;
    let owner = |t: &str| {
        let store = b.store.clone();
        let t = t.to_owned();
        async move {
            store
                .table_owner(&t)
                .await
                .unwrap()
                .map(|o| (o.node, o.incarnation))
        }
    };
    assert_eq!(owner(&table).await, Some(("fa".to_owned(), 1)));
    assert_eq!(owner(&waiting).await, Some(("fa".to_owned(), 1)));
    assert_eq!(owner(&on_b).await, Some(("fb".to_owned(), 1)));
    // Each node lists every table, its own and the other's (once the bus has told it).
    for server in [&a, &b] {
        listed_soon(server, |list| {
            [&table, &waiting, &on_b]
                .iter()
                .all(|t| list.iter().filter(|id| id == t).count() == 1)
        })
        .await;
    }

    // Node a dies: it serves no more and its lease is not renewed. (Black's connection
    // to it stays, as to a process that froze.)
    let cookie = white.cookie.clone();
    a.node.as_ref().unwrap().halt();
    a.stop().await;
    drop((white, lone));

    // Within the lease (5 s) and a look (1 s), b has the table and its game.
    let waited = std::time::Instant::now();
    while owner(&waiting).await.is_some() {
        assert!(waited.elapsed() < Duration::from_secs(10), "not taken over");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(owner(&table).await, Some(("fb".to_owned(), 2)));
    // The table without a game had nothing stored: its id was let go, and no node
    // lists it.
    listed_soon(&b, |list| {
        !list.contains(&waiting) && list.iter().filter(|id| *id == &table).count() == 1
    })
    .await;
    assert_eq!(
        owner(&on_b).await,
        Some(("fb".to_owned(), 1)),
        "b's own table stays"
    );

    // White comes back through node b and plays on: every action is there.
    let mut white = Client::connect(b.addr, Some(&cookie)).await;
    let game = white.open(&table).await.game.unwrap();
    assert_eq!(game.moves, ["e3", "a5"]);
    white
        .act(&table, "b5")
        .await
        .expect("white plays on at the node that took the table over");

    // Before node a finds out, black (still connected there) resigns at its old copy
    // of the table: the write is fenced out (the table is not a's any more), nothing
    // is stored, and the table closes there.
    let (code, _) = black.chat(&table, "/resign").await.unwrap_err();
    assert_eq!(code, "table_moved");
    let game = b
        .store
        .unfinished_games_at(std::slice::from_ref(&table))
        .await;
    assert_eq!(game.unwrap().len(), 1, "the game goes on at node b");

    // Node a wakes: it finds the table is b's now, closes it, and cuts off the
    // connection still watching it there (the player reconnects and finds it on b).
    a.node.as_ref().unwrap().resume();
    assert!(
        black.closed().await,
        "the woken node lets its old watchers go"
    );
    assert_eq!(owner(&table).await, Some(("fb".to_owned(), 2)));
}

/// A player connected to one node plays at a table another node owns, as if it were
/// local: every reply and refusal, every event in order; closing and opening again;
/// and when the owner dies, the connection is cut off so that the player reconnects
/// and finds the table where it went.
#[tokio::test]
async fn a_table_of_another_node_is_played_from_any_node() {
    let Some(url) = postgres_database("routing").await else {
        return;
    };
    let (mut a, b) = two_nodes(&url, "ra", "rb").await;
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 10,
            increment: 0,
        }),
        ..TableOptions::default()
    };
    // White on node a, where the table is; black on node b.
    let mut white = a.client().await;
    let table = white.create(options).await;
    white.open(&table).await;
    white.chat(&table, "/join white").await.unwrap();
    listed_soon(&b, |list| list.contains(&table)).await;
    let mut black = b.client().await;
    let view = black.open(&table).await;
    assert_eq!(view.id, table, "the snapshot comes from node a");
    black
        .chat(&table, "/join black")
        .await
        .expect("black joins from node b");
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.my_turn(1).await;
    // A refusal comes back as the owner gives it, in the player's language.
    black
        .call(Request::Hello { lang: "nl".into() })
        .await
        .unwrap();
    let (code, text) = black.act(&table, "e3").await.unwrap_err();
    assert_eq!(code, "illegal_action", "{text}");
    black
        .act(&table, "a5")
        .await
        .expect("black plays from node b");
    let (code, _) = black.act(&table, "b5").await.unwrap_err();
    assert_eq!(code, "not_your_turn");
    white.my_turn(2).await;
    white.act(&table, "b5").await.unwrap();
    let game = black.my_turn(3).await;
    assert_eq!(game.moves, ["e3", "a5", "b5"]);
    // Every event reached black in order, none missing.
    let versions: Vec<u64> = black.events.iter().map(|(v, _)| *v).collect();
    assert!(
        versions.windows(2).all(|w| w[1] == w[0] + 1),
        "{versions:?}"
    );
    assert_eq!(a.router.as_ref().unwrap().counts().0, 1, "a relays black");
    assert_eq!(b.router.as_ref().unwrap().counts().1, 1);
    // The bus carried it all, and each node counts what it sent and received.
    for node in [&a, &b] {
        for direction in ["sent", "received"] {
            let n = node.metrics.bus_counter(direction).get();
            assert!(n > 0, "{direction}: {n}");
        }
    }
    assert_eq!(
        a.metrics.actions(),
        3,
        "the table's node counts its actions"
    );
    assert_eq!(b.metrics.actions(), 0);

    // Closed there: nothing more of it, and acting at it is refused as not open. The
    // reply is in black's language.
    let (_, closed) = black
        .call(Request::Close {
            table: table.clone(),
        })
        .await
        .unwrap();
    let english = yinsh_server::i18n::Msg::new("closed").arg("table", &table);
    assert_ne!(closed, english.render(yinsh_server::i18n::Lang::En));
    let (code, _) = black.act(&table, "c4").await.unwrap_err();
    assert_eq!(code, "not_open");
    black.open(&table).await;
    black
        .act(&table, "c4")
        .await
        .expect("open again, black plays");
    white.my_turn(4).await;

    // A second connection of black on node b that watches the table has a relay on
    // node a too, which goes when it closes.
    let relays = || a.router.as_ref().unwrap().counts().0;
    let mut extra = Client::connect(b.addr, Some(&black.cookie)).await;
    extra.open(&table).await;
    assert_eq!(relays(), 2);
    drop(extra);
    let waited = std::time::Instant::now();
    while relays() != 1 {
        assert!(waited.elapsed() < Duration::from_secs(10), "relay kept");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Node a dies. Node b takes the table over; black, still connected to b and
    // watching the table there, is cut off and reconnects, now to the table on b.
    a.node.as_ref().unwrap().halt();
    a.stop().await;
    drop(white);
    assert!(black.closed().await, "cut off once the table moved");
    let mut black = Client::connect(b.addr, Some(&black.cookie)).await;
    let view = black.open(&table).await;
    assert_eq!(view.game.unwrap().moves, ["e3", "a5", "b5", "c4"]);
    let owner = b.store.table_owner(&table).await.unwrap().unwrap();
    assert_eq!((owner.node.as_str(), owner.incarnation), ("rb", 2));
    black
        .chat(&table, "/resign")
        .await
        .expect("black plays on at node b");
}

/// Waits (up to 10 s) until `server` counts `n` players online.
async fn online_soon(server: &TestServer, n: u64) {
    let waited = std::time::Instant::now();
    loop {
        let (_, body) = server.get("/api/stats").await;
        let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
        if stats["players_online"] == n {
            return;
        }
        assert!(waited.elapsed() < Duration::from_secs(10), "{stats}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The table of the `paired` message `client` gets.
async fn paired(client: &mut Client) -> String {
    client
        .until(|m| match m {
            ServerMessage::Paired { table, .. } => Some(table.clone()),
            _ => None,
        })
        .await
}

/// Players connected to different nodes meet as on one server: every node counts and
/// names everyone online, seeks made at any node pair with each other and are listed
/// at every node, and a challenge by name reaches its player at another node, who
/// accepts it there; the paired players play at the new table from their own nodes.
#[tokio::test]
async fn players_at_different_nodes_meet() {
    let Some(url) = postgres_database("meeting").await else {
        return;
    };
    let (a, b) = two_nodes(&url, "ma", "mb").await;
    let mut ann = a.client().await;
    let mut bob = b.client().await;
    let mut cas = b.client().await;
    for server in [&a, &b] {
        online_soon(server, 3).await;
    }
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 5,
            increment: 3,
        }),
        ..TableOptions::default()
    };

    // Bob seeks at node b; the seek is listed at both nodes.
    let seek = Request::Seek {
        options: options.clone(),
        bots: false,
    };
    bob.call(seek.clone()).await.expect("bob seeks at node b");
    for client in [&mut cas, &mut ann] {
        // In the list, or announced after it.
        client.send(Request::Lobby).await;
        client
            .until(|m| match m {
                ServerMessage::Lobby { seeks, .. } if !seeks.is_empty() => Some(()),
                ServerMessage::LobbySeek { .. } => Some(()),
                _ => None,
            })
            .await;
    }
    // Ann's seek at node a pairs them.
    ann.call(seek).await.expect("ann seeks at node a");
    let table = paired(&mut ann).await;
    assert_eq!(paired(&mut bob).await, table, "bob hears of it at node b");
    ann.open(&table).await;
    let view = bob.open(&table).await;
    let white = view.seats.white.as_ref().unwrap().name.clone();
    let (first, second) = if white == ann.player.name {
        (&mut ann, &mut bob)
    } else {
        (&mut bob, &mut ann)
    };
    first.my_turn(0).await;
    first.act(&table, "e3").await.expect("the first move");
    second.my_turn(1).await;
    second.act(&table, "a5").await.expect("the second move");

    // Ann at node a challenges Cas at node b by name; Cas accepts there.
    let challenge = Request::Challenge {
        to: Some(cas.player.name.clone()),
        options: options.clone(),
        color: None,
    };
    ann.call(challenge).await.expect("cas is online, at node b");
    let id = cas
        .until(|m| match m {
            ServerMessage::Challenge { challenge } => Some(challenge.id.clone()),
            _ => None,
        })
        .await;
    // Node b knows the challenge the meeting node holds: its link opens there, and a
    // page of Cas's that connects there hears of it.
    let link = format!("/api/challenge/{id}");
    let waited = std::time::Instant::now();
    while b.get(&link).await.0 != 200 {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "the link at node b"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut cas_again = Client::connect(b.addr, Some(&cas.cookie)).await;
    let told = cas_again
        .until(|m| match m {
            ServerMessage::Challenge { challenge } => Some(challenge.id.clone()),
            _ => None,
        })
        .await;
    assert_eq!(told, id);
    drop(cas_again);
    // (The pairing comes before the reply.)
    cas.send(Request::AcceptChallenge {
        challenge: id.clone(),
    })
    .await;
    let table = paired(&mut cas).await;
    assert_eq!(paired(&mut ann).await, table);
    cas.open(&table).await;
    // Accepted: its link is gone at node b too.
    let waited = std::time::Instant::now();
    while b.get(&link).await.0 != 404 {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "the link still at node b"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Bob leaves: both nodes count two players.
    drop(bob);
    for server in [&a, &b] {
        online_soon(server, 2).await;
    }
}

/// A node whose lease ran out while it lived on (frozen, or cut off from the database a
/// while) is forgotten by the others — its players, tables and seeks — and once it
/// renews again, they ask it for all of them again.
#[tokio::test]
async fn a_node_back_from_a_lapsed_lease_is_heard_again() {
    let Some(url) = postgres_database("lapsed").await else {
        return;
    };
    let (a, b) = two_nodes(&url, "la", "lb").await;
    let _ann = a.client().await;
    let _bob = b.client().await;
    for server in [&a, &b] {
        online_soon(server, 2).await;
    }
    // Node b stops renewing (as a node that leaves does: it takes no more players)…
    b.node.as_ref().unwrap().halt();
    assert_eq!(b.get("/api/health/node").await.0, 503);
    // …and after its lease (5 s) node a forgets who was there.
    online_soon(&a, 1).await;
    // It renews again: node a asks it, and counts its player again.
    b.node.as_ref().unwrap().resume();
    assert_eq!(b.get("/api/health/node").await.0, 200);
    online_soon(&a, 2).await;
}

/// A bot follows and plays its game at a table of another node through the node it
/// calls, as a page's requests are routed: the game's stream, its moves (refused with
/// the table's reason when wrong) and its chat (said as written).
#[tokio::test]
async fn a_bot_plays_at_a_table_of_another_node() {
    use crate::bot::{Lines, bot_game, post};
    let Some(url) = postgres_database("botroute").await else {
        return;
    };
    let (a, b) = two_nodes(&url, "ba", "bb").await;
    // Ann (white) challenged Robo at node a, which runs the table.
    let (token, mut ann, table) = bot_game(&a).await;
    assert!(a.store.table_owner(&table).await.unwrap().unwrap().node == "ba");

    // Robo at node b.
    let path = format!("/api/bot/game/stream/{table}");
    let (status, mut game) = Lines::open(b.addr, &path, &token).await;
    assert_eq!(status, 200);
    let full = game.until("gameFull").await;
    assert_eq!(full["white"]["name"], "Ann");
    ann.act(&table, "e5").await.unwrap();
    assert_eq!(game.until("gameState").await["moves"], "e5");
    let mv = |t: &str| format!("/api/bot/game/{table}/move/{t}");
    let (status, body) = post(&b, &token, &mv("e5"), "").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("illegal_action")),
        "{body}"
    );
    let (status, body) = post(&b, &token, &mv("f6"), "").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(game.until("gameState").await["moves"], "e5 f6");
    ann.my_turn(2).await;
    // A line that looks like a command is said, not done.
    let chat = format!("/api/bot/game/{table}/chat");
    assert_eq!(post(&b, &token, &chat, "text=/resign").await.0, 200);
    assert_eq!(game.until("chatLine").await["text"], "/resign");
    ann.act(&table, "e4").await.unwrap();
    assert_eq!(game.until("gameState").await["moves"], "e5 f6 e4");
    // A table that runs nowhere.
    let (status, body) = post(&b, &token, "/api/bot/game/nosuch/move/e5", "").await;
    assert_eq!(status, 404, "{body}");
}

/// A database outage longer than a lease: every node's lease runs out, and none takes
/// the others' tables when the database is back — each renews and keeps its own, and
/// the games go on where they were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_database_outage_every_node_keeps_its_tables() {
    let Some(pg) = yinsh_server::testkit::OwnPostgres::start("cluster outage test") else {
        return;
    };
    let (a, b) = two_nodes(&pg.url, "oa", "ob").await;
    let (at_a, mut white, _black) = seated_pair(&a, TableOptions::default()).await;
    let (at_b, mut white_b, _black_b) = seated_pair(&b, TableOptions::default()).await;
    white.chat(&at_a, "/start").await.unwrap();
    white_b.chat(&at_b, "/start").await.unwrap();
    white.act(&at_a, "e3").await.unwrap();
    white_b.act(&at_b, "e3").await.unwrap();

    pg.pause();
    tokio::time::sleep(Duration::from_secs(7)).await;
    pg.resume();
    // Long enough for a node back first to have taken the other's tables.
    tokio::time::sleep(Duration::from_secs(6)).await;
    for (table, node) in [(&at_a, "oa"), (&at_b, "ob")] {
        let owner = a.store.table_owner(table).await.unwrap().unwrap();
        assert_eq!(
            (owner.node.as_str(), owner.incarnation),
            (node, 1),
            "{table}"
        );
    }
}

/// A `/challenge` line typed at a table of a node that is not the meeting node makes
/// its challenge where the cluster's challenges are: the player challenged, at the
/// meeting node, accepts it there.
#[tokio::test]
async fn a_challenge_typed_at_a_table_is_held_by_the_meeting_node() {
    let Some(url) = postgres_database("chatchallenge").await else {
        return;
    };
    // Node ka meets (the first by id).
    let (a, b) = two_nodes(&url, "ka", "kb").await;
    let mut ann = a.client().await;
    let mut bob = b.client().await;
    for server in [&a, &b] {
        online_soon(server, 2).await;
    }
    let table = bob
        .create(TableOptions {
            time: Some(TimeSetting {
                minutes: 5,
                increment: 3,
            }),
            ..TableOptions::default()
        })
        .await;
    bob.open(&table).await;
    let line = format!("/challenge {} white", ann.player.name);
    bob.chat(&table, &line)
        .await
        .expect("the challenge is made");
    let id = ann
        .until(|m| match m {
            ServerMessage::Challenge { challenge } => Some(challenge.id.clone()),
            _ => None,
        })
        .await;
    // Held where Ann accepts it, the meeting node: paired (before the reply).
    ann.send(Request::AcceptChallenge { challenge: id }).await;
    let paired_at = ann
        .until(|m| match m {
            ServerMessage::Paired { table, .. } => Some(Ok(table.clone())),
            ServerMessage::Error { code, .. } => Some(Err(*code)),
            _ => None,
        })
        .await
        .expect("the challenge is where ann accepts it");
    assert_eq!(paired(&mut bob).await, paired_at);
}

/// A bot whose calls reach a node that is not the meeting node answers the challenges
/// made to it there: its accept (and decline) go to the meeting node.
#[tokio::test]
async fn a_bot_answers_challenges_through_any_node() {
    use crate::bot::{Lines, account, bot_account, post};
    let Some(url) = postgres_database("botmeet").await else {
        return;
    };
    // Node ma meets (the first by id); the bot calls node mb.
    let (a, b) = two_nodes(&url, "ma", "mb").await;
    let (_, token) = bot_account(&b, "Robo").await;
    let (ann_browser, _) = account(&a, "Ann", &["board:play"]).await;
    let mut ann = Client::connect(a.addr, ann_browser.cookie.as_deref()).await;
    let (status, mut events) = Lines::open(b.addr, "/api/stream/event", &token).await;
    assert_eq!(status, 200);
    online_soon(&a, 2).await;
    let challenge = |color| Request::Challenge {
        to: Some("Robo".to_owned()),
        options: TableOptions::default(),
        color: Some(color),
    };
    // Declined through node b.
    ann.call(challenge(yinsh_server::protocol::SeatColor::White))
        .await
        .unwrap();
    let id = events.until("challenge").await["challenge"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = post(&b, &token, &format!("/api/challenge/{id}/decline"), "").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        events.until("challengeDeclined").await["challenge"]["id"],
        id
    );
    // Accepted through node b: the game starts.
    ann.call(challenge(yinsh_server::protocol::SeatColor::Black))
        .await
        .unwrap();
    let id = events.until("challenge").await["challenge"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = post(&b, &token, &format!("/api/challenge/{id}/accept"), "").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(events.until("gameStart").await["game"]["color"], "white");
    // One that is gone is a 404 there too.
    let (status, _) = post(&b, &token, &format!("/api/challenge/{id}/accept"), "").await;
    assert_eq!(status, 404);
}

/// Waits (up to 10 s) until `server`'s lobby lists `n` seeks.
async fn seeks_soon(server: &TestServer, n: usize) -> Vec<yinsh_server::protocol::SeekView> {
    let waited = std::time::Instant::now();
    loop {
        let listed = crate::bot::seeks(server).await;
        if listed.len() == n {
            return listed;
        }
        assert!(waited.elapsed() < Duration::from_secs(10), "{listed:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits (up to 10 s) for the end of challenge `id` as `client` hears of it: the reason.
async fn challenge_gone(client: &mut Client, id: &str) -> GoneReason {
    tokio::time::timeout(
        Duration::from_secs(10),
        client.until(|m| match m {
            ServerMessage::ChallengeGone { challenge, reason } if challenge == id => Some(*reason),
            _ => None,
        }),
    )
    .await
    .expect("the challenge ends")
}

/// A bot whose calls reach a node that is not the meeting node seeks as at the meeting
/// node: its seek is held there (pairs with a person's seek made there, listed at both
/// nodes, withdrawn when its stream closes). Its challenge, held at the node called,
/// ends when the bot is no longer online anywhere, whichever node its event stream is
/// at.
#[tokio::test]
async fn a_bot_seeks_and_challenges_through_any_node() {
    use crate::bot::{Lines, account, bot_account, post};
    let Some(url) = postgres_database("botseek").await else {
        return;
    };
    let (a, b) = two_nodes(&url, "sa", "sb").await;
    let (_, token) = bot_account(&b, "Robo").await;
    let (ann_browser, _) = account(&a, "Ann", &["board:play"]).await;
    let mut ann = Client::connect(a.addr, ann_browser.cookie.as_deref()).await;
    // The bot's seek, made at node b, pairs with Ann's, made at the meeting node.
    let (status, mut seeking) =
        Lines::post(b.addr, "/api/bot/seek", &token, "time=3&increment=2").await;
    assert_eq!(status, 200);
    seeks_soon(&a, 1).await;
    seeks_soon(&b, 1).await;
    ann.call(Request::Seek {
        options: TableOptions {
            time: Some(TimeSetting {
                minutes: 3,
                increment: 2,
            }),
            ..TableOptions::default()
        },
        bots: true,
    })
    .await
    .unwrap();
    let table = paired(&mut ann).await;
    assert_eq!(seeking.until("gameStart").await["game"]["id"], table);
    assert_eq!(seeking.next().await, None, "the seek's stream ends");
    // A seek whose stream closes is withdrawn at the meeting node.
    let (status, seeking) = Lines::post(b.addr, "/api/bot/seek", &token, "time=5").await;
    assert_eq!(status, 200);
    seeks_soon(&a, 1).await;
    drop(seeking);
    seeks_soon(&a, 0).await;
    seeks_soon(&b, 0).await;

    // Challenges made through node b, the bot's event stream at either node.
    for stream_at in [&a, &b] {
        let (status, events) = Lines::open(stream_at.addr, "/api/stream/event", &token).await;
        assert_eq!(status, 200);
        online_soon(&a, 2).await;
        online_soon(&b, 2).await;
        let (status, body) = post(&b, &token, "/api/challenge/Ann", "clock.limit=300").await;
        assert_eq!(status, 200, "{body}");
        let id = body["challenge"]["id"].as_str().unwrap().to_owned();
        let heard = ann
            .until(|m| match m {
                ServerMessage::Challenge { challenge } => Some(challenge.id.clone()),
                _ => None,
            })
            .await;
        assert_eq!(heard, id);
        let (status, _) = a.get(&format!("/api/challenge/{id}")).await;
        assert_eq!(status, 200);
        // The bot goes offline: its challenge ends.
        drop(events);
        assert_eq!(challenge_gone(&mut ann, &id).await, GoneReason::Canceled);
        online_soon(&a, 1).await;
    }
    // Accepted at the meeting node: answered by node b, which holds it.
    let (_, mut events) = Lines::open(b.addr, "/api/stream/event", &token).await;
    online_soon(&a, 2).await;
    let (status, body) = post(&b, &token, "/api/challenge/Ann", "clock.limit=300").await;
    assert_eq!(status, 200, "{body}");
    let id = body["challenge"]["id"].as_str().unwrap().to_owned();
    ann.send(Request::AcceptChallenge { challenge: id }).await;
    let table = ann
        .until(|m| match m {
            ServerMessage::Paired { table, .. } => Some(Ok(table.clone())),
            ServerMessage::Error { code, .. } => Some(Err(*code)),
            _ => None,
        })
        .await
        .expect("accepted where it is held");
    // (After the game of the seek, which goes on.)
    while events.until("gameStart").await["game"]["id"] != table {}
}

/// The node alive longest holds the cluster's seeks: a node that joins later (here
/// with an id that sorts first) does not take that role over, so a seek made before
/// it came still pairs with one made at it.
#[tokio::test]
async fn a_node_that_joins_later_leaves_the_seeks_where_they_are() {
    let Some(url) = postgres_database("laterjoin").await else {
        return;
    };
    let local: Arc<dyn Bus> = Arc::new(LocalBus::new());
    let old = TestServer::on(&url, node("jz", &local).await).await;
    let mut ann = old.client().await;
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 3,
            increment: 2,
        }),
        ..TableOptions::default()
    };
    let seek = Request::Seek {
        options,
        bots: false,
    };
    ann.call(seek.clone()).await.unwrap();
    let new = TestServer::on(&url, node("ja", &local).await).await;
    // Both have looked at who is alive since.
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    for server in [&old, &new] {
        let router = server.router.as_ref().unwrap();
        assert_eq!(router.meeting_node(), "jz");
    }
    seeks_soon(&new, 1).await;
    let mut bob = new.client().await;
    bob.call(seek).await.unwrap();
    let table = paired(&mut bob).await;
    assert_eq!(paired(&mut ann).await, table);
}

/// An asleep correspondence table stays its node's: a player at another node wakes it
/// there, and when that node dies the node that takes its tables over keeps it asleep
/// until someone opens it.
#[tokio::test]
async fn an_asleep_table_is_woken_at_its_node_from_any_node_and_survives_a_takeover() {
    use crate::correspondence::asleep;
    use yinsh_server::protocol::Correspondence;

    let Some(url) = postgres_database("asleep").await else {
        return;
    };
    let local: Arc<dyn Bus> = Arc::new(LocalBus::new());
    let sleepy = |config: Config| Config {
        sleep_after: Duration::from_millis(300),
        ..config
    };
    let mut a = TestServer::on(&url, sleepy(node("sa", &local).await)).await;
    let b = TestServer::on(&url, sleepy(node("sb", &local).await)).await;
    let options = TableOptions {
        correspondence: Some(Correspondence { days: Some(3) }),
        ..TableOptions::default()
    };
    let (table, mut white, mut black) = seated_pair(&a, options).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    black.game_after(1).await;
    let (w, bl) = (white.cookie.clone(), black.cookie.clone());
    drop((white, black));
    asleep(&a, &table).await;
    let owner = |t: &str| {
        let store = b.store.clone();
        let t = t.to_owned();
        async move {
            store
                .table_owner(&t)
                .await
                .unwrap()
                .map(|o| (o.node, o.incarnation))
        }
    };
    assert_eq!(owner(&table).await, Some(("sa".to_owned(), 1)), "still a's");

    // Black, connected to node b, opens it: it wakes at node a.
    let mut black = Client::connect(b.addr, Some(&bl)).await;
    let game = black.open(&table).await.game.expect("the game");
    assert_eq!(game.moves, ["e3"]);
    assert!(a.ctx.lobby.get(&table).is_some(), "woken at its node");
    assert!(b.ctx.lobby.get(&table).is_none(), "not loaded at b");
    black.act(&table, "a5").await.unwrap();
    drop(black);
    asleep(&a, &table).await;

    // Node a dies: b takes its tables over, and this one stays asleep, b's now.
    a.node.as_ref().unwrap().halt();
    a.stop().await;
    let waited = std::time::Instant::now();
    while owner(&table).await != Some(("sb".to_owned(), 2)) {
        assert!(waited.elapsed() < Duration::from_secs(15), "not taken over");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(b.ctx.lobby.get(&table).is_none(), "taken over asleep");
    let mut white = Client::connect(b.addr, Some(&w)).await;
    let game = white.open(&table).await.game.expect("the game");
    assert_eq!(game.moves, ["e3", "a5"]);
    white.act(&table, "e4").await.expect("played on at b");
    assert!(b.ctx.lobby.get(&table).is_some());
}

/// An arena's director is the node alive longest. When it dies the next one directs:
/// the game the dead node paired goes on at the node that takes its table, its end is
/// scored there, and the waiting players are paired by the new director.
#[tokio::test]
async fn an_arena_goes_on_when_its_directors_node_dies() {
    use crate::bot::{Lines, account, post};
    use crate::tournament::{game_start, standing};

    let Some(url) = postgres_database("arenafail").await else {
        return;
    };
    let (mut a, b) = two_nodes(&url, "da", "db").await;
    let scopes = ["tournament:write", "board:play"];
    let mut players = Vec::new();
    for name in ["Ann", "Ben", "Cat"] {
        players.push((name, account(&b, name, &scopes).await.1));
    }
    let ann = players[0].1.clone();
    let form = "name=Failover&minutes=30&clockTime=5&waitMinutes=0&rated=false";
    let (status, body) = post(&a, &ann, "/api/tournament", form).await;
    assert_eq!(status, 200, "{body}");
    let id = body["id"].as_str().unwrap().to_owned();
    // Ann and Ben join and follow their events at node b; they are paired by node a.
    let mut events = Vec::new();
    for (_, token) in &players[..2] {
        let (status, _) = post(&a, token, &format!("/api/tournament/{id}/join"), "").await;
        assert_eq!(status, 200);
        events.push(Lines::open(b.addr, "/api/stream/event", token).await.1);
    }
    let (table, ann_color) = game_start(&mut events[0]).await;
    assert_eq!(game_start(&mut events[1]).await.0, table);
    let owner = |t: String| {
        let store = b.store.clone();
        async move { store.table_owner(&t).await.unwrap().map(|o| o.node) }
    };
    assert_eq!(owner(table.clone()).await.as_deref(), Some("da"));
    // Cat joins too, and waits (nobody else is free).
    let (status, _) = post(&a, &players[2].1, &format!("/api/tournament/{id}/join"), "").await;
    assert_eq!(status, 200);
    events.push(
        Lines::open(b.addr, "/api/stream/event", &players[2].1)
            .await
            .1,
    );

    // Node a dies.
    a.node.as_ref().unwrap().halt();
    a.stop().await;
    let waited = std::time::Instant::now();
    while owner(table.clone()).await.as_deref() != Some("db") {
        assert!(waited.elapsed() < Duration::from_secs(10), "not taken over");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The event streams that watched the table at node a were cut off with it: the
    // programs follow their events again (as `yinsh bot` does), and Black resigns at
    // node b, which has the table now.
    for (i, (_, token)) in players[..2].iter().enumerate() {
        events[i] = Lines::open(b.addr, "/api/stream/event", token).await.1;
    }
    let black = if ann_color == "black" { 0 } else { 1 };
    let resign = format!("/api/board/game/{table}/resign");
    loop {
        let (status, body) = post(&b, &players[black].1, &resign, "").await;
        if status == 200 {
            break;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "{status} {body}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Node b directs now: the end is scored, and Cat is paired with one of them.
    let white = players[1 - black].0;
    for _ in 0..200 {
        let lines = standing(&b, &id).await;
        if lines[0].1 == 2 {
            assert_eq!(lines[0].0, white);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        standing(&b, &id).await[0],
        (white.to_owned(), 2, "2".to_owned())
    );
    let (next, _) = game_start(&mut events[2]).await;
    assert_ne!(next, table);
    assert_eq!(owner(next).await.as_deref(), Some("db"));
}
