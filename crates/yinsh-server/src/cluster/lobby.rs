//! The lobby across nodes: every node announces its tables over the bus, and lists the
//! tables the others announce.
//!
//! Channels: `lobby` (every node hears it) and `node:<id>` (one node's), prefixed with
//! the cluster's id on the bus ([`super::bus::Prefixed`]). A
//! node starting, or one that missed messages (a [`Delivery::Gap`]), says `hello` on
//! the lobby channel; every other node answers on the new node's channel with all its
//! tables, which replace whatever was listed for it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::bus::{Bus, BusError, Delivery};
use crate::Ctx;
use crate::account::store::Player;
use crate::lobby::Change;
use crate::lobby::online::Presence;
use crate::protocol::{ChallengeView, SeekView, TableSummary};

/// The channel every node hears.
pub const LOBBY: &str = "lobby";

/// The channel of node `id`.
pub fn node_channel(id: &str) -> String {
    format!("node:{id}")
}

/// What nodes tell each other of their tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Note {
    /// A node is here (again) and wants to hear everyone's tables.
    Hello {
        /// Its id.
        node: String,
        /// Its run (a node restarted under its id has another).
        #[serde(default)]
        boot: u64,
    },
    /// Every table of a node, and everyone connected to it (the answer to a hello).
    Tables {
        /// The node.
        node: String,
        /// Its tables.
        tables: Vec<TableSummary>,
        /// The players with a connection there.
        #[serde(default)]
        players: Vec<Player>,
        /// The seeks it holds.
        #[serde(default)]
        seeks: Vec<SeekView>,
        /// The challenges it holds.
        #[serde(default)]
        challenges: Vec<ChallengeView>,
        /// Its run.
        #[serde(default)]
        boot: u64,
    },
    /// A seek stands at a node (the one that holds the cluster's seeks).
    Seek {
        /// The node.
        node: String,
        /// The seek.
        seek: Box<SeekView>,
    },
    /// A seek ended.
    SeekRemoved {
        /// The node that held it.
        node: String,
        /// The seek.
        seek: String,
    },
    /// A challenge stands at a node (the one that holds the cluster's challenges).
    Challenge {
        /// The node.
        node: String,
        /// The challenge.
        challenge: Box<ChallengeView>,
    },
    /// A challenge ended.
    ChallengeGone {
        /// The node that held it.
        node: String,
        /// The challenge's id.
        challenge: String,
    },
    /// A player came to a node (their first connection there), or left it (their last).
    Presence {
        /// The node.
        node: String,
        /// The player.
        player: Player,
        /// Came (`true`) or went.
        here: bool,
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

/// Asks node `of` to tell node `node` (in its run `boot`) all it has: its tables,
/// players, seeks and challenges (a node that forgot them when `of`'s lease ran out).
pub async fn ask(bus: &dyn Bus, node: &str, boot: u64, of: &str) -> Result<(), BusError> {
    let hello = Note::Hello {
        node: node.to_owned(),
        boot,
    };
    say(bus, &node_channel(of), &hello).await
}

/// What a node tells the others of its own.
enum Own {
    Table(Change),
    Presence(Presence),
    /// All of it, to the node that said hello.
    All {
        to: String,
    },
}

/// Joins the lobby of the cluster on `bus` as node `node`: from now on `lobby` lists
/// the other nodes' tables and the others hear of this node's; `online` knows who is
/// online at the other nodes, and they who is here. (Messages for players at other
/// nodes go through `online`'s [`crate::lobby::online::Elsewhere`], set apart.)
pub async fn join(
    bus: Arc<dyn Bus>,
    node: String,
    ctx: Ctx,
) -> Result<mpsc::UnboundedSender<Presence>, BusError> {
    let boot = ctx.tables.epoch;
    let (lobby, online, meet) = (ctx.lobby.clone(), ctx.online.clone(), ctx.meet.clone());
    let router = ctx.router().cloned();
    let mut sub = bus
        .subscribe(&[LOBBY.to_owned(), node_channel(&node)])
        .await?;
    let (tx, mut changes) = mpsc::unbounded_channel();
    let (presence_tx, mut presence) = mpsc::unbounded_channel();
    let (answer_tx, mut answers) = mpsc::unbounded_channel();
    lobby.set_outbox(tx);
    // This node's changes, in order, to everyone; and the answers to hellos in the same
    // order: an answer (all there is as it is said) said after a change it already
    // holds is harmless, but one said before would undo it where it is heard.
    let (out_bus, out_node) = (bus.clone(), node.clone());
    let (out_lobby, out_online, out_meet) = (lobby.clone(), online.clone(), meet.clone());
    tokio::spawn(async move {
        loop {
            // Tables and players, each in the order they changed.
            let own = tokio::select! {
                Some(change) = changes.recv() => Own::Table(change),
                Some(change) = presence.recv() => Own::Presence(change),
                Some(to) = answers.recv() => Own::All { to },
                else => break,
            };
            let note = match own {
                Own::All { to } => {
                    let all = Note::Tables {
                        node: out_node.clone(),
                        tables: out_lobby.local_list(),
                        players: out_online.here(),
                        seeks: out_lobby.local_seeks(),
                        challenges: out_meet.local_challenges(),
                        boot,
                    };
                    if let Err(e) = say(out_bus.as_ref(), &node_channel(&to), &all).await {
                        tracing::warn!("cannot answer a node's hello: {e}");
                    }
                    continue;
                }
                Own::Presence(Presence::Came(player)) => Note::Presence {
                    node: out_node.clone(),
                    player,
                    here: true,
                },
                Own::Presence(Presence::Went(id)) => Note::Presence {
                    node: out_node.clone(),
                    player: Player {
                        id,
                        name: String::new(),
                        bot: false,
                    },
                    here: false,
                },
                Own::Table(change) => match change {
                    Change::Table(table) => Note::Table {
                        node: out_node.clone(),
                        table,
                    },
                    Change::Removed(table) => Note::Removed {
                        node: out_node.clone(),
                        table,
                    },
                    Change::LetGo { node, table } => Note::Removed { node, table },
                    Change::Seek(seek) => Note::Seek {
                        node: out_node.clone(),
                        seek,
                    },
                    Change::SeekRemoved(seek) => Note::SeekRemoved {
                        node: out_node.clone(),
                        seek,
                    },
                    Change::Challenge(challenge) => Note::Challenge {
                        node: out_node.clone(),
                        challenge,
                    },
                    Change::ChallengeGone(challenge) => Note::ChallengeGone {
                        node: out_node.clone(),
                        challenge,
                    },
                },
            };
            if let Err(e) = say(out_bus.as_ref(), LOBBY, &note).await {
                tracing::warn!("cannot announce a table change: {e}");
            }
        }
    });
    let hello = Note::Hello {
        node: node.clone(),
        boot,
    };
    say(bus.as_ref(), LOBBY, &hello).await?;
    tokio::spawn(async move {
        while let Some(delivery) = sub.next().await {
            let payload = match delivery {
                Delivery::Message { payload, .. } => payload,
                Delivery::Gap => {
                    // Missed something: everyone tells us all again.
                    let hello = Note::Hello {
                        node: node.clone(),
                        boot,
                    };
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
                Note::Hello {
                    node: from,
                    boot: theirs,
                } if from != node => {
                    if let Some(router) = &router {
                        router.booted(&from, theirs);
                    }
                    let _ = answer_tx.send(from);
                }
                Note::Tables {
                    node: from,
                    tables,
                    players,
                    seeks,
                    challenges,
                    boot: theirs,
                } if from != node => {
                    if let Some(router) = &router {
                        router.booted(&from, theirs);
                    }
                    lobby.replace_node(&from, tables);
                    online.replace_node(&from, players);
                    lobby.replace_seeks(&from, seeks);
                    meet.replace_challenges(&from, challenges);
                }
                Note::Challenge {
                    node: from,
                    challenge,
                } if from != node => meet.remote_challenge(&from, *challenge),
                Note::ChallengeGone {
                    node: from,
                    challenge,
                } if from != node => meet.remote_challenge_gone(&from, &challenge),
                Note::Seek { node: from, seek } if from != node => lobby.remote_seek(&from, *seek),
                Note::SeekRemoved { node: from, seek } if from != node => {
                    lobby.remote_seek_removed(&from, &seek)
                }
                Note::Presence {
                    node: from,
                    player,
                    here,
                } if from != node => {
                    let id = player.id;
                    let change = if here {
                        Presence::Came(player)
                    } else {
                        Presence::Went(id)
                    };
                    online.at_node(&from, change);
                    // Gone from every node: the challenges this node holds for them
                    // end (whichever connection made them: a bot's is a request of
                    // its own, not its event stream).
                    if !here && !online.is_online(id) {
                        meet.left(&ctx, id);
                    }
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
    Ok(presence_tx)
}
