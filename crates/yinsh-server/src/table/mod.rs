//! A table: two seats, spectators, a chat, options and a game.
//!
//! The decisions are in [`core`], a state machine with no I/O; one actor task per
//! table (`actor.rs`) feeds it, commits what it says must be stored, and only then
//! announces the resulting events (with a version) to everyone watching
//! (`watchers.rs`); engine seats think in `bot.rs`. Every input reaches the actor
//! through the table's [`TableHandle`].

mod actor;
mod bot;
pub mod chat;
pub mod command;
pub mod core;
pub mod protocol;
pub mod sleep;
mod tell;
mod watchers;
pub(crate) mod ws;

use std::sync::Arc;

use tokio::sync::{Notify, mpsc, oneshot};

use self::actor::Input;
use self::core::{Core, Now, Reply};
pub use self::core::{Request, settle_options, validate_options};
pub use self::watchers::{BACKLOG_BYTES, BACKLOG_EVENTS};
use crate::Ctx;
use crate::account::store::Player;
use crate::cluster::store::Fence;
use crate::game::store::BotAccounts;
use crate::game::store::StoredGame;
use crate::protocol::{ServerMessage, Since, TableOptions, TableSummary};
use crate::refusal::Refusal;
use crate::vocab::TableId;

/// What every live table runs with.
#[derive(Clone)]
pub struct Services {
    /// Whether the store is known to be down (shared by the tables).
    pub outage: crate::store::Outage,
    /// This run of the server: resumes with a version of another epoch get a
    /// snapshot. Unique per run, also among the nodes of a cluster (a table that moves
    /// to another node changes epoch): [`crate::epoch`].
    pub epoch: u64,
    /// Engines for bot seats.
    pub bots: Option<crate::BotFactory>,
    /// Engine searches that may run at once (one per core): more engine games wait
    /// their turn instead of starving the server.
    pub engine_slots: Arc<tokio::sync::Semaphore>,
    /// How long a correspondence table stays loaded with nobody at it
    /// ([`crate::Config::sleep_after`]).
    pub sleep_after: std::time::Duration,
    /// The asleep tables being loaded now, one load each.
    pub waking: sleep::Waking,
}

static NEXT_CONN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A fresh connection id: WebSocket connections and the bot API's streams draw from
/// one sequence, so that no two connections share one.
pub fn next_conn_id() -> u64 {
    NEXT_CONN.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A client connection as tables see it: where to send, and how to cut it off.
#[derive(Debug, Clone)]
pub struct Conn {
    /// Unique per connection.
    pub id: u64,
    /// Who is connected.
    pub player: Player,
    /// The connection's outbox (serialised messages).
    pub tx: mpsc::Sender<Arc<str>>,
    /// Notified when the connection must be closed (it does not keep up).
    pub kick: Arc<Notify>,
}

impl Conn {
    /// Queues `text`; `false` when the outbox is full or gone (the connection is then
    /// told to close: it does not read fast enough).
    pub fn send(&self, text: Arc<str>) -> bool {
        match self.tx.try_send(text) {
            Ok(()) => true,
            Err(_) => {
                self.kick.notify_one();
                false
            }
        }
    }
}

/// The way to a table's actor. Cheap to clone.
#[derive(Debug, Clone)]
pub struct TableHandle {
    /// The table id.
    pub id: TableId,
    tx: mpsc::Sender<Input>,
}

impl TableHandle {
    /// Watches the table: the snapshot (or missed events) goes to `conn`, then every
    /// event. Fails when the table has closed.
    pub async fn open(&self, conn: Conn, since: Option<Since>) -> Result<(), Refusal> {
        let (done, wait) = oneshot::channel();
        self.send(Input::Open { conn, since, done })?;
        wait.await.map_err(|_| self.gone())
    }

    /// Stops watching, and returns once the table will send `conn` nothing more (at
    /// once when the table has closed).
    pub async fn close(&self, conn: u64) {
        let (done, wait) = oneshot::channel();
        if self
            .tx
            .send(Input::Close {
                conn,
                done: Some(done),
            })
            .await
            .is_ok()
        {
            let _ = wait.await;
        }
    }

    /// Stops watching without waiting (a connection that ended).
    pub fn forget(&self, conn: u64) {
        let tx = self.tx.clone();
        // Never lost to a full queue: wait for room in the background.
        tokio::spawn(async move {
            let _ = tx.send(Input::Close { conn, done: None }).await;
        });
    }

    /// A request by `player`: the reply or the reason it was refused.
    pub async fn request(&self, player: Player, request: Request) -> Reply {
        let (reply, wait) = oneshot::channel();
        self.send(Input::Request {
            player,
            request,
            reply,
        })?;
        wait.await.map_err(|_| self.gone())?
    }

    /// Seats `white` and `black` at this new table and starts their game (see
    /// [`Core::start_paired`]): `started` once it is stored.
    pub async fn pair(&self, white: Player, black: Player) -> Reply {
        let (reply, wait) = oneshot::channel();
        self.send(Input::Pair {
            white,
            black,
            reply,
        })?;
        wait.await.map_err(|_| self.gone())?
    }

    /// Closes the table here, without a word to the store, because another node of the
    /// cluster owns it now; its watchers are cut off (they reconnect and find it there).
    pub fn evict(&self) {
        let tx = self.tx.clone();
        // Never lost to a full queue: wait for room in the background.
        tokio::spawn(async move {
            let _ = tx.send(Input::Evict).await;
        });
    }

    fn send(&self, input: Input) -> Result<(), Refusal> {
        self.tx.try_send(input).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => Refusal::Busy,
            mpsc::error::TrySendError::Closed(_) => self.gone(),
        })
    }

    fn gone(&self) -> Refusal {
        Refusal::NoTable {
            table: self.id.to_string(),
        }
    }
}

/// Starts a new table's actor; in a cluster its writes carry `fence`
/// ([`crate::cluster::node::new_table_id`]).
pub fn spawn(
    ctx: Ctx,
    id: TableId,
    options: TableOptions,
    fence: Option<Fence>,
) -> (TableHandle, TableSummary) {
    let core = Core::new(id, options, ctx.tables.bots.is_some(), Now::present());
    actor::start(ctx, core, fence, None)
}

/// Restores the table of an unfinished stored game (see [`Core::restore`]); the
/// accounts of `bot_accounts` are bots; in a cluster its writes carry `fence`.
pub fn restore(
    ctx: Ctx,
    stored: &StoredGame,
    bot_accounts: &BotAccounts,
    fence: Option<Fence>,
) -> Result<(TableHandle, TableSummary), String> {
    let core = Core::restore(
        stored,
        ctx.tables.bots.is_some(),
        bot_accounts,
        Now::present(),
    )?;
    let slept_until = stored.wake_at.and_then(sleep::instant_of);
    Ok(actor::start(ctx, core, fence, slept_until))
}

/// A message as sent on the wire.
pub fn to_text(msg: &ServerMessage) -> Arc<str> {
    serde_json::to_string(msg)
        .expect("protocol messages always serialise")
        .into()
}
