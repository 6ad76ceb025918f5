//! Who is online: every open WebSocket connection by player, so that a player can be
//! reached wherever they are (a challenge, a pairing) and the lobby can say who is
//! here.
//!
//! In a cluster each node also knows who is online at the other nodes: a node tells
//! the others when a player comes (their first connection there) and goes (their
//! last), over the bus ([`crate::cluster::lobby`]); a message for a player online at
//! another node goes there ([`Elsewhere`]).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use crate::account::store::Player;
use crate::table::Conn;
use crate::vocab::PlayerId;

/// A player came to this node, or left it (for the other nodes of a cluster).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presence {
    /// Their first connection here opened.
    Came(Player),
    /// Their last connection here closed.
    Went(PlayerId),
}

/// The rest of a cluster, as who is online needs it.
pub trait Elsewhere: Send + Sync {
    /// Tells the other nodes that a player came or went.
    fn presence(&self, change: Presence);
    /// Sends `text` to the connections of `player` at node `node`.
    fn send(&self, node: &str, player: PlayerId, text: Arc<str>);
}

/// A player online at other nodes, and which.
struct Remote {
    player: Player,
    nodes: HashSet<String>,
}

#[derive(Default)]
struct Inner {
    local: HashMap<PlayerId, Vec<Conn>>,
    remote: HashMap<PlayerId, Remote>,
}

/// The connections of each player online. Cheap to clone.
#[derive(Clone, Default)]
pub struct Online {
    inner: Arc<Mutex<Inner>>,
    elsewhere: Arc<OnceLock<Arc<dyn Elsewhere>>>,
}

impl Online {
    fn map(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// From now on, the other nodes of the cluster hear who comes and goes here, and
    /// messages for players there go to them through `elsewhere`.
    pub fn join_cluster(&self, elsewhere: Arc<dyn Elsewhere>) {
        let _ = self.elsewhere.set(elsewhere);
    }

    /// Notes an open connection.
    pub fn add(&self, conn: &Conn) {
        let first = {
            let mut map = self.map();
            let list = map.local.entry(conn.player.id).or_default();
            list.push(conn.clone());
            list.len() == 1
        };
        if first && let Some(elsewhere) = self.elsewhere.get() {
            elsewhere.presence(Presence::Came(conn.player.clone()));
        }
    }

    /// Forgets connection `id` of `player` (it closed); whether that was the player's
    /// last one here.
    pub fn remove(&self, player: PlayerId, id: u64) -> bool {
        let last = {
            let mut map = self.map();
            let Some(list) = map.local.get_mut(&player) else {
                return false;
            };
            list.retain(|c| c.id != id);
            let last = list.is_empty();
            if last {
                map.local.remove(&player);
            }
            last
        };
        if last && let Some(elsewhere) = self.elsewhere.get() {
            elsewhere.presence(Presence::Went(player));
        }
        last
    }

    /// Whether `player` has a connection open (here or at another node).
    pub fn is_online(&self, player: PlayerId) -> bool {
        let map = self.map();
        map.local.contains_key(&player) || map.remote.contains_key(&player)
    }

    /// Whether `player` has a connection open at another node.
    pub fn is_online_elsewhere(&self, player: PlayerId) -> bool {
        self.map().remote.contains_key(&player)
    }

    /// How many players are online (at every node).
    pub fn count(&self) -> usize {
        let map = self.map();
        let elsewhere_only = map
            .remote
            .keys()
            .filter(|id| !map.local.contains_key(id))
            .count();
        map.local.len() + elsewhere_only
    }

    /// Everyone online, once each (here first).
    fn players(map: &Inner) -> impl Iterator<Item = &Player> {
        let local = map
            .local
            .values()
            .filter_map(|conns| conns.last())
            .map(|c| &c.player);
        let remote = map
            .remote
            .iter()
            .filter(|(id, _)| !map.local.contains_key(id))
            .map(|(_, r)| &r.player);
        local.chain(remote)
    }

    /// The names of the registered players online (guests are counted, not named),
    /// sorted ignoring case, at most `limit`.
    pub fn account_names(&self, limit: usize) -> Vec<String> {
        let map = self.map();
        let mut names: Vec<String> = Online::players(&map)
            .map(|p| p.name.clone())
            .filter(|name| !crate::account::session::is_guest_name(name))
            .collect();
        names.sort_by_key(|n| n.to_lowercase());
        names.truncate(limit);
        names
    }

    /// The player online under `name` (ignoring case).
    pub fn named(&self, name: &str) -> Option<Player> {
        let map = self.map();
        Online::players(&map)
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .cloned()
    }

    /// Sends `text` to every connection of `player`, here and at other nodes; whether
    /// they have one.
    pub fn send(&self, player: PlayerId, text: Arc<str>) -> bool {
        let (conns, nodes) = {
            let map = self.map();
            let conns = map.local.get(&player).cloned().unwrap_or_default();
            let nodes: Vec<String> = map
                .remote
                .get(&player)
                .map(|r| r.nodes.iter().cloned().collect())
                .unwrap_or_default();
            (conns, nodes)
        };
        for c in &conns {
            c.send(text.clone());
        }
        if let Some(elsewhere) = self.elsewhere.get() {
            for node in &nodes {
                elsewhere.send(node, player, text.clone());
            }
        }
        !conns.is_empty() || !nodes.is_empty()
    }

    /// Sends `text` to the connections of `player` at this node (a message another
    /// node sent here).
    pub fn send_here(&self, player: PlayerId, text: Arc<str>) {
        let conns = self.map().local.get(&player).cloned().unwrap_or_default();
        for c in &conns {
            c.send(text.clone());
        }
    }

    /// Everyone with a connection at this node (for a node that asks who is here).
    pub fn here(&self) -> Vec<Player> {
        let map = self.map();
        map.local
            .values()
            .filter_map(|conns| conns.last())
            .map(|c| c.player.clone())
            .collect()
    }

    /// `player` came to node `node`, or left it.
    pub fn at_node(&self, node: &str, change: Presence) {
        let mut map = self.map();
        match change {
            Presence::Came(player) => {
                map.remote
                    .entry(player.id)
                    .or_insert_with(|| Remote {
                        player,
                        nodes: HashSet::new(),
                    })
                    .nodes
                    .insert(node.to_owned());
            }
            Presence::Went(id) => {
                if let Some(r) = map.remote.get_mut(&id) {
                    r.nodes.remove(node);
                    if r.nodes.is_empty() {
                        map.remote.remove(&id);
                    }
                }
            }
        }
    }

    /// Forgets who was online at the nodes not in `alive` (they died).
    pub fn keep_nodes(&self, alive: &HashSet<String>) {
        self.map().remote.retain(|_, r| {
            r.nodes.retain(|n| alive.contains(n));
            !r.nodes.is_empty()
        });
    }

    /// Everyone at node `node` is `players` (what it said it has).
    pub fn replace_node(&self, node: &str, players: Vec<Player>) {
        let mut map = self.map();
        map.remote.retain(|_, r| {
            r.nodes.remove(node);
            !r.nodes.is_empty()
        });
        drop(map);
        for player in players {
            self.at_node(node, Presence::Came(player));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::account::store::Player;

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

    /// Records what a node tells the others.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<String>>);

    impl Elsewhere for Recorder {
        fn presence(&self, change: Presence) {
            self.0.lock().unwrap().push(match change {
                Presence::Came(p) => format!("came {}", p.name),
                Presence::Went(id) => format!("went {}", id.0),
            });
        }
        fn send(&self, node: &str, player: PlayerId, text: Arc<str>) {
            self.0
                .lock()
                .unwrap()
                .push(format!("{node} {} {text}", player.0));
        }
    }

    #[test]
    fn players_at_other_nodes_count_and_are_reached_there() {
        let online = Online::default();
        let told = Arc::new(Recorder::default());
        online.join_cluster(told.clone());
        let (a1, _rx1) = conn(1, 7, "marit");
        let (a2, _rx2) = conn(2, 7, "marit");
        online.add(&a1);
        online.add(&a2);
        let player = |id: i64, name: &str| Player {
            id: PlayerId(id),
            name: name.to_owned(),
            bot: false,
        };
        online.at_node("b", Presence::Came(player(9, "Bart")));
        online.at_node("c", Presence::Came(player(9, "Bart")));
        online.at_node("b", Presence::Came(player(7, "marit")));
        assert_eq!(online.count(), 2, "each player once");
        assert_eq!(online.account_names(10), ["Bart", "marit"]);
        assert_eq!(online.named("bart").map(|p| p.id), Some(PlayerId(9)));
        assert!(online.send(PlayerId(9), "hi".into()));
        online.at_node("b", Presence::Went(PlayerId(9)));
        assert!(online.is_online(PlayerId(9)), "still at c");
        online.replace_node("c", Vec::new());
        assert!(!online.is_online(PlayerId(9)));
        assert!(!online.remove(PlayerId(7), 1));
        assert!(online.remove(PlayerId(7), 2), "the last one here");
        assert!(online.is_online_elsewhere(PlayerId(7)));
        let mut said = told.0.lock().unwrap().clone();
        let mut sends: Vec<String> = said.drain(1..3).collect();
        sends.sort();
        assert_eq!(said, ["came marit", "went 7"]);
        assert_eq!(sends, ["b 9 hi", "c 9 hi"]);
    }
}
