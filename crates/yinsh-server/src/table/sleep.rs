//! Correspondence tables that nobody looks at hold no memory: they sleep.
//!
//! A correspondence table with nobody watching, nothing under way and no engine to
//! move is unloaded after [`crate::Config::sleep_after`] ("asleep"): its actor ends,
//! and the store notes when the game must be loaded again by itself — its next
//! deadline warning or its deadline ([`crate::game::store::GameStore::sleep`]). It is
//! loaded ("woken") when someone opens it or acts in it ([`find`]), and by the
//! [`start_sweep`] when that time comes. A loaded table is marked awake in the store
//! first, so a server that stops without unloading it loads it again when it starts.
//!
//! In a cluster an asleep table stays its node's: the store's owner row routes
//! requests there, and a node that takes over a dead node's tables keeps the asleep
//! ones asleep.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use super::{Conn, TableHandle};
use crate::Ctx;
use crate::account::store::Player;
use crate::game::store::BotAccounts;
use crate::protocol::Since;
use crate::refusal::Refusal;
use crate::table::core::{Reply, Request};

/// How long a correspondence table stays loaded with nobody at it, by default.
pub const SLEEP_AFTER: Duration = Duration::from_secs(60);
/// How often the store is asked for asleep games whose time to wake came.
pub const SWEEP_EVERY: Duration = Duration::from_secs(10);
/// Games woken by one sweep at most (the rest at the next).
const WAKE_AT_ONCE: u32 = 500;

/// The tables being loaded now: one lock each, so that two requests for one asleep
/// table load it once.
#[derive(Debug, Clone, Default)]
pub struct Waking(Arc<Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>>);

impl Waking {
    fn lock_for(&self, table: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, w| w.strong_count() > 0);
        if let Some(lock) = map.get(table).and_then(Weak::upgrade) {
            return lock;
        }
        let lock = Arc::new(tokio::sync::Mutex::new(()));
        map.insert(table.to_owned(), Arc::downgrade(&lock));
        lock
    }
}

/// The wall clock's time (milliseconds since 1970) at `at`.
pub(crate) fn wall_ms_of(at: tokio::time::Instant) -> i64 {
    let now = tokio::time::Instant::now();
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    if at >= now {
        crate::now_ms().saturating_add(ms(at - now))
    } else {
        crate::now_ms().saturating_sub(ms(now - at))
    }
}

/// The instant at the wall clock's time `ms` (milliseconds since 1970); `None` when it
/// is too far off to tell.
pub(crate) fn instant_of(ms: i64) -> Option<tokio::time::Instant> {
    let now = tokio::time::Instant::now();
    let diff = ms.checked_sub(crate::now_ms())?;
    let d = Duration::from_millis(diff.unsigned_abs());
    if diff >= 0 {
        now.checked_add(d)
    } else {
        now.checked_sub(d)
    }
}

/// The table `id` of this node, loaded from the store when it is asleep; `None` when
/// no table of that id runs here or sleeps here.
pub async fn find(ctx: &Ctx, id: &str) -> Result<Option<TableHandle>, Refusal> {
    if let Some(handle) = ctx.lobby.get(id) {
        return Ok(Some(handle));
    }
    // Another node's, as it says.
    if ctx.lobby.remote_owner(id).is_some() {
        return Ok(None);
    }
    wake(ctx, id).await
}

/// Opens table `id` for `conn` (see [`TableHandle::open`]), waking it if it sleeps:
/// the handle it was opened at.
pub async fn open(
    ctx: &Ctx,
    id: &str,
    conn: &Conn,
    since: Option<Since>,
) -> Result<TableHandle, Refusal> {
    let no_table = || Refusal::NoTable {
        table: id.to_owned(),
    };
    // Twice: a table that fell asleep as the request reached it dropped the request,
    // and is loaded again the second time.
    for _ in 0..2 {
        let handle = find(ctx, id).await?.ok_or_else(no_table)?;
        match handle.open(conn.clone(), since).await {
            Err(Refusal::NoTable { .. }) => continue,
            Err(e) => return Err(e),
            Ok(()) => return Ok(handle),
        }
    }
    Err(no_table())
}

/// `request` by `player` at table `id` (see [`TableHandle::request`]), waking it if
/// it sleeps.
pub async fn request(ctx: &Ctx, id: &str, player: &Player, request: Request) -> Reply {
    let no_table = || Refusal::NoTable {
        table: id.to_owned(),
    };
    let handle = find(ctx, id).await?.ok_or_else(no_table)?;
    match handle.request(player.clone(), request.clone()).await {
        // Fell asleep as the request reached it: loaded again.
        Err(Refusal::NoTable { .. }) => {
            let handle = find(ctx, id).await?.ok_or_else(no_table)?;
            handle.request(player.clone(), request).await
        }
        reply => reply,
    }
}

/// Loads the asleep (or otherwise unloaded) unfinished game at table `id`, if this
/// node may run it: in a cluster, only when the store names this node its owner.
async fn wake(ctx: &Ctx, id: &str) -> Result<Option<TableHandle>, Refusal> {
    let lock = ctx.tables.waking.lock_for(id);
    let _loading = lock.lock().await;
    // Loaded meanwhile by the request that held the lock.
    if let Some(handle) = ctx.lobby.get(id) {
        return Ok(Some(handle));
    }
    let unavailable = |e: crate::store::StoreError| {
        tracing::warn!(table = id, "cannot load an asleep table: {e}");
        Refusal::StoreUnavailable
    };
    let fence = match ctx.node() {
        None => None,
        Some(node) => match ctx.stores.leases.table_owner(id).await {
            Ok(Some(owner)) if owner.node == node.id => {
                crate::cluster::node::fence(ctx, id, owner.incarnation)
            }
            Ok(_) => return Ok(None),
            Err(e) => return Err(unavailable(e)),
        },
    };
    let games = &ctx.stores.games;
    let Some(stored) = games.unfinished_game_at(id).await.map_err(unavailable)? else {
        return Ok(None);
    };
    // Awake in the store before it is loaded: a server that stops now loads it again
    // when it starts.
    games
        .sleep(stored.id, None, fence.as_ref())
        .await
        .map_err(unavailable)?;
    let bots = BotAccounts::of(ctx.stores.accounts.as_ref(), std::iter::once(&stored.game))
        .await
        .map_err(unavailable)?;
    match super::restore(ctx.clone(), &stored, &bots, fence) {
        Ok((handle, summary)) => {
            tracing::debug!(table = id, "woke an asleep table");
            ctx.metrics.table_woken();
            ctx.lobby.insert(handle.clone(), summary, None);
            Ok(Some(handle))
        }
        Err(e) => {
            tracing::error!(table = id, game = %stored.id, "cannot restore game: {e}");
            Ok(None)
        }
    }
}

/// Every [`SWEEP_EVERY`], wakes the asleep games of this node whose deadline or
/// deadline warning is due (their table then decides: a loss on time, a warning),
/// until aborted.
pub fn start_sweep(ctx: Ctx) -> tokio::task::AbortHandle {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if ctx.node().is_some_and(|n| n.halted()) {
                continue;
            }
            sweep(&ctx).await;
        }
    })
    .abort_handle()
}

/// One sweep: how many tables it woke.
pub async fn sweep(ctx: &Ctx) -> usize {
    let due = match ctx
        .stores
        .games
        .due_to_wake(crate::now_ms(), WAKE_AT_ONCE)
        .await
    {
        Ok(due) => due,
        Err(e) => {
            tracing::warn!("cannot look for asleep games to wake: {e}");
            return 0;
        }
    };
    let mut woken = 0;
    for table in due {
        if ctx.lobby.get(&table).is_some() {
            continue;
        }
        // Another node's are that node's to wake.
        if let Ok(Some(_)) = wake(ctx, &table).await {
            woken += 1;
        }
    }
    woken
}
