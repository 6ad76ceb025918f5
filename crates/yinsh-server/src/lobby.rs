//! The lobby: every open table, with a live feed of their summaries.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::protocol::{ServerMessage, TableSummary};
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
    feed: broadcast::Sender<Arc<str>>,
    max_tables: usize,
    /// Counts insertions, to list tables oldest first.
    inserted: AtomicU64,
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
                feed: broadcast::channel(FEED).0,
                max_tables,
                inserted: AtomicU64::new(0),
            }),
        }
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, HashMap<TableId, Entry>> {
        self.inner.tables.lock().unwrap_or_else(|e| e.into_inner())
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
            e.summary = summary;
        } else {
            return;
        }
        let _ = self.inner.feed.send(msg);
    }

    /// A table closed.
    pub fn remove(&self, id: &str) {
        if self.tables().remove(id).is_some() {
            let msg = to_text(&ServerMessage::LobbyRemoved {
                table: id.to_owned(),
            });
            let _ = self.inner.feed.send(msg);
        }
    }

    /// Every table, oldest first.
    pub fn list(&self) -> Vec<TableSummary> {
        let tables = self.tables();
        let mut entries: Vec<&Entry> = tables.values().collect();
        entries.sort_by_key(|e| e.created);
        entries.iter().map(|e| e.summary.clone()).collect()
    }

    /// How many tables are open.
    pub fn len(&self) -> usize {
        self.tables().len()
    }

    /// Whether no table is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sends `msg` to everyone watching the lobby (seeks come and go this way).
    pub fn announce(&self, msg: &ServerMessage) {
        let _ = self.inner.feed.send(to_text(msg));
    }

    /// The live feed: `lobby_table`, `lobby_removed`, `lobby_seek` and
    /// `lobby_seek_removed` messages.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.inner.feed.subscribe()
    }
}
