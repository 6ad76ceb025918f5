//! What goes between two nodes on the bus: numbered packets of items, one channel a
//! node, and the uplink that publishes a node's items in order.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::cluster::bus::Bus;

/// The channel of node `id` for routed requests and their answers.
pub fn route_channel(id: &str) -> String {
    format!("route:{id}")
}

/// Items in one packet at most (the rest go in the next).
const BATCH: usize = 512;
/// How long an uplink tries to publish a packet before it gives it up (the receiver
/// then finds a number missing and resets).
const PUBLISH_FOR: Duration = Duration::from_secs(5);
/// What goes between two nodes: the items of one uplink, numbered.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Packet {
    /// The sending node.
    pub(super) from: String,
    /// The sender's run (a restarted node counts again from 1).
    pub(super) boot: u64,
    /// 1, 2, 3, … per sender run and receiver.
    pub(super) seq: u64,
    pub(super) items: Vec<Item>,
}

/// One routed thing: a request, its answers, a close, a message for a player.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub(super) enum Item {
    /// To a table's owner: a client message of connection `conn` of the sender.
    Request {
        conn: u64,
        player: i64,
        name: String,
        bot: bool,
        lang: String,
        text: String,
    },
    /// To a table's owner: connection `conn` of the sender closed (`last`: its
    /// player's last connection anywhere).
    Forget {
        conn: u64,
        #[serde(default)]
        last: bool,
    },
    /// To a connection's node: a message for connection `conn`.
    Text { conn: u64, text: String },
    /// To a connection's node: connection `conn` must close (its relay was cut off).
    Kick { conn: u64 },
    /// To a node where `player` is online: a message for their connections there.
    ToPlayer { player: i64, text: String },
}

/// Publishes the items queued for `node`, in order, as numbered packets.
pub(super) async fn uplink(
    bus: Arc<dyn Bus>,
    node: String,
    from: String,
    boot: u64,
    mut rx: mpsc::UnboundedReceiver<Item>,
) {
    let channel = route_channel(&node);
    let mut seq = 0;
    let mut items = Vec::with_capacity(BATCH);
    while let Some(first) = rx.recv().await {
        items.push(first);
        while items.len() < BATCH {
            match rx.try_recv() {
                Ok(item) => items.push(item),
                Err(_) => break,
            }
        }
        seq += 1;
        let packet = Packet {
            from: from.clone(),
            boot,
            seq,
            items: std::mem::take(&mut items),
        };
        let payload = serde_json::to_vec(&packet).expect("packets always serialise");
        let started = tokio::time::Instant::now();
        let mut wait = Duration::from_millis(20);
        loop {
            match bus.publish(&channel, &payload).await {
                Ok(()) => break,
                Err(e) if started.elapsed() < PUBLISH_FOR => {
                    tracing::warn!(node, "cannot route to a node, trying again: {e}");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_millis(500));
                }
                Err(e) => {
                    // Given up: the receiver finds the number missing and resets.
                    tracing::error!(node, "routed messages to a node lost: {e}");
                    break;
                }
            }
        }
    }
}
