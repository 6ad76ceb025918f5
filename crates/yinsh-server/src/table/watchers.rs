//! Who watches a table: their connections, the numbered events they were sent, the
//! backlog kept for resumes, and the spectators announced.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::{Conn, to_text};
use crate::protocol::{ClockView, GameView, ServerMessage, Since, TableEvent};
use crate::vocab::{PlayerId, TableId};

/// Events kept to resume a reconnecting client without a snapshot: at most this many…
pub const BACKLOG_EVENTS: usize = 256;
/// …and at most this many bytes of them (an older resume gets a snapshot).
pub const BACKLOG_BYTES: usize = 128 * 1024;
/// Spectator changes are announced at most this often.
const SPECTATORS_EVERY: Duration = Duration::from_secs(1);
/// Spectator names sent in a snapshot or event (the count is always exact).
pub const SPECTATOR_NAMES: usize = 100;

/// The connections watching a table and what they were sent.
pub(super) struct Watchers {
    table: TableId,
    epoch: u64,
    /// The version of the last event.
    version: u64,
    subs: HashMap<u64, Conn>,
    backlog: VecDeque<(u64, Arc<str>)>,
    backlog_bytes: usize,
    /// The spectators last announced.
    announced: Vec<String>,
    /// When spectators were last announced, and when the next announcement is due.
    spectators_at: Option<Instant>,
    spectators_due: Option<Instant>,
}

impl Watchers {
    pub(super) fn new(table: TableId, epoch: u64) -> Watchers {
        Watchers {
            table,
            epoch,
            version: 0,
            subs: HashMap::new(),
            backlog: VecDeque::new(),
            backlog_bytes: 0,
            announced: Vec::new(),
            spectators_at: None,
            spectators_due: None,
        }
    }

    /// The version of the last event.
    pub(super) fn version(&self) -> u64 {
        self.version
    }

    /// Whether nobody watches.
    pub(super) fn is_empty(&self) -> bool {
        self.subs.is_empty()
    }

    /// Whether `player` has a connection watching.
    pub(super) fn is_online(&self, player: PlayerId) -> bool {
        self.subs.values().any(|c| c.player.id == player)
    }

    /// The spectators announced last: how many, and the first names.
    pub(super) fn announced(&self) -> (u32, Vec<String>) {
        let names = self.announced.iter().take(SPECTATOR_NAMES).cloned();
        (self.announced.len() as u32, names.collect())
    }

    /// When the next spectator announcement is due.
    pub(super) fn spectators_due(&self) -> Option<Instant> {
        self.spectators_due
    }

    /// Adds `conn` if it can resume from `since`: it gets the events it missed (the
    /// backlog still has them), then `clocks`, the clocks now. Otherwise `conn` comes
    /// back, to be sent a snapshot and [`Watchers::add`]ed.
    pub(super) fn resume(
        &mut self,
        conn: Conn,
        since: Option<Since>,
        clocks: Option<ClockView>,
    ) -> Result<(), Conn> {
        let resumable = since.filter(|s| {
            s.epoch == self.epoch
                && s.version <= self.version
                && (s.version == self.version
                    || self
                        .backlog
                        .front()
                        .is_some_and(|(v, _)| *v <= s.version + 1))
        });
        let Some(s) = resumable else {
            return Err(conn);
        };
        for (v, text) in &self.backlog {
            if *v > s.version {
                conn.send(text.clone());
            }
        }
        if let Some(clocks) = clocks {
            conn.send(to_text(&ServerMessage::Clocks {
                table: self.table.to_string(),
                clocks,
            }));
        }
        self.add(conn);
        Ok(())
    }

    /// Adds `conn`, which has been sent the table as it is now.
    pub(super) fn add(&mut self, conn: Conn) {
        self.subs.insert(conn.id, conn);
    }

    /// Cuts off every connection watching (the table leaves this node: its clients
    /// reconnect and find it where it went).
    pub(super) fn kick_all(&self) {
        for conn in self.subs.values() {
            conn.kick.notify_one();
        }
    }

    /// Removes connection `id`; whether it was watching.
    pub(super) fn close(&mut self, id: u64) -> bool {
        self.subs.remove(&id).is_some()
    }

    /// Sends an event to everyone watching and keeps it for resumes; `true` when
    /// connections that could not keep up were cut off.
    pub(super) fn broadcast(
        &mut self,
        event: TableEvent,
        game: Option<GameView>,
        clocks: Option<ClockView>,
    ) -> bool {
        self.version += 1;
        let msg = ServerMessage::Event {
            table: self.table.to_string(),
            version: self.version,
            event,
            game,
            clocks,
        };
        let text = to_text(&msg);
        self.backlog_bytes += text.len();
        self.backlog.push_back((self.version, text.clone()));
        while self.backlog.len() > BACKLOG_EVENTS
            || (self.backlog_bytes > BACKLOG_BYTES && self.backlog.len() > 1)
        {
            if let Some((_, old)) = self.backlog.pop_front() {
                self.backlog_bytes -= old.len();
            }
        }
        let before = self.subs.len();
        self.subs.retain(|_, c| c.send(text.clone()));
        self.subs.len() != before
    }

    /// Sends `text` to everyone watching (not versioned, not kept).
    pub(super) fn send_all(&self, text: &Arc<str>) {
        for conn in self.subs.values() {
            conn.send(text.clone());
        }
    }

    /// Sends `text` to every connection of `player` (not versioned, not kept).
    pub(super) fn send_to(&self, player: PlayerId, text: &Arc<str>) {
        for conn in self.subs.values().filter(|c| c.player.id == player) {
            conn.send(text.clone());
        }
    }

    /// The spectators now: the people watching who do not sit at the table, sorted.
    pub(super) fn spectators(&self, seated: impl Fn(PlayerId) -> bool) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut names = Vec::new();
        for c in self.subs.values() {
            if !seated(c.player.id) && seen.insert(c.player.id) {
                names.push(c.player.name.clone());
            }
        }
        names.sort_unstable();
        names
    }

    /// After connections came or went: the spectator event to announce now, if any
    /// (a crowd arriving together is one event a second, not one per arrival).
    pub(super) fn spectators_changed(
        &mut self,
        now: Instant,
        seated: impl Fn(PlayerId) -> bool,
    ) -> Option<TableEvent> {
        if self.spectators_due.is_some() {
            return None;
        }
        let at = self
            .spectators_at
            .map_or(now, |last| (last + SPECTATORS_EVERY).max(now));
        if at <= now {
            self.announce_spectators(now, seated)
        } else {
            self.spectators_due = Some(at);
            None
        }
    }

    /// The spectator event, if they changed since the last announcement.
    pub(super) fn announce_spectators(
        &mut self,
        now: Instant,
        seated: impl Fn(PlayerId) -> bool,
    ) -> Option<TableEvent> {
        self.spectators_due = None;
        let names = self.spectators(seated);
        if self.announced == names {
            return None;
        }
        self.spectators_at = Some(now);
        self.announced = names;
        let (count, names) = self.announced();
        Some(TableEvent::Spectators { count, names })
    }
}
