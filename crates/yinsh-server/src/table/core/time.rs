//! The table's timers: flags, claims, abandoned games, seats of people who left;
//! and who is present.

use tokio::time::Instant;
use yinsh::Color;
use yinsh::notation::record::GameResult;

use super::{
    ABANDONED_AFTER, Commit, Core, Decision, Due, Now, PRESENCE_DELAY, Pending, SEAT_GRACE, Seat,
    claim_grace,
};
use crate::game::{Game, vacation};
use crate::i18n::Msg;
use crate::protocol::TableEvent;
use crate::refusal::Refusal;
use crate::vocab::PlayerId;

impl Core {
    // ---- Time ----

    /// What is due when, in the order it is handled when several are due at once.
    pub(super) fn dues(&self) -> Vec<(Instant, Due)> {
        let mut dues = Vec::new();
        if self.in_flight.is_some() || self.held.is_some() {
            return dues;
        }
        for c in [Color::White, Color::Black] {
            if let Some(since) = self.away[c].filter(|_| !self.away_told[c]) {
                dues.push((since + PRESENCE_DELAY, Due::Away(c)));
            }
        }
        match self.game.as_ref().filter(|g| g.is_running()) {
            Some(game) => {
                if game.position.is_over() {
                    if !self.store_down {
                        dues.push((self.created, Due::BoardOver));
                    }
                } else if let Some(flag) = game.deadline() {
                    dues.push((flag, Due::Flag(game.position.turn())));
                }
                // A correspondence game waits for players who are away: neither
                // adjudicated nor claimed for it.
                let live = self.options.correspondence.is_none();
                if let Some(gone) = self.all_away_since().filter(|_| live && !self.store_down) {
                    dues.push((gone + ABANDONED_AFTER, Due::Abandoned));
                }
                for c in [Color::White, Color::Black] {
                    if let Some(t) = self.claim_due(c).filter(|_| live) {
                        dues.push((t, Due::Claim(c)));
                    }
                }
            }
            None => {
                for c in [Color::White, Color::Black] {
                    if let Some(since) = self.away[c] {
                        dues.push((since + SEAT_GRACE, Due::SeatExpired(c)));
                    }
                }
            }
        }
        dues
    }

    /// When the next timed input is due: a flag, a claim becoming possible, an
    /// abandoned game, a seat given up. `None` while a commit is under way.
    pub fn deadline(&self) -> Option<Instant> {
        self.dues().into_iter().map(|(t, _)| t).min()
    }

    /// Since when every person seated at the running game has been away (`None` when
    /// one of them is present, or nobody is seated).
    pub(super) fn all_away_since(&self) -> Option<Instant> {
        let mut latest: Option<Instant> = None;
        for c in [Color::White, Color::Black] {
            if self.seats[c].as_ref().and_then(Seat::human).is_some() {
                let since = self.away[c]?;
                latest = Some(latest.map_or(since, |l| l.max(since)));
            }
        }
        latest
    }

    /// When `by` may claim the running game because the opponent is away, unless
    /// announced already.
    pub(super) fn claim_due(&self, by: Color) -> Option<Instant> {
        if self.claim_open == Some(by) {
            return None;
        }
        self.seats[by].as_ref()?.human()?;
        if self.away[by].is_some() {
            return None;
        }
        self.seats[!by].as_ref()?.human()?;
        Some(self.away[!by]? + claim_grace(&self.options))
    }

    /// Handles what is due at `now` (see [`Core::deadline`]); `None` when nothing is.
    /// Call it again after a `Done` until it answers `None` or a commit.
    pub fn tick(&mut self, now: Now) -> Option<Decision> {
        let (_, due) = self.dues().into_iter().find(|(t, _)| *t <= now.at)?;
        Some(match due {
            Due::Away(color) => {
                self.away_told[color] = true;
                Decision::done(
                    vec![TableEvent::Presence {
                        color: color.into(),
                        online: false,
                    }],
                    Msg::new("left"),
                )
            }
            Due::BoardOver => {
                let game = self.game.as_ref().expect("a running game");
                let outcome = game.position.outcome().expect("over on the board");
                self.decide_result(outcome.into(), now.at, now, Ok(Msg::new("played")))
            }
            Due::Flag(loser) => {
                if let Some(decision) = self.spend_vacation(loser, now) {
                    return Some(decision);
                }
                let at = self
                    .game
                    .as_ref()
                    .and_then(Game::deadline)
                    .unwrap_or(now.at);
                self.decide_result(GameResult::time(loser), at, now, Err(Refusal::OutOfTime))
            }
            Due::Abandoned => self.adjudicate(now),
            Due::Claim(by) => {
                self.claim_open = Some(by);
                Decision::done(
                    vec![TableEvent::Claimable { by: by.into() }],
                    Msg::new("claimed"),
                )
            }
            Due::SeatExpired(color) => Decision::done(self.vacate(color), Msg::new("left")),
        })
    }

    /// The commit that spends vacation for `color`, whose clock fell in a
    /// correspondence game with days per turn: the hours that move the deadline past
    /// `now`, an hour for each begun since it fell (days and vacation run by the wall
    /// clock, the server's time down included, so a clock that fell while it was down
    /// spends the hours since). `None` when the game is lost on time instead: the seat
    /// is the engine's or a bot account's, its player has no hours left, or the store
    /// gave none more at this action.
    fn spend_vacation(&mut self, color: Color, now: Now) -> Option<Decision> {
        let game = self.game.as_ref()?;
        game.options.correspondence?.days?;
        let player = self.seats[color].as_ref()?.human().filter(|p| !p.bot)?;
        let ply = game.actions.len();
        // Hours left as the store said when it loaded the game or last spent them (none:
        // a guest, a bot account); unknown when it did not say, and then asked.
        let none_left = game.vacation_known && game.vacation_left[color].unwrap_or(0) == 0;
        if none_left || self.vacation_spent == Some(ply) {
            return None;
        }
        let overdue = now.at.saturating_duration_since(game.deadline()?) + game.overdue;
        let commit = Commit::Vacation {
            game: game.id,
            ply: ply as u32,
            player: player.id,
            year: vacation::year_of(now.wall_ms),
            hours: game.vacation_here + vacation::hours_for(overdue),
        };
        self.in_flight = Some(Pending::Vacation { color, at: now.at });
        Some(Decision::Commit(commit))
    }

    /// Ends a game both players left: aborted when it had barely begun, otherwise
    /// scored as when the pool runs out (more rings removed wins, RULES.md E2).
    pub(super) fn adjudicate(&mut self, now: Now) -> Decision {
        if self.abortable() {
            return self.decide_abort(None, now);
        }
        let game = self.game.as_ref().expect("a running game");
        let removed = |c| game.position.removed(c);
        let winner = match removed(Color::White).cmp(&removed(Color::Black)) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        let result = GameResult {
            winner,
            termination: yinsh::notation::record::Termination::Abandoned,
        };
        self.decide_result(result, now.at, now, Ok(Msg::new("claimed")))
    }

    // ---- Presence ----

    /// The seated people's connections changed: `online` says who has one to this
    /// table. Announces who came back after an absence that was announced (see
    /// [`PRESENCE_DELAY`]).
    pub fn presence(&mut self, now: Now, online: impl Fn(PlayerId) -> bool) -> Vec<TableEvent> {
        let mut events = Vec::new();
        for color in [Color::White, Color::Black] {
            let Some(player) = self.seats[color].as_ref().and_then(Seat::human) else {
                continue;
            };
            let here = online(player.id);
            if here == self.away[color].is_none() {
                continue;
            }
            self.away[color] = if here { None } else { Some(now.at) };
            if here && self.claim_open == Some(!color) {
                self.claim_open = None;
            }
            if here && self.away_told[color] {
                self.away_told[color] = false;
                events.push(TableEvent::Presence {
                    color: color.into(),
                    online: true,
                });
            }
        }
        if self.awaiting_return {
            let back = self.game.as_ref().and_then(Game::to_act);
            if back.is_some_and(|c| self.away[c].is_none()) {
                self.awaiting_return = false;
                if !self.store_down {
                    self.resume_clocks(now);
                }
            }
        }
        events
    }
}
