//! The lobby across nodes: every node announces its tables over the bus, and lists the
//! tables the others announce.
//!
//! Channels: `yinsh:lobby` (every node hears it) and `yinsh:node:<id>` (one node's). A
//! node starting, or one that missed messages (a [`Delivery::Gap`]), says `hello` on
//! the lobby channel; every other node answers on the new node's channel with all its
//! tables, which replace whatever was listed for it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::bus::{Bus, BusError, Delivery};
use crate::lobby::{Change, Lobby};
use crate::protocol::TableSummary;

/// The channel every node hears.
pub const LOBBY: &str = "yinsh:lobby";

/// The channel of node `id`.
pub fn node_channel(id: &str) -> String {
    format!("yinsh:node:{id}")
}

/// What nodes tell each other of their tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Note {
    /// A node is here (again) and wants to hear everyone's tables.
    Hello {
        /// Its id.
        node: String,
    },
    /// Every table of a node (the answer to a hello).
    Tables {
        /// The node.
        node: String,
        /// Its tables.
        tables: Vec<TableSummary>,
    },
    /// A table of a node opened or changed.
    Table {
        /// The node.
        node: String,
        /// The table.
        table: Box<TableSummary>,
    },
    /// A table closed.
    Removed {
        /// The node it was on.
        node: String,
        /// The table.
        table: String,
    },
}

async fn say(bus: &dyn Bus, channel: &str, note: &Note) -> Result<(), BusError> {
    let payload = serde_json::to_vec(note).expect("notes always serialise");
    bus.publish(channel, &payload).await
}

/// Joins the lobby of the cluster on `bus` as node `node`: from now on `lobby` lists
/// the other nodes' tables and the others hear of this node's.
pub async fn join(bus: Arc<dyn Bus>, node: String, lobby: Lobby) -> Result<(), BusError> {
    let mut sub = bus
        .subscribe(&[LOBBY.to_owned(), node_channel(&node)])
        .await?;
    let (tx, mut changes) = mpsc::unbounded_channel();
    lobby.set_outbox(tx);
    // This node's changes, in order, to everyone.
    let (out_bus, out_node) = (bus.clone(), node.clone());
    tokio::spawn(async move {
        while let Some(change) = changes.recv().await {
            let note = match change {
                Change::Table(table) => Note::Table {
                    node: out_node.clone(),
                    table,
                },
                Change::Removed(table) => Note::Removed {
                    node: out_node.clone(),
                    table,
                },
                Change::LetGo { node, table } => Note::Removed { node, table },
            };
            if let Err(e) = say(out_bus.as_ref(), LOBBY, &note).await {
                tracing::warn!("cannot announce a table change: {e}");
            }
        }
    });
    say(bus.as_ref(), LOBBY, &Note::Hello { node: node.clone() }).await?;
    tokio::spawn(async move {
        while let Some(delivery) = sub.next().await {
            let payload = match delivery {
                Delivery::Message { payload, .. } => payload,
                Delivery::Gap => {
                    // Missed something: everyone tells us all again.
                    let hello = Note::Hello { node: node.clone() };
                    if let Err(e) = say(bus.as_ref(), LOBBY, &hello).await {
                        tracing::warn!("cannot ask the other nodes for their tables: {e}");
                    }
                    continue;
                }
            };
            let note: Note = match serde_json::from_slice(&payload) {
                Ok(note) => note,
                Err(e) => {
                    tracing::warn!("an unreadable note on the bus: {e}");
                    continue;
                }
            };
            match note {
                Note::Hello { node: from } if from != node => {
                    let tables = Note::Tables {
                        node: node.clone(),
                        tables: lobby.local_list(),
                    };
                    if let Err(e) = say(bus.as_ref(), &node_channel(&from), &tables).await {
                        tracing::warn!("cannot answer a node's hello: {e}");
                    }
                }
                Note::Tables { node: from, tables } if from != node => {
                    lobby.replace_node(&from, tables)
                }
                Note::Table { node: from, table } if from != node => {
                    lobby.insert_remote(&from, *table)
                }
                Note::Removed { node: from, table } if from != node => {
                    lobby.remove_remote(&from, &table)
                }
                // This node's own notes, heard back.
                _ => {}
            }
        }
    });
    Ok(())
}
