//! Results and the store: what is committed, what a commit that succeeded or failed
//! changes, results held while the store is down.

use tokio::time::Instant;
use yinsh::Color;
use yinsh::notation::record::GameResult;

use super::{
    Commit, Committed, Core, Decision, Effects, Now, Pending, Reply, VacationNews, stored_result,
};
use crate::game::store::GameWrite;
use crate::game::{Game, result_view};
use crate::i18n::Msg;
use crate::i18n::color_key;
use crate::protocol::{Pair, RatingDiff, ResultView, SeatColor, TableEvent};
use crate::refusal::Refusal;
use crate::vocab::GameId;

impl Core {
    /// Ends the game with `result` reached at `at`: committed first, or held while the
    /// store is down (the game is over for everyone, the result announced once stored).
    pub(super) fn decide_result(
        &mut self,
        result: GameResult,
        at: Instant,
        now: Now,
        reply: Reply,
    ) -> Decision {
        if self.store_down {
            return Decision::Done(Effects::reply(self.hold(result, at, reply)));
        }
        let game = self.game.as_ref().expect("a running game");
        let commit = Commit::Game {
            game: game.id,
            write: GameWrite::Result(stored_result(&result, now.wall_ms)),
            log: game.options.log,
        };
        self.in_flight = Some(Pending::Result { result, at, reply });
        Decision::Commit(commit)
    }

    pub(super) fn decide_abort(&mut self, by: Option<Color>, now: Now) -> Decision {
        if self.store_down {
            return Decision::refuse(Refusal::StoreUnavailable);
        }
        let game = self.game.as_ref().expect("a running game");
        let commit = Commit::Game {
            game: game.id,
            write: GameWrite::Abort,
            log: game.options.log,
        };
        self.in_flight = Some(Pending::Abort { by, at: now.at });
        Decision::Commit(commit)
    }

    // ---- The store ----

    /// The commit of a held result, to try again (the store may be back).
    pub fn retry_held(&mut self, now: Now) -> Option<Commit> {
        if self.in_flight.is_some() {
            return None;
        }
        let result = self.held?;
        let game = self.game.as_ref()?;
        let commit = Commit::Game {
            game: game.id,
            write: GameWrite::Result(stored_result(&result, now.wall_ms)),
            log: game.options.log,
        };
        self.in_flight = Some(Pending::Result {
            result,
            at: now.at,
            reply: Ok(Msg::new("result_held")),
        });
        Some(commit)
    }

    /// The store answers again (a probe succeeded): the clocks run from `now`.
    pub fn store_back(&mut self, now: Now) -> Vec<TableEvent> {
        if !self.store_down || self.held.is_some() {
            return Vec::new();
        }
        self.store_down = false;
        self.resume_clocks(now);
        vec![TableEvent::Resumed]
    }

    /// The store's answer to the commit under way.
    pub fn committed(&mut self, outcome: Committed, now: Now) -> Effects {
        let Some(pending) = self.in_flight.take() else {
            return Effects::reply(Err(Refusal::StoreUnavailable));
        };
        match outcome {
            Committed::Stored {
                game,
                ratings,
                vacation,
            } => {
                let mut effects = self.apply(pending, game, ratings, vacation, now);
                if self.store_down {
                    self.store_down = false;
                    self.held = None;
                    self.resume_clocks(now);
                    effects.events.insert(0, TableEvent::Resumed);
                }
                effects
            }
            Committed::Failed => self.failed(pending),
        }
    }

    /// A commit failed: nothing changes, except that the clocks stop from the moment
    /// of the request (the outage is nobody's time) and a result is held.
    pub(super) fn failed(&mut self, pending: Pending) -> Effects {
        let mut events = Vec::new();
        if !self.store_down {
            self.store_down = true;
            if let (Some(game), Some(at)) = (self.game.as_mut(), pending.at()) {
                game.stop_clocks(at);
            }
            events.push(TableEvent::Interrupted);
        }
        let reply = match pending {
            Pending::Result { result, at, reply } => self.hold(result, at, reply),
            _ => Err(Refusal::StoreUnavailable),
        };
        Effects { events, reply }
    }

    /// Starts the clock of the player to act again after an outage, unless a restored
    /// game still waits for them to come back.
    pub(super) fn resume_clocks(&mut self, now: Now) {
        if let Some(game) = self.game.as_mut().filter(|_| !self.awaiting_return) {
            game.resume_clocks(now.at);
        }
    }

    /// Holds `result`, reached at `at`, until the store takes it: the game is over for
    /// everyone (clocks stopped, offers gone), nothing is announced yet. The requester
    /// is told so.
    fn hold(&mut self, result: GameResult, at: Instant, reply: Reply) -> Reply {
        let game = self.game.as_mut().expect("a running game");
        game.stop_clocks(at);
        game.draw_offer = None;
        game.takeback_request = None;
        self.held = Some(result);
        self.claim_open = None;
        reply.map(|_| Msg::new("result_held"))
    }

    pub(super) fn apply(
        &mut self,
        pending: Pending,
        id: Option<GameId>,
        ratings: Option<Pair<RatingDiff>>,
        vacation: Option<VacationNews>,
        now: Now,
    ) -> Effects {
        match pending {
            Pending::Start {
                options,
                started_at,
                paired,
            } => {
                let id = id.expect("the store gives a new game its id");
                let correspondence = options.correspondence.is_some();
                let mut game = Game::new(id, options, started_at, now.at);
                if let Some(VacationNews::Left(left)) = vacation {
                    game.vacation_left = left;
                    game.vacation_known = true;
                }
                // A paired live game waits for the player to act; days per turn run
                // from the start, whoever is here.
                if paired && !correspondence {
                    game.stop_clocks(now.at);
                    self.awaiting_return = true;
                }
                self.game = Some(game);
                self.claim_open = None;
                Effects {
                    events: vec![TableEvent::Started],
                    reply: Ok(Msg::new("started").arg_key("color", color_key(Color::White))),
                }
            }
            Pending::Act {
                color,
                action,
                after,
                mut clocks,
                result,
                at,
            } => {
                let game = self.game.as_mut().expect("a running game");
                if let Some(c) = clocks.as_mut() {
                    // Storing it was nobody's time: the next clock runs from now.
                    c.since = Some(now.at.max(at));
                }
                game.push(action, after, clocks);
                let mut events = Vec::new();
                // Playing on declines the opponent's pending offer.
                if game.draw_offer == Some(!color) || game.takeback_request == Some(!color) {
                    game.draw_offer = None;
                    game.takeback_request = None;
                    events.push(TableEvent::Declined { by: color.into() });
                }
                let (ply, position) = (game.actions.len() as u32, game.position.to_fen());
                events.push(TableEvent::Acted {
                    color: color.into(),
                    action: action.to_string(),
                    ply,
                    position,
                    abortable: self.abortable(),
                });
                if let Some(result) = result {
                    events.extend(self.end(result, ratings, now.at));
                }
                Effects {
                    events,
                    reply: Ok(Msg::new("played").arg("action", action)),
                }
            }
            Pending::Takeback {
                by,
                keep,
                requested,
                at,
                reply,
            } => {
                let game = self.game.as_mut().expect("a running game");
                let undone = game.actions.len() - keep;
                game.truncate(keep, now.at.max(at));
                game.takebacks[by] += 1;
                game.takeback_request = None;
                game.draw_offer = None;
                let mut events = Vec::new();
                if requested {
                    events.push(TableEvent::TakebackRequested { by: by.into() });
                }
                events.push(TableEvent::TookBack {
                    actions: undone as u32,
                });
                Effects {
                    events,
                    reply: Ok(reply),
                }
            }
            Pending::Result { result, at, reply } => Effects {
                events: self.end(result, ratings, at),
                reply,
            },
            Pending::Vacation { color, .. } => {
                let game = self.game.as_mut().expect("a running game");
                let Some(VacationNews::Spent(spent)) = vacation else {
                    unreachable!("the store answers a spending with what it spent")
                };
                game.vacation_left[color] = spent.left;
                game.vacation_known = true;
                let hours = spent.here.saturating_sub(game.vacation_here);
                if hours == 0 {
                    // Nothing more to spend: the next tick ends the game on time.
                    self.vacation_spent = Some(game.actions.len());
                    return Effects::reply(Ok(Msg::new("played")));
                }
                game.take_vacation(hours);
                Effects {
                    events: vec![TableEvent::Vacation {
                        color: color.into(),
                        hours,
                        left: spent.left.unwrap_or(0),
                    }],
                    reply: Ok(Msg::new("played")),
                }
            }
            Pending::Berserk { color, .. } => {
                let game = self.game.as_mut().expect("a running game");
                if let Some(clocks) = game.clocks.as_mut() {
                    clocks.berserk(color);
                }
                Effects {
                    events: vec![TableEvent::Berserk {
                        color: color.into(),
                    }],
                    reply: Ok(Msg::new("berserked")),
                }
            }
            Pending::Abort { by, .. } => {
                self.game = None;
                self.claim_open = None;
                Effects {
                    events: vec![TableEvent::Aborted {
                        by: by.map(SeatColor::from),
                    }],
                    reply: Ok(Msg::new("aborted")),
                }
            }
        }
    }

    /// The game ends with `result` (stored, with the `ratings` it changed) at `at`.
    pub(super) fn end(
        &mut self,
        result: GameResult,
        ratings: Option<Pair<RatingDiff>>,
        at: Instant,
    ) -> Vec<TableEvent> {
        let game = self.game.as_mut().expect("a game");
        game.stop_clocks(at);
        game.result = Some(result);
        game.ratings = ratings;
        game.draw_offer = None;
        game.takeback_request = None;
        self.held = None;
        self.claim_open = None;
        vec![TableEvent::GameOver {
            result: ResultView {
                ratings,
                ..result_view(&result)
            },
        }]
    }
}
