//! The table's rules without sockets, store or runtime: a harness plays the store
//! (it takes every commit, or refuses them all while "down") and the clock.

use std::time::Duration;

use proptest::prelude::*;
use tokio::time::Instant;
use yinsh::{ByColor, Color};

use super::*;
use crate::game::store::StoredAction;
use crate::protocol::{OptionChange, TableEvent, TimeSetting};

fn player(id: i64, name: &str) -> Player {
    Player {
        id: PlayerId(id),
        name: name.to_owned(),
        bot: false,
    }
}

struct Harness {
    core: Core,
    now: Instant,
    wall: i64,
    events: Vec<TableEvent>,
    store_up: bool,
    next_game: i64,
    white: Player,
    black: Player,
    guest: Player,
    /// The ids of the people connected.
    online: Vec<PlayerId>,
    /// Each account's vacation hours left, as the store keeps them (none for others).
    vacation: std::collections::HashMap<PlayerId, u32>,
    /// The hours the store has spent at each action number.
    vacation_spent: std::collections::HashMap<u32, u32>,
}

impl Harness {
    /// Two people seated (white, black) at a table with `options`, both present.
    fn new(options: TableOptions) -> Harness {
        let mut h = Harness::empty(options);
        let (w, b) = (h.white.clone(), h.black.clone());
        h.cmd(&w, Command::Join { color: None }).unwrap();
        h.cmd(&b, Command::Join { color: None }).unwrap();
        h
    }

    /// Two people paired (white, black) at a new table with `options`, their game
    /// begun, both present (as a seek, a challenge or a tournament pairs them).
    fn paired(options: TableOptions) -> Harness {
        let mut h = Harness::empty(options);
        let (w, b) = (h.white.clone(), h.black.clone());
        let d = h.core.start_paired(w, b, h.at());
        h.run(d).unwrap();
        h.set_online(&[1, 2, 3]);
        h
    }

    /// A table with `options` and nobody seated; three people online.
    fn empty(options: TableOptions) -> Harness {
        let now = Instant::now();
        Harness {
            core: Core::new(
                "t1".into(),
                options,
                true,
                Now {
                    at: now,
                    wall_ms: 0,
                },
            ),
            now,
            wall: 0,
            events: Vec::new(),
            store_up: true,
            next_game: 1,
            white: player(1, "W"),
            black: player(2, "B"),
            guest: player(3, "G"),
            online: vec![PlayerId(1), PlayerId(2), PlayerId(3)],
            vacation: std::collections::HashMap::new(),
            vacation_spent: std::collections::HashMap::new(),
        }
    }

    fn timed(minutes: u32, increment: u32) -> Harness {
        Harness::new(TableOptions {
            time: Some(TimeSetting { minutes, increment }),
            ..TableOptions::default()
        })
    }

    fn at(&self) -> Now {
        Now {
            at: self.now,
            wall_ms: self.wall,
        }
    }

    fn advance(&mut self, d: Duration) {
        self.now += d;
        self.wall += d.as_millis() as i64;
    }

    /// Plays the store for a decision, and gives the reply.
    fn run(&mut self, d: Decision) -> Reply {
        match d {
            Decision::Done(e) => {
                self.events.extend(e.events);
                e.reply
            }
            Decision::Commit(c) => {
                let outcome = if self.store_up {
                    let (game, vacation) = self.store(&c);
                    Committed::Stored {
                        game,
                        ratings: None,
                        vacation,
                    }
                } else {
                    Committed::Failed
                };
                let e = self.core.committed(outcome, self.at());
                self.events.extend(e.events);
                e.reply
            }
            Decision::Defer => panic!("nothing is under way"),
        }
    }

    /// What the store answers to `c`, as the SQL store does: a new game's id (and its
    /// players' vacation when it has days per turn), or the vacation a spending gave.
    fn store(&mut self, c: &Commit) -> (Option<GameId>, Option<VacationNews>) {
        match c {
            Commit::CreateGame(new) => {
                self.next_game += 1;
                let left = |seat: &SeatRecord| {
                    seat.player_id
                        .and_then(|id| self.vacation.get(&id).copied())
                };
                let days = new.options.correspondence.and_then(|c| c.days);
                let vacation = days.map(|_| {
                    VacationNews::Left(ByColor {
                        white: left(&new.white),
                        black: left(&new.black),
                    })
                });
                (Some(GameId(self.next_game - 1)), vacation)
            }
            Commit::Game { .. } => (None, None),
            Commit::Vacation {
                ply, player, hours, ..
            } => {
                let here = self.vacation_spent.entry(*ply).or_default();
                let left = self.vacation.get_mut(player);
                let spent = match left {
                    None => Spent {
                        here: *here,
                        left: None,
                    },
                    Some(left) => {
                        let more = hours.saturating_sub(*here).min(*left);
                        *left -= more;
                        *here += more;
                        Spent {
                            here: *here,
                            left: Some(*left),
                        }
                    }
                };
                (None, Some(VacationNews::Spent(spent)))
            }
        }
    }

    fn cmd(&mut self, who: &Player, c: Command) -> Reply {
        let d = self.core.request(who, Request::Command(c), self.at());
        self.run(d)
    }

    fn act(&mut self, who: &Player, token: &str) -> Reply {
        let d = self.core.request(
            who,
            Request::Act {
                token: token.to_owned(),
                ply: None,
            },
            self.at(),
        );
        self.run(d)
    }

    /// Plays `tokens`, each by the player to act.
    fn play(&mut self, tokens: &str) {
        for t in tokens.split_whitespace() {
            let who = self.to_act();
            self.act(&who, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        }
    }

    fn to_act(&self) -> Player {
        match self.core.game().unwrap().position.turn() {
            Color::White => self.white.clone(),
            Color::Black => self.black.clone(),
        }
    }

    fn start(&mut self) {
        let w = self.white.clone();
        self.cmd(&w, Command::Start).unwrap();
    }

    fn tick(&mut self) {
        while let Some(d) = self.core.tick(self.at()) {
            self.run(d).ok();
        }
    }

    fn set_online(&mut self, ids: &[i64]) {
        self.online = ids.iter().map(|&i| PlayerId(i)).collect();
        let online = self.online.clone();
        let events = self.core.presence(self.at(), |id| online.contains(&id));
        self.events.extend(events);
    }

    fn remaining(&self) -> ByColor<Duration> {
        self.core.game().unwrap().clocks.unwrap().remaining
    }

    fn count(&self, f: impl Fn(&TableEvent) -> bool) -> usize {
        self.events.iter().filter(|e| f(e)).count()
    }

    fn result(&self) -> Option<GameResult> {
        self.core.game().and_then(|g| g.result)
    }
}

fn is_over(e: &TableEvent) -> bool {
    matches!(e, TableEvent::GameOver { .. })
}

const S: fn(u64) -> Duration = Duration::from_secs;

#[test]
fn a_result_is_announced_only_once_stored_and_held_while_the_store_is_down() {
    let mut h = Harness::timed(5, 0);
    h.start();
    h.play("e3 a5");
    h.store_up = false;
    let w = h.white.clone();
    // The store refuses: the resignation is held, nothing is announced as over.
    let reply = h.cmd(&w, Command::Resign).unwrap();
    assert_eq!(reply.key, "result_held");
    assert_eq!(h.count(is_over), 0);
    assert_eq!(h.result(), None);
    assert!(h.core.holds_result());
    assert_eq!(h.count(|e| matches!(e, TableEvent::Interrupted)), 1);
    // The game is over for everyone meanwhile.
    let b = h.black.clone();
    assert_eq!(h.act(&w, "b5").unwrap_err(), Refusal::ResultPending);
    assert_eq!(
        h.cmd(&b, Command::Draw).unwrap_err(),
        Refusal::ResultPending
    );
    assert_eq!(
        h.cmd(&b, Command::Start).unwrap_err(),
        Refusal::ResultPending
    );
    assert!(h.core.game_view(h.now).unwrap().legal.is_empty());
    // Still down: tried again, still held.
    let c = h.core.retry_held(h.at()).unwrap();
    h.run(Decision::Commit(c)).unwrap();
    assert_eq!(h.count(is_over), 0);
    // Back: stored, then announced.
    h.store_up = true;
    let c = h.core.retry_held(h.at()).unwrap();
    h.run(Decision::Commit(c)).unwrap();
    assert_eq!(h.count(is_over), 1);
    assert_eq!(h.result(), Some(GameResult::resignation(Color::White)));
    assert!(!h.core.holds_result() && !h.core.store_down());
}

#[test]
fn an_outage_stops_the_clocks_and_play_resumes_with_them_as_they_were() {
    let mut h = Harness::timed(1, 0);
    h.start();
    h.advance(S(10));
    h.store_up = false;
    let w = h.white.clone();
    assert_eq!(h.act(&w, "e3").unwrap_err(), Refusal::StoreUnavailable);
    // White acted after 10 s: that much is charged, and nothing while the store is down.
    let before = h.remaining();
    assert_eq!(before.white, S(50));
    h.advance(S(300));
    assert_eq!(
        h.core.deadline(),
        None,
        "no flag while the clocks stand still"
    );
    h.tick();
    assert_eq!(h.result(), None);
    // Refused at once meanwhile; the position is unchanged.
    assert_eq!(h.act(&w, "e3").unwrap_err(), Refusal::StoreUnavailable);
    assert!(h.core.game().unwrap().actions.is_empty());
    assert!(h.core.game_view(h.now).unwrap().paused);
    // The store answers again: the clocks run from now, as they were.
    h.store_up = true;
    let events = h.core.store_back(h.at());
    assert_eq!(events, vec![TableEvent::Resumed]);
    assert_eq!(h.remaining(), before);
    assert_eq!(h.core.deadline(), Some(h.now + S(50)));
    h.advance(S(5));
    h.act(&w, "e3").unwrap();
    assert_eq!(h.remaining().white, S(45));
}

#[test]
fn a_takeback_restores_both_clocks_and_mints_no_time() {
    let mut h = Harness::timed(1, 60);
    h.start();
    let (w, b) = (h.white.clone(), h.black.clone());
    for _ in 0..3 {
        h.advance(S(7));
        h.act(&w, "e3").unwrap();
        h.advance(S(4));
        h.cmd(&w, Command::Takeback).unwrap();
        h.cmd(&b, Command::Accept).unwrap();
        // Back to the start of white's turn: both clocks full, no increment kept.
        assert_eq!(h.remaining().white, S(60));
        assert_eq!(h.remaining().black, S(60));
    }
    // The limit.
    h.act(&w, "e3").unwrap();
    let after_e3 = h.remaining();
    assert_eq!(after_e3.white, S(120));
    assert_eq!(
        h.cmd(&w, Command::Takeback).unwrap_err(),
        Refusal::TakebackLimit { limit: TAKEBACKS }
    );
    assert_eq!(h.core.game().unwrap().takebacks.white, 3);
    // A takeback after both played goes back to the clocks at the start of the turn.
    h.advance(S(2));
    h.act(&b, "a5").unwrap();
    let after_a5 = h.remaining();
    h.advance(S(3));
    h.act(&w, "b5").unwrap();
    h.advance(S(9));
    h.cmd(&b, Command::Takeback).unwrap();
    h.cmd(&w, Command::Accept).unwrap();
    // Back to the start of black's turn: the clocks as they were after e3 (white's
    // time for b5 and black's for a5 are not kept).
    assert_eq!(h.core.game().unwrap().actions.len(), 1);
    assert_eq!(h.remaining(), after_e3);
    assert_ne!(h.remaining(), after_a5);
}

#[test]
fn the_engine_grants_takebacks_within_the_limit() {
    let mut h = Harness::new(TableOptions::default());
    let (w, b) = (h.white.clone(), h.black.clone());
    h.cmd(&b, Command::Leave).unwrap();
    h.cmd(&w, Command::Bot { level: Some(3) }).unwrap();
    h.start();
    let turn = h.core.bot_turn();
    assert_eq!(turn, None, "white to play");
    for n in 1..=3 {
        h.act(&w, "e3").unwrap();
        let turn = h.core.bot_turn().expect("the engine's turn");
        let d = h
            .core
            .bot_moved(turn.game, turn.ply, "a5".parse().unwrap(), h.at());
        h.run(d).unwrap();
        h.cmd(&w, Command::Takeback).unwrap();
        assert_eq!(h.core.game().unwrap().actions.len(), 0);
        assert_eq!(h.core.game().unwrap().takebacks.white, n);
    }
    h.act(&w, "e3").unwrap();
    assert_eq!(
        h.cmd(&w, Command::Takeback).unwrap_err(),
        Refusal::TakebackLimit { limit: 3 }
    );
    // A stale engine move (for a position gone) is refused and changes nothing.
    let d = h
        .core
        .bot_moved(GameId(1), 0, "a5".parse().unwrap(), h.at());
    assert_eq!(h.run(d).unwrap_err(), Refusal::Stale);
}

#[test]
fn a_game_starts_only_with_both_players_present_and_gone_players_lose_their_seat() {
    let mut h = Harness::new(TableOptions::default());
    let (w, b) = (h.white.clone(), h.black.clone());
    h.set_online(&[1]);
    assert_eq!(
        h.cmd(&w, Command::Start).unwrap_err(),
        Refusal::OpponentAway
    );
    // Black back: the game can start.
    h.set_online(&[1, 2]);
    h.start();
    h.play("e3 a5");
    h.cmd(&b, Command::Resign).unwrap();
    // Black leaves without /leave: after the grace period the seat is free, so nobody
    // can start a game against them.
    h.set_online(&[1]);
    h.advance(SEAT_GRACE - S(1));
    h.tick();
    assert!(h.core.seats().black.is_some());
    assert_eq!(
        h.cmd(&w, Command::Start).unwrap_err(),
        Refusal::OpponentAway
    );
    h.advance(S(1));
    h.tick();
    assert!(h.core.seats().black.is_none());
    assert!(h.core.seats().white.is_some());
    assert_eq!(
        h.cmd(&w, Command::Start).unwrap_err(),
        Refusal::NeedTwoPlayers
    );
}

#[test]
fn the_opponent_of_a_player_gone_may_claim_after_the_grace_period() {
    let mut h = Harness::timed(10, 5);
    let grace = claim_grace(h.core.options());
    assert_eq!(grace, S(40));
    h.start();
    h.play("e3 a5 b5 c6");
    let w = h.white.clone();
    h.set_online(&[1]);
    assert_eq!(
        h.cmd(&w, Command::Claim { draw: false }).unwrap_err(),
        Refusal::CannotClaim { seconds: 40 }
    );
    h.advance(grace);
    h.tick();
    assert_eq!(h.count(|e| matches!(e, TableEvent::Claimable { .. })), 1);
    assert_eq!(
        h.core.game_view(h.now).unwrap().claimable,
        Some(SeatColor::White)
    );
    // Black comes back: no claim any more.
    h.set_online(&[1, 2]);
    assert_eq!(h.core.game_view(h.now).unwrap().claimable, None);
    assert!(h.cmd(&w, Command::Claim { draw: false }).is_err());
    // Gone again, for long enough: white claims the win.
    h.set_online(&[1]);
    h.advance(grace);
    h.tick();
    assert_eq!(
        h.cmd(&w, Command::Claim { draw: false }).unwrap().key,
        "claimed"
    );
    let result = h.result().unwrap();
    assert_eq!(result.winner, Some(Color::White));
    assert_eq!(result.termination.name(), "abandoned");
    assert_eq!(h.count(is_over), 1);
}

#[test]
fn games_barely_begun_can_be_aborted_and_abandoned_ones_end() {
    let mut h = Harness::new(TableOptions::default());
    let (w, b) = (h.white.clone(), h.black.clone());
    h.start();
    h.play("e3 a5");
    assert_eq!(
        h.cmd(&h.guest.clone(), Command::Abort).unwrap_err(),
        Refusal::NotSeated
    );
    h.cmd(&b, Command::Abort).unwrap();
    assert!(h.core.game().is_none());
    assert_eq!(h.count(|e| matches!(e, TableEvent::Aborted { .. })), 1);
    // Too late once both made two actions.
    h.start();
    h.play("e3 a5 b5 c6");
    assert_eq!(
        h.cmd(&w, Command::Abort).unwrap_err(),
        Refusal::AbortTooLate
    );
    // Both gone from an untimed game: adjudicated after the limit (no rings removed
    // yet: a draw).
    h.set_online(&[]);
    h.advance(ABANDONED_AFTER - S(1));
    h.tick();
    assert_eq!(h.result(), None);
    assert_eq!(h.core.status(), TableStatus::Playing);
    h.advance(S(1));
    h.tick();
    let result = h.result().expect("adjudicated");
    assert_eq!(result.winner, None);
    assert_eq!(result.termination.name(), "abandoned");
    assert_eq!(h.core.status(), TableStatus::Waiting);
}

#[test]
fn a_reload_is_not_announced_and_a_real_absence_is() {
    let mut h = Harness::timed(3, 2);
    h.start();
    let presence = |h: &Harness| h.count(|e| matches!(e, TableEvent::Presence { .. }));
    let black_online = |h: &Harness| h.core.player_view(Color::Black).unwrap().online;
    // Black reloads the page: gone for a second, back, and nobody is told.
    h.set_online(&[1, 3]);
    h.advance(S(1));
    h.tick();
    h.set_online(&[1, 2, 3]);
    h.advance(S(10));
    h.tick();
    assert_eq!(presence(&h), 0);
    assert!(black_online(&h));
    // Black is gone for good: announced after the delay, and the return too.
    h.set_online(&[1, 3]);
    assert_eq!(h.core.deadline(), Some(h.now + PRESENCE_DELAY));
    h.advance(PRESENCE_DELAY);
    h.tick();
    assert_eq!(presence(&h), 1);
    assert!(matches!(
        h.events.last(),
        Some(TableEvent::Presence {
            color: SeatColor::Black,
            online: false
        })
    ));
    assert!(!black_online(&h));
    h.set_online(&[1, 2, 3]);
    assert_eq!(presence(&h), 2);
    assert!(black_online(&h));
}

#[test]
fn seats_and_options_before_the_game_and_none_during_it() {
    let mut h = Harness::new(TableOptions::default());
    let (w, b, g) = (h.white.clone(), h.black.clone(), h.guest.clone());
    assert!(matches!(
        h.cmd(&w, Command::Join { color: None }).unwrap_err(),
        Refusal::AlreadySeated { .. }
    ));
    assert!(matches!(
        h.cmd(
            &g,
            Command::Join {
                color: Some(SeatColor::White)
            }
        )
        .unwrap_err(),
        Refusal::SeatTaken { .. }
    ));
    assert_eq!(
        h.cmd(&g, Command::Join { color: None }).unwrap_err(),
        Refusal::NoFreeSeat
    );
    let log_off = Command::Option {
        change: OptionChange::Log { on: false },
    };
    assert_eq!(h.cmd(&g, log_off.clone()).unwrap_err(), Refusal::NotSeated);
    assert_eq!(h.cmd(&g, Command::Start).unwrap_err(), Refusal::NotSeated);
    let bad_time = Command::Option {
        change: OptionChange::Time {
            time: Some(TimeSetting {
                minutes: 0,
                increment: 5,
            }),
        },
    };
    assert!(matches!(
        h.cmd(&w, bad_time).unwrap_err(),
        Refusal::BadOption { .. }
    ));
    let bad_handicap = Command::Option {
        change: OptionChange::Handicap { white: 2, black: 9 },
    };
    assert!(matches!(
        h.cmd(&w, bad_handicap).unwrap_err(),
        Refusal::BadOption { .. }
    ));
    assert!(h.core.options().log, "refusals change nothing");
    h.cmd(&b, log_off.clone()).unwrap();
    assert!(!h.core.options().log);
    // One seat left empty: no game.
    h.cmd(&b, Command::Leave).unwrap();
    assert_eq!(
        h.cmd(&w, Command::Start).unwrap_err(),
        Refusal::NeedTwoPlayers
    );
    h.cmd(&g, Command::Join { color: None }).unwrap();
    h.cmd(&g, Command::Start).unwrap();
    // Mid-game: no options, no leaving, no second start.
    assert_eq!(h.cmd(&w, log_off).unwrap_err(), Refusal::GameRunning);
    assert_eq!(
        h.cmd(&w, Command::Leave).unwrap_err(),
        Refusal::LeaveRunning
    );
    assert_eq!(h.cmd(&g, Command::Start).unwrap_err(), Refusal::GameRunning);
}

#[test]
fn offers_are_the_opponents_to_answer_and_playing_on_declines_them() {
    let mut h = Harness::new(TableOptions::default());
    let (w, b) = (h.white.clone(), h.black.clone());
    h.start();
    assert_eq!(
        h.cmd(&w, Command::Takeback).unwrap_err(),
        Refusal::NothingToTakeBack
    );
    h.play("e3 a5");
    // A takeback by white undoes white's turn and black's reply.
    h.cmd(&w, Command::Takeback).unwrap();
    assert_eq!(h.cmd(&w, Command::Accept).unwrap_err(), Refusal::OwnOffer);
    h.cmd(&b, Command::Accept).unwrap();
    assert_eq!(
        h.count(|e| matches!(e, TableEvent::TookBack { actions: 2 })),
        1
    );
    assert!(h.core.game().unwrap().actions.is_empty());
    h.play("e4");
    // Declined, then answered by playing on, then accepted.
    h.cmd(&b, Command::Draw).unwrap();
    assert_eq!(
        h.cmd(&b, Command::Draw).unwrap_err(),
        Refusal::AlreadyPending
    );
    h.cmd(&w, Command::Decline).unwrap();
    assert_eq!(
        h.cmd(&w, Command::Decline).unwrap_err(),
        Refusal::NothingPending
    );
    h.cmd(&b, Command::Draw).unwrap();
    // The offerer's own action keeps the offer; the opponent's declines it.
    h.play("a5");
    assert_eq!(h.core.game().unwrap().draw_offer, Some(Color::Black));
    let declined = h.count(|e| matches!(e, TableEvent::Declined { .. }));
    h.play("b5");
    assert_eq!(h.core.game().unwrap().draw_offer, None);
    assert_eq!(
        h.count(|e| matches!(e, TableEvent::Declined { .. })),
        declined + 1
    );
    assert_eq!(
        h.cmd(&w, Command::Accept).unwrap_err(),
        Refusal::NothingPending
    );
    h.cmd(&b, Command::Draw).unwrap();
    h.cmd(&w, Command::Accept).unwrap();
    let result = h.result().unwrap();
    assert_eq!(
        (result.winner, result.termination.name()),
        (None, "agreement")
    );
    assert_eq!(h.cmd(&w, Command::Resign).unwrap_err(), Refusal::NoGame);
    // Between games the seats can be left.
    h.cmd(&w, Command::Leave).unwrap();
}

#[test]
fn only_the_seated_players_change_the_game_and_refusals_change_nothing() {
    let mut h = Harness::timed(3, 2);
    h.start();
    h.play("e3");
    let g = h.guest.clone();
    let before = format!("{:?}", h.core.game_view(h.now));
    for c in [
        Command::Resign,
        Command::Draw,
        Command::Takeback,
        Command::Accept,
        Command::Decline,
        Command::Abort,
        Command::Claim { draw: true },
        Command::Start,
        Command::Leave,
    ] {
        assert_eq!(h.cmd(&g, c).unwrap_err(), Refusal::NotSeated);
    }
    assert_eq!(h.act(&g, "a5").unwrap_err(), Refusal::NotSeated);
    let w = h.white.clone();
    assert_eq!(h.act(&w, "a5").unwrap_err(), Refusal::NotYourTurn);
    let b = h.black.clone();
    assert!(matches!(
        h.act(&b, "e3").unwrap_err(),
        Refusal::IllegalAction { .. }
    ));
    assert!(matches!(
        h.act(&b, "zz9").unwrap_err(),
        Refusal::BadAction { .. }
    ));
    assert_eq!(format!("{:?}", h.core.game_view(h.now)), before);
}

#[test]
fn a_flag_is_a_result_like_any_other() {
    let mut h = Harness::timed(1, 0);
    h.start();
    h.advance(S(61));
    h.store_up = false;
    h.tick();
    assert!(h.core.holds_result());
    assert_eq!(h.count(is_over), 0);
    h.store_up = true;
    let c = h.core.retry_held(h.at()).unwrap();
    h.run(Decision::Commit(c)).unwrap();
    assert_eq!(h.result(), Some(GameResult::time(Color::White)));
    assert_eq!(h.remaining().white, Duration::ZERO);
}

#[test]
fn an_action_after_the_flag_fell_is_refused_and_ends_the_game_on_time() {
    let mut h = Harness::timed(1, 0);
    h.start();
    let w = h.white.clone();
    h.act(&w, "e3").unwrap();
    // Black's minute runs out before the table's timer noticed; black acts then.
    h.advance(S(61));
    let b = h.black.clone();
    assert_eq!(h.act(&b, "a5").unwrap_err(), Refusal::OutOfTime);
    assert_eq!(h.result(), Some(GameResult::time(Color::Black)));
    assert_eq!(h.remaining().black, Duration::ZERO);
    assert_eq!(h.count(is_over), 1);
    // The action was not played, and nothing more is.
    assert_eq!(h.core.game_view(h.now).unwrap().moves, ["e3"]);
    assert!(h.act(&b, "a5").is_err());
}

// ---- Any sequence of inputs keeps the invariants ----

#[derive(Debug, Clone)]
enum Op {
    /// A command by white (0), black (1) or a spectator (2).
    Cmd(usize, Command),
    /// A legal action (by index) by a player.
    Act(usize, usize),
    /// A token that is not legal.
    Junk(usize),
    Advance(u64),
    Online(bool, bool),
    Store(bool),
}

fn commands() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Start),
        Just(Command::Resign),
        Just(Command::Draw),
        Just(Command::Takeback),
        Just(Command::Accept),
        Just(Command::Decline),
        Just(Command::Abort),
        any::<bool>().prop_map(|draw| Command::Claim { draw }),
        Just(Command::Leave),
        Just(Command::Join { color: None }),
        Just(Command::Option {
            change: OptionChange::Time {
                time: Some(TimeSetting {
                    minutes: 1,
                    increment: 3
                })
            }
        }),
    ]
}

fn ops() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3usize, commands()).prop_map(|(w, c)| Op::Cmd(w, c)),
        12 => (0..3usize, 0..200usize).prop_map(|(w, i)| Op::Act(w, i)),
        1 => (0..3usize).prop_map(Op::Junk),
        3 => (0..200u64).prop_map(Op::Advance),
        2 => (any::<bool>(), any::<bool>()).prop_map(|(a, b)| Op::Online(a, b)),
        1 => any::<bool>().prop_map(Op::Store),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_sequence_of_inputs_keeps_the_invariants(ops in proptest::collection::vec(ops(), 1..120)) {
        let mut h = Harness::timed(2, 3);
        h.start();
        let mut results: Vec<(GameId, GameResult)> = Vec::new();
        for op in ops {
            let who = |h: &Harness, i: usize| [&h.white, &h.black, &h.guest][i].clone();
            let before = format!("{:?} {:?}", h.core.game_view(h.now), h.core.seats());
            let events = h.events.len();
            let mut by_guest = false;
            let unseated = |h: &Harness, i: usize| h.core.seat_of(who(h, i).id).is_none();
            match op {
                Op::Cmd(i, c) => {
                    by_guest = unseated(&h, i) && !matches!(c, Command::Join { .. });
                    let p = who(&h, i);
                    h.cmd(&p, c).ok();
                }
                Op::Act(i, k) => {
                    by_guest = unseated(&h, i);
                    let legal = h.core.game().filter(|g| g.is_running())
                        .map(|g| g.position.legal_actions().to_vec()).unwrap_or_default();
                    if let Some(a) = legal.get(k % legal.len().max(1)) {
                        let p = who(&h, i);
                        h.act(&p, &a.to_string()).ok();
                    }
                }
                Op::Junk(i) => {
                    let p = who(&h, i);
                    prop_assert!(h.act(&p, "a1-a1").is_err());
                    by_guest = unseated(&h, i);
                }
                Op::Advance(s) => {
                    h.advance(S(s));
                    h.tick();
                }
                Op::Online(w, b) => {
                    let ids: Vec<i64> = [(w, 1), (b, 2)].iter().filter(|(o, _)| *o).map(|(_, i)| *i).chain([3]).collect();
                    h.set_online(&ids);
                }
                Op::Store(up) => {
                    h.store_up = up;
                    if up {
                        if let Some(c) = h.core.retry_held(h.at()) {
                            h.run(Decision::Commit(c)).ok();
                        } else {
                            let e = h.core.store_back(h.at());
                            h.events.extend(e);
                        }
                    }
                }
            }
            if by_guest {
                // Only the seated players change anything.
                let after = format!("{:?} {:?}", h.core.game_view(h.now), h.core.seats());
                prop_assert_eq!(before, after);
                prop_assert_eq!(events, h.events.len());
            }
            if let Some(game) = h.core.game() {
                // At most one result per game, and it never changes.
                if let Some(r) = game.result {
                    match results.iter().find(|(id, _)| *id == game.id) {
                        Some((_, first)) => prop_assert_eq!(*first, r),
                        None => results.push((game.id, r)),
                    }
                }
                // No clock holds more than the start and the increments of the turns
                // completed in the actions still on the board.
                if let Some(c) = game.clocks {
                    let mut counts = ByColor::<usize>::default();
                    for c in game.actors() {
                        counts[c] += 1;
                    }
                    for color in [Color::White, Color::Black] {
                        let bound = c.initial + c.increment * counts[color] as u32;
                        prop_assert!(c.remaining[color] <= bound, "{:?} {:?}", c, counts);
                    }
                }
                prop_assert!(game.takebacks.white <= TAKEBACKS && game.takebacks.black <= TAKEBACKS);
            }
            // While the store is down nothing is announced as over.
        }
        let overs = h.count(is_over);
        prop_assert_eq!(overs, results.len());
    }
}

/// A stored, unfinished 1-minute game between players 1 and 2 with `actions`.
fn stored_game(actions: Vec<StoredAction>) -> StoredGame {
    let seat = |id: i64, name: &str| SeatRecord {
        player_id: Some(PlayerId(id)),
        name: name.to_owned(),
        bot: None,
    };
    StoredGame {
        id: GameId(7),
        game: NewGame {
            table_id: "t1".to_owned(),
            options: TableOptions {
                time: Some(TimeSetting {
                    minutes: 1,
                    increment: 0,
                }),
                ..TableOptions::default()
            },
            white: seat(1, "W"),
            black: seat(2, "B"),
            started_at: 0,
        },
        actions,
        takebacks: ByColor { white: 1, black: 0 },
        result: None,
        wake_at: None,
        vacation: Default::default(),
        berserk: ByColor::default(),
    }
}

#[test]
fn a_restored_game_over_at_the_board_stores_its_result_then_announces_it() {
    // A crash between the last action and its result (or an old record whose
    // superfluous last pass is left out): the game is over, its result not stored.
    let mut rng = yinsh::random::SplitMix64::new(5);
    let mut pos = yinsh::Position::new();
    let mut actions = Vec::new();
    while let Some(a) = yinsh::random::random_action(&pos, &mut rng) {
        pos.play(a).unwrap();
        actions.push(StoredAction {
            token: a.to_string(),
            white_ms: Some(30_000),
            black_ms: Some(30_000),
            at: 1,
            to_act: (!pos.is_over()).then(|| pos.turn()),
        });
    }
    let expected: GameResult = pos.outcome().unwrap().into();
    let start = Instant::now();
    let now = Now {
        at: start,
        wall_ms: 5,
    };
    let mut core =
        Core::restore(&stored_game(actions), false, &BotAccounts::default(), now).unwrap();
    assert!(core.game_view(start).unwrap().legal.is_empty());
    assert_eq!(core.deadline(), Some(start), "due at once");
    let Some(Decision::Commit(Commit::Game {
        write: GameWrite::Result(stored),
        ..
    })) = core.tick(now)
    else {
        panic!("the result is written first");
    };
    assert_eq!(stored.termination, expected.termination.name());
    let effects = core.committed(
        Committed::Stored {
            game: None,
            ratings: None,
            vacation: None,
        },
        now,
    );
    assert!(
        matches!(effects.events[..], [TableEvent::GameOver { .. }]),
        "{:?}",
        effects.events
    );
    assert!(!core.running());
    assert_eq!(core.game().unwrap().result, Some(expected));
}

#[test]
fn a_restored_game_charges_nobody_until_the_player_to_act_is_back() {
    let stored = stored_game(vec![StoredAction {
        token: "e3".to_owned(),
        white_ms: Some(50_000),
        black_ms: Some(60_000),
        at: 1,
        to_act: Some(Color::Black),
    }]);
    let start = Instant::now();
    let now = |s: u64| Now {
        at: start + S(s),
        wall_ms: 0,
    };
    let mut core = Core::restore(&stored, false, &BotAccounts::default(), now(0)).unwrap();
    assert_eq!(core.game().unwrap().takebacks.white, 1);
    assert_eq!(
        core.deadline().map(|d| d > start + S(60)),
        Some(true),
        "only the claim and abandonment timers"
    );
    // White comes back first: black, to act, is still away and not charged.
    core.presence(now(20), |id| id == PlayerId(1));
    let clocks = core.game().unwrap().clock_view(start + S(30)).unwrap();
    assert_eq!((clocks.black_ms, clocks.running), (60_000, None));
    // Black is back at 30 s: their clock runs from then.
    core.presence(now(30), |_| true);
    let clocks = core.game().unwrap().clock_view(start + S(40)).unwrap();
    assert_eq!(clocks.black_ms, 50_000);
    assert_eq!(clocks.white_ms, 50_000);
    assert_eq!(core.deadline(), Some(start + S(90)));
}

fn rated_options() -> TableOptions {
    TableOptions {
        time: Some(TimeSetting {
            minutes: 10,
            increment: 5,
        }),
        rated: true,
        ..TableOptions::default()
    }
}

fn set(h: &mut Harness, who: &Player, change: OptionChange) -> Reply {
    h.cmd(who, Command::Option { change })
}

#[test]
fn a_rated_game_needs_a_clock_standard_targets_and_the_archive() {
    let mut h = Harness::new(TableOptions::default());
    let w = h.white.clone();
    let refused = set(&mut h, &w, OptionChange::Rated { on: true }).unwrap_err();
    assert!(matches!(refused, Refusal::BadOption { reason } if reason.contains("clock")));
    let ten = Some(TimeSetting {
        minutes: 10,
        increment: 0,
    });
    set(&mut h, &w, OptionChange::Time { time: ten }).unwrap();
    set(&mut h, &w, OptionChange::Rated { on: true }).unwrap();
    assert!(h.core.options().rated);
    for change in [
        OptionChange::Time { time: None },
        OptionChange::Log { on: false },
        OptionChange::Handicap { white: 2, black: 3 },
        OptionChange::Turns { limit: Some(20) },
    ] {
        let refused = set(&mut h, &w, change.clone()).unwrap_err();
        assert!(matches!(refused, Refusal::BadOption { .. }), "{change:?}");
    }
    assert_eq!(h.core.options(), &rated_options_with(10, 0));
    // Casual again, then anything goes.
    set(&mut h, &w, OptionChange::Rated { on: false }).unwrap();
    set(&mut h, &w, OptionChange::Time { time: None }).unwrap();
}

fn rated_options_with(minutes: u32, increment: u32) -> TableOptions {
    TableOptions {
        time: Some(TimeSetting { minutes, increment }),
        ..rated_options()
    }
}

#[test]
fn guests_and_the_engine_do_not_play_rated_games() {
    let mut h = Harness::new(rated_options());
    let (w, b) = (h.white.clone(), h.black.clone());
    let guest = player(3, "SwiftOtter42");
    // A guest may watch but not sit down; the engine cannot be seated.
    h.cmd(&b, Command::Leave).unwrap();
    assert_eq!(
        h.cmd(&guest, Command::Join { color: None }).unwrap_err(),
        Refusal::RatedGuest
    );
    assert_eq!(
        h.cmd(&w, Command::Bot { level: Some(3) }).unwrap_err(),
        Refusal::RatedEngine
    );
    // Made casual, the guest sits; rated again is refused while they do.
    set(&mut h, &w, OptionChange::Rated { on: false }).unwrap();
    h.cmd(&guest, Command::Join { color: None }).unwrap();
    assert_eq!(
        set(&mut h, &w, OptionChange::Rated { on: true }).unwrap_err(),
        Refusal::RatedGuest
    );
    h.cmd(&guest, Command::Leave).unwrap();
    h.cmd(&w, Command::Bot { level: Some(3) }).unwrap();
    assert_eq!(
        set(&mut h, &w, OptionChange::Rated { on: true }).unwrap_err(),
        Refusal::RatedEngine
    );
}

#[test]
fn a_guest_who_registered_comes_back_under_the_new_name_and_may_play_rated() {
    let mut h = Harness::new(TableOptions {
        time: Some(TimeSetting {
            minutes: 5,
            increment: 0,
        }),
        ..TableOptions::default()
    });
    let (w, b) = (h.white.clone(), h.black.clone());
    h.cmd(&b, Command::Leave).unwrap();
    let guest = player(3, "SwiftOtter42");
    h.cmd(&guest, Command::Join { color: None }).unwrap();
    assert_eq!(
        set(&mut h, &w, OptionChange::Rated { on: true }).unwrap_err(),
        Refusal::RatedGuest
    );
    let registered = player(3, "Marit");
    // The same name: nothing to say.
    assert_eq!(h.core.renamed(&guest), None);
    let event = h.core.renamed(&registered).expect("renamed");
    assert!(
        matches!(&event, TableEvent::Joined { player, .. } if player.name == "Marit" && !player.guest)
    );
    assert_eq!(h.core.renamed(&registered), None);
    set(&mut h, &w, OptionChange::Rated { on: true }).unwrap();
    h.cmd(&w, Command::Start).unwrap();
    assert!(h.core.running());
}

#[test]
fn a_rated_game_left_before_it_began_is_aborted_by_a_claim_not_won() {
    let mut h = Harness::new(rated_options());
    h.start();
    h.play("e3");
    let w = h.white.clone();
    h.set_online(&[1]);
    h.advance(claim_grace(h.core.options()));
    h.tick();
    assert_eq!(
        h.cmd(&w, Command::Claim { draw: false }).unwrap().key,
        "aborted"
    );
    assert!(h.core.game().is_none(), "no result, nothing rated");
    assert_eq!(
        h.count(|e| matches!(e, TableEvent::Aborted { by: None })),
        1
    );
    // Later in the game a claim wins as in any game.
    let mut h = Harness::new(rated_options());
    h.start();
    h.play("e3 a5 b5");
    h.set_online(&[1]);
    h.advance(claim_grace(h.core.options()));
    h.tick();
    let w = h.white.clone();
    assert_eq!(
        h.cmd(&w, Command::Claim { draw: false }).unwrap().key,
        "claimed"
    );
    assert_eq!(h.result().unwrap().winner, Some(Color::White));
}

fn correspondence(days: Option<u8>) -> TableOptions {
    TableOptions {
        correspondence: Some(crate::protocol::Correspondence { days }),
        ..TableOptions::default()
    }
}

const HOUR: Duration = Duration::from_secs(3600);

#[test]
fn a_correspondence_game_waits_for_players_who_are_away_and_falls_at_its_deadline() {
    let mut h = Harness::new(correspondence(Some(1)));
    h.start();
    // Ten hours for White's turn, then both players go.
    h.advance(HOUR * 10);
    h.play("e3");
    assert_eq!(
        h.remaining().black,
        crate::game::DAY,
        "a whole day for Black's turn"
    );
    h.set_online(&[]);
    h.advance(HOUR * 23);
    h.tick();
    assert_eq!(h.result(), None, "neither abandoned nor claimable");
    assert_eq!(h.count(|e| matches!(e, TableEvent::Claimable { .. })), 0);
    // Black's day runs out, whether or not anyone is here.
    h.advance(HOUR);
    h.tick();
    let result = h.result().expect("lost on time");
    assert_eq!(result, GameResult::time(Color::Black));
    assert_eq!(h.count(is_over), 1);
}

#[test]
fn a_paired_correspondence_game_runs_from_the_start_and_unlimited_has_no_deadline() {
    let mut h = Harness::new(correspondence(None));
    h.start();
    h.set_online(&[]);
    h.advance(HOUR * 24 * 400);
    h.tick();
    assert_eq!(h.result(), None);
    assert_eq!(h.core.deadline(), None, "nothing is ever due");
}

#[test]
fn days_per_turn_are_from_the_set_instead_of_a_clock_and_rate_their_own_category() {
    let mut h = Harness::new(TableOptions::default());
    let w = h.white.clone();
    let days = |d: Option<u8>| OptionChange::Correspondence {
        correspondence: Some(crate::protocol::Correspondence { days: d }),
    };
    for bad in [0, 4, 15, 255] {
        let refused = set(&mut h, &w, days(Some(bad))).unwrap_err();
        assert!(
            matches!(&refused, Refusal::BadOption { reason } if reason.contains("1, 2, 3, 5, 7, 10 or 14")),
            "{bad}: {refused:?}"
        );
    }
    assert_eq!(
        h.core.options(),
        &TableOptions::default(),
        "nothing changed"
    );
    let ten = Some(TimeSetting {
        minutes: 10,
        increment: 0,
    });
    set(&mut h, &w, OptionChange::Time { time: ten }).unwrap();
    // Days per turn replace the clock, and a clock replaces them.
    set(&mut h, &w, days(Some(3))).unwrap();
    assert_eq!(h.core.options().time, None);
    set(&mut h, &w, OptionChange::Rated { on: true }).unwrap();
    assert_eq!(
        crate::rating::category::category(h.core.options()),
        Some(crate::rating::category::RatingCategory::StandardCorrespondence)
    );
    // Unlimited games are never rated.
    let refused = set(&mut h, &w, days(None)).unwrap_err();
    assert!(matches!(refused, Refusal::BadOption { .. }));
    set(&mut h, &w, OptionChange::Time { time: ten }).unwrap();
    assert_eq!(h.core.options().correspondence, None);
    // Both at once (as a hand-made request could ask) are refused.
    let both = TableOptions {
        time: ten,
        ..correspondence(Some(3))
    };
    assert!(validate_options(&both).is_err());
}

/// A stored correspondence game of `days` per turn in which White played `e3` at
/// `played_at` (wall milliseconds).
fn stored_correspondence(days: u8, played_at: i64) -> StoredGame {
    let full = u64::from(days) * 24 * 3600 * 1000;
    let mut stored = stored_game(vec![StoredAction {
        token: "e3".to_owned(),
        white_ms: Some(full),
        black_ms: Some(full),
        at: played_at,
        to_act: Some(Color::Black),
    }]);
    stored.game.options = correspondence(Some(days));
    stored
}

#[test]
fn a_restored_correspondence_game_keeps_its_deadline_by_the_wall_clock() {
    let day_ms = 24 * 3600 * 1000;
    let start = Instant::now();
    // Restarted a day after White's move: Black has the other day of two, from now,
    // whether or not Black is here.
    let now = Now {
        at: start,
        wall_ms: 1_000 + day_ms,
    };
    let core = Core::restore(
        &stored_correspondence(2, 1_000),
        false,
        &BotAccounts::default(),
        now,
    )
    .unwrap();
    assert_eq!(core.deadline(), Some(start + crate::game::DAY));
    let clocks = core.game().unwrap().clock_view(start).unwrap();
    assert_eq!(clocks.running, Some(SeatColor::Black));
    assert_eq!(clocks.days, Some(2));
    // Restarted after the deadline passed while the server was down: Black loses on
    // time at once, the result stored before it is announced.
    let now = Now {
        at: start,
        wall_ms: 1_000 + 3 * day_ms,
    };
    let mut core = Core::restore(
        &stored_correspondence(2, 1_000),
        false,
        &BotAccounts::default(),
        now,
    )
    .unwrap();
    assert_eq!(core.deadline(), Some(start));
    let Some(Decision::Commit(Commit::Game {
        write: GameWrite::Result(stored),
        ..
    })) = core.tick(now)
    else {
        panic!("the result is written first");
    };
    assert_eq!(stored.winner.as_deref(), Some("white"));
    assert_eq!(stored.termination, "time");
    assert!(core.running(), "announced only once stored");
}

fn is_vacation(e: &TableEvent) -> bool {
    matches!(e, TableEvent::Vacation { .. })
}

#[test]
fn a_fallen_correspondence_clock_spends_vacation_an_hour_at_a_time_until_none_is_left() {
    let mut h = Harness::new(correspondence(Some(1)));
    h.vacation.insert(PlayerId(1), 240);
    h.vacation.insert(PlayerId(2), 3);
    h.start();
    let vacation = h.core.game().unwrap().clock_view(h.now).unwrap().vacation;
    assert_eq!(
        vacation,
        Some(Pair {
            white: Some(240),
            black: Some(3)
        }),
        "both players see both balances from the start"
    );
    h.play("e3");
    h.set_online(&[]);
    // Black's day runs out: an hour of vacation instead, and the deadline an hour on.
    h.advance(crate::game::DAY);
    h.tick();
    assert_eq!(h.result(), None);
    assert_eq!(
        h.events.last(),
        Some(&TableEvent::Vacation {
            color: SeatColor::Black,
            hours: 1,
            left: 2
        })
    );
    assert_eq!(h.core.deadline(), Some(h.now + HOUR));
    // Each hour that passes spends the next, until none is left: then Black loses on
    // time, three hours after the day.
    h.advance(HOUR);
    h.tick();
    h.advance(HOUR);
    h.tick();
    assert_eq!(h.count(is_vacation), 3);
    assert_eq!(h.result(), None);
    let clocks = h.core.game().unwrap().clock_view(h.now).unwrap();
    assert_eq!(clocks.vacation.unwrap().black, Some(0));
    h.advance(HOUR - Duration::from_millis(1));
    h.tick();
    assert_eq!(h.result(), None, "the third hour is Black's to the end");
    h.advance(Duration::from_millis(1));
    h.tick();
    assert_eq!(h.result(), Some(GameResult::time(Color::Black)));
    assert_eq!(h.count(is_vacation), 3);
}

#[test]
fn a_turn_played_on_vacation_passes_and_the_next_turn_begins_with_the_whole_allowance() {
    let mut h = Harness::new(correspondence(Some(2)));
    h.vacation.insert(PlayerId(2), 240);
    h.start();
    h.play("e3");
    h.advance(crate::game::DAY * 2 + Duration::from_secs(60));
    h.tick();
    assert_eq!(h.count(is_vacation), 1);
    h.play("a5");
    assert_eq!(h.remaining().white, crate::game::DAY * 2);
    assert_eq!(h.core.game().unwrap().vacation_here, 0);
    h.play("b5");
    assert_eq!(h.remaining().black, crate::game::DAY * 2);
    // Black's next lapse is spent from what was left.
    h.advance(crate::game::DAY * 2);
    h.tick();
    assert_eq!(
        h.events.last(),
        Some(&TableEvent::Vacation {
            color: SeatColor::Black,
            hours: 1,
            left: 238
        })
    );
}

#[test]
fn vacation_is_for_people_with_hours_and_days_per_turn_only() {
    // A bot account has none, and is not even asked for.
    let mut h = Harness::new(correspondence(Some(1)));
    h.vacation.insert(PlayerId(2), 240);
    h.start();
    h.play("e3");
    h.core.seats[Color::Black] = Some(Seat::Human(Player {
        bot: true,
        ..h.black.clone()
    }));
    h.advance(crate::game::DAY);
    assert!(matches!(
        h.core.tick(h.at()),
        Some(Decision::Commit(Commit::Game {
            write: GameWrite::Result(_),
            ..
        }))
    ));
    // A live clock falls as it always did.
    let mut h = Harness::timed(1, 0);
    h.vacation.insert(PlayerId(1), 240);
    h.start();
    h.advance(S(60));
    h.tick();
    assert_eq!(h.result(), Some(GameResult::time(Color::White)));
    assert_eq!(h.count(is_vacation), 0);
}

#[test]
fn a_spending_the_store_does_not_take_costs_nothing_and_is_made_once_it_is_back() {
    let mut h = Harness::new(correspondence(Some(1)));
    h.vacation.insert(PlayerId(2), 240);
    h.start();
    h.play("e3");
    h.advance(crate::game::DAY);
    h.store_up = false;
    h.tick();
    assert_eq!(h.result(), None, "not lost for the outage");
    assert!(h.core.store_down());
    assert_eq!(h.count(|e| matches!(e, TableEvent::Interrupted)), 1);
    assert_eq!(h.count(is_vacation), 0);
    // Down for two hours: nobody's time, and no vacation spent for it.
    h.advance(HOUR * 2);
    h.tick();
    assert_eq!(h.result(), None);
    h.store_up = true;
    let events = h.core.store_back(h.at());
    h.events.extend(events);
    h.tick();
    assert_eq!(
        h.events.last(),
        Some(&TableEvent::Vacation {
            color: SeatColor::Black,
            hours: 1,
            left: 239
        })
    );
    assert_eq!(h.core.deadline(), Some(h.now + HOUR));
}

#[test]
fn a_restored_game_keeps_the_vacation_spent_on_its_turn_and_spends_what_its_downtime_took() {
    let day_ms = 24 * 3600 * 1000;
    let hour_ms = 3600 * 1000;
    let start = Instant::now();
    let mut stored = stored_correspondence(1, 1_000);
    stored.vacation = crate::game::vacation::GameVacation {
        here: 2,
        left: ByColor {
            white: None,
            black: Some(30),
        },
    };
    // Restarted a day and an hour after White's move: an hour of the two spent is left.
    let now = Now {
        at: start,
        wall_ms: 1_000 + day_ms + hour_ms,
    };
    let core = Core::restore(&stored, false, &BotAccounts::default(), now).unwrap();
    assert_eq!(core.deadline(), Some(start + HOUR));
    let clocks = core.game().unwrap().clock_view(start).unwrap();
    assert_eq!(clocks.vacation.unwrap().black, Some(30));
    // Restarted 26 hours after the turn's 24 h and 2 h of vacation ran out (less a
    // millisecond): the clock fell while the server was down, and the 26 hours begun
    // since are asked for, as if the server had been up.
    let now = Now {
        at: start,
        wall_ms: 1_000 + day_ms + 2 * hour_ms + 26 * hour_ms - 1,
    };
    let mut core = Core::restore(&stored, false, &BotAccounts::default(), now).unwrap();
    let Some(Decision::Commit(Commit::Vacation {
        game,
        ply,
        player,
        hours,
        ..
    })) = core.tick(now)
    else {
        panic!("vacation is spent first");
    };
    assert_eq!((game, ply, player), (GameId(7), 1, PlayerId(2)));
    assert_eq!(hours, 2 + 26);
    let effects = core.committed(
        Committed::Stored {
            game: None,
            ratings: None,
            vacation: Some(VacationNews::Spent(Spent {
                here: 28,
                left: Some(4),
            })),
        },
        now,
    );
    assert_eq!(
        effects.events,
        vec![TableEvent::Vacation {
            color: SeatColor::Black,
            hours: 26,
            left: 4
        }]
    );
    assert_eq!(core.deadline(), Some(start + Duration::from_millis(1)));
    assert!(core.tick(now).is_none());
}

#[test]
fn a_game_whose_balances_the_store_did_not_say_asks_it_when_a_clock_falls() {
    let mut h = Harness::new(correspondence(Some(1)));
    h.vacation.insert(PlayerId(2), 5);
    h.start();
    h.play("e3");
    // The read after the game's creation failed: nothing known.
    let game = h.core.game.as_mut().unwrap();
    game.vacation_known = false;
    game.vacation_left = ByColor::default();
    h.advance(crate::game::DAY);
    h.tick();
    assert_eq!(h.result(), None);
    assert_eq!(
        h.events.last(),
        Some(&TableEvent::Vacation {
            color: SeatColor::Black,
            hours: 1,
            left: 4
        })
    );
    // A guest's table asks once, and the clock's fall then ends the game.
    let mut h = Harness::new(correspondence(Some(1)));
    h.start();
    h.core.game.as_mut().unwrap().vacation_known = false;
    h.advance(crate::game::DAY);
    h.tick();
    assert_eq!(h.result(), Some(GameResult::time(Color::White)));
    assert_eq!(h.count(is_vacation), 0);
}

#[test]
fn a_tournament_table_plays_the_game_its_tournament_paired_and_no_other() {
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 3,
            increment: 2,
        }),
        tournament: Some("arena123".to_owned()),
        ..TableOptions::default()
    };
    // Nobody names a tournament in the options they ask for.
    assert!(matches!(
        crate::table::validate_options(&options),
        Err(Refusal::BadOption { reason }) if reason.contains("tournament")
    ));
    let mut h = Harness::new(options.clone());
    let w = h.white.clone();
    assert_eq!(h.cmd(&w, Command::Start), Err(Refusal::TournamentTable));
    assert_eq!(
        set(&mut h, &w, OptionChange::Log { on: false }),
        Err(Refusal::TournamentTable)
    );
    assert_eq!(h.core.options(), &options, "nothing changed");
    assert!(h.core.game().is_none());
}

fn arena_options() -> TableOptions {
    TableOptions {
        time: Some(TimeSetting {
            minutes: 3,
            increment: 2,
        }),
        tournament: Some("arena123".to_owned()),
        ..TableOptions::default()
    }
}

#[test]
fn a_berserk_halves_the_players_clock_and_takes_its_increment_before_their_first_action() {
    let mut h = Harness::paired(arena_options());
    let (w, b) = (h.white.clone(), h.black.clone());
    assert_eq!(
        h.cmd(&h.guest.clone(), Command::Berserk),
        Err(Refusal::NotSeated)
    );
    h.cmd(&w, Command::Berserk).unwrap();
    assert_eq!(
        h.count(|e| matches!(
            e,
            TableEvent::Berserk {
                color: SeatColor::White
            }
        )),
        1
    );
    assert_eq!(h.remaining().white, Duration::from_secs(90));
    // Once only.
    assert_eq!(h.cmd(&w, Command::Berserk), Err(Refusal::CannotBerserk));
    h.advance(Duration::from_secs(10));
    h.play("e3");
    // No increment for the berserker; the opponent keeps theirs.
    assert_eq!(h.remaining().white, Duration::from_secs(80));
    // Black may still, before their own first action; not after it.
    h.cmd(&b, Command::Berserk).unwrap();
    assert_eq!(h.remaining().black, Duration::from_secs(90));
    h.play("a2");
    assert_eq!(h.remaining().black, Duration::from_secs(90));
    h.play("e4");
    assert_eq!(h.cmd(&w, Command::Berserk), Err(Refusal::CannotBerserk));

    // Only in a tournament game with a clock.
    let mut h = Harness::timed(3, 2);
    h.start();
    let w = h.white.clone();
    assert_eq!(h.cmd(&w, Command::Berserk), Err(Refusal::CannotBerserk));
    assert_eq!(h.remaining().white, Duration::from_secs(180));
}

#[test]
fn a_restored_berserk_keeps_the_halved_clock_and_no_increment() {
    let mut stored = stored_game(Vec::new());
    stored.game.options = arena_options();
    stored.berserk.white = true;
    let core = Core::restore(&stored, true, &BotAccounts::default(), Now::present()).unwrap();
    let clocks = core.game().unwrap().clocks.unwrap();
    assert_eq!(clocks.remaining.white, Duration::from_secs(90));
    assert_eq!(clocks.remaining.black, Duration::from_secs(180));
    assert!(clocks.berserk.white && !clocks.berserk.black);
}
