//! One WebSocket connection: reads requests, answers them, and forwards the events of
//! the tables and the lobby it watches.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Notify, broadcast, mpsc};
use tokio::time::Instant;

use crate::account::store::Player;
use crate::analysis::ws::{AnalysisRequest, Following};
use crate::i18n::{Lang, Msg};
use crate::meet::ws::MeetRequest;
use crate::protocol::{Request, ServerMessage};
use crate::refusal::Refusal;
use crate::table::ws::{Opened, TableRequest};
use crate::table::{self, Conn, to_text};
use crate::{Config, Ctx};

mod parse;

use parse::{RateLimit, id_of, parse};

/// The shortest time between two whole lobby lists for one connection.
const LOBBY_AGAIN: Duration = Duration::from_secs(2);
/// Refused messages in a row (over the rate limit) before the connection is closed.
const STRIKES: u32 = 100;

struct Connection {
    ctx: Ctx,
    config: Config,
    conn: Conn,
    lang: Lang,
    /// The tables it has open.
    tables: Opened,
    lobby: Option<broadcast::Receiver<Arc<str>>>,
    /// The analyses it follows.
    analysis: Following,
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
        node: c.ctx.node().map(|n| n.id.clone()),
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
            text = c.analysis.next() => { c.conn.send(text); }
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
    c.tables.forget(c.conn.id);
    if let Some(router) = c.ctx.router() {
        router.closed(c.conn.id, last);
    }
    drop(c);
    // Let the writer flush what is queued (it ends when the outbox closes), unless
    // it is stuck on a client that does not read.
    if !writer_done {
        let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    }
}

/// What a relay of another node's connection is given ([`crate::cluster::route`]).
pub(crate) enum RelayInput {
    /// A client message, in the language it was sent in.
    Message(Lang, String),
    /// The connection closed; `last` when it was its player's last anywhere.
    Closed { last: bool },
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
    rx: mpsc::UnboundedReceiver<RelayInput>,
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
    mut rx: mpsc::UnboundedReceiver<RelayInput>,
) {
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
    c.tables.forget(c.conn.id);
}

async fn recv_lobby(
    rx: &mut Option<broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, broadcast::error::RecvError> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
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
            tables: Opened::default(),
            lobby: None,
            analysis: Following::default(),
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
            code: refusal.code(),
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
            && let Some(router) = self.ctx.router()
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
        if !self.routed || self.ctx.router().is_none() {
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
        let router = self.ctx.router()?;
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
        if self.tables.contains(table) {
            return None;
        }
        let node = router.table_node(&self.ctx, table).await.ok()??;
        (node != router.node()).then(|| (node, Some(table.clone()), closing))
    }

    /// Handles one request: the connection's own here, the others by their domain.
    async fn request(
        &mut self,
        id: Option<u64>,
        request: Request,
    ) -> Result<(), (Option<String>, Refusal)> {
        let (table, msg) = match route(request) {
            Routed::Connection(request) => return self.own(id, request),
            Routed::Table(request) => self.tables.request(&self.ctx, &self.conn, request).await?,
            Routed::Meet(request) => {
                let msg = crate::meet::ws::request(&self.ctx, &self.conn, request).await;
                (None, msg.map_err(|r| (None, r))?)
            }
            Routed::Analysis(request) => {
                let answer = self
                    .analysis
                    .request(&self.ctx.analysis, &self.conn, id, request);
                (None, answer.await.map_err(|r| (None, r))?)
            }
        };
        self.reply(id, table, msg);
        Ok(())
    }

    /// The connection's own requests: its language, the lobby, a ping.
    fn own(
        &mut self,
        id: Option<u64>,
        request: ConnectionRequest,
    ) -> Result<(), (Option<String>, Refusal)> {
        match request {
            ConnectionRequest::Hello { lang } => match Lang::from_code(&lang) {
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
            },
            ConnectionRequest::Lobby => {
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
                Ok(())
            }
            ConnectionRequest::Ping => {
                self.send(&ServerMessage::Pong { id });
                Ok(())
            }
        }
    }
}

/// The connection's own requests.
enum ConnectionRequest {
    Hello { lang: String },
    Lobby,
    Ping,
}

/// A request by the domain that answers it.
enum Routed {
    Connection(ConnectionRequest),
    Table(TableRequest),
    Meet(MeetRequest),
    Analysis(AnalysisRequest),
}

/// Which domain answers `request`, and its fields as that domain names them.
fn route(request: Request) -> Routed {
    use Routed::{Analysis, Connection, Meet, Table};
    match request {
        Request::Hello { lang } => Connection(ConnectionRequest::Hello { lang }),
        Request::Lobby => Connection(ConnectionRequest::Lobby),
        Request::Ping => Connection(ConnectionRequest::Ping),
        Request::CreateTable { options } => Table(TableRequest::Create { options }),
        Request::Open { table, since } => Table(TableRequest::Open { table, since }),
        Request::Close { table } => Table(TableRequest::Close { table }),
        Request::Chat { table, text } => Table(TableRequest::Chat { table, text }),
        Request::Say { table, text } => Table(TableRequest::Say { table, text }),
        Request::Command { table, command } => Table(TableRequest::Command { table, command }),
        Request::Act { table, action, ply } => Table(TableRequest::Act { table, action, ply }),
        Request::Seek { options, bots } => Meet(MeetRequest::Seek { options, bots }),
        Request::CancelSeek => Meet(MeetRequest::CancelSeek),
        Request::AcceptSeek { seek } => Meet(MeetRequest::AcceptSeek { seek }),
        Request::Challenge { to, options, color } => {
            Meet(MeetRequest::Challenge { to, options, color })
        }
        Request::AcceptChallenge { challenge } => Meet(MeetRequest::AcceptChallenge { challenge }),
        Request::DeclineChallenge { challenge } => {
            Meet(MeetRequest::DeclineChallenge { challenge })
        }
        Request::CancelChallenge { challenge } => Meet(MeetRequest::CancelChallenge { challenge }),
        Request::WatchAnalysis { game } => Analysis(AnalysisRequest::Watch { game }),
        Request::Analyse { position } => Analysis(AnalysisRequest::Analyse { position }),
        Request::StopAnalyse => Analysis(AnalysisRequest::Stop),
    }
}
