//! The lobby: every open table, with a live feed of their summaries.
//!
//! In a cluster the lobby also lists the tables of the other nodes (as they announce
//! them over the bus, [`crate::cluster::lobby`]), and hands every change to its own
//! tables to the bus through its [`Lobby::set_outbox`].

pub mod online;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::protocol::{ChallengeView, SeekView, ServerMessage, TableSummary};
use crate::table::{TableHandle, to_text};
use crate::vocab::{PlayerId, TableId};

/// Updates buffered per lobby watcher before it must resynchronise.
const FEED: usize = 1024;

/// The open tables. Cheap to clone.
#[derive(Clone)]
pub struct Lobby {
    inner: Arc<Inner>,
}

struct Inner {
    tables: Mutex<HashMap<TableId, Entry>>,
    /// Tables of other nodes of the cluster, and which node has each.
    remote: Mutex<HashMap<TableId, RemoteEntry>>,
    feed: broadcast::Sender<Arc<str>>,
    max_tables: usize,
    /// Counts insertions, to list tables oldest first.
    inserted: AtomicU64,
    /// Where changes to this node's tables and seeks go (the cluster's bus), if
    /// anywhere.
    outbox: Mutex<Option<tokio::sync::mpsc::UnboundedSender<Change>>>,
    /// The seeks standing, oldest first, and the node that holds each (`None`: this
    /// one).
    seeks: Mutex<Vec<(Option<String>, SeekView)>>,
}

struct RemoteEntry {
    node: String,
    summary: TableSummary,
    created: u64,
}

/// A change to a table of this node, for the other nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A table opened or its summary changed.
    Table(Box<TableSummary>),
    /// A table closed.
    Removed(String),
    /// A seek stands (in a cluster, one node holds the seeks).
    Seek(Box<SeekView>),
    /// A seek ended.
    SeekRemoved(String),
    /// A challenge stands (held, as seeks, by one node).
    Challenge(Box<ChallengeView>),
    /// A challenge ended.
    ChallengeGone(String),
    /// A table of the dead node `node` was let go here (it had no game to restore).
    LetGo {
        /// The node that had it.
        node: String,
        /// The table.
        table: String,
    },
}

struct Entry {
    handle: TableHandle,
    summary: TableSummary,
    created: u64,
    /// The player who created it (none for a table restored after a restart).
    creator: Option<PlayerId>,
}

impl Lobby {
    /// An empty lobby that holds at most `max_tables` tables.
    pub fn new(max_tables: usize) -> Lobby {
        Lobby {
            inner: Arc::new(Inner {
                tables: Mutex::new(HashMap::new()),
                remote: Mutex::new(HashMap::new()),
                feed: broadcast::channel(FEED).0,
                max_tables,
                inserted: AtomicU64::new(0),
                outbox: Mutex::new(None),
                seeks: Mutex::new(Vec::new()),
            }),
        }
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, HashMap<TableId, Entry>> {
        self.inner.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn remote(&self) -> std::sync::MutexGuard<'_, HashMap<TableId, RemoteEntry>> {
        self.inner.remote.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn publish(&self, change: Change) {
        let outbox = self.inner.outbox.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = outbox.as_ref() {
            let _ = tx.send(change);
        }
    }

    /// From now on every change to this node's tables also goes to `tx`.
    pub fn set_outbox(&self, tx: tokio::sync::mpsc::UnboundedSender<Change>) {
        *self.inner.outbox.lock().unwrap_or_else(|e| e.into_inner()) = Some(tx);
    }

    /// The table with this id.
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.tables().get(id).map(|e| e.handle.clone())
    }

    /// How many open tables `player` created.
    pub fn created_by(&self, player: PlayerId) -> usize {
        self.tables()
            .values()
            .filter(|e| e.creator == Some(player))
            .count()
    }

    /// Whether another table may open.
    pub fn has_room(&self) -> bool {
        self.tables().len() < self.inner.max_tables
    }

    /// A fresh table id: six letters and digits, not in use.
    pub fn fresh_id(&self) -> TableId {
        const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
        loop {
            let mut bytes = [0u8; 6];
            getrandom::getrandom(&mut bytes).expect("the system's random source works");
            let id: String = bytes
                .iter()
                .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
                .collect();
            if !self.tables().contains_key(id.as_str()) {
                return id.into();
            }
        }
    }

    /// The summary of the table with this id.
    pub fn summary(&self, id: &str) -> Option<TableSummary> {
        self.tables().get(id).map(|e| e.summary.clone())
    }

    /// Lists a new table, made by `creator` (none for a restored one).
    pub fn insert(&self, handle: TableHandle, summary: TableSummary, creator: Option<PlayerId>) {
        let msg = to_text(&ServerMessage::LobbyTable {
            table: summary.clone(),
        });
        let created = self.inner.inserted.fetch_add(1, Ordering::Relaxed);
        // A table taken over from another node is this node's now.
        self.remote().remove(handle.id.as_str());
        self.publish(Change::Table(Box::new(summary.clone())));
        self.tables().insert(
            handle.id.clone(),
            Entry {
                handle,
                summary,
                created,
                creator,
            },
        );
        let _ = self.inner.feed.send(msg);
    }

    /// A table's summary changed.
    pub fn update(&self, summary: TableSummary) {
        let msg = to_text(&ServerMessage::LobbyTable {
            table: summary.clone(),
        });
        if let Some(e) = self.tables().get_mut(summary.id.as_str()) {
            e.summary = summary.clone();
        } else {
            return;
        }
        self.publish(Change::Table(Box::new(summary)));
        let _ = self.inner.feed.send(msg);
    }

    /// A table closed.
    pub fn remove(&self, id: &str) {
        if self.tables().remove(id).is_some() {
            self.publish(Change::Removed(id.to_owned()));
            // The table another node has under that id, if any, is listed again.
            let elsewhere = self.remote().get(id).map(|e| e.summary.clone());
            match elsewhere {
                Some(table) => {
                    let _ = self
                        .inner
                        .feed
                        .send(to_text(&ServerMessage::LobbyTable { table }));
                }
                None => self.removed(id),
            }
        }
    }

    fn removed(&self, id: &str) {
        let msg = to_text(&ServerMessage::LobbyRemoved {
            table: id.to_owned(),
        });
        let _ = self.inner.feed.send(msg);
    }

    /// A table of another node opened or changed (it is listed, not served here).
    pub fn insert_remote(&self, node: &str, summary: TableSummary) {
        // While this node runs a table of that id too (it was taken from this node,
        // which has yet to find out), the entry waits unlisted: it is the one listed
        // once this node lets go of its own.
        let here = self.tables().contains_key(summary.id.as_str());
        let msg = to_text(&ServerMessage::LobbyTable {
            table: summary.clone(),
        });
        let mut remote = self.remote();
        let created = match remote.get(summary.id.as_str()) {
            Some(e) => e.created,
            None => self.inner.inserted.fetch_add(1, Ordering::Relaxed),
        };
        remote.insert(
            summary.id.clone().into(),
            RemoteEntry {
                node: node.to_owned(),
                summary,
                created,
            },
        );
        drop(remote);
        if !here {
            let _ = self.inner.feed.send(msg);
        }
    }

    /// A table of `node` closed (or was let go after that node died).
    pub fn remove_remote(&self, node: &str, id: &str) {
        let mut remote = self.remote();
        if remote.get(id).is_some_and(|e| e.node == node) {
            remote.remove(id);
            drop(remote);
            // Unless this node lists a table of its own under that id.
            if !self.tables().contains_key(id) {
                self.removed(id);
            }
        }
    }

    /// This node took over `id` from the dead node `node` and let it go (nothing of it
    /// was stored): no node lists it any more.
    pub fn let_go(&self, node: &str, id: &str) {
        self.remove_remote(node, id);
        self.publish(Change::LetGo {
            node: node.to_owned(),
            table: id.to_owned(),
        });
    }

    /// Replaces every table listed for `node` with `tables` (what it has now).
    pub fn replace_node(&self, node: &str, tables: Vec<TableSummary>) {
        let keep: std::collections::HashSet<&str> = tables.iter().map(|t| t.id.as_str()).collect();
        let gone: Vec<TableId> = self
            .remote()
            .iter()
            .filter(|(id, e)| e.node == node && !keep.contains(id.as_str()))
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            self.remove_remote(node, id.as_str());
        }
        for table in tables {
            self.insert_remote(node, table);
        }
    }

    /// The node that has `id`, when it is another node's table.
    pub fn remote_owner(&self, id: &str) -> Option<String> {
        self.remote().get(id).map(|e| e.node.clone())
    }

    /// The summary of table `id`, this node's or, in a cluster, another node's.
    pub fn summary_anywhere(&self, id: &str) -> Option<TableSummary> {
        self.summary(id)
            .or_else(|| self.remote().get(id).map(|e| e.summary.clone()))
    }

    /// This node's own tables (for a node that asks what it has).
    pub fn local_list(&self) -> Vec<TableSummary> {
        let tables = self.tables();
        let mut entries: Vec<&Entry> = tables.values().collect();
        entries.sort_by_key(|e| e.created);
        entries.iter().map(|e| e.summary.clone()).collect()
    }

    /// Every table, this node's and the other nodes', oldest first.
    pub fn list(&self) -> Vec<TableSummary> {
        let tables = self.tables();
        let remote = self.remote();
        let mut entries: Vec<(u64, &TableSummary)> = tables
            .values()
            .map(|e| (e.created, &e.summary))
            .chain(
                remote
                    .iter()
                    .filter(|(id, _)| !tables.contains_key(*id))
                    .map(|(_, e)| (e.created, &e.summary)),
            )
            .collect();
        entries.sort_by_key(|(created, _)| *created);
        entries.into_iter().map(|(_, s)| s.clone()).collect()
    }

    /// How many tables are open.
    pub fn len(&self) -> usize {
        self.tables().len()
    }

    /// Whether no table is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tells the other nodes of the cluster that a challenge this node holds stands.
    pub fn challenge_stands(&self, challenge: &ChallengeView) {
        self.publish(Change::Challenge(Box::new(challenge.clone())));
    }

    /// Tells the other nodes of the cluster that challenge `id` of this node ended.
    pub fn challenge_gone(&self, id: &str) {
        self.publish(Change::ChallengeGone(id.to_owned()));
    }

    /// Sends `msg` to everyone watching the lobby (seeks come and go this way, and
    /// are listed; in a cluster, at every node).
    pub fn announce(&self, msg: &ServerMessage) {
        match msg {
            ServerMessage::LobbySeek { seek } => {
                self.seek_stands(None, seek.clone());
                self.publish(Change::Seek(Box::new(seek.clone())));
            }
            ServerMessage::LobbySeekRemoved { seek } => {
                self.seek_ended(None, seek);
                self.publish(Change::SeekRemoved(seek.clone()));
            }
            _ => {}
        }
        let _ = self.inner.feed.send(to_text(msg));
    }

    fn seeks_list(&self) -> std::sync::MutexGuard<'_, Vec<(Option<String>, SeekView)>> {
        self.inner.seeks.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn seek_stands(&self, node: Option<&str>, seek: SeekView) {
        let mut seeks = self.seeks_list();
        seeks.retain(|(_, s)| s.id != seek.id);
        seeks.push((node.map(str::to_owned), seek));
    }

    /// Whether the seek was listed (for `node`).
    fn seek_ended(&self, node: Option<&str>, id: &str) -> bool {
        let mut seeks = self.seeks_list();
        let before = seeks.len();
        seeks.retain(|(n, s)| !(s.id == id && n.as_deref() == node));
        seeks.len() != before
    }

    /// The seeks standing, oldest first (in a cluster, every node's).
    pub fn seeks(&self) -> Vec<SeekView> {
        self.seeks_list().iter().map(|(_, s)| s.clone()).collect()
    }

    /// The node holding the seek `id` (`Some(None)`: this one), or `None` when no seek
    /// by that id is known.
    pub fn seek_holder(&self, id: &str) -> Option<Option<String>> {
        self.holder_where(|s| s.id == id)
    }

    /// The node holding the seek of the player with this id (a player has one at most).
    pub fn seek_holder_of(&self, player: i64) -> Option<Option<String>> {
        self.holder_where(|s| s.player.id == Some(player))
    }

    fn holder_where(&self, which: impl Fn(&SeekView) -> bool) -> Option<Option<String>> {
        let seeks = self.seeks_list();
        seeks.iter().find(|(_, s)| which(s)).map(|(n, _)| n.clone())
    }

    /// The seeks this node holds.
    pub fn local_seeks(&self) -> Vec<SeekView> {
        let seeks = self.seeks_list();
        seeks
            .iter()
            .filter(|(n, _)| n.is_none())
            .map(|(_, s)| s.clone())
            .collect()
    }

    /// A seek node `node` holds stands.
    pub fn remote_seek(&self, node: &str, seek: SeekView) {
        self.seek_stands(Some(node), seek.clone());
        let _ = self
            .inner
            .feed
            .send(to_text(&ServerMessage::LobbySeek { seek }));
    }

    /// A seek node `node` held ended.
    pub fn remote_seek_removed(&self, node: &str, id: &str) {
        if self.seek_ended(Some(node), id) {
            let msg = ServerMessage::LobbySeekRemoved {
                seek: id.to_owned(),
            };
            let _ = self.inner.feed.send(to_text(&msg));
        }
    }

    /// The seeks of node `node` are `seeks` (what it said it holds).
    pub fn replace_seeks(&self, node: &str, seeks: Vec<SeekView>) {
        let gone: Vec<String> = self
            .seeks_list()
            .iter()
            .filter(|(n, s)| n.as_deref() == Some(node) && !seeks.iter().any(|k| k.id == s.id))
            .map(|(_, s)| s.id.clone())
            .collect();
        for id in gone {
            self.remote_seek_removed(node, &id);
        }
        for seek in seeks {
            self.remote_seek(node, seek);
        }
    }

    /// Forgets the seeks of the nodes not in `alive` (they died, and their seeks with
    /// them).
    pub fn keep_nodes(&self, alive: &std::collections::HashSet<String>) {
        let gone: Vec<(String, String)> = self
            .seeks_list()
            .iter()
            .filter_map(|(n, s)| n.as_ref().map(|n| (n.clone(), s.id.clone())))
            .filter(|(n, _)| !alive.contains(n))
            .collect();
        for (node, id) in gone {
            self.remote_seek_removed(&node, &id);
        }
    }

    /// The live feed: `lobby_table`, `lobby_removed`, `lobby_seek` and
    /// `lobby_seek_removed` messages.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.inner.feed.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Pair, TableOptions, TableStatus};

    fn summary(id: &str, spectators: u32) -> TableSummary {
        TableSummary {
            id: id.to_owned(),
            options: TableOptions::default(),
            seats: Pair {
                white: None,
                black: None,
            },
            spectators,
            status: TableStatus::Waiting,
            last_result: None,
        }
    }

    fn ids(lobby: &Lobby) -> Vec<String> {
        lobby.list().into_iter().map(|s| s.id).collect()
    }

    #[test]
    fn other_nodes_tables_are_listed_as_they_tell() {
        let lobby = Lobby::new(10);
        let mut feed = lobby.subscribe();
        lobby.insert_remote("a", summary("t1", 0));
        lobby.insert_remote("b", summary("t2", 0));
        lobby.insert_remote("a", summary("t1", 3));
        assert_eq!(
            ids(&lobby),
            ["t1", "t2"],
            "oldest first, a change keeps its place"
        );
        assert_eq!(lobby.list()[0].spectators, 3);
        assert_eq!(lobby.remote_owner("t2").as_deref(), Some("b"));
        assert_eq!(lobby.len(), 0, "no table of this node");
        assert!(lobby.get("t1").is_none(), "listed, not served here");

        // Only the node that has a table removes it.
        lobby.remove_remote("b", "t1");
        assert_eq!(ids(&lobby), ["t1", "t2"]);
        lobby.remove_remote("a", "t1");
        assert_eq!(ids(&lobby), ["t2"]);

        // A node's full list replaces what was listed for it, and only for it.
        lobby.insert_remote("a", summary("t3", 0));
        lobby.replace_node("b", vec![summary("t4", 0)]);
        assert_eq!(ids(&lobby), ["t3", "t4"]);
        assert_eq!(lobby.local_list(), []);

        // Watchers of the lobby heard each change.
        let mut heard = Vec::new();
        while let Ok(text) = feed.try_recv() {
            let msg: serde_json::Value = serde_json::from_str(&text).unwrap();
            heard.push(msg["type"].as_str().unwrap().to_owned());
        }
        assert_eq!(heard.iter().filter(|t| *t == "lobby_removed").count(), 2);
        assert_eq!(heard.iter().filter(|t| *t == "lobby_table").count(), 5);
    }
}
