//! Routing between the nodes of a cluster: a player connected to one node plays at a
//! table another node owns, as if it were local.
//!
//! The node a player is connected to forwards the requests for another node's table
//! (`open`, `close`, `chat`, `command`, `act`) to that node, the table's owner, as the
//! client wrote them. The owner keeps a *relay* for each remote connection: a
//! connection of its own, with the remote player, whose requests it handles as a local
//! connection's (`ws::relay`) and whose outbox — the tables' events and the
//! replies, in the order the tables and the requests made them — goes back to the
//! connection's node, which hands it to the connection. So a reply never overtakes the
//! events before it, and events reach every watcher on every node in order.
//!
//! Each node has one channel, `route:<id>` (prefixed with the cluster's id), and one
//! *uplink* task per node it sends to: the items queued meanwhile go out as one numbered packet. A receiver that
//! finds a number missing (a packet lost: Redis cut a subscriber, the bus was down), a
//! sender that restarted, a [`Delivery::Gap`], or a node whose lease ran out, *resets*
//! what it shares with that node: its connections that watch tables there are cut off,
//! and the relays it holds for that node's connections are dropped and their
//! connections told to close. Clients reconnect and resynchronise, as after any lost
//! connection; nothing is answered twice, and no event is silently missed.
//!
//! A connection that watches a table of another node is also cut off when that table
//! moves (its owner died and another node took it over, or it was let go): the client
//! reconnects and finds it where it went.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;

use super::bus::{Bus, Delivery};
use crate::account::store::Player;
use crate::i18n::Lang;
use crate::lobby::online::{Elsewhere, Presence};
use crate::protocol::Request;
use crate::store::base::StoreResult;
use crate::table::Conn;
use crate::vocab::PlayerId;
use crate::ws::RelayInput;
use crate::{Config, Ctx};

mod wire;

pub use wire::route_channel;
use wire::{Item, Packet, uplink};

/// How often a node looks whether the tables its connections watch elsewhere moved.
const LOOK_EVERY: Duration = Duration::from_secs(1);
/// How long a challenge named by a request and known nowhere here is waited for
/// (announced by another node a moment ago) before the meeting node is asked.
const ANNOUNCED_WITHIN: Duration = Duration::from_secs(1);
/// Every this many looks it also checks which nodes are alive.
const ALIVE_EVERY: u32 = 3;

/// A relay: one remote connection, as its owner node holds it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct RelayKey {
    node: String,
    boot: u64,
    conn: u64,
}

/// A connection of this node that watches tables of other nodes.
struct Local {
    conn: Conn,
    /// The tables it opened elsewhere, and where.
    tables: HashMap<String, String>,
    /// Every node it forwarded to (each is told when it closes).
    nodes: HashSet<String>,
}

#[derive(Default)]
struct State {
    local: HashMap<u64, Local>,
    relays: HashMap<RelayKey, mpsc::UnboundedSender<RelayInput>>,
    uplinks: HashMap<String, mpsc::UnboundedSender<Item>>,
    /// Each sender's run and the last packet number heard from it.
    heard: HashMap<String, (u64, u64)>,
    /// Each node's run, as it said when it started or answered this one's start.
    boots: HashMap<String, u64>,
}

/// This node's routing. Cheap to share.
pub struct Router {
    node: String,
    boot: u64,
    bus: Arc<dyn Bus>,
    state: Mutex<State>,
    /// The nodes alive when last looked at, the longest alive first.
    alive: Mutex<Vec<String>>,
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router")
            .field("node", &self.node)
            .field("boot", &self.boot)
            .finish()
    }
}

impl Router {
    /// The routing of node `node` in its run `boot`, over `bus`.
    pub fn new(node: &str, boot: u64, bus: Arc<dyn Bus>) -> Arc<Router> {
        Arc::new(Router {
            node: node.to_owned(),
            boot,
            bus,
            state: Mutex::new(State::default()),
            alive: Mutex::new(Vec::new()),
        })
    }

    /// The node that holds the cluster's seeks and challenges: the one alive longest
    /// (this one while it knows of no other). A node that joins later does not take
    /// the role over; when that node dies, the next oldest has it.
    pub fn meeting_node(&self) -> String {
        let alive = self.alive.lock().unwrap_or_else(|e| e.into_inner());
        alive.first().cloned().unwrap_or_else(|| self.node.clone())
    }

    /// The node that handles `request`, a request about seeks and challenges of
    /// `player`'s: the node holding the seek or challenge it names (known from the
    /// lobby's notes), else the meeting node. New seeks and challenges go to the
    /// meeting node; those made before another node had that role, and a bot's
    /// challenges (held where made), stay where they are and are answered there.
    /// `None` for the other requests.
    pub async fn meeting_place(
        &self,
        ctx: &Ctx,
        player: PlayerId,
        request: &Request,
    ) -> Option<String> {
        let holder = || match request {
            Request::CancelSeek => ctx.lobby.seek_holder_of(player.0),
            Request::AcceptSeek { seek } => ctx.lobby.seek_holder(seek),
            Request::AcceptChallenge { challenge }
            | Request::DeclineChallenge { challenge }
            | Request::CancelChallenge { challenge } => ctx.meet.challenge_holder(challenge),
            _ => None,
        };
        // Every seek is made at the meeting node (a bot's too), so one not announced
        // here yet is there, and is asked for there at once. A challenge may be held
        // where it was made (a bot's), and one made a moment ago may not be announced
        // here yet (its players hear of it through the routing, which may come first):
        // that is waited for, a while.
        let wait = match request {
            Request::Seek { .. } | Request::Challenge { .. } => return Some(self.meeting_node()),
            Request::CancelSeek | Request::AcceptSeek { .. } => Duration::ZERO,
            Request::AcceptChallenge { .. }
            | Request::DeclineChallenge { .. }
            | Request::CancelChallenge { .. } => ANNOUNCED_WITHIN,
            _ => return None,
        };
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match holder() {
                Some(Some(node)) => return Some(node),
                Some(None) => return Some(self.node.clone()),
                None if tokio::time::Instant::now() >= deadline => {
                    return Some(self.meeting_node());
                }
                None => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }

    /// The node that runs table `table`: this one when its lobby has the table, another
    /// when its lobby lists the table as that node's, else the one the store names (the
    /// table not listed yet, or any more: the store knows every table's owner). `None`
    /// when no node has it.
    pub async fn table_node(&self, ctx: &Ctx, table: &str) -> StoreResult<Option<String>> {
        if ctx.lobby.get(table).is_some() {
            return Ok(Some(self.node.clone()));
        }
        if let Some(node) = ctx.lobby.remote_owner(table) {
            return Ok(Some(node));
        }
        Ok(ctx.stores.leases.table_owner(table).await?.map(|o| o.node))
    }

    fn set_alive(&self, nodes: Vec<String>) {
        *self.alive.lock().unwrap_or_else(|e| e.into_inner()) = nodes;
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts hearing the other nodes and looking after the connections and relays.
    pub async fn start(self: &Arc<Router>, ctx: Ctx, config: Config) -> anyhow::Result<()> {
        self.set_alive(ctx.stores.leases.live_nodes().await?);
        let mut sub = self.bus.subscribe(&[route_channel(&self.node)]).await?;
        let router = self.clone();
        let (hear_ctx, hear_config) = (ctx.clone(), config);
        tokio::spawn(async move {
            while let Some(delivery) = sub.next().await {
                match delivery {
                    Delivery::Gap => {
                        tracing::warn!("routed messages may have been lost: every route reset");
                        let mut state = router.state();
                        let nodes: Vec<String> = state.heard.keys().cloned().collect();
                        for node in nodes {
                            router.reset(&mut state, &node, true);
                        }
                    }
                    Delivery::Message { payload, .. } => {
                        match serde_json::from_slice::<Packet>(&payload) {
                            Ok(packet) => router.packet(&hear_ctx, &hear_config, packet),
                            Err(e) => tracing::warn!("an unreadable routed packet: {e}"),
                        }
                    }
                }
            }
        });
        let router = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(LOOK_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut looks: u32 = 0;
            loop {
                tick.tick().await;
                looks += 1;
                router.look(&ctx).await;
                if looks % ALIVE_EVERY == 0 {
                    router.forget_dead(&ctx).await;
                }
            }
        });
        Ok(())
    }

    /// Sends `text`, a client message of `conn`, to `node`: the owner of the table it
    /// is for (`closing` when it closes the table), or the node of seeks and
    /// challenges (no table).
    pub fn forward(
        &self,
        conn: &Conn,
        lang: Lang,
        node: &str,
        table: Option<&str>,
        closing: bool,
        text: &str,
    ) {
        let mut state = self.state();
        let local = state.local.entry(conn.id).or_insert_with(|| Local {
            conn: conn.clone(),
            tables: HashMap::new(),
            nodes: HashSet::new(),
        });
        match table {
            Some(table) if closing => {
                local.tables.remove(table);
            }
            Some(table) => {
                local.tables.insert(table.to_owned(), node.to_owned());
            }
            None => {}
        }
        local.nodes.insert(node.to_owned());
        let item = Item::Request {
            conn: conn.id,
            player: conn.player.id.0,
            name: conn.player.name.clone(),
            bot: conn.player.bot,
            lang: lang.code().to_owned(),
            text: text.to_owned(),
        };
        self.send(&mut state, node, item);
    }

    /// Connection `conn` of this node closed (`last`: its player's last anywhere): the
    /// nodes it forwarded to drop its relays.
    pub fn closed(&self, conn: u64, last: bool) {
        let mut state = self.state();
        if let Some(local) = state.local.remove(&conn) {
            for node in local.nodes {
                self.send(&mut state, &node, Item::Forget { conn, last });
            }
        }
    }

    /// Node `node` says it runs as `boot`: when it ran as another before, it restarted
    /// — its tables are a new incarnation and its relays are gone — so this node's
    /// connections watching tables there are cut off (they reconnect and find them
    /// again) and the relays held for its earlier run are dropped.
    pub fn booted(&self, node: &str, boot: u64) {
        if node == self.node || boot == 0 {
            return;
        }
        let mut state = self.state();
        let before = state.boots.insert(node.to_owned(), boot);
        if before.is_some_and(|b| b != boot) {
            tracing::info!(node, "a node restarted: its routes reset");
            self.cut_watchers(&mut state, node);
            // Its new run's relays (if its packets came first) stay.
            self.drop_relays(&mut state, node, false, Some(boot));
            if state.heard.get(node).is_some_and(|(b, _)| *b != boot) {
                state.heard.remove(node);
            }
        }
    }

    /// Queues `item` for `node`.
    fn send(&self, state: &mut State, node: &str, item: Item) {
        let _ = self.uplink_to(state, node).send(item);
    }

    /// The uplink to `node`, started when there is none.
    fn uplink_to<'s>(&self, state: &'s mut State, node: &str) -> &'s mpsc::UnboundedSender<Item> {
        state.uplinks.entry(node.to_owned()).or_insert_with(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(uplink(
                self.bus.clone(),
                node.to_owned(),
                self.node.clone(),
                self.boot,
                rx,
            ));
            tx
        })
    }

    fn packet(self: &Arc<Router>, ctx: &Ctx, config: &Config, packet: Packet) {
        let Packet {
            from,
            boot,
            seq,
            items,
        } = packet;
        // A halted node (a test's dead one) hears nothing.
        if from == self.node || ctx.node().is_some_and(|n| n.halted()) {
            return;
        }
        let mut state = self.state();
        match state.heard.get(&from) {
            Some(&(b, last)) if b == boot && seq == last + 1 => {}
            Some(&(b, _)) => {
                tracing::warn!(
                    node = from,
                    "routed messages from a node were lost, or it restarted: its routes reset"
                );
                // Kicks make sense to the same run only.
                self.reset(&mut state, &from, b == boot);
            }
            None => {}
        }
        state.heard.insert(from.clone(), (boot, seq));
        state.boots.insert(from.clone(), boot);
        for item in items {
            match item {
                Item::Request {
                    conn,
                    player,
                    name,
                    bot,
                    lang,
                    text,
                } => {
                    let key = RelayKey {
                        node: from.clone(),
                        boot,
                        conn,
                    };
                    let lang = Lang::from_code(&lang).unwrap_or(Lang::En);
                    if !state.relays.contains_key(&key) {
                        let player = Player {
                            id: PlayerId(player),
                            name,
                            bot,
                        };
                        let relay = self.relay(&mut state, ctx, config, key.clone(), player, lang);
                        state.relays.insert(key.clone(), relay);
                    }
                    if let Some(relay) = state.relays.get(&key) {
                        let _ = relay.send(RelayInput::Message(lang, text));
                    }
                }
                Item::Forget { conn, last } => {
                    // Its queued requests are still handled; then it lets go.
                    let key = RelayKey {
                        node: from.clone(),
                        boot,
                        conn,
                    };
                    if let Some(relay) = state.relays.remove(&key) {
                        let _ = relay.send(RelayInput::Closed { last });
                    }
                }
                Item::Text { conn, text } => {
                    if let Some(local) = state.local.get(&conn) {
                        // A connection that does not keep up is cut off (Conn::send).
                        local.conn.send(text.into());
                    }
                }
                Item::Kick { conn } => {
                    if let Some(local) = state.local.get(&conn) {
                        local.conn.kick.notify_one();
                    }
                }
                Item::ToPlayer { player, text } => {
                    ctx.online.send_here(PlayerId(player), text.into());
                }
            }
        }
    }

    /// Starts the relay `key` for `player`: its requests are handled by
    /// `ws::relay`; its outbox goes to its node.
    fn relay(
        self: &Arc<Router>,
        state: &mut State,
        ctx: &Ctx,
        config: &Config,
        key: RelayKey,
        player: Player,
        lang: Lang,
    ) -> mpsc::UnboundedSender<RelayInput> {
        let (out_tx, mut out_rx) = mpsc::channel::<Arc<str>>(config.outbox.max(1));
        let kick = Arc::new(tokio::sync::Notify::new());
        let conn = Conn {
            id: crate::table::next_conn_id(),
            player,
            tx: out_tx,
            kick: kick.clone(),
        };
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(crate::ws::relay(
            ctx.clone(),
            config.clone(),
            conn,
            lang,
            rx,
        ));
        // The relay's outbox goes to its node in order.
        let uplink = self.uplink_to(state, &key.node).clone();
        let router = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    text = out_rx.recv() => match text {
                        Some(text) => {
                            let _ = uplink.send(Item::Text { conn: key.conn, text: text.to_string() });
                        }
                        // The relay and its tables let go of it.
                        None => return,
                    },
                    _ = kick.notified() => {
                        // Cut off by a table (it did not keep up, or the table left
                        // this node): what is queued goes first, then the kick.
                        while let Ok(text) = out_rx.try_recv() {
                            let _ = uplink.send(Item::Text { conn: key.conn, text: text.to_string() });
                        }
                        let _ = uplink.send(Item::Kick { conn: key.conn });
                        router.state().relays.remove(&key);
                        return;
                    }
                }
            }
        });
        tx
    }

    /// Forgets what this node shares with `node` after messages were lost: its
    /// connections watching tables there are cut off, and the relays held for that
    /// node's connections dropped — those connections told to close when `kick` (the
    /// same run of that node).
    fn reset(&self, state: &mut State, node: &str, kick: bool) {
        self.cut_watchers(state, node);
        self.drop_relays(state, node, kick, None);
    }

    /// Cuts off this node's connections that watch tables at `node`.
    fn cut_watchers(&self, state: &mut State, node: &str) {
        for local in state.local.values_mut() {
            let before = local.tables.len();
            local.tables.retain(|_, n| n != node);
            if local.tables.len() != before {
                local.conn.kick.notify_one();
            }
        }
    }

    /// Drops the relays held for `node`'s connections (but those of its run `keep`),
    /// telling those connections to close when `kick` — those of the run it is known
    /// to be in only (another run's connection ids name other connections).
    fn drop_relays(&self, state: &mut State, node: &str, kick: bool, keep: Option<u64>) {
        let keys: Vec<RelayKey> = state
            .relays
            .keys()
            .filter(|k| k.node == node && Some(k.boot) != keep)
            .cloned()
            .collect();
        let current = state.boots.get(node).copied();
        for key in keys {
            state.relays.remove(&key);
            if kick && Some(key.boot) == current {
                self.send(state, node, Item::Kick { conn: key.conn });
            }
        }
    }

    /// Cuts off the connections watching a table elsewhere that moved: another node
    /// (or this one) has it now, or nobody does.
    async fn look(&self, ctx: &Ctx) {
        let watched: Vec<(u64, String, String)> = {
            let state = self.state();
            state
                .local
                .iter()
                .flat_map(|(id, l)| {
                    l.tables
                        .iter()
                        .map(move |(t, n)| (*id, t.clone(), n.clone()))
                })
                .collect()
        };
        let mut moved = Vec::new();
        for (conn, table, node) in watched {
            match self.table_node(ctx, &table).await {
                Ok(Some(owner)) if owner == node => {}
                Ok(_) => moved.push((conn, table)),
                Err(_) => {}
            }
        }
        if moved.is_empty() {
            return;
        }
        let mut state = self.state();
        for (conn, table) in moved {
            if let Some(local) = state.local.get_mut(&conn)
                && local.tables.remove(&table).is_some()
            {
                tracing::info!(table, conn, "a table watched elsewhere moved: reconnect");
                local.conn.kick.notify_one();
            }
        }
    }

    /// Drops the relays of nodes whose lease ran out: they died, and their connections
    /// with them — or they were cut off from the database for a while and live on, so
    /// their connections are told to close and resynchronise. The lobby and the players
    /// online forget them too, and ask them for everything again should they renew. (This node's connections
    /// that watch their tables are cut off once the tables move, [`Router::look`]: cut
    /// off now, they would come back before another node has the tables.)
    async fn forget_dead(&self, ctx: &Ctx) {
        // Just back from a database outage, every lease has run out: the others are
        // given time to renew first.
        if ctx.node().is_some_and(|n| !n.settled()) {
            return;
        }
        let Ok(alive) = ctx.stores.leases.live_nodes().await else {
            return;
        };
        let before: HashSet<String> = self
            .alive
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect();
        self.set_alive(alive.clone());
        let alive: HashSet<String> = alive.into_iter().collect();
        ctx.lobby.keep_nodes(&alive);
        ctx.online.keep_nodes(&alive);
        ctx.meet.keep_nodes(&alive);
        // A node alive again (its lease had run out: it was frozen or cut off from the
        // database a while) or new: what this node forgot of it — its tables, players
        // and seeks — it asks for again.
        for node in alive
            .iter()
            .filter(|n| **n != self.node && !before.contains(*n))
        {
            tracing::info!(node, "a node is alive (again): asking it for its tables");
            if let Err(e) = super::lobby::ask(self.bus.as_ref(), &self.node, self.boot, node).await
            {
                tracing::warn!(node, "cannot ask a node for its tables: {e}");
            }
        }
        let mut state = self.state();
        let mut known: HashSet<String> = state.heard.keys().cloned().collect();
        known.extend(state.relays.keys().map(|k| k.node.clone()));
        for local in state.local.values() {
            known.extend(local.tables.values().cloned());
        }
        for node in known {
            if node != self.node && !alive.contains(&node) {
                tracing::info!(node, "a node's lease ran out: its relays dropped");
                self.drop_relays(&mut state, &node, true, None);
                state.heard.remove(&node);
            }
        }
    }

    /// How many remote connections this node holds relays for, and how many of its
    /// connections watch tables elsewhere (for tests and health).
    pub fn counts(&self) -> (usize, usize) {
        let state = self.state();
        (state.relays.len(), state.local.len())
    }
}

/// Who is online reaching the other nodes: presence on the lobby's channel
/// ([`crate::cluster::lobby::join`]), messages for players through the router.
pub struct Reach {
    presence: mpsc::UnboundedSender<Presence>,
    router: Arc<Router>,
}

impl Reach {
    /// Presence changes go to `presence`, messages through `router`.
    pub fn new(presence: mpsc::UnboundedSender<Presence>, router: Arc<Router>) -> Reach {
        Reach { presence, router }
    }
}

impl Elsewhere for Reach {
    fn presence(&self, change: Presence) {
        let _ = self.presence.send(change);
    }

    fn send(&self, node: &str, player: PlayerId, text: Arc<str>) {
        let item = Item::ToPlayer {
            player: player.0,
            text: text.to_string(),
        };
        let mut state = self.router.state();
        self.router.send(&mut state, node, item);
    }
}

#[cfg(test)]
mod tests;
