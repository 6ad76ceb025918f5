//! One WebSocket connection: reads requests, answers them, and forwards the events of
//! the tables and the lobby it watches.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Notify, broadcast, mpsc};
use tokio::time::Instant;

use crate::account::store::Player;
use crate::i18n::{Lang, Msg};
use crate::protocol::{ClientMessage, Request, ServerMessage};
use crate::refusal::Refusal;
use crate::table::{self, Conn, Request as TableRequest, TableHandle, to_text};
use crate::{Config, Ctx};

/// Open tables one player may have created (a table closes when left empty).
const TABLES_PER_PLAYER: usize = 5;
/// The shortest time between two whole lobby lists for one connection.
const LOBBY_AGAIN: Duration = Duration::from_secs(2);
/// Analyses one connection follows at once (more forget the earlier ones).
const WATCHED: usize = 16;
/// Refused messages in a row (over the rate limit) before the connection is closed.
const STRIKES: u32 = 100;

/// A token bucket: `burst` messages at once, refilled at `rate` a second.
struct RateLimit {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl RateLimit {
    fn new(rate: u32, burst: u32) -> RateLimit {
        RateLimit {
            tokens: f64::from(burst),
            rate: f64::from(rate),
            burst: f64::from(burst),
            at: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

struct Connection {
    ctx: Ctx,
    config: Config,
    conn: Conn,
    lang: Lang,
    opened: HashMap<String, TableHandle>,
    lobby: Option<broadcast::Receiver<Arc<str>>>,
    /// Analysis progress, once the connection watches a game's analysis.
    analysis: Option<broadcast::Receiver<(i64, Arc<str>)>>,
    /// The games whose analysis it watches.
    watched: std::collections::HashSet<i64>,
    /// The engine's search for the analysis board, while it runs.
    live: Option<crate::analysis::live::Search>,
    /// When the whole lobby list was last sent.
    lobby_sent: Option<Instant>,
    limit: RateLimit,
    strikes: u32,
    /// Whether requests for another node's table go there (a client's connection in a
    /// cluster); a relay of another node's connection handles everything here.
    routed: bool,
}

/// Serves one upgraded socket until it closes, in a span of its own (`conn`: its id
/// and player) that everything done for it is logged in.
/// `session` is the hash of the session's token: a rotation closes the connection.
pub async fn serve(
    ctx: Ctx,
    config: Config,
    socket: WebSocket,
    player: Player,
    lang: Lang,
    session: String,
) {
    use tracing::Instrument;
    let id = table::next_conn_id();
    let span = tracing::info_span!("conn", conn = id, player = player.id.0, name = %player.name);
    let _open = ctx.metrics.connection();
    async move {
        tracing::debug!("connected");
        serve_socket(ctx, config, socket, player, lang, session, id).await;
        tracing::debug!("disconnected");
    }
    .instrument(span)
    .await
}

async fn serve_socket(
    ctx: Ctx,
    config: Config,
    socket: WebSocket,
    player: Player,
    lang: Lang,
    session: String,
    id: u64,
) {
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(config.outbox.max(1));
    let kick = Arc::new(Notify::new());
    let (mut sink, mut stream) = socket.split();
    let (send_timeout, ping_every) = (config.send_timeout, config.ping_every);
    let mut writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
        loop {
            let first = tokio::select! {
                text = rx.recv() => match text {
                    Some(text) => Message::Text((*text).into()),
                    None => break,
                },
                // Keeps idle connections alive through proxies, and makes clients
                // that vanished without closing show themselves (no pong).
                _ = ping.tick() => Message::Ping(Default::default()),
            };
            // Everything already queued goes out with one flush.
            let burst = async {
                sink.feed(first).await?;
                while let Ok(more) = rx.try_recv() {
                    sink.feed(Message::Text((*more).into())).await?;
                }
                sink.flush().await
            };
            if !matches!(tokio::time::timeout(send_timeout, burst).await, Ok(Ok(()))) {
                // A client that does not read: cut off, nobody else waits for it.
                return;
            }
        }
        let _ = sink.close().await;
    });
    let conn = Conn {
        id,
        player: player.clone(),
        tx,
        kick: kick.clone(),
    };
    let mut c = Connection::new(ctx, config, conn, lang, true);
    c.ctx.sessions.add(&session, c.conn.id, kick.clone());
    c.ctx.online.add(&c.conn);
    c.send(&ServerMessage::Welcome {
        player: crate::account::session::view_of(&player),
        lang: lang.code().to_owned(),
        server: env!("CARGO_PKG_VERSION").to_owned(),
        node: c.ctx.node.as_ref().map(|n| n.id.clone()),
    });
    // The challenges that stand, to or from this player.
    for challenge in c.ctx.meet.challenges_of(player.id) {
        c.send(&ServerMessage::Challenge { challenge });
    }
    let mut writer_done = false;
    // A client silent for longer than this (not even answering pings) is gone.
    let idle = c.config.idle_timeout;
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            frame = stream.next() => {
                let Some(Ok(message)) = frame else { break };
                heard = Instant::now();
                match message {
                    Message::Text(text) => {
                        if !c.message(text.as_str()).await {
                            break;
                        }
                    }
                    Message::Binary(_) => match c.refused_by_limit(|| None) {
                        Some(false) => break,
                        Some(true) => {}
                        None => c.error(
                            None,
                            None,
                            Refusal::BadMessage {
                                reason: "binary frames are not used; send JSON text".to_owned(),
                            },
                        ),
                    },
                    // Answered by the WebSocket layer, but counted: a ping flood is a flood.
                    Message::Ping(_) => {
                        if c.refused_by_limit(|| None) == Some(false) {
                            break;
                        }
                    }
                    Message::Pong(_) => {}
                    Message::Close(_) => break,
                }
            }
            _ = tokio::time::sleep_until(heard + idle) => break,
            update = recv_lobby(&mut c.lobby) => match update {
                Ok(text) => { c.conn.send(text); }
                Err(broadcast::error::RecvError::Lagged(_)) => c.send_lobby(),
                Err(broadcast::error::RecvError::Closed) => c.lobby = None,
            },
            update = recv_analysis(&mut c.analysis) => match update {
                Ok((game, text)) if c.watched.contains(&game) => { c.conn.send(text); }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => c.analysis = None,
            },
            _ = kick.notified() => break,
            _ = &mut writer => {
                writer_done = true;
                break;
            }
        }
    }
    c.ctx.sessions.remove(&session, c.conn.id);
    // The player's last connection anywhere (in a cluster, at no other node either).
    let last = c.ctx.online.remove(c.conn.player.id, c.conn.id)
        && !c.ctx.online.is_online_elsewhere(c.conn.player.id);
    c.ctx.meet.closed(&c.ctx, &c.conn.player, c.conn.id, last);
    for handle in c.opened.values() {
        handle.forget(c.conn.id);
    }
    if let Some(router) = &c.ctx.router {
        router.closed(c.conn.id, last);
    }
    drop(c);
    // Let the writer flush what is queued (it ends when the outbox closes), unless
    // it is stuck on a client that does not read.
    if !writer_done {
        let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    }
}

/// Handles, one after the other, the client messages another node of the cluster
/// forwards for its connection `conn` (a relay: [`crate::cluster::route`]): as a
/// connection of this node would, with what it sends going to `conn`'s outbox. Ends
/// when the other node lets go of it; then the tables it opened let go too.
pub(crate) async fn relay(
    ctx: Ctx,
    config: Config,
    conn: Conn,
    lang: Lang,
    rx: mpsc::UnboundedReceiver<crate::cluster::route::RelayInput>,
) {
    use tracing::Instrument;
    let span = tracing::info_span!(
        "relay",
        conn = conn.id,
        player = conn.player.id.0,
        name = %conn.player.name
    );
    relay_requests(ctx, config, conn, lang, rx)
        .instrument(span)
        .await
}

async fn relay_requests(
    ctx: Ctx,
    config: Config,
    conn: Conn,
    lang: Lang,
    mut rx: mpsc::UnboundedReceiver<crate::cluster::route::RelayInput>,
) {
    use crate::cluster::route::RelayInput;
    let mut c = Connection::new(ctx, config, conn, lang, false);
    // Dropped without a word (messages lost, or its node died): its player's last
    // connection unless they are online still.
    let mut last = None;
    while let Some(input) = rx.recv().await {
        match input {
            RelayInput::Message(lang, text) => {
                c.lang = lang;
                if !c.message(&text).await {
                    c.conn.kick.notify_one();
                    break;
                }
            }
            RelayInput::Closed { last: l } => {
                last = Some(l);
                break;
            }
        }
    }
    let last = last.unwrap_or_else(|| !c.ctx.online.is_online(c.conn.player.id));
    c.ctx.meet.closed(&c.ctx, &c.conn.player, c.conn.id, last);
    for handle in c.opened.values() {
        handle.forget(c.conn.id);
    }
}

async fn recv_lobby(
    rx: &mut Option<broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, broadcast::error::RecvError> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn recv_analysis(
    rx: &mut Option<broadcast::Receiver<(i64, Arc<str>)>>,
) -> Result<(i64, Arc<str>), broadcast::error::RecvError> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The `id` of a message that could not be read, if it has one.
fn id_of(text: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()?
        .get("id")?
        .as_u64()
}

/// Reads a client message; or, for `bad_message`, its `id` (when it has one) and why
/// it cannot be read.
///
/// serde takes an integer as a tag the index of a variant (`{"type":8}` would be a
/// `ping`, `"command":0` a `join`), and an array as a struct or tagged enum whose first
/// element is the tag (`"change":[0,false]` would be `log off`): the tags `type`,
/// `command` and `option` are checked to be strings, and `change` an object, before
/// serde reads the message. Other faults keep serde's own reason, with its position.
fn parse(text: &str) -> Result<ClientMessage, (Option<u64>, String)> {
    let value = serde_json::from_str::<serde_json::Value>(text).ok();
    let id = || value.as_ref()?.get("id")?.as_u64();
    if let Some(reason) = value.as_ref().and_then(untagged) {
        return Err((id(), reason));
    }
    serde_json::from_str(text).map_err(|e| (id(), e.to_string()))
}

/// Why the tags of a message (as JSON) cannot be read, if they cannot: a `type`, a
/// `command` (of a `command` request) or an `option` (of an `option` command's
/// `change`) that is there but not a string, or a `change` that is not an object.
fn untagged(message: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    fn kind(v: &Value) -> &'static str {
        match v {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
    let not_a_string =
        |field: &str, v: &Value| format!("`{field}` must be a string, not {}", kind(v));
    let tag = |object: &Value, field: &str| -> Result<Option<String>, String> {
        match object.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(not_a_string(field, v)),
        }
    };
    let check = || -> Result<(), String> {
        if tag(message, "type")?.as_deref() != Some("command") {
            return Ok(());
        }
        if tag(message, "command")?.as_deref() != Some("option") {
            return Ok(());
        }
        match message.get("change") {
            None => Ok(()),
            Some(change @ Value::Object(_)) => tag(change, "option").map(drop),
            Some(v) => Err(format!("`change` must be an object, not {}", kind(v))),
        }
    };
    check().err()
}

impl Connection {
    /// A connection of `conn` speaking `lang`; `routed` when its requests for other
    /// nodes' tables go there.
    fn new(ctx: Ctx, config: Config, conn: Conn, lang: Lang, routed: bool) -> Connection {
        Connection {
            limit: RateLimit::new(config.rate_per_sec, config.rate_burst),
            ctx,
            config,
            conn,
            lang,
            opened: HashMap::new(),
            lobby: None,
            analysis: None,
            watched: std::collections::HashSet::new(),
            live: None,
            lobby_sent: None,
            strikes: 0,
            routed,
        }
    }

    fn send(&self, msg: &ServerMessage) {
        self.conn.send(to_text(msg));
    }

    fn reply(&self, id: Option<u64>, table: Option<String>, msg: Msg) {
        self.send(&ServerMessage::Reply {
            id,
            table,
            key: msg.key.to_owned(),
            text: msg.render(self.lang),
        });
    }

    fn error(&self, id: Option<u64>, table: Option<String>, refusal: Refusal) {
        self.send(&ServerMessage::Error {
            id,
            table,
            code: refusal.code().to_owned(),
            text: refusal.render(self.lang),
        });
    }

    fn send_lobby(&self) {
        self.send(&ServerMessage::Lobby {
            tables: self.ctx.lobby.list(),
            seeks: self.ctx.lobby.seeks(),
        });
    }

    /// `None` when a message is within the rate limit; otherwise it is refused, and
    /// `Some(false)` says the connection must close (too many refused in a row).
    /// `id` gives the refused message's id (only looked for when it is refused).
    fn refused_by_limit(&mut self, id: impl FnOnce() -> Option<u64>) -> Option<bool> {
        if self.limit.allow() {
            self.strikes = 0;
            return None;
        }
        self.strikes += 1;
        self.error(id(), None, Refusal::RateLimited);
        Some(self.strikes < STRIKES)
    }

    /// Handles one text message; `false` to close the connection.
    async fn message(&mut self, text: &str) -> bool {
        if let Some(keep) = self.refused_by_limit(|| id_of(text)) {
            return keep;
        }
        if text.len() > self.config.max_message {
            self.error(
                None,
                None,
                Refusal::TooLarge {
                    limit: self.config.max_message,
                },
            );
            return true;
        }
        let mut msg = match parse(text) {
            Ok(m) => m,
            Err((id, reason)) => {
                self.error(id, None, Refusal::BadMessage { reason });
                return true;
            }
        };
        let rewritten;
        let text = match self.cluster_challenge(&msg.request) {
            None => text,
            Some(Ok(request)) => {
                msg.request = request;
                rewritten = serde_json::to_string(&msg).expect("requests always serialise");
                rewritten.as_str()
            }
            Some(Err((table, e))) => {
                self.error(msg.id, table, e);
                return true;
            }
        };
        if let Some((node, table, closing)) = self.elsewhere(&msg.request).await
            && let Some(router) = &self.ctx.router
        {
            router.forward(
                &self.conn,
                self.lang,
                &node,
                table.as_deref(),
                closing,
                text,
            );
            return true;
        }
        let id = msg.id;
        match self.request(id, msg.request).await {
            Ok(()) => {}
            Err((table, e)) => self.error(id, table, e),
        }
        true
    }

    /// In a cluster, a `/challenge` line typed at a table, as the challenge it reads as
    /// (the table's options with what the line says), which goes where the cluster's
    /// challenges are held like any other; a refusal when it does not read. `None` for
    /// everything else, and on a lone server (the table handles the line).
    fn cluster_challenge(
        &self,
        request: &Request,
    ) -> Option<Result<Request, (Option<String>, Refusal)>> {
        if !self.routed || self.ctx.router.is_none() {
            return None;
        }
        let Request::Chat { table, text } = request else {
            return None;
        };
        if !crate::table::command::is_challenge(text) {
            return None;
        }
        let refused = |r| (Some(table.clone()), r);
        let Some(summary) = self.ctx.lobby.summary_anywhere(table) else {
            return Some(Err(refused(Refusal::NoTable {
                table: table.clone(),
            })));
        };
        Some(
            crate::table::command::challenge(text, &summary.options)
                .map(|line| Request::Challenge {
                    to: Some(line.to),
                    options: line.options,
                    color: line.color,
                })
                .map_err(refused),
        )
    }

    /// For a request that another node of the cluster handles: that node, the table
    /// (which it owns) and whether the request closes it, or no table for seeks and
    /// challenges (which one node holds for the cluster). `None` for everything
    /// handled here.
    async fn elsewhere(&self, request: &Request) -> Option<(String, Option<String>, bool)> {
        if !self.routed {
            return None;
        }
        let router = self.ctx.router.as_ref()?;
        let (table, closing) = match request {
            Request::Open { table, .. }
            | Request::Chat { table, .. }
            | Request::Say { table, .. }
            | Request::Command { table, .. }
            | Request::Act { table, .. } => (table, false),
            Request::Close { table } => (table, true),
            _ => {
                let node = router
                    .meeting_place(&self.ctx, self.conn.player.id, request)
                    .await?;
                return (node != router.node()).then_some((node, None, false));
            }
        };
        if self.opened.contains_key(table) || self.ctx.lobby.get(table).is_some() {
            return None;
        }
        let node = match self.ctx.lobby.remote_owner(table) {
            Some(node) => node,
            // Not listed here (yet): the store knows every table's owner.
            None => self.ctx.stores.leases.table_owner(table).await.ok()??.node,
        };
        (node != router.node()).then(|| (node, Some(table.clone()), closing))
    }

    async fn request(
        &mut self,
        id: Option<u64>,
        request: Request,
    ) -> Result<(), (Option<String>, Refusal)> {
        let at_table =
            |table: &str, this: &Connection| -> Result<TableHandle, (Option<String>, Refusal)> {
                let named = table.to_owned();
                match this.opened.get(table) {
                    Some(h) => Ok(h.clone()),
                    None if this.ctx.lobby.get(table).is_some() => {
                        Err((Some(named.clone()), Refusal::NotOpen { table: named }))
                    }
                    None => Err((Some(named.clone()), Refusal::NoTable { table: named })),
                }
            };
        let (table, request) = match request {
            Request::Hello { lang } => {
                return match Lang::from_code(&lang) {
                    Some(l) => {
                        self.lang = l;
                        self.reply(id, None, Msg::new("lang_set"));
                        Ok(())
                    }
                    None => Err((
                        None,
                        Refusal::BadMessage {
                            reason: format!("unknown language '{lang}'"),
                        },
                    )),
                };
            }
            Request::Lobby => {
                // The whole list can be long: a subscribed connection gets it again at
                // most every few seconds (the live feed keeps it current meanwhile).
                let now = Instant::now();
                if self.lobby.is_some()
                    && self
                        .lobby_sent
                        .is_some_and(|at| now.duration_since(at) < LOBBY_AGAIN)
                {
                    return Err((None, Refusal::RateLimited));
                }
                if self.lobby.is_none() {
                    self.lobby = Some(self.ctx.lobby.subscribe());
                }
                self.lobby_sent = Some(now);
                self.send_lobby();
                return Ok(());
            }
            Request::Ping => {
                self.send(&ServerMessage::Pong { id });
                return Ok(());
            }
            Request::CreateTable { options } => {
                let options = table::settle_options(options).map_err(|e| (None, e))?;
                if self.ctx.lobby.created_by(self.conn.player.id) >= TABLES_PER_PLAYER {
                    let refusal = Refusal::TooManyOwnTables {
                        limit: TABLES_PER_PLAYER,
                    };
                    return Err((None, refusal));
                }
                if !self.ctx.lobby.has_room() {
                    return Err((None, Refusal::TooManyTables));
                }
                let (tid, fence) = crate::cluster::node::new_table_id(&self.ctx)
                    .await
                    .map_err(|e| (None, e))?;
                let (handle, summary) = table::spawn(self.ctx.clone(), tid.clone(), options, fence);
                self.ctx
                    .lobby
                    .insert(handle, summary, Some(self.conn.player.id));
                self.reply(
                    id,
                    Some(tid.to_string()),
                    Msg::new("created").arg("table", &tid),
                );
                return Ok(());
            }
            Request::Open { table, since } => {
                let handle = self.ctx.lobby.get(&table).ok_or_else(|| {
                    let named = table.clone();
                    (Some(table.clone()), Refusal::NoTable { table: named })
                })?;
                // Opening again (a resync) replaces the subscription in the actor.
                handle
                    .open(self.conn.clone(), since)
                    .await
                    .map_err(|e| (Some(table.clone()), e))?;
                self.opened.insert(table.clone(), handle);
                self.reply(
                    id,
                    Some(table.clone()),
                    Msg::new("opened").arg("table", &table),
                );
                return Ok(());
            }
            Request::Close { table } => {
                let handle = self.opened.remove(&table).ok_or_else(|| {
                    let named = table.clone();
                    (Some(table.clone()), Refusal::NotOpen { table: named })
                })?;
                // Once the table has let go of this connection: no event of it after
                // the reply.
                handle.close(self.conn.id).await;
                self.reply(
                    id,
                    Some(table.clone()),
                    Msg::new("closed").arg("table", &table),
                );
                return Ok(());
            }
            Request::WatchAnalysis { game } => {
                let job = self
                    .ctx
                    .stores
                    .analyses
                    .analysis_job(crate::vocab::GameId(game))
                    .await
                    .map_err(|_| (None, Refusal::StoreUnavailable))?;
                if self.analysis.is_none() {
                    self.analysis = Some(self.ctx.analysis.events.subscribe());
                }
                // A page follows one analysis at a time, a few tabs' worth at most.
                if self.watched.len() >= WATCHED {
                    self.watched.clear();
                }
                self.watched.insert(game);
                if let Some(job) = job {
                    self.send(&ServerMessage::Analysis {
                        state: crate::analysis::state_view(&job, None),
                    });
                }
                self.reply(id, None, Msg::new("watching_analysis"));
                return Ok(());
            }
            Request::Analyse { position } => {
                if !self.ctx.live.enabled() {
                    return Err((None, Refusal::BotsDisabled));
                }
                let start = yinsh::Position::from_fen(position.trim())
                    .map_err(|_| (None, Refusal::BadPosition))?;
                // The search before ends as this one begins; the reply says the engine
                // is busy only when other connections' searches hold every slot.
                let own_slot = self.live.as_ref().is_some_and(|s| s.running());
                let waits = self.ctx.live.busy() && !own_slot;
                self.live = None;
                self.live = Some(self.ctx.live.start(&self.conn, start, position, id));
                let key = if waits {
                    "analysis_queued"
                } else {
                    "analysing"
                };
                self.reply(id, None, Msg::new(key));
                return Ok(());
            }
            Request::StopAnalyse => {
                self.live = None;
                self.reply(id, None, Msg::new("analysis_stopped"));
                return Ok(());
            }
            Request::Chat { table, text } if crate::table::command::is_challenge(&text) => {
                at_table(&table, self)?;
                let refused = |r| (Some(table.clone()), r);
                let options = self.ctx.lobby.summary(&table).map(|s| s.options);
                let options = options.ok_or_else(|| {
                    refused(Refusal::NoTable {
                        table: table.clone(),
                    })
                })?;
                let line = crate::table::command::challenge(&text, &options).map_err(refused)?;
                let msg = self
                    .ctx
                    .meet
                    .challenge(
                        &self.ctx,
                        &self.conn,
                        Some(&line.to),
                        &line.options,
                        line.color,
                    )
                    .map(|(msg, _)| msg)
                    .map_err(refused)?;
                self.reply(id, Some(table), msg);
                return Ok(());
            }
            Request::Chat { table, text } => (table, TableRequest::Chat(text)),
            Request::Say { table, text } => (table, TableRequest::Say(text)),
            Request::Seek { options, bots } => {
                let msg = self
                    .ctx
                    .meet
                    .seek(&self.ctx, &self.conn, &options, bots)
                    .await
                    .map_err(|r| (None, r))?;
                self.reply(id, None, msg);
                return Ok(());
            }
            Request::CancelSeek => {
                let msg = self
                    .ctx
                    .meet
                    .cancel_seek(&self.ctx, &self.conn.player)
                    .map_err(|r| (None, r))?;
                self.reply(id, None, msg);
                return Ok(());
            }
            Request::AcceptSeek { seek } => {
                let msg = self
                    .ctx
                    .meet
                    .accept_seek(&self.ctx, &self.conn, &seek)
                    .await
                    .map_err(|r| (None, r))?;
                self.reply(id, None, msg);
                return Ok(());
            }
            Request::Challenge { to, options, color } => {
                let msg = self
                    .ctx
                    .meet
                    .challenge(&self.ctx, &self.conn, to.as_deref(), &options, color)
                    .map(|(msg, _)| msg)
                    .map_err(|r| (None, r))?;
                self.reply(id, None, msg);
                return Ok(());
            }
            Request::AcceptChallenge { challenge } => {
                let msg = self
                    .ctx
                    .meet
                    .accept_challenge(&self.ctx, &self.conn.player, &challenge)
                    .await
                    .map_err(|r| (None, r))?;
                self.reply(id, None, msg);
                return Ok(());
            }
            Request::DeclineChallenge { challenge } => {
                let msg = self
                    .ctx
                    .meet
                    .decline_challenge(&self.ctx, &self.conn.player, &challenge)
                    .map_err(|r| (None, r))?;
                self.reply(id, None, msg);
                return Ok(());
            }
            Request::CancelChallenge { challenge } => {
                let msg = self
                    .ctx
                    .meet
                    .cancel_challenge(&self.ctx, &self.conn.player, &challenge)
                    .map_err(|r| (None, r))?;
                self.reply(id, None, msg);
                return Ok(());
            }
            Request::Command { table, command } => (table, TableRequest::Command(command)),
            Request::Act { table, action, ply } => {
                (table, TableRequest::Act { token: action, ply })
            }
        };
        let handle = at_table(&table, self)?;
        // The round trip of an action inside the server: to its table, stored, back.
        let acting = matches!(request, TableRequest::Act { .. });
        let started = std::time::Instant::now();
        let answer = handle.request(self.conn.player.clone(), request).await;
        if acting {
            self.ctx.metrics.action_answered(started.elapsed());
        }
        match answer {
            Ok(msg) => {
                self.reply(id, Some(table), msg);
                Ok(())
            }
            Err(e) => Err((Some(table), e)),
        }
    }
}
