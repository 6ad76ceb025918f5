//! A node's part in a cluster: its lease, the ids of the tables it opens, and the
//! tables of nodes that died, taken over.
//!
//! A node renews its lease in the store every [`RENEW`]; the lease holds for
//! [`LEASE`]. Every [`RENEW`] it also takes over (a few hundred at a time) the tables
//! whose owner's lease ran out and restores their unfinished games, with the clocks
//! treated as for a restart ([`crate::table::restore`]). A table whose owner died
//! before its game began had nothing stored: its id is let go. After a database
//! outage every lease has run out; a node takes nothing over until the store has
//! answered it for a while ([`Node::settled`]), so that the others renew first.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::Ctx;
use crate::cluster::store::{Fence, TableOwner};
use crate::refusal::Refusal;
use crate::store::StoreResult;
use crate::vocab::TableId;

/// How long a node's lease holds after it was renewed: a node that dies has its tables
/// taken over after at most this (plus one [`RENEW`]).
pub const LEASE: Duration = Duration::from_secs(5);
/// How often a node renews its lease and looks for tables to take over.
pub const RENEW: Duration = Duration::from_secs(1);
/// How long the store must have answered a node's renewals before it takes over the
/// tables of others whose lease ran out: long enough for every live node to renew
/// after a database outage (a lease and two renewals).
pub const SETTLE: Duration = Duration::from_secs(LEASE.as_secs() + 2 * RENEW.as_secs());
/// Tables taken over at once (the rest at the next look, or by other nodes).
const TAKE_AT_ONCE: u32 = 256;
/// Every this many renewals the node checks that it still owns its tables.
const CHECK_EVERY: u32 = 3;

/// This process as a node of a cluster.
#[derive(Debug)]
pub struct Node {
    /// Its id, the same across restarts (a node back under its id takes its own
    /// tables again at once).
    pub id: String,
    halted: AtomicBool,
    /// Since when the store has answered every renewal (none while it does not).
    answered_since: std::sync::Mutex<Option<Instant>>,
}

impl Node {
    /// The node named `id`.
    pub fn new(id: impl Into<String>) -> Arc<Node> {
        Arc::new(Node {
            id: id.into(),
            halted: AtomicBool::new(false),
            // Settled from the start: a node that starts takes the tables of the dead.
            answered_since: std::sync::Mutex::new(Instant::now().checked_sub(SETTLE)),
        })
    }

    fn answered(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        self.answered_since
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Notes whether the store answered a renewal.
    fn renewed(&self, ok: bool) {
        let mut since = self.answered();
        match (ok, *since) {
            (false, _) => *since = None,
            (true, None) => *since = Some(Instant::now()),
            (true, Some(_)) => {}
        }
    }

    /// Whether the store has answered this node's renewals for long enough ([`SETTLE`])
    /// that a node whose lease ran out meanwhile is dead, not one that could not reach
    /// the database either: after an outage every lease has run out, and the node back
    /// first would otherwise take every other node's tables. Until then it takes no
    /// table over and forgets no node.
    pub fn settled(&self) -> bool {
        self.answered().is_some_and(|t| t.elapsed() >= SETTLE)
    }

    /// Stops renewing the lease and taking tables over: to the other nodes this one now
    /// looks dead, as one that was killed (for tests of failover; its tables keep
    /// running here, as a frozen process's would when it wakes).
    pub fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
    }

    /// Renews the lease again after [`Node::halt`] (a frozen process that wakes): the
    /// tables taken over meanwhile are closed here at the next ownership check.
    pub fn resume(&self) {
        self.halted.store(false, Ordering::Relaxed);
    }

    /// Whether it is halted: it does nothing a cluster would notice.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }
}

/// What the writes of this node's table `table` at `incarnation` carry in a cluster
/// (`None` on a lone server: nobody else can take its tables).
pub fn fence(ctx: &Ctx, table: &str, incarnation: i64) -> Option<Fence> {
    ctx.node().map(|node| Fence {
        table: table.to_owned(),
        node: node.id.clone(),
        incarnation,
    })
}

/// A fresh id for a new table, and the fence its writes carry; in a cluster it is
/// claimed for this node in the store first (no other node can open a table of that
/// id). Never the id of an asleep table.
pub async fn new_table_id(ctx: &Ctx) -> Result<(TableId, Option<Fence>), Refusal> {
    loop {
        let id = ctx.lobby.fresh_id();
        let Some(node) = ctx.node() else {
            // Not the id of an asleep table either (on a lone server only the store
            // knows those; in a cluster their owner rows keep their ids taken).
            match ctx
                .stores
                .games
                .asleep_at(std::slice::from_ref(&id.to_string()))
                .await
            {
                Ok(asleep) if !asleep.is_empty() => continue,
                Ok(_) => return Ok((id, None)),
                // A table may open while the store is down (its game cannot start
                // until it is back); one chance in millions to meet an asleep one.
                Err(e) => {
                    tracing::warn!("cannot check a table id against the asleep ones: {e}");
                    return Ok((id, None));
                }
            }
        };
        match ctx.stores.leases.claim_table(id.as_str(), &node.id).await {
            // A claimed table starts at incarnation 1.
            Ok(true) => {
                let fence = fence(ctx, id.as_str(), 1);
                return Ok((id, fence));
            }
            // Another node's table has that id.
            Ok(false) => continue,
            Err(e) => {
                tracing::warn!("cannot claim a table id: {e}");
                return Err(Refusal::StoreUnavailable);
            }
        }
    }
}

/// A table closed: in a cluster its id is let go in the store.
pub fn released(ctx: &Ctx, table: &TableId) {
    let Some(node) = ctx.node().cloned() else {
        return;
    };
    let (leases, table) = (ctx.stores.leases.clone(), table.to_string());
    tokio::spawn(async move {
        if let Err(e) = leases.release_table(&table, &node.id).await {
            // The row stays: once this node's lease ends another node finds no game
            // there and lets the id go.
            tracing::warn!(table, "cannot let go of a closed table: {e}");
        }
    });
}

/// Restores the tables `owners` (just taken over by this node): those with an
/// unfinished game are opened again, the others let go. How many were opened.
pub async fn adopt(ctx: &Ctx, owners: &[TableOwner]) -> StoreResult<usize> {
    if owners.is_empty() {
        return Ok(0);
    }
    // Those restored already (an earlier attempt that failed half-way) stay as they are.
    let tables: Vec<String> = owners
        .iter()
        .filter(|o| ctx.lobby.get(&o.table).is_none())
        .map(|o| o.table.clone())
        .collect();
    let games = ctx.stores.games.unfinished_games_at(&tables).await?;
    let opened = crate::restore_games(ctx, &games, owners).await?;
    // Asleep correspondence tables stay asleep, this node's now.
    let asleep = ctx.stores.games.asleep_at(&tables).await?;
    for owner in owners {
        if tables.contains(&owner.table)
            && !opened.contains(&owner.table)
            && !asleep.contains(&owner.table)
        {
            ctx.stores
                .leases
                .release_table(&owner.table, &owner.node)
                .await?;
            ctx.lobby.let_go(&owner.previous, &owner.table);
        }
    }
    Ok(opened.len())
}

/// Closes the tables this node runs but no longer owns: its lease ran out while it
/// could not renew it (a frozen process, or one cut off from the database) and another
/// node took them over. Their commits could not fork a game (the store refuses a second
/// action at a ply), but their players must go where the game is now.
async fn evict_lost(ctx: &Ctx, node: &Node) {
    // The list first: a table opened after it was made is claimed already, and not
    // looked at.
    let running = ctx.lobby.local_list();
    let owned = match ctx.stores.leases.tables_of(&node.id).await {
        Ok(owned) => owned,
        Err(e) => {
            tracing::warn!(node = node.id, "cannot check the tables' ownership: {e}");
            return;
        }
    };
    let owned: std::collections::HashSet<&str> = owned.iter().map(|o| o.table.as_str()).collect();
    for table in running {
        if !owned.contains(table.id.as_str())
            && let Some(handle) = ctx.lobby.get(&table.id)
        {
            handle.evict();
        }
    }
}

/// Renews this node's lease now; `Err` when the store does not answer.
pub async fn renew(ctx: &Ctx, node: &Node) -> StoreResult<()> {
    ctx.stores
        .leases
        .renew_node(&node.id, ctx.tables.epoch, LEASE.as_millis() as i64)
        .await
}

/// Renews the node's lease and takes over the tables of dead nodes, every [`RENEW`],
/// until the node is halted.
pub fn start(ctx: Ctx, node: Arc<Node>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(RENEW);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Tables taken over whose restoring failed (the store went away meanwhile):
        // this node owns them now, so it tries again.
        let mut unadopted: Vec<TableOwner> = Vec::new();
        let mut looks: u32 = 0;
        loop {
            tick.tick().await;
            if node.halted() {
                continue;
            }
            if let Err(e) = renew(&ctx, &node).await {
                tracing::warn!(node = node.id, "cannot renew the node's lease: {e}");
                node.renewed(false);
                continue;
            }
            node.renewed(true);
            looks += 1;
            if looks % CHECK_EVERY == 0 {
                evict_lost(&ctx, &node).await;
            }
            if node.settled() {
                match ctx
                    .stores
                    .leases
                    .take_over(&node.id, false, TAKE_AT_ONCE)
                    .await
                {
                    Ok(owners) => unadopted.extend(owners),
                    Err(e) => tracing::warn!(node = node.id, "cannot take tables over: {e}"),
                }
            }
            if unadopted.is_empty() {
                continue;
            }
            match adopt(&ctx, &unadopted).await {
                Ok(n) => {
                    tracing::info!(
                        node = node.id,
                        taken = unadopted.len(),
                        games = n,
                        "took over the tables of a node whose lease ran out"
                    );
                    unadopted.clear();
                }
                Err(e) => tracing::error!(node = node.id, "cannot restore tables taken over: {e}"),
            }
        }
    });
}
