//! One game at a table: the position, the actions played, the clocks and the result.
//! Pure state: the table actor decides, stores and broadcasts.

pub(crate) mod http;
pub mod playing;
pub mod protocol;
pub(crate) mod sql;
pub mod store;
pub mod vacation;
use std::time::Duration;

use tokio::time::Instant;
use yinsh::notation::date::record_date;
use yinsh::notation::record::{GameResult, Record, TimeControl};
use yinsh::{Action, ByColor, Color, Point, Position, Rules, Stage};

use crate::game::store::StoredAction;
use crate::protocol::{
    BoardView, ClockView, Frame, GameView, Pair, RatingDiff, ResultView, SeatColor, StageName,
    TableOptions, VariantName,
};
use crate::vocab::GameId;

/// The rules a table's options describe.
pub fn rules_of(options: &TableOptions) -> Rules {
    let variant = match options.variant {
        VariantName::Standard => yinsh::Variant::Standard,
        VariantName::Blitz => yinsh::Variant::Blitz,
    };
    let mut rules = Rules::of(variant).with_turn_limit(options.turn_limit);
    if let Some(h) = &options.handicap {
        rules = rules.with_targets(h.white, h.black);
    }
    rules
}

/// The position a game under `options` begins from: the empty board under its rules,
/// or the position of `options.position` (a table started from a position).
pub fn start_of(options: &TableOptions) -> Result<Position, String> {
    match &options.position {
        None => Ok(Position::with_rules(rules_of(options))),
        Some(fen) => {
            Position::from_fen(fen).map_err(|e| format!("the start position '{fen}': {e}"))
        }
    }
}

/// One stored action as the rules library plays it, and the position after it.
#[derive(Debug, Clone, Copy)]
pub struct Replayed<'a> {
    /// The action as stored (its token, clocks and time).
    pub stored: &'a StoredAction,
    /// The action.
    pub action: Action,
    /// The position after it.
    pub after: Position,
}

/// Plays the stored `actions` of a game with `options` from its start; an unreadable
/// or illegal action (or an unreadable start position) is an error naming it.
///
/// Games stored before rule E3 changed (an exhausted pool now ends the game at once)
/// may end with a `pass` played after the game was over; the rules refuse it, so that
/// last `pass` is left out, and the game reads as it ends under today's rules.
pub fn replay_stored<'a>(
    options: &TableOptions,
    actions: &'a [StoredAction],
) -> Result<Vec<Replayed<'a>>, String> {
    let mut pos = start_of(options)?;
    let mut replayed = Vec::with_capacity(actions.len());
    for (ply, stored) in actions.iter().enumerate() {
        let action: Action = stored
            .token
            .parse()
            .map_err(|e| format!("action {ply} '{}': {e}", stored.token))?;
        if action == Action::Pass && pos.is_over() && ply + 1 == actions.len() {
            break;
        }
        pos.play(action)
            .map_err(|e| format!("action {ply} '{}': {e}", stored.token))?;
        replayed.push(Replayed {
            stored,
            action,
            after: pos,
        });
    }
    Ok(replayed)
}

/// The time left on the mover's clock after each turn of a replayed game, as records
/// write them (`Record::clocks`); empty for an untimed game.
pub fn turn_clocks(start: &Position, replayed: &[Replayed]) -> Vec<Option<u64>> {
    let actions: Vec<Action> = replayed.iter().map(|r| r.action).collect();
    let Ok(turns) = yinsh::notation::turn::split(start, &actions) else {
        return Vec::new();
    };
    let mut end = 0;
    let clocks: Vec<Option<u64>> = turns
        .iter()
        .map(|turn| {
            end += turn.turn.actions().len();
            let last = replayed[end - 1].stored;
            match turn.color() {
                Color::White => last.white_ms,
                Color::Black => last.black_ms,
            }
        })
        .collect();
    if clocks.iter().all(Option::is_none) {
        Vec::new()
    } else {
        clocks
    }
}

/// The time control of a table's options.
pub fn time_control_of(options: &TableOptions) -> Option<TimeControl> {
    options
        .time
        .map(|t| TimeControl::minutes(t.minutes, t.increment))
}

/// The clocks a game under `options` begins with: a live clock, days per turn in a
/// correspondence game, or none (untimed, or unlimited correspondence).
pub fn clocks_of(options: &TableOptions, now: Instant) -> Option<Clocks> {
    match options.correspondence {
        Some(c) => c.days.map(|days| Clocks::per_turn(days, now)),
        None => time_control_of(options).map(|tc| Clocks::new(tc, now)),
    }
}

/// A day, for correspondence clocks.
pub const DAY: Duration = Duration::from_secs(24 * 3600);

/// Server-side chess clocks: time left for each player and, while the running one
/// (the player to act) runs, since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    /// Time left at `since` (or when the clocks stopped).
    pub remaining: ByColor<Duration>,
    /// Each clock at the start of the game.
    pub initial: Duration,
    /// Added after each completed turn.
    pub increment: Duration,
    /// When the running clock last started; `None` while the clocks stand still (the
    /// game is over, or the store is down: nobody's time).
    pub since: Option<Instant>,
    /// Correspondence clocks: each turn begins with the whole allowance (`initial`)
    /// again, rather than with what was left.
    pub per_turn: bool,
    /// Who berserked (a tournament game): their clock was halved, and they get no
    /// increment.
    pub berserk: ByColor<bool>,
}

impl Clocks {
    /// Full clocks for `tc`, the running one starting `now`.
    pub fn new(tc: TimeControl, now: Instant) -> Clocks {
        let initial = Duration::from_secs(u64::from(tc.initial_secs));
        Clocks {
            remaining: ByColor {
                white: initial,
                black: initial,
            },
            initial,
            increment: Duration::from_secs(u64::from(tc.increment_secs)),
            since: Some(now),
            per_turn: false,
            berserk: ByColor::default(),
        }
    }

    /// Correspondence clocks of `days` per turn, the running one starting `now`.
    pub fn per_turn(days: u8, now: Instant) -> Clocks {
        let initial = DAY * u32::from(days);
        Clocks {
            remaining: ByColor {
                white: initial,
                black: initial,
            },
            initial,
            increment: Duration::ZERO,
            since: Some(now),
            per_turn: true,
            berserk: ByColor::default(),
        }
    }

    /// `color`'s time left at `now`, when `color`'s clock is the one that would run.
    pub fn left(&self, color: Color, running: bool, now: Instant) -> Duration {
        let r = self.remaining[color];
        match self.since {
            Some(since) if running => r.saturating_sub(now.saturating_duration_since(since)),
            _ => r,
        }
    }

    /// `color` berserks: half of the whole allowance is taken off their clock, and they
    /// get no increment from now on.
    pub fn berserk(&mut self, color: Color) {
        self.remaining[color] = self.remaining[color].saturating_sub(self.initial / 2);
        self.berserk[color] = true;
    }

    /// Charges `color` (the player to act) up to `at` and stops the clocks.
    pub fn stop(&mut self, color: Color, at: Instant) {
        self.remaining[color] = self.left(color, true, at);
        self.since = None;
    }
}

/// A game in progress or just finished.
#[derive(Debug, Clone)]
pub struct Game {
    /// The store's id.
    pub id: GameId,
    /// The options it was started with.
    pub options: TableOptions,
    /// The position it began from (the empty board, or `options.position`).
    pub start: Position,
    /// When it started, in milliseconds since 1970.
    pub started_at: i64,
    /// The position now.
    pub position: Position,
    /// Every action so far.
    pub actions: Vec<Action>,
    /// The clocks, for a timed game.
    pub clocks: Option<Clocks>,
    /// Both clocks after each action of `actions` (timed games): a takeback goes back
    /// to them.
    pub clock_log: Vec<ByColor<Duration>>,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// In a rated game that is over, each player's rating before and after it.
    pub ratings: Option<Pair<RatingDiff>>,
    /// A pending draw offer, by this player.
    pub draw_offer: Option<Color>,
    /// A pending takeback request, by this player.
    pub takeback_request: Option<Color>,
    /// Takebacks granted to each player in this game.
    pub takebacks: ByColor<u8>,
    /// Each player's vacation hours left this year, in a correspondence game with days
    /// per turn (`None`: none, or not known yet).
    pub vacation_left: ByColor<Option<u32>>,
    /// Whether `vacation_left` is as the store said (else a fallen clock asks it).
    pub vacation_known: bool,
    /// The hours of vacation the player to act spent on the action awaited: its
    /// deadline is that much later.
    pub vacation_here: u32,
    /// How long before its clock ran here the player to act had already run out of
    /// time (a restored correspondence game whose deadline passed while the server was
    /// down): vacation spent for that turn covers it first.
    pub overdue: Duration,
}

impl Game {
    /// A new game under `options` (checked by `validate_options`), its clock (if any)
    /// starting `now`.
    pub fn new(id: GameId, options: TableOptions, started_at: i64, now: Instant) -> Game {
        let start = start_of(&options).unwrap_or_else(|e| {
            // Options are checked before a table takes them; this is a bug.
            tracing::error!("{e}; the game begins on the empty board");
            Position::with_rules(rules_of(&options))
        });
        Game {
            id,
            start,
            position: start,
            clocks: clocks_of(&options, now),
            options,
            started_at,
            actions: Vec::new(),
            clock_log: Vec::new(),
            result: None,
            ratings: None,
            draw_offer: None,
            takeback_request: None,
            takebacks: ByColor::default(),
            vacation_left: ByColor::default(),
            vacation_known: false,
            vacation_here: 0,
            overdue: Duration::ZERO,
        }
    }

    /// Whether the game still runs.
    pub fn is_running(&self) -> bool {
        self.result.is_none()
    }

    /// The player who must act now, while the game runs.
    pub fn to_act(&self) -> Option<Color> {
        self.is_running().then(|| self.position.turn())
    }

    /// When the running clock falls, if a clock runs.
    pub fn deadline(&self) -> Option<Instant> {
        let color = self.to_act()?;
        let clocks = self.clocks.as_ref()?;
        Some(clocks.since? + clocks.remaining[color])
    }

    /// Whether the player to act has run out of time at `now`.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let color = self.to_act()?;
        let deadline = self.deadline()?;
        (now >= deadline).then_some(color)
    }

    /// The clocks after `actor` completes an action at `now` that leaves `after` to
    /// act: their time is charged, and the increment added when the turn passes (for
    /// correspondence clocks, both begin the next turn with the whole allowance).
    pub fn clocks_after(&self, actor: Color, after: &Position, now: Instant) -> Option<Clocks> {
        let mut clocks = self.clocks?;
        clocks.remaining[actor] = clocks.left(actor, true, now);
        if !after.is_over() && after.turn() != actor {
            if clocks.per_turn {
                clocks.remaining = ByColor {
                    white: clocks.initial,
                    black: clocks.initial,
                };
            } else if !clocks.berserk[actor] {
                clocks.remaining[actor] += clocks.increment;
            }
        }
        clocks.since = Some(now);
        Some(clocks)
    }

    /// Stops the clocks at `at` (the game ended, or the store went down): the running
    /// one is charged up to then.
    pub fn stop_clocks(&mut self, at: Instant) {
        let color = self.position.turn();
        if let Some(clocks) = self.clocks.as_mut() {
            if clocks.since.is_some() {
                clocks.stop(color, at);
            }
        }
    }

    /// Starts the clock of the player to act again at `now` (after an outage).
    pub fn resume_clocks(&mut self, now: Instant) {
        if self.is_running() {
            if let Some(clocks) = self.clocks.as_mut() {
                clocks.since.get_or_insert(now);
            }
        }
    }

    /// Starts the clock of the player to act as if it had run since `since_ms` (wall
    /// clock, milliseconds since 1970; `now_ms` is now): what it had then, less the
    /// time since, from `now` (a restored correspondence game, whose days run while
    /// the server is down).
    pub fn run_clocks_since(&mut self, since_ms: i64, now_ms: i64, now: Instant) {
        let Some(color) = self.to_act() else { return };
        if let Some(clocks) = self.clocks.as_mut() {
            let elapsed = Duration::from_millis(now_ms.saturating_sub(since_ms).max(0) as u64);
            self.overdue = elapsed.saturating_sub(clocks.remaining[color]);
            clocks.remaining[color] = clocks.remaining[color].saturating_sub(elapsed);
            clocks.since = Some(now);
        }
    }

    /// Gives the player to act `hours` of vacation: their deadline moves on by them
    /// (the time they were [`Game::overdue`] is covered first).
    pub fn take_vacation(&mut self, hours: u32) {
        let Some(color) = self.to_act() else { return };
        if let Some(clocks) = self.clocks.as_mut() {
            let more = vacation::HOUR * hours;
            let covered = more.min(self.overdue);
            self.overdue -= covered;
            clocks.remaining[color] += more - covered;
            self.vacation_here += hours;
        }
    }

    /// Plays `action` (already checked against the rules, leaving `after`) with the
    /// clocks it leaves.
    pub fn push(&mut self, action: Action, after: Position, clocks: Option<Clocks>) {
        self.position = after;
        self.actions.push(action);
        self.vacation_here = 0;
        self.overdue = Duration::ZERO;
        if let Some(c) = clocks {
            self.clock_log.push(c.remaining);
        }
        self.clocks = clocks;
    }

    /// Both clocks after the first `n` actions (the start of the turn a takeback goes
    /// back to), for a timed game.
    pub fn clocks_at(&self, n: usize) -> Option<ByColor<Duration>> {
        let clocks = self.clocks.as_ref()?;
        Some(match n.checked_sub(1) {
            None => ByColor {
                white: clocks.initial,
                black: clocks.initial,
            },
            Some(i) => *self.clock_log.get(i)?,
        })
    }

    /// Keeps the first `keep` actions (a takeback): the position and both clocks are
    /// as they were then, and the clock of the player to act runs from `now`.
    pub fn truncate(&mut self, keep: usize, now: Instant) {
        let remaining = self.clocks_at(keep);
        self.position = self.replay(keep);
        self.actions.truncate(keep);
        self.clock_log.truncate(keep);
        self.vacation_here = 0;
        self.overdue = Duration::ZERO;
        if let (Some(clocks), Some(remaining)) = (self.clocks.as_mut(), remaining) {
            clocks.remaining = remaining;
            clocks.since = Some(now);
        }
    }

    /// How many actions a takeback for `by` undoes: back to the start of their most
    /// recent turn, so that it is theirs to play again. `None` when they have not
    /// acted yet.
    pub fn takeback_length(&self, by: Color) -> Option<usize> {
        let actors = self.actors();
        // The last index k where `by` acts and the action before was the opponent's
        // (or there was none).
        let start = (0..actors.len())
            .rev()
            .find(|&k| actors[k] == by && (k == 0 || actors[k - 1] != by))?;
        Some(self.actions.len() - start)
    }

    /// Who played each action.
    pub fn actors(&self) -> Vec<Color> {
        let mut pos = self.start;
        let mut actors = Vec::with_capacity(self.actions.len());
        for &a in &self.actions {
            actors.push(pos.turn());
            pos.play_unchecked(a);
        }
        actors
    }

    /// The position after the first `n` actions.
    pub fn replay(&self, n: usize) -> Position {
        let mut pos = self.start;
        for &a in &self.actions[..n] {
            pos.play_unchecked(a);
        }
        pos
    }

    /// The clocks as clients see them at `now`.
    pub fn clock_view(&self, now: Instant) -> Option<ClockView> {
        let clocks = self.clocks.as_ref()?;
        let running = self.to_act().filter(|_| clocks.since.is_some());
        let ms = |c: Color| clocks.left(c, running == Some(c), now).as_millis() as u64;
        Some(ClockView {
            white_ms: ms(Color::White),
            black_ms: ms(Color::Black),
            running: running.map(SeatColor::from),
            increment: clocks.increment.as_secs() as u32,
            days: self.options.correspondence.and_then(|c| c.days),
            vacation: clocks.per_turn.then_some(Pair {
                white: self.vacation_left.white,
                black: self.vacation_left.black,
            }),
            berserk: (self.options.tournament.is_some() && !clocks.per_turn).then_some(Pair {
                white: clocks.berserk.white,
                black: clocks.berserk.black,
            }),
        })
    }

    /// The game as clients see it at `now`, without the legal actions (which only the
    /// player to act is given; the table fills in what depends on the players'
    /// presence).
    pub fn view(&self, now: Instant) -> GameView {
        let pos = &self.position;
        let frame = frame(pos, self.result.is_some());
        GameView {
            id: self.id.0,
            position: frame.position,
            board: frame.board,
            to_move: frame.to_move,
            stage: frame.stage,
            pool: frame.pool,
            removed: frame.removed,
            targets: Pair {
                white: pos.rules().targets.white,
                black: pos.rules().targets.black,
            },
            ring_moves: pos.ring_moves(),
            legal: Vec::new(),
            moves: self.actions.iter().map(|a| a.to_string()).collect(),
            clocks: self.clock_view(now),
            result: self.result.as_ref().map(|r| ResultView {
                ratings: self.ratings,
                ..result_view(r)
            }),
            draw_offer: self.draw_offer.map(SeatColor::from),
            takeback_request: self.takeback_request.map(SeatColor::from),
            takebacks: Pair {
                white: self.takebacks.white,
                black: self.takebacks.black,
            },
            abortable: false,
            claimable: None,
            paused: false,
        }
    }
}

/// The board, the player to act and what they must do in `pos` (`over` also when the
/// game ended off the board).
pub fn frame(pos: &Position, over: bool) -> Frame {
    let points = |b: yinsh::Bitboard| b.into_iter().map(|p: Point| p.to_string()).collect();
    let stage = match (over, pos.stage()) {
        (true, _) | (_, Stage::Over) => StageName::Over,
        (_, Stage::Place) => StageName::Place,
        (_, Stage::Move) => StageName::Move,
        (_, Stage::RemoveRow { .. }) => StageName::RemoveRow,
        (_, Stage::RemoveRing { .. }) => StageName::RemoveRing,
    };
    Frame {
        position: pos.to_fen(),
        board: BoardView {
            rings: Pair {
                white: points(pos.rings(Color::White)),
                black: points(pos.rings(Color::Black)),
            },
            markers: Pair {
                white: points(pos.markers(Color::White)),
                black: points(pos.markers(Color::Black)),
            },
        },
        to_move: pos.turn().into(),
        stage,
        pool: pos.pool(),
        removed: Pair {
            white: pos.removed(Color::White),
            black: pos.removed(Color::Black),
        },
    }
}

/// A record of a game played at a table.
pub fn record_of(
    options: &TableOptions,
    names: &ByColor<String>,
    started_at: i64,
    actions: Vec<Action>,
    result: Option<GameResult>,
) -> Record {
    Record::new(rules_of(options))
        .with_position(
            start_of(options)
                .ok()
                .filter(|_| options.position.is_some()),
        )
        .with_players(names.white.clone(), names.black.clone())
        .with_date(record_date(started_at.div_euclid(1000)))
        .with_time_control(time_control_of(options))
        .with_actions(actions)
        .with_result(result)
}

/// A result as clients see it.
pub fn result_view(result: &GameResult) -> ResultView {
    ResultView {
        winner: result.winner.map(SeatColor::from),
        score: crate::protocol::ScoreText::of(result.winner),
        termination: result.termination.into(),
        ratings: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(options: TableOptions) -> Game {
        Game::new(GameId(1), options, 0, Instant::now())
    }

    fn play(g: &mut Game, tokens: &str) {
        for t in tokens.split_whitespace() {
            let a: Action = t.parse().unwrap();
            g.position.play(a).unwrap();
            g.actions.push(a);
        }
    }

    fn stored(tokens: &[String]) -> Vec<StoredAction> {
        tokens
            .iter()
            .map(|t| StoredAction {
                token: t.clone(),
                white_ms: None,
                black_ms: None,
                at: 0,
                to_act: None,
            })
            .collect()
    }

    #[test]
    fn stored_games_replay_and_an_old_trailing_pass_is_left_out() {
        let options = TableOptions::default();
        let mut rng = yinsh::random::SplitMix64::new(11);
        let mut pos = Position::with_rules(rules_of(&options));
        let mut tokens = Vec::new();
        while let Some(a) = yinsh::random::random_action(&pos, &mut rng) {
            pos.play(a).unwrap();
            tokens.push(a.to_string());
        }
        let all = stored(&tokens);
        let replayed = replay_stored(&options, &all).unwrap();
        assert_eq!(replayed.len(), tokens.len());
        assert_eq!(replayed.last().unwrap().after, pos);
        // A pass stored after the end (the old reading of rule E3) is dropped...
        let mut old = tokens.clone();
        old.push("pass".to_owned());
        let with_pass = stored(&old);
        let replayed = replay_stored(&options, &with_pass).unwrap();
        assert_eq!(replayed.len(), tokens.len());
        assert!(replayed.last().unwrap().after.is_over());
        // ...but nothing else is forgiven: an illegal or unreadable action is an error.
        old.push("pass".to_owned());
        assert!(replay_stored(&options, &stored(&old)).is_err());
        let mut bad = tokens[..3].to_vec();
        bad.push("pass".to_owned());
        assert!(
            replay_stored(&options, &stored(&bad))
                .unwrap_err()
                .contains("action 3 'pass'")
        );
        assert!(replay_stored(&options, &stored(&["zz9".to_owned()])).is_err());
    }

    #[test]
    fn takeback_goes_back_to_the_start_of_the_requesters_turn() {
        let mut g = game(TableOptions::default());
        assert_eq!(g.takeback_length(Color::White), None);
        play(&mut g, "e3");
        assert_eq!(g.takeback_length(Color::White), Some(1));
        assert_eq!(g.takeback_length(Color::Black), None);
        play(&mut g, "a5");
        // White's last turn began one action before black's reply.
        assert_eq!(g.takeback_length(Color::White), Some(2));
        assert_eq!(g.takeback_length(Color::Black), Some(1));
    }

    #[test]
    fn increment_after_a_completed_turn_only() {
        let g = game(TableOptions {
            time: Some(crate::protocol::TimeSetting {
                minutes: 1,
                increment: 2,
            }),
            ..TableOptions::default()
        });
        let start = g.clocks.unwrap().since.unwrap();
        let mut after = g.position;
        after.play("e3".parse().unwrap()).unwrap();
        let c = g
            .clocks_after(Color::White, &after, start + Duration::from_secs(5))
            .unwrap();
        assert_eq!(c.remaining.white, Duration::from_secs(57));
        assert_eq!(c.remaining.black, Duration::from_secs(60));
        assert_eq!(g.deadline(), Some(start + Duration::from_secs(60)));
    }

    #[test]
    fn correspondence_turns_begin_with_the_whole_allowance() {
        let g = game(TableOptions {
            correspondence: Some(crate::protocol::Correspondence { days: Some(2) }),
            ..TableOptions::default()
        });
        let start = g.clocks.unwrap().since.unwrap();
        assert_eq!(g.deadline(), Some(start + DAY * 2));
        let hours = |h: u64| Duration::from_secs(h * 3600);
        // An action that keeps the turn (a removal after a row) is charged…
        let same = g
            .clocks_after(Color::White, &g.position, start + hours(5))
            .unwrap();
        assert_eq!(same.remaining.white, DAY * 2 - hours(5));
        // …and one that passes it gives both players their whole two days again.
        let mut after = g.position;
        after.play("e3".parse().unwrap()).unwrap();
        let c = g
            .clocks_after(Color::White, &after, start + hours(30))
            .unwrap();
        assert_eq!(c.remaining.white, DAY * 2);
        assert_eq!(c.remaining.black, DAY * 2);
        assert_eq!(c.since, Some(start + hours(30)));
        let view = Game {
            clocks: Some(c),
            ..g.clone()
        }
        .clock_view(start + hours(30));
        assert_eq!(view.unwrap().days, Some(2));
        // Unlimited correspondence has no clock at all.
        let unlimited = game(TableOptions {
            correspondence: Some(crate::protocol::Correspondence { days: None }),
            ..TableOptions::default()
        });
        assert_eq!(unlimited.clocks, None);
    }

    #[test]
    fn records_carry_the_options() {
        let mut g = game(TableOptions {
            variant: VariantName::Blitz,
            ..TableOptions::default()
        });
        play(&mut g, "e3 a5");
        let names = ByColor {
            white: "w".to_owned(),
            black: "b".to_owned(),
        };
        let r = record_of(&g.options, &names, 0, g.actions.clone(), g.result);
        assert_eq!(r.rules, Rules::BLITZ);
        assert_eq!(r.replay().unwrap(), g.position);
    }
}
