//! A table: two seats, spectators, a chat, options and a game, owned by one actor task.
//!
//! Every input reaches the actor through its [`TableHandle`]; the actor validates it
//! with the rules library, commits it to the store, and only then broadcasts the
//! resulting event (with a version) to everyone watching.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::{Instant, sleep_until};
use yinsh::notation::record::GameResult;
use yinsh::{Action, ByColor, Color};
use yinsh_engine::{Clock, Limits};

use crate::Ctx;
use crate::game::{Game, result_view, rules_of};
use crate::i18n::Msg;
use crate::protocol::{
    ChatLine, Command, OptionChange, Pair, PlayerView, SeatColor, ServerMessage, Since, TableEvent,
    TableOptions, TableStatus, TableSummary, TableView, VariantName,
};
use crate::store::{NewGame, Player, SeatRecord, StoredAction, StoredGame, StoredResult};

/// Chat lines kept for snapshots.
const CHAT_KEPT: usize = 50;
/// Events kept to resume a reconnecting client without a snapshot.
const BACKLOG: usize = 256;
/// The longest chat line, in characters.
pub const CHAT_MAX: usize = 500;
/// An empty table (no seat taken, nobody watching, no game running) closes after this.
const IDLE_CLOSE: Duration = Duration::from_secs(120);
/// Inputs waiting for a table before it answers "busy".
const QUEUE: usize = 1024;
/// Spectator changes are announced at most this often.
const SPECTATORS_EVERY: Duration = Duration::from_secs(1);
/// Spectator names sent in a snapshot or event (the count is always exact).
const SPECTATOR_NAMES: usize = 100;
/// How long to wait before writing a game's result again after the store failed.
const RESULT_RETRY: Duration = Duration::from_secs(2);
/// A bot's thinking time in an untimed game.
const BOT_UNTIMED: Duration = Duration::from_millis(1500);

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

/// What a player asks of a table.
#[derive(Debug, Clone)]
pub enum TableRequest {
    /// A chat line (a command when it starts with `/`).
    Chat(String),
    /// A command (a button).
    Command(Command),
    /// A game action token, and the number of actions the client saw.
    Act(String, Option<u32>),
}

enum Input {
    Open {
        conn: Conn,
        since: Option<Since>,
        done: oneshot::Sender<()>,
    },
    Close {
        conn: u64,
    },
    Request {
        player: Player,
        request: TableRequest,
        reply: oneshot::Sender<Result<Msg, Msg>>,
    },
}

/// The way to a table's actor. Cheap to clone.
#[derive(Debug, Clone)]
pub struct TableHandle {
    /// The table id.
    pub id: Arc<str>,
    tx: mpsc::Sender<Input>,
}

impl TableHandle {
    /// Watches the table: the snapshot (or missed events) goes to `conn`, then every
    /// event. Fails when the table has closed.
    pub async fn open(&self, conn: Conn, since: Option<Since>) -> Result<(), Msg> {
        let (done, wait) = oneshot::channel();
        self.send(Input::Open { conn, since, done })?;
        wait.await.map_err(|_| self.gone())
    }

    /// Stops watching (also when a connection ends).
    pub fn close(&self, conn: u64) {
        let tx = self.tx.clone();
        // Never lost to a full queue: wait for room in the background.
        tokio::spawn(async move {
            let _ = tx.send(Input::Close { conn }).await;
        });
    }

    /// A request by `player`: the reply or the reason it was refused.
    pub async fn request(&self, player: Player, request: TableRequest) -> Result<Msg, Msg> {
        let (reply, wait) = oneshot::channel();
        self.send(Input::Request {
            player,
            request,
            reply,
        })?;
        wait.await.map_err(|_| self.gone())?
    }

    fn send(&self, input: Input) -> Result<(), Msg> {
        self.tx.try_send(input).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => Msg::new("busy"),
            mpsc::error::TrySendError::Closed(_) => self.gone(),
        })
    }

    fn gone(&self) -> Msg {
        Msg::new("no_table").arg("table", &*self.id)
    }
}

/// Who sits in a seat.
enum Seat {
    Human(Player),
    Bot {
        level: u8,
        engine: Arc<std::sync::Mutex<Box<dyn yinsh_engine::Engine>>>,
    },
}

impl Seat {
    fn human(&self) -> Option<&Player> {
        match self {
            Seat::Human(p) => Some(p),
            Seat::Bot { .. } => None,
        }
    }

    fn name(&self) -> String {
        match self {
            Seat::Human(p) => p.name.clone(),
            Seat::Bot { level, .. } => bot_name(*level),
        }
    }

    fn record(&self) -> SeatRecord {
        match self {
            Seat::Human(p) => SeatRecord {
                player_id: Some(p.id),
                name: p.name.clone(),
                bot: None,
            },
            Seat::Bot { level, .. } => SeatRecord {
                player_id: None,
                name: bot_name(*level),
                bot: Some(*level),
            },
        }
    }
}

impl Ctx {
    /// A bot seat at `level`, if this server has engines.
    fn bot(&self, level: u8) -> Result<Seat, Msg> {
        let make = self
            .bots
            .as_ref()
            .ok_or_else(|| Msg::new("bots_disabled"))?;
        Ok(Seat::Bot {
            level,
            engine: Arc::new(std::sync::Mutex::new(make(level))),
        })
    }
}

fn bot_name(level: u8) -> String {
    format!("Engine (level {level})")
}

/// A bot's chosen action, for the game and ply it was asked about.
struct BotMove {
    game: i64,
    ply: usize,
    action: Action,
}

/// The actor's state.
struct Table {
    id: Arc<str>,
    ctx: Ctx,
    version: u64,
    options: TableOptions,
    seats: ByColor<Option<Seat>>,
    subs: HashMap<u64, Conn>,
    chat: VecDeque<ChatLine>,
    backlog: VecDeque<(u64, Arc<str>)>,
    game: Option<Game>,
    bot_tx: mpsc::Sender<BotMove>,
    search: Option<Arc<AtomicBool>>,
    empty_since: Option<Instant>,
    last_summary: Option<TableSummary>,
    /// The spectators and seat presence last announced.
    announced: (Vec<String>, ByColor<bool>),
    /// When spectators were last announced, and when the next announcement is due.
    spectators_at: Option<Instant>,
    spectators_due: Option<Instant>,
    /// A result the store refused, to be written again (game id, result, log), and
    /// when.
    unsaved: Option<(i64, StoredResult, bool, Instant)>,
}

/// Starts a new table's actor.
pub fn spawn(ctx: Ctx, id: Arc<str>, options: TableOptions) -> (TableHandle, TableSummary) {
    let (bot_tx, bot_rx) = mpsc::channel(4);
    let table = Table {
        id: id.clone(),
        ctx,
        version: 0,
        options,
        seats: ByColor {
            white: None,
            black: None,
        },
        subs: HashMap::new(),
        chat: VecDeque::new(),
        backlog: VecDeque::new(),
        game: None,
        bot_tx,
        search: None,
        empty_since: Some(Instant::now()),
        last_summary: None,
        announced: (Vec::new(), ByColor::default()),
        unsaved: None,
        spectators_at: None,
        spectators_due: None,
    };
    start(table, bot_rx)
}

/// Restores the table of an unfinished stored game: seats, the game with its clocks
/// (the player to act gets the time they had at the last action: the time the server
/// was down is not charged).
pub fn restore(ctx: Ctx, stored: StoredGame) -> Result<(TableHandle, TableSummary), String> {
    let (bot_tx, bot_rx) = mpsc::channel(4);
    let now = Instant::now();
    let g = &stored.game;
    let seat = |r: &SeatRecord| match (r.player_id, r.bot) {
        (_, Some(level)) => ctx.bot(level).map_err(|m| m.key.to_owned()),
        (Some(id), None) => Ok(Seat::Human(Player {
            id,
            name: r.name.clone(),
        })),
        (None, None) => Err("a seat without player or bot".to_owned()),
    };
    let seats = ByColor {
        white: Some(seat(&g.white)?),
        black: Some(seat(&g.black)?),
    };
    let mut game = Game::new(stored.id, g.options.clone(), now);
    for (ply, a) in stored.actions.iter().enumerate() {
        let action: Action = a
            .token
            .parse()
            .map_err(|e| format!("action {ply} '{}': {e}", a.token))?;
        game.position
            .play(action)
            .map_err(|e| format!("action {ply} '{}': {e}", a.token))?;
        game.actions.push(action);
    }
    if let (Some(clocks), Some(last)) = (game.clocks.as_mut(), stored.actions.last()) {
        if let (Some(w), Some(b)) = (last.white_ms, last.black_ms) {
            clocks.remaining = ByColor {
                white: Duration::from_millis(w),
                black: Duration::from_millis(b),
            };
        }
    }
    let table = Table {
        id: g.table_id.as_str().into(),
        ctx,
        version: 0,
        options: g.options.clone(),
        seats,
        subs: HashMap::new(),
        chat: VecDeque::new(),
        backlog: VecDeque::new(),
        game: Some(game),
        bot_tx,
        search: None,
        empty_since: None,
        last_summary: None,
        announced: (Vec::new(), ByColor::default()),
        unsaved: None,
        spectators_at: None,
        spectators_due: None,
    };
    Ok(start(table, bot_rx))
}

fn start(mut table: Table, bot_rx: mpsc::Receiver<BotMove>) -> (TableHandle, TableSummary) {
    let (tx, rx) = mpsc::channel(QUEUE);
    let handle = TableHandle {
        id: table.id.clone(),
        tx,
    };
    let summary = table.summary();
    table.last_summary = Some(summary.clone());
    tokio::spawn(table.run(rx, bot_rx));
    (handle, summary)
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}

impl Table {
    async fn run(mut self, mut rx: mpsc::Receiver<Input>, mut bot_rx: mpsc::Receiver<BotMove>) {
        // A restored game may have ended on the board already, or its bot must move.
        if let Some(outcome) = self.game.as_ref().and_then(|g| g.position.outcome()) {
            self.finish(outcome.into(), Instant::now()).await;
        }
        self.start_bot();
        loop {
            let deadline = self.game.as_ref().and_then(Game::deadline);
            let idle = self.empty_since.map(|t| t + IDLE_CLOSE);
            let retry = self.unsaved.as_ref().map(|u| u.3);
            let spectators = self.spectators_due;
            tokio::select! {
                input = rx.recv() => match input {
                    Some(input) => self.handle(input).await,
                    None => break,
                },
                Some(m) = bot_rx.recv() => self.bot_moved(m).await,
                _ = sleep_until_opt(deadline) => {
                    self.check_flag(Instant::now()).await;
                }
                _ = sleep_until_opt(retry) => self.save_result().await,
                _ = sleep_until_opt(spectators) => self.announce_spectators(),
                _ = sleep_until_opt(idle) => {
                    if self.is_empty() {
                        self.ctx.lobby.remove(&self.id);
                        break;
                    }
                    self.empty_since = None;
                }
            }
            self.empty_since = match (self.is_empty(), self.empty_since) {
                (true, None) => Some(Instant::now()),
                (true, since) => since,
                (false, _) => None,
            };
        }
        self.stop_search();
    }

    /// Nobody watching and no game running: the table may close (seats taken by
    /// people who are gone are given up with it).
    fn is_empty(&self) -> bool {
        self.subs.is_empty()
            && !self.game.as_ref().is_some_and(Game::is_running)
            && self.unsaved.is_none()
    }

    async fn handle(&mut self, input: Input) {
        match input {
            Input::Open { conn, since, done } => {
                self.open(conn, since);
                let _ = done.send(());
            }
            Input::Close { conn } => {
                if self.subs.remove(&conn).is_some() {
                    self.watchers_changed();
                }
            }
            Input::Request {
                player,
                request,
                reply,
            } => {
                let result = self.request(player, request).await;
                let _ = reply.send(result);
            }
        }
    }

    // ---- Watching ----

    fn open(&mut self, conn: Conn, since: Option<Since>) {
        let resumable = since.filter(|s| {
            s.epoch == self.ctx.epoch
                && s.version <= self.version
                && (s.version == self.version
                    || self
                        .backlog
                        .front()
                        .is_some_and(|(v, _)| *v <= s.version + 1))
        });
        match resumable {
            Some(s) => {
                for (v, text) in &self.backlog {
                    if *v > s.version {
                        conn.send(text.clone());
                    }
                }
                let now = Instant::now();
                let running = self.game.as_ref().filter(|g| g.is_running());
                if let Some(clocks) = running.and_then(|g| g.clock_view(now)) {
                    conn.send(to_text(&ServerMessage::Clocks {
                        table: self.id.to_string(),
                        clocks,
                    }));
                }
            }
            None => {
                let msg = ServerMessage::Snapshot { table: self.view() };
                conn.send(to_text(&msg));
            }
        }
        self.subs.insert(conn.id, conn);
        self.watchers_changed();
    }

    /// Announces presence and spectator changes after connections came or went or
    /// seats changed.
    fn watchers_changed(&mut self) {
        for color in [Color::White, Color::Black] {
            let online = self.seats[color]
                .as_ref()
                .and_then(Seat::human)
                .is_some_and(|p| self.is_online(p.id));
            if self.announced.1[color] != online {
                self.announced.1[color] = online;
                if self.seats[color].as_ref().and_then(Seat::human).is_some() {
                    self.emit(
                        TableEvent::Presence {
                            color: color.into(),
                            online,
                        },
                        false,
                    );
                }
            }
        }
        if self.spectators_due.is_none() {
            // At once, unless the last announcement was less than a second ago: a crowd
            // arriving together is one event a second, not one per arrival.
            let now = Instant::now();
            let at = self
                .spectators_at
                .map_or(now, |last| (last + SPECTATORS_EVERY).max(now));
            if at <= now {
                self.announce_spectators();
            } else {
                self.spectators_due = Some(at);
            }
        }
    }

    /// Announces the spectators if they changed since the last announcement.
    fn announce_spectators(&mut self) {
        self.spectators_due = None;
        let names = self.spectators();
        if self.announced.0 != names {
            self.spectators_at = Some(Instant::now());
            let count = names.len() as u32;
            self.announced.0 = names;
            let names = self
                .announced
                .0
                .iter()
                .take(SPECTATOR_NAMES)
                .cloned()
                .collect();
            self.emit(TableEvent::Spectators { count, names }, false);
        }
    }

    fn is_online(&self, player: i64) -> bool {
        self.subs.values().any(|c| c.player.id == player)
    }

    fn spectators(&self) -> Vec<String> {
        let seated = |id: i64| {
            [Color::White, Color::Black]
                .into_iter()
                .any(|c| self.seats[c].as_ref().and_then(Seat::human).map(|p| p.id) == Some(id))
        };
        let mut seen = std::collections::HashSet::new();
        let mut names = Vec::new();
        for c in self.subs.values() {
            if !seated(c.player.id) && seen.insert(c.player.id) {
                names.push(c.player.name.clone());
            }
        }
        names.sort_unstable();
        names
    }

    fn player_view(&self, seat: &Seat) -> PlayerView {
        match seat {
            Seat::Human(p) => PlayerView {
                id: Some(p.id),
                name: p.name.clone(),
                bot: None,
                online: self.is_online(p.id),
            },
            Seat::Bot { level, .. } => PlayerView {
                id: None,
                name: bot_name(*level),
                bot: Some(*level),
                online: true,
            },
        }
    }

    fn seat_views(&self) -> Pair<Option<PlayerView>> {
        Pair {
            white: self.seats.white.as_ref().map(|s| self.player_view(s)),
            black: self.seats.black.as_ref().map(|s| self.player_view(s)),
        }
    }

    fn summary(&self) -> TableSummary {
        TableSummary {
            id: self.id.to_string(),
            options: self.options.clone(),
            seats: self.seat_views(),
            spectators: self.announced.0.len() as u32,
            status: if self.game.as_ref().is_some_and(Game::is_running) {
                TableStatus::Playing
            } else {
                TableStatus::Waiting
            },
        }
    }

    fn view(&self) -> TableView {
        TableView {
            id: self.id.to_string(),
            epoch: self.ctx.epoch,
            version: self.version,
            options: self.options.clone(),
            seats: self.seat_views(),
            spectator_count: self.announced.0.len() as u32,
            spectators: self
                .announced
                .0
                .iter()
                .take(SPECTATOR_NAMES)
                .cloned()
                .collect(),
            chat: self.chat.iter().cloned().collect(),
            game: self.game.as_ref().map(|g| g.view(Instant::now())),
        }
    }

    /// Sends an event to everyone watching, keeps it for resumes, and updates the lobby.
    fn emit(&mut self, event: TableEvent, with_game: bool) {
        self.version += 1;
        let now = Instant::now();
        let msg = ServerMessage::Event {
            table: self.id.to_string(),
            version: self.version,
            event,
            game: if with_game {
                self.game.as_ref().map(|g| g.view(now))
            } else {
                None
            },
            clocks: self
                .game
                .as_ref()
                .filter(|g| g.is_running())
                .and_then(|g| g.clock_view(now)),
        };
        let text = to_text(&msg);
        if self.backlog.len() == BACKLOG {
            self.backlog.pop_front();
        }
        self.backlog.push_back((self.version, text.clone()));
        let before = self.subs.len();
        self.subs.retain(|_, c| c.send(text.clone()));
        let summary = self.summary();
        if self.last_summary.as_ref() != Some(&summary) {
            self.last_summary = Some(summary.clone());
            self.ctx.lobby.update(summary);
        }
        if self.subs.len() != before {
            // Connections that could not keep up were cut off.
            self.watchers_changed();
        }
    }

    // ---- Requests ----

    async fn request(&mut self, player: Player, request: TableRequest) -> Result<Msg, Msg> {
        match request {
            TableRequest::Chat(text) => {
                let text = text.trim();
                if text.starts_with('/') {
                    let command = crate::command::parse(text)?;
                    self.command(&player, command).await
                } else {
                    self.chat(&player, text)
                }
            }
            TableRequest::Command(command) => self.command(&player, command).await,
            TableRequest::Act(token, ply) => self.act(&player, &token, ply).await,
        }
    }

    fn chat(&mut self, player: &Player, text: &str) -> Result<Msg, Msg> {
        if text.is_empty() {
            return Err(Msg::new("empty_chat"));
        }
        if text.chars().count() > CHAT_MAX {
            return Err(Msg::new("chat_too_long").arg("limit", CHAT_MAX));
        }
        let line = ChatLine {
            from: player.name.clone(),
            text: text.to_owned(),
            at: crate::now_ms(),
        };
        if self.chat.len() == CHAT_KEPT {
            self.chat.pop_front();
        }
        self.chat.push_back(line.clone());
        self.emit(TableEvent::Chat { line }, false);
        Ok(Msg::new("chat_sent"))
    }

    fn seat_of(&self, player: &Player) -> Option<Color> {
        [Color::White, Color::Black].into_iter().find(|&c| {
            self.seats[c].as_ref().and_then(Seat::human).map(|p| p.id) == Some(player.id)
        })
    }

    fn running(&self) -> bool {
        self.game.as_ref().is_some_and(Game::is_running)
    }

    async fn command(&mut self, player: &Player, command: Command) -> Result<Msg, Msg> {
        match command {
            Command::Join { color } => self.join(player, color),
            Command::Leave => self.leave(player),
            Command::Start => self.start_game(player).await,
            Command::Option { change } => self.set_option(player, change),
            Command::Bot { level } => self.seat_bot(player, level.unwrap_or(5)),
            Command::Resign => {
                let color = self.seat_of(player).ok_or_else(|| Msg::new("not_seated"))?;
                if !self.running() {
                    return Err(Msg::new("no_game"));
                }
                self.finish(GameResult::resignation(color), Instant::now())
                    .await;
                Ok(Msg::new("resigned"))
            }
            Command::Draw => self.offer_draw(player).await,
            Command::Takeback => self.request_takeback(player).await,
            Command::Accept => self.answer(player, true).await,
            Command::Decline => self.answer(player, false).await,
            Command::Who => {
                let mut msg = Msg::new("who");
                for (name, color) in [("white", Color::White), ("black", Color::Black)] {
                    msg = match &self.seats[color] {
                        Some(seat) => msg.arg(name, seat.name()),
                        None => msg.arg_key(name, "nobody"),
                    };
                }
                let spectators = self.spectators();
                Ok(if spectators.is_empty() {
                    msg.arg_key("spectators", "nobody")
                } else {
                    msg.arg("spectators", spectators.join(", "))
                })
            }
            Command::Help => Ok(Msg::new("help")),
        }
    }

    fn join(&mut self, player: &Player, color: Option<SeatColor>) -> Result<Msg, Msg> {
        if let Some(c) = self.seat_of(player) {
            return Err(Msg::new("already_seated").arg_key("color", color_key(c)));
        }
        let color: Color = match color {
            Some(c) => c.into(),
            None => [Color::White, Color::Black]
                .into_iter()
                .find(|&c| self.seats[c].is_none())
                .ok_or_else(|| Msg::new("no_free_seat"))?,
        };
        if self.seats[color].is_some() {
            return Err(Msg::new("seat_taken").arg_key("color", color_key(color)));
        }
        self.seats[color] = Some(Seat::Human(player.clone()));
        let view = self.player_view(self.seats[color].as_ref().expect("just seated"));
        // The event says whether they are online; no separate presence event.
        self.announced.1[color] = view.online;
        self.emit(
            TableEvent::Joined {
                color: color.into(),
                player: view,
            },
            false,
        );
        self.watchers_changed();
        Ok(Msg::new("joined").arg_key("color", color_key(color)))
    }

    fn leave(&mut self, player: &Player) -> Result<Msg, Msg> {
        let color = self.seat_of(player).ok_or_else(|| Msg::new("not_seated"))?;
        if self.running() {
            return Err(Msg::new("leave_running"));
        }
        self.seats[color] = None;
        self.emit(
            TableEvent::Left {
                color: color.into(),
            },
            false,
        );
        // A bot does not stay at a table without people.
        let other = !color;
        if matches!(self.seats[other], Some(Seat::Bot { .. })) {
            self.seats[other] = None;
            self.emit(
                TableEvent::Left {
                    color: other.into(),
                },
                false,
            );
        }
        self.watchers_changed();
        Ok(Msg::new("left"))
    }

    fn before_start(&self, player: &Player) -> Result<Color, Msg> {
        let color = self.seat_of(player).ok_or_else(|| Msg::new("not_seated"))?;
        if self.running() {
            return Err(Msg::new("game_running"));
        }
        Ok(color)
    }

    fn set_option(&mut self, player: &Player, change: OptionChange) -> Result<Msg, Msg> {
        self.before_start(player)?;
        let mut options = self.options.clone();
        let described = match change {
            OptionChange::Log { on } => {
                options.log = on;
                format!("log {}", if on { "on" } else { "off" })
            }
            OptionChange::Time { time } => {
                options.time = time;
                match time {
                    Some(t) => format!("time {}+{}", t.minutes, t.increment),
                    None => "time off".to_owned(),
                }
            }
            OptionChange::Variant { variant } => {
                options.variant = variant;
                options.handicap = None;
                format!(
                    "variant {}",
                    match variant {
                        VariantName::Standard => "standard",
                        VariantName::Blitz => "blitz",
                    }
                )
            }
            OptionChange::Handicap { white, black } => {
                options.handicap = Some(Pair { white, black });
                format!("handicap {white} {black}")
            }
            OptionChange::Turns { limit } => {
                options.turn_limit = limit;
                match limit {
                    Some(n) => format!("turns {n}"),
                    None => "turns off".to_owned(),
                }
            }
        };
        validate_options(&options)?;
        self.options = options.clone();
        self.emit(
            TableEvent::Options {
                options,
                by: player.name.clone(),
            },
            false,
        );
        Ok(Msg::new("option_set").arg("option", described))
    }

    fn seat_bot(&mut self, player: &Player, level: u8) -> Result<Msg, Msg> {
        let mine = self.before_start(player)?;
        if !(1..=10).contains(&level) {
            return Err(Msg::new("bad_level"));
        }
        let color = !mine;
        match &self.seats[color] {
            Some(Seat::Human(_)) => {
                return Err(Msg::new("seat_taken").arg_key("color", color_key(color)));
            }
            Some(Seat::Bot { .. }) | None => {}
        }
        self.seats[color] = Some(self.ctx.bot(level)?);
        let view = self.player_view(self.seats[color].as_ref().expect("just seated"));
        self.emit(
            TableEvent::Joined {
                color: color.into(),
                player: view,
            },
            false,
        );
        Ok(Msg::new("bot_seated")
            .arg("level", level)
            .arg_key("color", color_key(color)))
    }

    async fn start_game(&mut self, player: &Player) -> Result<Msg, Msg> {
        self.before_start(player)?;
        let (Some(white), Some(black)) = (&self.seats.white, &self.seats.black) else {
            return Err(Msg::new("need_two_players"));
        };
        let new = NewGame {
            table_id: self.id.to_string(),
            options: self.options.clone(),
            white: white.record(),
            black: black.record(),
            started_at: crate::now_ms(),
        };
        let id = self
            .ctx
            .store
            .create_game(&new)
            .await
            .map_err(|e| store_error(&e))?;
        self.game = Some(Game::new(id, self.options.clone(), Instant::now()));
        self.emit(TableEvent::Started, true);
        self.start_bot();
        Ok(Msg::new("started").arg_key("color", color_key(Color::White)))
    }

    async fn act(&mut self, player: &Player, token: &str, ply: Option<u32>) -> Result<Msg, Msg> {
        let color = self.seat_of(player).ok_or_else(|| Msg::new("not_seated"))?;
        let game = self.game.as_ref().ok_or_else(|| Msg::new("no_game"))?;
        if !game.is_running() {
            return Err(Msg::new("no_game"));
        }
        if game.position.turn() != color {
            return Err(Msg::new("not_your_turn"));
        }
        if ply.is_some_and(|p| p as usize != game.actions.len()) {
            return Err(Msg::new("stale"));
        }
        let action: Action = token.trim().parse().map_err(|e: yinsh::ParseActionError| {
            Msg::new("bad_action").arg("reason", e.to_string())
        })?;
        self.apply(color, action).await?;
        Ok(Msg::new("played").arg("action", action))
    }

    /// Plays `action` for `color` (checked), stores it, then announces it.
    async fn apply(&mut self, color: Color, action: Action) -> Result<(), Msg> {
        let now = Instant::now();
        if self.check_flag(now).await {
            return Err(Msg::new("out_of_time"));
        }
        let game = self.game.as_ref().ok_or_else(|| Msg::new("no_game"))?;
        let mut after = game.position;
        after
            .play(action)
            .map_err(|e| Msg::new("illegal_action").arg("reason", e.reason))?;
        let clocks = game.clocks_after(color, &after, now);
        let stored = StoredAction {
            token: action.to_string(),
            white_ms: clocks.map(|c| c.remaining.white.as_millis() as u64),
            black_ms: clocks.map(|c| c.remaining.black.as_millis() as u64),
            at: crate::now_ms(),
        };
        let (id, ply) = (game.id, game.actions.len() as u32);
        self.ctx
            .store
            .append_action(id, ply, &stored)
            .await
            .map_err(|e| store_error(&e))?;

        let game = self.game.as_mut().expect("checked above");
        game.position = after;
        game.actions.push(action);
        game.clocks = clocks;
        // Playing on declines the opponent's pending offer.
        let declined = game.draw_offer == Some(!color) || game.takeback_request == Some(!color);
        if game.draw_offer == Some(!color) {
            game.draw_offer = None;
        }
        if game.takeback_request == Some(!color) {
            game.takeback_request = None;
        }
        if declined {
            self.emit(TableEvent::Declined { by: color.into() }, false);
        }
        self.emit(
            TableEvent::Acted {
                color: color.into(),
                action: action.to_string(),
            },
            true,
        );
        if let Some(outcome) = after.outcome() {
            self.finish(outcome.into(), now).await;
        } else {
            self.start_bot();
        }
        Ok(())
    }

    /// Ends the game on time if the player to act has run out; `true` if it did.
    async fn check_flag(&mut self, now: Instant) -> bool {
        let Some(loser) = self.game.as_ref().and_then(|g| g.flagged(now)) else {
            return false;
        };
        self.finish(GameResult::time(loser), now).await;
        true
    }

    async fn finish(&mut self, result: GameResult, now: Instant) {
        self.stop_search();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        game.stop_clocks(now);
        game.result = Some(result);
        game.draw_offer = None;
        game.takeback_request = None;
        let stored = StoredResult {
            winner: result.winner.map(|c| color_key(c).to_owned()),
            termination: result.termination.name().to_owned(),
            finished_at: crate::now_ms(),
        };
        self.unsaved = Some((game.id, stored, game.options.log, Instant::now()));
        self.save_result().await;
        self.emit(
            TableEvent::GameOver {
                result: result_view(&result),
            },
            true,
        );
    }

    /// Writes the result of the last game; when the store fails, tries again in a
    /// while (until then a restart would find the game unfinished, with every action).
    async fn save_result(&mut self) {
        let Some((id, result, log, _)) = self.unsaved.take() else {
            return;
        };
        if let Err(e) = self.ctx.store.finish_game(id, &result, log).await {
            tracing::error!(table = %self.id, game = id, "could not store the result: {e}");
            self.unsaved = Some((id, result, log, Instant::now() + RESULT_RETRY));
        }
    }

    async fn offer_draw(&mut self, player: &Player) -> Result<Msg, Msg> {
        let color = self.pending_check(player)?;
        let game = self.game.as_mut().expect("checked");
        if game.draw_offer == Some(!color) {
            self.finish(GameResult::agreed_draw(), Instant::now()).await;
            return Ok(Msg::new("accepted"));
        }
        game.draw_offer = Some(color);
        self.emit(TableEvent::DrawOffered { by: color.into() }, true);
        if matches!(self.seats[!color], Some(Seat::Bot { .. })) {
            // The engine plays on.
            self.game.as_mut().expect("checked").draw_offer = None;
            self.emit(
                TableEvent::Declined {
                    by: (!color).into(),
                },
                true,
            );
        }
        Ok(Msg::new("draw_offered"))
    }

    async fn request_takeback(&mut self, player: &Player) -> Result<Msg, Msg> {
        let color = self.pending_check(player)?;
        let game = self.game.as_mut().expect("checked");
        if game.takeback_length(color).is_none() {
            return Err(Msg::new("nothing_to_take_back"));
        }
        game.takeback_request = Some(color);
        self.emit(TableEvent::TakebackRequested { by: color.into() }, true);
        if matches!(self.seats[!color], Some(Seat::Bot { .. })) {
            // The engine always grants a takeback.
            self.take_back(color).await?;
        }
        Ok(Msg::new("takeback_requested"))
    }

    /// A seated player in a running game with no offer of theirs pending.
    fn pending_check(&self, player: &Player) -> Result<Color, Msg> {
        let color = self.seat_of(player).ok_or_else(|| Msg::new("not_seated"))?;
        let game = self
            .game
            .as_ref()
            .filter(|g| g.is_running())
            .ok_or_else(|| Msg::new("no_game"))?;
        if game.draw_offer == Some(color) || game.takeback_request == Some(color) {
            return Err(Msg::new("already_pending"));
        }
        Ok(color)
    }

    async fn answer(&mut self, player: &Player, accept: bool) -> Result<Msg, Msg> {
        let color = self.seat_of(player).ok_or_else(|| Msg::new("not_seated"))?;
        let game = self
            .game
            .as_mut()
            .filter(|g| g.is_running())
            .ok_or_else(|| Msg::new("no_game"))?;
        let draw = game.draw_offer;
        let takeback = game.takeback_request;
        if draw != Some(!color) && takeback != Some(!color) {
            let own = draw == Some(color) || takeback == Some(color);
            return Err(Msg::new(if own { "own_offer" } else { "nothing_pending" }));
        }
        if !accept {
            if draw == Some(!color) {
                game.draw_offer = None;
            }
            if takeback == Some(!color) {
                game.takeback_request = None;
            }
            self.emit(TableEvent::Declined { by: color.into() }, true);
            return Ok(Msg::new("declined"));
        }
        if draw == Some(!color) {
            self.finish(GameResult::agreed_draw(), Instant::now()).await;
        } else {
            self.take_back(!color).await?;
        }
        Ok(Msg::new("accepted"))
    }

    /// Undoes `by`'s last turn (and the opponent's reply), stored first.
    async fn take_back(&mut self, by: Color) -> Result<(), Msg> {
        let game = self.game.as_ref().expect("a running game");
        let undo = game
            .takeback_length(by)
            .ok_or_else(|| Msg::new("nothing_to_take_back"))?;
        let keep = game.actions.len() - undo;
        self.ctx
            .store
            .truncate_actions(game.id, keep as u32)
            .await
            .map_err(|e| store_error(&e))?;
        self.stop_search();
        let now = Instant::now();
        let game = self.game.as_mut().expect("a running game");
        // The clock that ran until now is charged; then the restored player's runs.
        game.stop_clocks(now);
        game.position = game.replay(keep);
        game.actions.truncate(keep);
        game.takeback_request = None;
        game.draw_offer = None;
        self.emit(
            TableEvent::TookBack {
                actions: undo as u32,
            },
            true,
        );
        self.start_bot();
        Ok(())
    }

    // ---- Bots ----

    /// Starts the engine thinking when it is a bot's turn.
    fn start_bot(&mut self) {
        let Some(game) = self.game.as_ref() else {
            return;
        };
        let Some(color) = game.to_act() else { return };
        let Some(Seat::Bot { engine, .. }) = &self.seats[color] else {
            return;
        };
        if self.search.is_some() {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.search = Some(stop.clone());
        let engine = engine.clone();
        let position = game.position;
        let now = Instant::now();
        let limits = match game.clocks {
            Some(c) => Limits {
                clock: Some(Clock {
                    wtime: c.left(Color::White, color == Color::White, now),
                    btime: c.left(Color::Black, color == Color::Black, now),
                    winc: c.increment,
                    binc: c.increment,
                }),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(BOT_UNTIMED),
                ..Limits::default()
            },
        };
        let (game_id, ply) = (game.id, game.actions.len());
        let tx = self.bot_tx.clone();
        let slots = self.ctx.engine_slots.clone();
        tokio::spawn(async move {
            // One search per core at a time, server-wide.
            let Ok(slot) = slots.acquire_owned().await else {
                return;
            };
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let _ = tokio::task::spawn_blocking(move || {
                let result = {
                    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    engine.search(&position, &limits, &stop, &mut |_| {})
                };
                drop(slot);
                if !stop.load(Ordering::Relaxed) {
                    let _ = tx.blocking_send(BotMove {
                        game: game_id,
                        ply,
                        action: result.best,
                    });
                }
            })
            .await;
        });
    }

    fn stop_search(&mut self) {
        if let Some(stop) = self.search.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    async fn bot_moved(&mut self, m: BotMove) {
        let current = self
            .game
            .as_ref()
            .is_some_and(|g| g.id == m.game && g.actions.len() == m.ply && g.is_running());
        if !current {
            return;
        }
        self.search = None;
        let color = self.game.as_ref().expect("current").position.turn();
        if let Err(e) = self.apply(color, m.action).await {
            tracing::warn!(table = %self.id, "the engine's action {} was refused: {}", m.action, e.key);
            if e.key == "store_unavailable" {
                // Try again shortly: the store may come back.
                let tx = self.bot_tx.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    let _ = tx.send(m).await;
                });
            }
        }
    }
}

/// Checks that options are in range: time 1–180 minutes with an increment of 0–60
/// seconds, targets 1–5, a turn limit of 1–1000 ring moves.
pub fn validate_options(options: &TableOptions) -> Result<(), Msg> {
    let bad = |reason: &str| Err(Msg::new("bad_option").arg("reason", reason));
    if let Some(t) = options.time {
        if !(1..=180).contains(&t.minutes) || t.increment > 60 {
            return bad("time is 1 to 180 minutes, increment 0 to 60 seconds");
        }
    }
    if let Some(h) = &options.handicap {
        if !(1..=5).contains(&h.white) || !(1..=5).contains(&h.black) {
            return bad("targets are 1 to 5 rings");
        }
    }
    if options.turn_limit.is_some_and(|n| !(1..=1000).contains(&n)) {
        return bad("the turn limit is 1 to 1000 ring moves");
    }
    debug_assert!(rules_of(options).is_valid());
    Ok(())
}

/// `white` or `black`.
pub fn color_key(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn store_error(e: &crate::store::StoreError) -> Msg {
    tracing::error!("{e}");
    Msg::new("store_unavailable")
}

/// A message as sent on the wire.
pub fn to_text(msg: &ServerMessage) -> Arc<str> {
    serde_json::to_string(msg)
        .expect("protocol messages always serialise")
        .into()
}
