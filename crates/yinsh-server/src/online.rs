//! Who is online: every open WebSocket connection by player, so that a player can be
//! reached wherever they are (a challenge, a pairing) and the lobby can say who is
//! here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::table::Conn;
use crate::vocab::PlayerId;

/// The connections of each player online. Cheap to clone.
#[derive(Clone, Default)]
pub struct Online {
    inner: Arc<Mutex<HashMap<PlayerId, Vec<Conn>>>>,
}

impl Online {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<PlayerId, Vec<Conn>>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes an open connection.
    pub fn add(&self, conn: &Conn) {
        self.map()
            .entry(conn.player.id)
            .or_default()
            .push(conn.clone());
    }

    /// Forgets connection `id` of `player` (it closed); whether that was the player's
    /// last one.
    pub fn remove(&self, player: PlayerId, id: u64) -> bool {
        let mut map = self.map();
        let Some(list) = map.get_mut(&player) else {
            return false;
        };
        list.retain(|c| c.id != id);
        if list.is_empty() {
            map.remove(&player);
            return true;
        }
        false
    }

    /// Whether `player` has a connection open.
    pub fn is_online(&self, player: PlayerId) -> bool {
        self.map().contains_key(&player)
    }

    /// How many players are online.
    pub fn count(&self) -> usize {
        self.map().len()
    }

    /// The names of the registered players online (guests are counted, not named),
    /// sorted ignoring case, at most `limit`.
    pub fn account_names(&self, limit: usize) -> Vec<String> {
        let mut names: Vec<String> = self
            .map()
            .values()
            .filter_map(|conns| conns.last())
            .map(|c| c.player.name.clone())
            .filter(|name| !crate::session::is_guest_name(name))
            .collect();
        names.sort_by_key(|n| n.to_lowercase());
        names.truncate(limit);
        names
    }

    /// The player online under `name` (ignoring case).
    pub fn named(&self, name: &str) -> Option<crate::store::Player> {
        self.map()
            .values()
            .filter_map(|conns| conns.last())
            .find(|c| c.player.name.eq_ignore_ascii_case(name))
            .map(|c| c.player.clone())
    }

    /// Sends `text` to every connection of `player`; whether they have one.
    pub fn send(&self, player: PlayerId, text: Arc<str>) -> bool {
        let conns = self.map().get(&player).cloned().unwrap_or_default();
        for c in &conns {
            c.send(text.clone());
        }
        !conns.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Player;

    fn conn(id: u64, player: i64, name: &str) -> (Conn, tokio::sync::mpsc::Receiver<Arc<str>>) {
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        let conn = Conn {
            id,
            player: Player {
                id: PlayerId(player),
                name: name.to_owned(),
                bot: false,
            },
            tx,
            kick: Default::default(),
        };
        (conn, rx)
    }

    #[test]
    fn players_are_online_while_a_connection_is_open() {
        let online = Online::default();
        let (a1, mut rx1) = conn(1, 7, "marit");
        let (a2, mut rx2) = conn(2, 7, "marit");
        let (g, _rxg) = conn(3, 8, "SwiftOtter42");
        let (b, _rxb) = conn(4, 9, "Bart");
        for c in [&a1, &a2, &g, &b] {
            online.add(c);
        }
        assert_eq!(online.count(), 3);
        // Guests are counted, not named.
        assert_eq!(online.account_names(10), ["Bart", "marit"]);
        assert_eq!(online.account_names(1), ["Bart"]);
        assert_eq!(online.named("MARIT").map(|p| p.id), Some(PlayerId(7)));
        assert!(online.send(PlayerId(7), "hi".into()));
        assert_eq!(rx1.try_recv().as_deref(), Ok("hi"));
        assert_eq!(rx2.try_recv().as_deref(), Ok("hi"));
        assert!(!online.remove(PlayerId(7), 1));
        assert!(online.is_online(PlayerId(7)));
        assert!(online.remove(PlayerId(7), 2));
        assert!(!online.is_online(PlayerId(7)));
        assert!(!online.send(PlayerId(7), "gone".into()));
        assert_eq!(online.count(), 2);
    }
}
