//! The task that runs a table: it receives inputs, asks the [`Core`], commits what the
//! core says must be stored, then announces, then answers. Commits run beside the
//! actor, so that chat, spectators and clocks do not wait for the database; inputs
//! that need the game meanwhile wait their turn in order.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep_until};
use tracing::Instrument;
use yinsh::{ByColor, Color};

use super::bot::{BotMove, BotNews, BotThinking, Bots};
use super::core::{Commit, Committed, Core, Decision, Effects, Now, Reply, Request, VacationNews};
use super::tell::Teller;
use super::watchers::Watchers;
use super::{Conn, TableHandle};
use crate::Ctx;
use crate::account::store::Player;
use crate::cluster::store::Fence;
use crate::game::result_view;
use crate::game::store::NewGame;
use crate::game::vacation::VacationStore;
use crate::protocol::{Command, ServerMessage, Since, TableEvent, TableSummary, TableView};
use crate::rating::store::{Rated, rated_view};
use crate::refusal::Refusal;
use crate::store::{Outage, StoreError, StoreErrorKind};
use crate::vocab::{GameId, PlayerId};

/// An empty table (nobody watching, no game running) closes after this.
const IDLE_CLOSE: Duration = Duration::from_secs(120);
/// Inputs waiting for a table before it answers "busy".
pub(super) const QUEUE: usize = 1024;
/// While the store is down, it is tried again this often.
const PROBE_EVERY: Duration = Duration::from_secs(1);

/// What reaches a table's actor.
pub(super) enum Input {
    Open {
        conn: Conn,
        since: Option<Since>,
        done: oneshot::Sender<()>,
    },
    Close {
        conn: u64,
        done: Option<oneshot::Sender<()>>,
    },
    Request {
        player: Player,
        request: Request,
        reply: oneshot::Sender<Reply>,
    },
    /// The table is no longer this node's (another node of the cluster took it over):
    /// it closes here without a word to the store, cutting off its watchers.
    Evict,
    /// Two players paired at this new table: seated, and the game started.
    Pair {
        white: Player,
        black: Player,
        reply: oneshot::Sender<Reply>,
    },
}

/// An input that waits for the commit under way.
enum Waiting {
    Request {
        player: Player,
        request: Request,
        reply: oneshot::Sender<Reply>,
    },
    Bot(BotMove),
}

/// Work of the store under way: a commit (whose requester, if any, waits for the
/// answer) or a probe while the store is down.
enum Job {
    Commit(Option<oneshot::Sender<Reply>>),
    Probe,
}

/// What a store job gave.
type JobResult = Result<Stored, StoreError>;

/// What a store job stored.
#[derive(Default)]
struct Stored {
    /// A new game's id.
    game: Option<GameId>,
    /// The rating changes of a result.
    rated: Rated,
    /// The vacation balances of a new correspondence game's players, or what a
    /// spending gave.
    vacation: Option<VacationNews>,
}

struct Actor {
    ctx: Ctx,
    core: Core,
    watchers: Watchers,
    bots: Bots,
    bot_rx: mpsc::Receiver<BotNews>,
    job: Option<(Job, oneshot::Receiver<JobResult>)>,
    waiting: VecDeque<Waiting>,
    probe_at: Option<Instant>,
    empty_since: Option<Instant>,
    /// Since when a correspondence table could have slept (see [`Actor::may_sleep`]).
    quiet_since: Option<Instant>,
    last_summary: Option<TableSummary>,
    /// In a cluster, what its writes carry: the incarnation of the table it runs.
    fence: Option<Arc<Fence>>,
    /// What the players were told while away.
    teller: Teller,
}

/// Starts the actor of `core`, whose writes carry `fence` (and which slept until
/// `slept_until`, for one woken): its handle and its lobby summary.
pub(super) fn start(
    ctx: Ctx,
    core: Core,
    fence: Option<Fence>,
    slept_until: Option<Instant>,
) -> (TableHandle, TableSummary) {
    let (tx, rx) = mpsc::channel(QUEUE);
    let (bot_tx, bot_rx) = mpsc::channel(4);
    let handle = TableHandle {
        id: core.id().clone(),
        tx,
    };
    let mut actor = Actor {
        watchers: Watchers::new(core.id().clone(), ctx.tables.epoch),
        bots: Bots::new(
            ctx.tables.bots.clone(),
            ctx.tables.engine_slots.clone(),
            bot_tx,
        ),
        bot_rx,
        core,
        ctx,
        job: None,
        waiting: VecDeque::new(),
        probe_at: None,
        empty_since: Some(Instant::now()),
        quiet_since: None,
        last_summary: None,
        fence: fence.map(Arc::new),
        teller: Teller::default(),
    };
    actor.teller = Teller::new(&actor.core, slept_until);
    let summary = actor.summary();
    actor.last_summary = Some(summary.clone());
    // Everything the table does is logged in its span, and so carries its id.
    let span = tracing::info_span!("table", table = %handle.id);
    tokio::spawn(actor.run(rx).instrument(span));
    (handle, summary)
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}

async fn job_done(job: &mut Option<(Job, oneshot::Receiver<JobResult>)>) -> JobResult {
    match job {
        Some((_, rx)) => rx
            .await
            .unwrap_or_else(|_| Err(StoreError::unavailable("the store task ended".to_owned()))),
        None => std::future::pending().await,
    }
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Input>) {
        self.after_step();
        loop {
            let deadline = self.core.deadline();
            let idle = self.empty_since.map(|t| t + IDLE_CLOSE);
            let probe = self.probe_at.filter(|_| self.job.is_none());
            let spectators = self.watchers.spectators_due();
            let warning = self.teller.warning_due(&self.core, Instant::now());
            let sleep = self.quiet_since.map(|t| t + self.ctx.tables.sleep_after);
            tokio::select! {
                input = rx.recv() => match input {
                    Some(Input::Evict) => {
                        self.evict();
                        break;
                    }
                    Some(input) => self.input(input),
                    None => break,
                },
                Some(news) = self.bot_rx.recv() => match news {
                    BotNews::Moved(m) => self.bot_moved(m),
                    BotNews::Thinking(t) => self.bot_thinking(t),
                },
                result = job_done(&mut self.job) => {
                    if !self.finished(result) {
                        self.evict();
                        break;
                    }
                }
                _ = sleep_until_opt(deadline) => self.tick(),
                _ = sleep_until_opt(probe) => self.probe(),
                _ = sleep_until_opt(warning.map(|(at, _)| at)) => {
                    if let Some((_, hours)) = warning {
                        self.teller.warn(&self.ctx, &self.core, hours);
                    }
                }
                _ = sleep_until_opt(spectators) => {
                    let seated = |id| self.core.seat_of(id).is_some();
                    if let Some(e) = self.watchers.announce_spectators(Instant::now(), seated) {
                        self.announce(vec![e]);
                    }
                }
                _ = sleep_until_opt(sleep) => {
                    if self.may_sleep() && self.fall_asleep(&mut rx).await {
                        break;
                    }
                    self.quiet_since = None;
                }
                _ = sleep_until_opt(idle) => {
                    if self.is_idle() {
                        self.ctx.lobby.remove(self.core.id().as_str());
                        crate::cluster::node::released(&self.ctx, self.core.id());
                        break;
                    }
                    self.empty_since = None;
                }
            }
            self.after_step();
        }
        self.bots.stop();
    }

    /// Closes the table here because another node owns it now: it leaves the lobby
    /// and its watchers are cut off (they reconnect and find it where it is).
    fn evict(&mut self) {
        tracing::warn!(table = %self.core.id(), "another node owns the table now: closed here");
        self.ctx.lobby.remove(self.core.id().as_str());
        self.watchers.kick_all();
    }

    /// Nobody watching and nothing under way: the table may close (seats taken by
    /// people who are gone are given up with it).
    fn is_idle(&self) -> bool {
        self.watchers.is_empty() && !self.core.busy() && self.job.is_none()
    }

    /// Whether this correspondence table may sleep: nobody watching, nothing under way
    /// or waiting, no engine to move, the store up, and nothing due before it would
    /// have to wake again.
    fn may_sleep(&self) -> bool {
        let soon = Instant::now() + self.ctx.tables.sleep_after;
        self.core.options().correspondence.is_some()
            && self.core.running()
            && self.watchers.is_empty()
            && self.job.is_none()
            && self.waiting.is_empty()
            && !self.core.holds_result()
            && !self.core.store_down()
            && self.core.bot_turn().is_none()
            && self.core.deadline().is_none_or(|t| t > soon)
            && (self.teller.warning_due(&self.core, Instant::now())).is_none_or(|(t, _)| t > soon)
    }

    /// Unloads the table: the store notes when its game must wake by itself (its next
    /// deadline warning, else its deadline), then it leaves the lobby, and inputs that
    /// reached it meanwhile are dropped (their senders find it asleep and wake it).
    /// `false` when the store did not answer (it stays awake).
    async fn fall_asleep(&mut self, rx: &mut mpsc::Receiver<Input>) -> bool {
        let Some(game) = self.core.game().map(|g| g.id) else {
            return false;
        };
        let now = Instant::now();
        let warning = self.teller.warning_due(&self.core, now).map(|(at, _)| at);
        let due = self.core.game().and_then(crate::game::Game::deadline);
        let wake_at = [warning, due]
            .into_iter()
            .flatten()
            .min()
            .map_or(i64::MAX, super::sleep::wall_ms_of);
        let fence = self.fence.as_deref();
        if let Err(e) = self
            .ctx
            .stores
            .games
            .sleep(game, Some(wake_at), fence)
            .await
        {
            tracing::warn!("cannot put the table to sleep: {e}");
            return false;
        }
        self.ctx.lobby.remove(self.core.id().as_str());
        rx.close();
        while rx.try_recv().is_ok() {}
        self.ctx.metrics.table_slept();
        tracing::debug!(wake_at, "asleep");
        true
    }

    /// After every input: waiting inputs get their turn, the engine follows the game,
    /// the idle timer and the store probe are set.
    fn after_step(&mut self) {
        while self.job.is_none() {
            let Some(w) = self.waiting.pop_front() else {
                break;
            };
            match w {
                Waiting::Request {
                    player,
                    request,
                    reply,
                } => self.request(player, request, reply),
                Waiting::Bot(m) => self.bot_moved(m),
            }
        }
        self.bots.follow(self.core.bot_turn());
        self.quiet_since = match (self.may_sleep(), self.quiet_since) {
            (true, None) => Some(Instant::now()),
            (true, since) => since,
            (false, _) => None,
        };
        self.empty_since = match (self.is_idle(), self.empty_since) {
            (true, None) => Some(Instant::now()),
            (true, since) => since,
            (false, _) => None,
        };
        if !self.core.store_down() {
            self.probe_at = None;
        } else if self.probe_at.is_none() {
            self.probe_at = Some(Instant::now() + PROBE_EVERY);
        }
    }

    fn input(&mut self, input: Input) {
        match input {
            Input::Open { conn, since, done } => {
                // A guest who registered comes back under their account's name.
                if let Some(renamed) = self.core.renamed(&conn.player) {
                    self.announce(vec![renamed]);
                }
                let now = Instant::now();
                let clocks = self
                    .core
                    .game()
                    .filter(|g| g.is_running())
                    .and_then(|g| g.clock_view(now));
                let player = conn.player.id;
                match self.watchers.resume(conn, since, clocks) {
                    // Resumed: the events it missed carry no legal actions.
                    Ok(()) => self.send_legal(Some(player)),
                    Err(conn) => {
                        let table = self.view(player);
                        conn.send(super::to_text(&ServerMessage::Snapshot { table }));
                        self.watchers.add(conn);
                    }
                }
                let _ = done.send(());
                self.watchers_changed();
            }
            Input::Close { conn, done } => {
                if self.watchers.close(conn) {
                    self.watchers_changed();
                }
                if let Some(done) = done {
                    let _ = done.send(());
                }
            }
            // Taken by the run loop before it gets here.
            Input::Evict => {}
            Input::Pair {
                white,
                black,
                reply,
            } => match self.core.start_paired(white, black, Now::present()) {
                Decision::Commit(commit) => self.commit(commit, Some(reply)),
                Decision::Done(effects) => self.done(effects, Some(reply)),
                Decision::Defer => {
                    let _ = reply.send(Err(Refusal::Busy));
                }
            },
            Input::Request {
                player,
                request,
                reply,
            } => {
                if self.waiting.is_empty() {
                    self.request(player, request, reply);
                } else if self.waiting.len() >= QUEUE {
                    let _ = reply.send(Err(Refusal::Busy));
                } else {
                    self.waiting.push_back(Waiting::Request {
                        player,
                        request,
                        reply,
                    });
                }
            }
        }
    }

    fn request(&mut self, player: Player, request: Request, reply: oneshot::Sender<Reply>) {
        let request = match request {
            // A slash command is the command it names.
            Request::Chat(text) if text.trim_start().starts_with('/') => {
                match crate::table::command::parse(&text) {
                    Ok(command) => Request::Command(command),
                    Err(r) => {
                        let _ = reply.send(Err(r));
                        return;
                    }
                }
            }
            other => other,
        };
        if let Request::Command(Command::Who) = &request {
            let seated = |id| self.core.seat_of(id).is_some();
            let spectators = self.watchers.spectators(seated);
            let _ = reply.send(Ok(self.core.who(&spectators)));
            return;
        }
        let now = Now::present();
        match self.core.request(&player, request.clone(), now) {
            Decision::Done(effects) => self.done(effects, Some(reply)),
            Decision::Commit(commit) => self.commit(commit, Some(reply)),
            Decision::Defer => self.waiting.push_back(Waiting::Request {
                player,
                request,
                reply,
            }),
        }
    }

    /// Tells everyone at the table how far the engine has got, while it still thinks
    /// about that position.
    fn bot_thinking(&mut self, t: BotThinking) {
        let Some(turn) = self.core.bot_turn() else {
            return;
        };
        if (turn.game, turn.ply, turn.color) != (t.game, t.ply, t.color) {
            return;
        }
        let text = super::to_text(&ServerMessage::Thinking {
            table: self.core.id().to_string(),
            version: self.watchers.version(),
            color: t.color.into(),
            depth: t.depth,
            nodes: t.nodes,
            ms: t.time.as_millis() as u64,
        });
        self.watchers.send_all(&text);
    }

    fn bot_moved(&mut self, m: BotMove) {
        match self.core.bot_moved(m.game, m.ply, m.action, Now::present()) {
            Decision::Done(effects) => {
                if let Err(r) = &effects.reply {
                    if matches!(r, Refusal::Stale | Refusal::StoreUnavailable) {
                        // Asked again when the game lets it move.
                        self.bots.stop();
                    } else {
                        let table = self.core.id();
                        tracing::error!(%table, "the engine's action {} was refused: {r}", m.action);
                    }
                }
                self.done(effects, None);
            }
            Decision::Commit(commit) => self.commit(commit, None),
            Decision::Defer => self.waiting.push_back(Waiting::Bot(m)),
        }
    }

    fn tick(&mut self) {
        while let Some(decision) = self.core.tick(Now::present()) {
            match decision {
                Decision::Done(effects) => self.done(effects, None),
                Decision::Commit(commit) => {
                    self.commit(commit, None);
                    break;
                }
                Decision::Defer => break,
            }
        }
    }

    /// While the store is down: a held result is written again, or the store is asked
    /// whether it answers.
    fn probe(&mut self) {
        self.probe_at = Some(Instant::now() + PROBE_EVERY);
        if let Some(commit) = self.core.retry_held(Now::present()) {
            self.write(commit, None, true);
            return;
        }
        let (database, outage) = (
            self.ctx.stores.database.clone(),
            self.ctx.tables.outage.clone(),
        );
        let (tx, rx) = oneshot::channel();
        let probing = async move {
            let result = database.ping().await.map(|()| Stored::default());
            outage.observe(&result);
            let _ = tx.send(result);
        };
        tokio::spawn(probing.in_current_span());
        self.job = Some((Job::Probe, rx));
    }

    /// Runs `commit` beside the actor; its outcome comes back to [`Actor::finished`].
    /// While the store is known to be down it is refused at once.
    fn commit(&mut self, commit: Commit, reply: Option<oneshot::Sender<Reply>>) {
        self.write(commit, reply, false);
    }

    /// Runs `commit`, even while the store is known to be down when `anyway`.
    fn write(&mut self, commit: Commit, reply: Option<oneshot::Sender<Reply>>, anyway: bool) {
        let (games, vacation, outage) = (
            self.ctx.stores.games.clone(),
            self.ctx.stores.vacation.clone(),
            self.ctx.tables.outage.clone(),
        );
        let fence = self.fence.clone();
        let metrics = self.ctx.metrics.clone();
        let (tx, rx) = oneshot::channel();
        let writing = async move {
            if outage.is_down() && !anyway {
                let _ = tx.send(Err(Outage::refusal()));
                return;
            }
            let started = std::time::Instant::now();
            let fence = fence.as_deref();
            let result = match &commit {
                Commit::CreateGame(new) => match games.create_game(new, fence).await {
                    Ok(id) => Ok(Stored {
                        game: Some(id),
                        vacation: vacation_left(&*vacation, new).await,
                        ..Stored::default()
                    }),
                    Err(e) => Err(e),
                },
                Commit::Game { game, write, log } => games
                    .write_game(*game, write, *log, fence)
                    .await
                    .map(|rated| Stored {
                        rated,
                        ..Stored::default()
                    }),
                Commit::Vacation {
                    game,
                    ply,
                    player,
                    year,
                    hours,
                } => vacation
                    .spend_vacation(*game, *ply, *player, *year, *hours, fence)
                    .await
                    .map(|spent| Stored {
                        vacation: Some(VacationNews::Spent(spent)),
                        ..Stored::default()
                    }),
            };
            metrics.committed(started.elapsed());
            if let Err(e) = &result {
                tracing::debug!("the store refused a write: {e}");
            }
            outage.observe(&result);
            let _ = tx.send(result);
        };
        tokio::spawn(writing.in_current_span());
        self.job = Some((Job::Commit(reply), rx));
    }

    /// A store job's outcome; `false` when it says the table is no longer this node's
    /// (nothing was written: the requester is told, and the table must close here).
    fn finished(&mut self, result: JobResult) -> bool {
        let Some((job, _)) = self.job.take() else {
            return true;
        };
        let now = Now::present();
        if matches!(&result, Err(e) if e.kind == StoreErrorKind::Moved) {
            if let Job::Commit(Some(reply)) = job {
                let _ = reply.send(Err(Refusal::TableMoved));
            }
            return false;
        }
        match job {
            Job::Commit(reply) => {
                let was_down = self.core.store_down();
                let table = self.core.id().clone();
                let outcome = match result {
                    Ok(stored) => Committed::Stored {
                        game: stored.game,
                        ratings: rated_view(&stored.rated),
                        vacation: stored.vacation,
                    },
                    // Said once an outage, not at every retry.
                    Err(e) if !was_down => {
                        tracing::error!(%table, "the store refused a change, play stops: {e}");
                        Committed::Failed
                    }
                    Err(_) => Committed::Failed,
                };
                let effects = self.core.committed(outcome, now);
                if was_down && !self.core.store_down() {
                    tracing::info!(%table, "the store answers again, play resumes");
                }
                self.done(effects, reply);
            }
            Job::Probe => {
                if result.is_ok() {
                    let events = self.core.store_back(now);
                    if !events.is_empty() {
                        let table = self.core.id();
                        tracing::info!(%table, "the store answers again, play resumes");
                    }
                    self.announce(events);
                }
            }
        }
        true
    }

    /// Announces, then answers.
    fn done(&mut self, effects: Effects, reply: Option<oneshot::Sender<Reply>>) {
        let seats_changed = effects
            .events
            .iter()
            .any(|e| matches!(e, TableEvent::Joined { .. } | TableEvent::Left { .. }));
        self.announce(effects.events);
        if seats_changed {
            // A spectator who sat down is a spectator no more, and the other way round.
            self.watchers_changed();
        }
        if let Some(reply) = reply {
            let _ = reply.send(effects.reply);
        }
    }

    /// Sends events to everyone watching, keeps them for resumes, updates the lobby.
    fn announce(&mut self, events: Vec<TableEvent>) {
        if events.is_empty() {
            return;
        }
        let mut cut = false;
        let mut game_changed = false;
        let mut ended = None;
        let mut aborted = false;
        for event in events {
            if let TableEvent::GameOver { result } = &event {
                ended = Some(result.clone());
            }
            aborted |= matches!(event, TableEvent::Aborted { .. });
            let now = Instant::now();
            if let TableEvent::Acted {
                color, action, ply, ..
            } = &event
            {
                let game = self.core.game().map(|g| g.id.0);
                tracing::debug!(game, ply, ?color, action, "acted");
                self.ctx.metrics.acted();
            }
            game_changed |= changes_game(&event);
            let game = if carries_game(&event) {
                self.core.public_game_view(now)
            } else {
                None
            };
            let clocks = self
                .core
                .game()
                .filter(|g| g.is_running())
                .and_then(|g| g.clock_view(now));
            cut |= self.watchers.broadcast(event, game, clocks);
        }
        if let Some(tournament) = &self.core.options().tournament
            && (ended.is_some() || aborted)
        {
            // Its result is stored: the tournament scores it.
            let game = ended.as_ref().and(self.core.game()).map(|g| g.id);
            let table = self.core.id().to_string();
            self.ctx.tournaments.game_ended(tournament, &table, game);
        }
        if game_changed {
            self.send_legal(None);
            let watchers = &self.watchers;
            self.teller
                .after_events(&self.ctx, &self.core, ended.as_ref(), |id| {
                    watchers.is_online(id)
                });
        }
        let summary = self.summary();
        if self.last_summary.as_ref() != Some(&summary) {
            self.last_summary = Some(summary.clone());
            self.ctx.lobby.update(summary);
        }
        if cut {
            // Connections that could not keep up were cut off.
            self.watchers_changed();
        }
    }

    /// Presence and spectators after connections came or went.
    fn watchers_changed(&mut self) {
        let now = Now::present();
        let watchers = &self.watchers;
        let mut events = self.core.presence(now, |id| watchers.is_online(id));
        let seated = |id| self.core.seat_of(id).is_some();
        events.extend(self.watchers.spectators_changed(now.at, seated));
        self.announce(events);
    }

    fn summary(&self) -> TableSummary {
        TableSummary {
            id: self.core.id().to_string(),
            options: self.core.options().clone(),
            seats: self.core.seat_views(),
            spectators: self.watchers.announced().0,
            status: self.core.status(),
            last_result: self
                .core
                .game()
                .and_then(|g| g.result.as_ref())
                .map(result_view),
        }
    }

    /// Gives the player to act (when `only` is them, or any) their legal actions, on
    /// every connection of theirs that watches.
    fn send_legal(&mut self, only: Option<PlayerId>) {
        let Some(player) = self.core.player_to_act() else {
            return;
        };
        if only.is_some_and(|p| p != player) || !self.watchers.is_online(player) {
            return;
        }
        let actions = self.core.legal();
        if actions.is_empty() {
            return;
        }
        let text = super::to_text(&ServerMessage::Legal {
            table: self.core.id().to_string(),
            version: self.watchers.version(),
            actions,
        });
        self.watchers.send_to(player, &text);
    }

    /// The table as `viewer` sees it: the legal actions only for the player to act.
    fn view(&self, viewer: PlayerId) -> TableView {
        let (spectator_count, spectators) = self.watchers.announced();
        TableView {
            id: self.core.id().to_string(),
            epoch: self.ctx.tables.epoch,
            version: self.watchers.version(),
            options: self.core.options().clone(),
            seats: self.core.seat_views(),
            spectator_count,
            spectators,
            chat: self.core.chat().cloned().collect(),
            game: if self.core.player_to_act() == Some(viewer) {
                self.core.game_view(Instant::now())
            } else {
                self.core.public_game_view(Instant::now())
            },
            node: self.ctx.node().map(|n| n.id.clone()),
        }
    }
}

/// The vacation hours each player of the new game `new` has left this year, when it
/// is a correspondence game with days per turn. A store that does not answer leaves
/// them unknown (the game is stored: it starts, and the store is asked when a clock
/// falls).
async fn vacation_left(store: &dyn VacationStore, new: &NewGame) -> Option<VacationNews> {
    new.options.correspondence?.days?;
    let year = crate::game::vacation::year_of(new.started_at);
    let mut left = ByColor::default();
    for (color, seat) in [(Color::White, &new.white), (Color::Black, &new.black)] {
        let Some(player) = seat.player_id else {
            continue;
        };
        match store.vacation_left(player, year).await {
            Ok(hours) => left[color] = hours,
            Err(e) => {
                tracing::warn!("cannot read the players' vacation: {e}");
                return None;
            }
        }
    }
    Some(VacationNews::Left(left))
}

/// Whether an event changes the game: the player to act is then given their legal
/// actions.
fn changes_game(event: &TableEvent) -> bool {
    matches!(event, TableEvent::Acted { .. }) || carries_game(event)
}

/// Whether an event is sent with the game after it: those that change the game, but
/// an action, which carries what it changed itself.
fn carries_game(event: &TableEvent) -> bool {
    match event {
        TableEvent::Started
        | TableEvent::TookBack { .. }
        | TableEvent::DrawOffered { .. }
        | TableEvent::TakebackRequested { .. }
        | TableEvent::Declined { .. }
        | TableEvent::GameOver { .. }
        | TableEvent::Aborted { .. }
        | TableEvent::Claimable { .. }
        | TableEvent::Presence { .. }
        | TableEvent::Interrupted
        | TableEvent::Vacation { .. }
        | TableEvent::Berserk { .. }
        | TableEvent::Resumed => true,
        TableEvent::Acted { .. }
        | TableEvent::Joined { .. }
        | TableEvent::Left { .. }
        | TableEvent::Spectators { .. }
        | TableEvent::Options { .. }
        | TableEvent::Chat { .. } => false,
    }
}
