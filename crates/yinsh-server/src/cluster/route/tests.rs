//! Unit tests of the routing between the nodes of a cluster.

use super::*;

/// A connection of this node, and its outbox.
fn conn(id: u64) -> (Conn, mpsc::Receiver<Arc<str>>) {
    let (tx, rx) = mpsc::channel(8);
    let conn = Conn {
        id,
        player: Player {
            id: PlayerId(id as i64),
            name: format!("P{id}"),
            bot: false,
        },
        tx,
        kick: Arc::new(tokio::sync::Notify::new()),
    };
    (conn, rx)
}

/// Whether `conn` was told to close.
async fn kicked(conn: &Conn) -> bool {
    tokio::time::timeout(Duration::from_millis(50), conn.kick.notified())
        .await
        .is_ok()
}

#[tokio::test]
async fn a_node_that_restarted_cuts_off_the_connections_watching_its_tables() {
    let router = Router::new("a", 1, Arc::new(super::super::bus::LocalBus::new()));
    let (watcher, _out1) = conn(1);
    let (elsewhere, _out2) = conn(2);
    let open = r#"{"type":"open","table":"t1"}"#;
    router.forward(&watcher, Lang::En, "x", Some("t1"), false, open);
    router.forward(&elsewhere, Lang::En, "y", Some("t2"), false, open);
    // First heard of: nothing to reset; said again (a gap's hello): nothing either.
    router.booted("x", 7);
    router.booted("x", 7);
    assert!(!kicked(&watcher).await);
    // Another run: its tables are a new incarnation, watched from here no more.
    router.booted("x", 8);
    assert!(kicked(&watcher).await, "the watcher resynchronises");
    assert!(!kicked(&elsewhere).await, "another node's watcher stays");
    assert_eq!(router.counts(), (0, 2));
}

#[test]
fn packets_read_back_as_written() {
    let packet = Packet {
        from: "a".into(),
        boot: 7,
        seq: 3,
        items: vec![
            Item::Request {
                conn: 1,
                player: 5,
                name: "Ann".into(),
                bot: false,
                lang: "nl".into(),
                text: r#"{"type":"act","table":"t","action":"e3"}"#.into(),
            },
            Item::Forget {
                conn: 1,
                last: true,
            },
            Item::Text {
                conn: 2,
                text: "{}".into(),
            },
            Item::Kick { conn: 2 },
            Item::ToPlayer {
                player: 5,
                text: "{}".into(),
            },
        ],
    };
    let bytes = serde_json::to_vec(&packet).unwrap();
    let back: Packet = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(format!("{back:?}"), format!("{packet:?}"));
}
