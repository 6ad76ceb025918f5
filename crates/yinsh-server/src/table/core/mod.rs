//! The decisions of a table, with no I/O and no async: seats, options, the game, its
//! clocks, offers, takebacks, claims, aborts, results, presence and what a store
//! outage means for all of them.
//!
//! The actor (`table/actor.rs`) feeds the core its inputs — a player's request, a
//! deadline that came, a presence change, an engine's move, the outcome of a commit —
//! each with the moment it happened ([`Now`]). The core answers with a [`Decision`]:
//! done (the events to announce and the reply), a [`Commit`] the store must make
//! before anything changes (then [`Core::committed`] applies it), or "defer" (a commit
//! is under way; ask again after it). It never sleeps: [`Core::deadline`] says when
//! the next timed input is due.

mod commit;
mod play;
#[cfg(test)]
mod tests;
mod time;

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;
use yinsh::notation::record::GameResult;
use yinsh::{Action, ByColor, Color, Position};

use crate::account::store::Player;
use crate::game::store::BotAccounts;
use crate::game::store::{GameWrite, NewGame, SeatRecord, StoredGame, StoredResult};
use crate::game::vacation::Spent;
use crate::game::{Clocks, Game, replay_stored, rules_of};
use crate::i18n::Msg;
use crate::i18n::color_key;
use crate::protocol::{
    ChatLine, Command, DAYS_PER_TURN, GameView, Pair, PlayerView, RatingDiff, SeatColor,
    TableEvent, TableOptions, TableStatus, VariantName,
};
use crate::refusal::Refusal;
use crate::vocab::{GameId, Level, PlayerId, TableId};

/// Chat lines kept for snapshots.
pub const CHAT_KEPT: usize = 50;
/// Takebacks each player may be granted per game.
pub const TAKEBACKS: u8 = 3;
/// A seated player away this long from a table with no game running loses the seat.
pub const SEAT_GRACE: Duration = Duration::from_secs(60);
/// A seated player's absence is announced once it has lasted this long (a reload is
/// not worth a line in everyone's chat).
pub const PRESENCE_DELAY: Duration = Duration::from_secs(5);
/// A running game whose players have all been away this long is adjudicated (or
/// aborted, when it has barely begun).
pub const ABANDONED_AFTER: Duration = Duration::from_secs(300);

/// How long a player may be away from a running game before the opponent may claim
/// it: a twentieth of the game's expected length (minutes + 40 increments, as
/// lichess estimates it), at least 30 s and at most 2 minutes; 2 minutes untimed.
pub fn claim_grace(options: &TableOptions) -> Duration {
    let Some(t) = options.time else {
        return Duration::from_secs(120);
    };
    let expected = u64::from(t.minutes) * 60 + 40 * u64::from(t.increment);
    Duration::from_secs((expected / 20).clamp(30, 120))
}

/// The moment an input happens: the monotonic instant (clocks, grace periods) and the
/// wall clock in milliseconds since 1970 (what the store and the chat record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Now {
    /// For clocks and timers.
    pub at: Instant,
    /// For records.
    pub wall_ms: i64,
}

impl Now {
    /// The present moment.
    pub fn present() -> Now {
        Now {
            at: Instant::now(),
            wall_ms: crate::now_ms(),
        }
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// A person.
    Human(Player),
    /// The engine at a level.
    Bot(Level),
}

impl Seat {
    /// The person, if it is one.
    pub fn human(&self) -> Option<&Player> {
        match self {
            Seat::Human(p) => Some(p),
            Seat::Bot(_) => None,
        }
    }

    /// The name shown.
    pub fn name(&self) -> String {
        match self {
            Seat::Human(p) => p.name.clone(),
            Seat::Bot(level) => bot_name(*level),
        }
    }

    pub(super) fn record(&self) -> SeatRecord {
        match self {
            Seat::Human(p) => SeatRecord {
                player_id: Some(p.id),
                name: p.name.clone(),
                bot: None,
            },
            Seat::Bot(level) => SeatRecord {
                player_id: None,
                name: bot_name(*level),
                bot: Some(*level),
            },
        }
    }
}

/// The name of the engine's seat at `level`.
pub fn bot_name(level: Level) -> String {
    format!("Engine (level {level})")
}

/// What a player asks of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// A chat line (the actor reads a line starting with `/` as the command it names).
    Chat(String),
    /// A chat line as written, also one that starts with `/` (the bot API's chat: a
    /// program's line is never a command).
    Say(String),
    /// A command (a button).
    Command(Command),
    /// A game action token, and the number of actions the client saw.
    Act {
        /// The token.
        token: String,
        /// The client's count of actions, to refuse stale actions.
        ply: Option<u32>,
    },
}

/// The answer to a request.
pub type Reply = Result<Msg, Refusal>;

/// What a decision announces and answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effects {
    /// Events to announce, in order.
    pub events: Vec<TableEvent>,
    /// The answer to the request (ignored for inputs without one).
    pub reply: Reply,
}

impl Effects {
    pub(super) fn reply(reply: Reply) -> Effects {
        Effects {
            events: Vec::new(),
            reply,
        }
    }
}

/// What the core decided about an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Nothing to store: announce and answer.
    Done(Effects),
    /// The store must take this first; then [`Core::committed`] says what follows.
    Commit(Commit),
    /// A commit is under way: give the input again after it.
    Defer,
}

impl Decision {
    pub(super) fn refuse(r: Refusal) -> Decision {
        Decision::Done(Effects::reply(Err(r)))
    }

    pub(super) fn done(events: Vec<TableEvent>, reply: Msg) -> Decision {
        Decision::Done(Effects {
            events,
            reply: Ok(reply),
        })
    }
}

/// A change the store must take before the table makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Commit {
    /// Record a new game; the store answers with its id.
    CreateGame(NewGame),
    /// A change to a game.
    Game {
        /// The game.
        game: GameId,
        /// The change.
        write: GameWrite,
        /// Whether the game is archived (a finished game that is not is deleted).
        log: bool,
    },
    /// Spend vacation: the player to act in `game`, whose clock fell at action number
    /// `ply`, is to have spent `hours` there in all, as far as their balance for `year`
    /// allows.
    Vacation {
        /// The game.
        game: GameId,
        /// The action awaited.
        ply: u32,
        /// The player to act.
        player: PlayerId,
        /// The calendar year whose hours are spent.
        year: i64,
        /// The hours spent at `ply` wanted in all.
        hours: u32,
    },
}

/// What the store said of vacation with a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VacationNews {
    /// The hours each player of a new correspondence game has left this year.
    Left(ByColor<Option<u32>>),
    /// What a [`Commit::Vacation`] spent.
    Spent(Spent),
}

/// What the store answered to a [`Commit`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Committed {
    /// It is stored.
    Stored {
        /// The new game's id, for [`Commit::CreateGame`].
        game: Option<GameId>,
        /// The players' rating changes, for the result of a rated game.
        ratings: Option<Pair<RatingDiff>>,
        /// Vacation: the balances of a new correspondence game's players, or what a
        /// spending gave.
        vacation: Option<VacationNews>,
    },
    /// The store did not take it.
    Failed,
}

/// A commit under way, and what to do when it is stored.
#[derive(Debug, Clone)]
enum Pending {
    Start {
        options: TableOptions,
        started_at: i64,
        /// Whether the players were paired and are not at the table yet: the clocks
        /// wait for the player to act to come.
        paired: bool,
    },
    Act {
        color: Color,
        action: Action,
        after: Position,
        clocks: Option<Clocks>,
        result: Option<GameResult>,
        at: Instant,
    },
    Takeback {
        by: Color,
        keep: usize,
        /// Whether the request was made in this input (the engine grants at once).
        requested: bool,
        at: Instant,
        reply: Msg,
    },
    Result {
        result: GameResult,
        at: Instant,
        reply: Reply,
    },
    Abort {
        by: Option<Color>,
        at: Instant,
    },
    Vacation {
        color: Color,
        at: Instant,
    },
    Berserk {
        color: Color,
        at: Instant,
    },
}

impl Pending {
    pub(super) fn at(&self) -> Option<Instant> {
        match self {
            Pending::Start { .. } => None,
            Pending::Act { at, .. }
            | Pending::Takeback { at, .. }
            | Pending::Result { at, .. }
            | Pending::Abort { at, .. }
            | Pending::Vacation { at, .. }
            | Pending::Berserk { at, .. } => Some(*at),
        }
    }
}

/// A table's state and rules.
#[derive(Debug, Clone)]
pub struct Core {
    id: TableId,
    options: TableOptions,
    seats: ByColor<Option<Seat>>,
    /// Since when each seated person has been away (no connection to the table).
    away: ByColor<Option<Instant>>,
    /// Whether each seated person's absence has been announced: one shorter than
    /// [`PRESENCE_DELAY`] (a reload, a network blip) is not.
    away_told: ByColor<bool>,
    game: Option<Game>,
    chat: VecDeque<ChatLine>,
    /// The player told they may claim the game (until the opponent comes back).
    claim_open: Option<Color>,
    /// Whether the last commit failed and the store has not answered since.
    store_down: bool,
    /// A result the store did not take: the game is over, the result not announced.
    held: Option<GameResult>,
    in_flight: Option<Pending>,
    bots: bool,
    /// When this core was made (a restored game already over on the board is ended
    /// from then).
    created: Instant,
    /// A restored game whose clocks wait for the player to act to come back (the time
    /// it takes to reconnect after a restart is nobody's).
    awaiting_return: bool,
    /// The action number at which the player to act had no vacation to spend: their
    /// clock's fall ends the game.
    vacation_spent: Option<usize>,
}

/// Something a table must do at a given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Due {
    /// This seat's player has been away long enough for it to be announced.
    Away(Color),
    /// A restored game is over on the board but has no result.
    BoardOver,
    /// The player to act runs out of time.
    Flag(Color),
    /// Every person at the running game has been away too long.
    Abandoned,
    /// This player may claim the game: the opponent has been away too long.
    Claim(Color),
    /// This seat's player has been away from a table without a game too long.
    SeatExpired(Color),
}

/// What the engine must think about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotTurn {
    /// The engine's seat.
    pub color: Color,
    /// Its level.
    pub level: Level,
    /// The game.
    pub game: GameId,
    /// The number of actions played.
    pub ply: usize,
    /// The position.
    pub position: Position,
    /// The clocks, in a timed game.
    pub clocks: Option<Clocks>,
    /// Whether the engine plays at full strength (`TableOptions::engine_full`) rather
    /// than at a person's pace.
    pub full: bool,
}

impl Core {
    /// A new table with `options`; `bots` says whether engines may be seated.
    pub fn new(id: TableId, options: TableOptions, bots: bool, now: Now) -> Core {
        Core {
            id,
            options,
            seats: ByColor::default(),
            away: ByColor::default(),
            away_told: ByColor::default(),
            game: None,
            chat: VecDeque::new(),
            claim_open: None,
            store_down: false,
            held: None,
            in_flight: None,
            bots,
            created: now.at,
            awaiting_return: false,
            vacation_spent: None,
        }
    }

    /// The table of an unfinished stored game: its seats (nobody is connected yet),
    /// the game with its clocks as they were after the last stored action (the time
    /// the server was down, and the time until the player to act is back, is nobody's),
    /// and its takebacks. The accounts of `bot_accounts` are bot accounts (marked BOT).
    pub fn restore(
        stored: &StoredGame,
        bots: bool,
        bot_accounts: &BotAccounts,
        now: Now,
    ) -> Result<Core, String> {
        let g = &stored.game;
        let seat = |r: &SeatRecord| match (r.player_id, r.bot) {
            (_, Some(_)) if !bots => Err("an engine seat, and this server has no engines".into()),
            (_, Some(level)) => Ok(Seat::Bot(level)),
            (Some(id), None) => Ok(Seat::Human(Player {
                id,
                name: r.name.clone(),
                bot: bot_accounts.contains(id),
            })),
            (None, None) => Err("a seat without player or bot".to_owned()),
        };
        let seats = ByColor {
            white: Some(seat(&g.white)?),
            black: Some(seat(&g.black)?),
        };
        let mut game = Game::new(stored.id, g.options.clone(), g.started_at, now.at);
        for r in replay_stored(&g.options, &stored.actions)? {
            let clocks = game.clocks.map(|mut c| {
                if let (Some(w), Some(b)) = (r.stored.white_ms, r.stored.black_ms) {
                    c.remaining = ByColor {
                        white: Duration::from_millis(w),
                        black: Duration::from_millis(b),
                    };
                }
                c
            });
            game.push(r.action, r.after, clocks);
        }
        // Berserk: no increment any more, and a clock not yet stopped after the
        // berserker's own action is halved again.
        for color in [Color::White, Color::Black] {
            let acted = (0..game.actions.len()).any(|i| game.replay(i).turn() == color);
            if let Some(clocks) = game.clocks.as_mut().filter(|_| stored.berserk[color]) {
                if acted {
                    clocks.berserk[color] = true;
                } else {
                    clocks.berserk(color);
                }
            }
        }
        game.takebacks = stored.takebacks;
        // Vacation spent on the action awaited lengthens its turn again (before the time
        // since the last action is charged).
        game.vacation_left = stored.vacation.left;
        game.vacation_known = true;
        game.take_vacation(stored.vacation.here);
        let engine_to_act = matches!(seats[game.position.turn()], Some(Seat::Bot(_)));
        let correspondence = g.options.correspondence.is_some();
        if correspondence {
            // Days per turn run by the wall clock, the server's time down included: the
            // deadline is the last action's time plus what was left after it, and one
            // that passed meanwhile falls at once.
            let last = stored.actions.last().map_or(g.started_at, |a| a.at);
            game.run_clocks_since(last, now.wall_ms, now.at);
        } else if !engine_to_act {
            // Nobody is connected yet: the clocks stand until the player to act is
            // back (at once when that is the engine).
            game.stop_clocks(now.at);
        }
        let away = ByColor {
            white: seats.white.as_ref().and_then(Seat::human).map(|_| now.at),
            black: seats.black.as_ref().and_then(Seat::human).map(|_| now.at),
        };
        // A game over at the board whose result was never stored (a crash between the
        // two, or an old record whose last pass was left out) stores it at once: see
        // `Due::BoardOver`.
        if game.position.is_over() {
            game.stop_clocks(now.at);
        }
        let mut core = Core::new(g.table_id.as_str().into(), g.options.clone(), bots, now);
        core.seats = seats;
        core.away_told = ByColor {
            white: away.white.is_some(),
            black: away.black.is_some(),
        };
        core.away = away;
        core.game = Some(game);
        core.awaiting_return = !engine_to_act && !correspondence;
        Ok(core)
    }

    // ---- What the table looks like ----

    /// The table's id.
    pub fn id(&self) -> &TableId {
        &self.id
    }

    /// The options.
    pub fn options(&self) -> &TableOptions {
        &self.options
    }

    /// The seats.
    pub fn seats(&self) -> &ByColor<Option<Seat>> {
        &self.seats
    }

    /// The current game, or the last one (over) until the next starts.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The chat lines kept.
    pub fn chat(&self) -> impl Iterator<Item = &ChatLine> {
        self.chat.iter()
    }

    /// The seat of `player`, if they sit at the table.
    pub fn seat_of(&self, player: PlayerId) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.seats[c].as_ref().and_then(Seat::human).map(|p| p.id) == Some(player))
    }

    /// Whether a game runs (its result not stored yet counts as running).
    pub fn running(&self) -> bool {
        self.game.as_ref().is_some_and(Game::is_running)
    }

    /// Whether the table has something under way that must not be dropped: a running
    /// game, a result waiting for the store, a commit.
    pub fn busy(&self) -> bool {
        self.running() || self.held.is_some() || self.in_flight.is_some()
    }

    /// Whether the store is known to be down.
    pub fn store_down(&self) -> bool {
        self.store_down
    }

    /// Whether a result waits for the store.
    pub fn holds_result(&self) -> bool {
        self.held.is_some()
    }

    /// `waiting` or `playing`.
    pub fn status(&self) -> TableStatus {
        if self.running() {
            TableStatus::Playing
        } else {
            TableStatus::Waiting
        }
    }

    /// A seat as others see it.
    pub fn player_view(&self, color: Color) -> Option<PlayerView> {
        Some(match self.seats[color].as_ref()? {
            Seat::Human(p) => PlayerView {
                online: !self.away_told[color],
                ..crate::account::session::view_of(p)
            },
            Seat::Bot(level) => PlayerView {
                id: None,
                name: bot_name(*level),
                bot: Some(level.get()),
                online: true,
                guest: false,
                title: None,
            },
        })
    }

    /// Both seats as others see them.
    pub fn seat_views(&self) -> Pair<Option<PlayerView>> {
        Pair {
            white: self.player_view(Color::White),
            black: self.player_view(Color::Black),
        }
    }

    /// The game at `now` as the player to act sees it: with their legal actions.
    pub fn game_view(&self, now: Instant) -> Option<GameView> {
        let mut view = self.public_game_view(now)?;
        view.legal = self.legal();
        Some(view)
    }

    /// The game at `now` as everyone sees it: without the legal actions (events, and
    /// the snapshots of everyone but the player to act).
    pub fn public_game_view(&self, now: Instant) -> Option<GameView> {
        let game = self.game.as_ref()?;
        let mut view = game.view(now);
        view.abortable = self.abortable();
        view.claimable = self.claim_open.map(SeatColor::from);
        view.paused = game.is_running() && (self.store_down || self.held.is_some());
        Some(view)
    }

    /// The player to act now, when a person sits in that seat and the game runs.
    pub fn player_to_act(&self) -> Option<PlayerId> {
        let color = self.game.as_ref()?.to_act()?;
        self.seats[color]
            .as_ref()
            .and_then(Seat::human)
            .map(|p| p.id)
    }

    /// The legal actions of the player to act (none once the game is over, or while a
    /// result waits for the store).
    pub fn legal(&self) -> Vec<String> {
        match &self.game {
            Some(game) if game.is_running() && self.held.is_none() => game
                .position
                .legal_actions()
                .iter()
                .map(|a| a.to_string())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the running game may be aborted: neither player has made two actions.
    /// The first ten actions are placements, one each in turn, so that is while at most
    /// two actions have been played.
    pub(super) fn abortable(&self) -> bool {
        self.held.is_none()
            && self
                .game
                .as_ref()
                .is_some_and(|g| g.is_running() && g.actions.len() <= 2)
    }

    /// What the engine must think about now, if it is an engine's turn and its move
    /// could be taken.
    pub fn bot_turn(&self) -> Option<BotTurn> {
        if self.in_flight.is_some() || self.store_down || self.held.is_some() {
            return None;
        }
        let game = self.game.as_ref()?;
        let color = game.to_act()?;
        let Some(Seat::Bot(level)) = self.seats[color] else {
            return None;
        };
        Some(BotTurn {
            color,
            level,
            game: game.id,
            ply: game.actions.len(),
            position: game.position,
            clocks: game.clocks,
            full: game.options.engine_full,
        })
    }
}

pub(super) fn stored_result(result: &GameResult, finished_at: i64) -> StoredResult {
    StoredResult {
        winner: result.winner.map(|c| color_key(c).to_owned()),
        termination: result.termination.name().to_owned(),
        finished_at,
    }
}

/// `options` for a new table or challenge: when they begin from a position, the
/// variant, handicap and turn limit are set from it; then they are checked
/// ([`validate_options`]).
pub fn settle_options(mut options: TableOptions) -> Result<TableOptions, Refusal> {
    if let Some(fen) = &options.position {
        let start = Position::from_fen(fen.trim()).map_err(|_| Refusal::BadOption {
            reason: "the start position is not a legal position string",
        })?;
        let rules = start.rules();
        let (white, black) = (rules.targets.white, rules.targets.black);
        options.variant = if white == 1 && black == 1 {
            VariantName::Blitz
        } else {
            VariantName::Standard
        };
        let own = if white == 1 && black == 1 { 1 } else { 3 };
        options.handicap = (white != own || black != own).then_some(Pair { white, black });
        options.turn_limit = rules.turn_limit;
        options.position = Some(start.to_fen());
    }
    validate_options(&options)?;
    Ok(options)
}

/// Checks that options are in range: time 1–180 minutes with an increment of 0–60
/// seconds, targets 1–5, a turn limit of 1–1000 ring moves; that a rated game has
/// a clock, the variant's own targets, no turn limit, and goes to the archive (its
/// players' rating histories link to it); that a start position is legal, not
/// over, unrated, and has the options' rules; and that no tournament is named (a
/// tournament's tables are its own).
pub fn validate_options(options: &TableOptions) -> Result<(), Refusal> {
    let bad = |reason| Err(Refusal::BadOption { reason });
    if options.tournament.is_some() {
        return bad("only a tournament opens a table for its games");
    }
    if let Some(fen) = &options.position {
        let Ok(start) = Position::from_fen(fen) else {
            return bad("the start position is not a legal position string");
        };
        if start.is_over() {
            return bad("the start position is a finished game");
        }
        if *start.rules() != rules_of(options) {
            return bad("a game from a position keeps the position's targets and turn limit");
        }
        if options.rated {
            return bad("a game from a position is not rated");
        }
    }
    if let Some(t) = options.time {
        if !(1..=180).contains(&t.minutes) || t.increment > 60 {
            return bad("time is 1 to 180 minutes, increment 0 to 60 seconds");
        }
    }
    if let Some(c) = options.correspondence {
        if options.time.is_some() {
            return bad("a correspondence game has days per turn instead of a clock");
        }
        if c.days.is_some_and(|d| !DAYS_PER_TURN.contains(&d)) {
            return bad("days per turn are 1, 2, 3, 5, 7, 10 or 14, or unlimited");
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
    if options.rated {
        if crate::rating::category::category(options).is_none() {
            return bad("a rated game needs a clock or days per turn");
        }
        if options.handicap.is_some() || options.turn_limit.is_some() {
            return bad("a rated game has no handicap and no turn limit");
        }
        if !options.log {
            return bad("a rated game is archived");
        }
    }
    debug_assert!(rules_of(options).is_valid());
    Ok(())
}
