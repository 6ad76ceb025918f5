//! Time management: how long to think about one decision.
//!
//! With a fixed move time the engine uses it, less a small safety margin. With clocks
//! it divides its remaining time by an estimate of the decisions still to make, adds
//! most of the increment, and never plans to use more than a quarter of what is left.
//! Iterative deepening stops starting new iterations after the *soft* limit (there is
//! no point beginning an iteration that cannot finish) and aborts at the *hard* limit.
//! The search extends the soft limit when the best move keeps changing (see
//! [`crate::search`]); a decision with a single legal action takes no time at all.
//! A cap ([`Limits::cap`], for engine seats facing people) bounds any one decision
//! whatever the clock allows; under it the search also predicts whether an iteration
//! can end in time before it begins one ([`Budget::predict`]).

use std::time::Duration;

use yinsh::{Position, Stage};

use crate::Limits;

/// Time kept in reserve for process and pipe overhead on every decision.
pub const OVERHEAD: Duration = Duration::from_millis(15);

/// How long one search may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration after this.
    pub soft: Option<Duration>,
    /// Stop at once after this.
    pub hard: Option<Duration>,
    /// Begin an iteration only when the ones before it say it will end before `hard`
    /// (the next one taking as many times longer than the last as the last did than
    /// the one before): a decision under a cap does not spend it on an iteration that
    /// the cap would cut off.
    pub predict: bool,
}

impl Budget {
    /// No time limit.
    pub const UNLIMITED: Budget = Budget {
        soft: None,
        hard: None,
        predict: false,
    };
}

/// Estimated decisions (placements and ring moves) the player to act still has to make.
fn decisions_left(pos: &Position) -> u32 {
    let placed = pos.all_rings().count()
        + u32::from(pos.removed(yinsh::Color::White) + pos.removed(yinsh::Color::Black));
    if pos.stage() == Stage::Place {
        // Placements left plus a typical middle game.
        let placements = (10 - placed).div_ceil(2);
        placements + 26
    } else {
        // Games last about 60 ring moves; keep a floor so late moves still get time.
        let moves = u32::from(pos.ring_moves());
        (64u32.saturating_sub(moves) / 2).max(10)
    }
}

/// The budget for a search of `pos` under `limits`.
pub fn budget(pos: &Position, limits: &Limits) -> Budget {
    if let Some(movetime) = limits.movetime {
        let t = movetime
            .saturating_sub(OVERHEAD.min(movetime / 10))
            .max(Duration::from_millis(1));
        // A fixed move time is there to be used: iterate until the hard limit (an
        // unfinished iteration still changes the move when it has found a better one).
        return Budget {
            soft: Some(t),
            hard: Some(t),
            predict: false,
        };
    }
    let Some(clock) = limits.clock else {
        return Budget::UNLIMITED;
    };
    let (left, inc) = match pos.turn() {
        yinsh::Color::White => (clock.wtime, clock.winc),
        yinsh::Color::Black => (clock.btime, clock.binc),
    };
    let usable = left.saturating_sub(OVERHEAD * 2);
    let mut base = usable / decisions_left(pos) + inc.mul_f64(0.75);
    // Row and ring choices are small decisions: most of their work is in the hash table
    // from the ring move before.
    if matches!(
        pos.stage(),
        Stage::RemoveRow { .. } | Stage::RemoveRing { .. }
    ) {
        base /= 3;
    }
    let mut hard = (base * 3).min(usable / 4).max(Duration::from_millis(1));
    let mut soft = base.min(hard).mul_f64(0.7);
    let capped = limits.cap.is_some_and(|cap| cap < hard);
    if let Some(cap) = limits.cap.filter(|_| capped) {
        // No iteration begins after a share of the cap, nor one that would not end
        // before it (iterations grow several times longer each).
        hard = cap.max(Duration::from_millis(1));
        soft = soft.min(cap.mul_f64(CAP_SOFT_SHARE)).min(hard);
    }
    Budget {
        soft: Some(soft),
        hard: Some(hard),
        predict: capped,
    }
}

/// With a cap on a decision: the share of it after which no new iteration begins.
pub const CAP_SOFT_SHARE: f64 = 0.2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    #[test]
    fn a_cap_bounds_every_decision_of_a_long_game() {
        let pos = Position::new();
        let long = Limits {
            clock: Some(Clock {
                wtime: Duration::from_secs(600),
                btime: Duration::from_secs(600),
                winc: Duration::from_secs(5),
                binc: Duration::from_secs(5),
            }),
            ..Limits::default()
        };
        // Uncapped, ten minutes and five seconds a move allow over a minute.
        assert!(budget(&pos, &long).hard.unwrap() > Duration::from_secs(60));
        let capped = budget(
            &pos,
            &Limits {
                cap: Some(Duration::from_secs(8)),
                ..long
            },
        );
        assert_eq!(capped.hard, Some(Duration::from_secs(8)));
        assert_eq!(capped.soft, Some(Duration::from_millis(1600)));
        assert!(capped.predict);
        // A cap above what the clock allows changes nothing; a short clock stays short.
        let short = Limits {
            clock: Some(Clock {
                wtime: Duration::from_secs(20),
                btime: Duration::from_secs(20),
                ..Clock::default()
            }),
            ..Limits::default()
        };
        assert_eq!(
            budget(
                &pos,
                &Limits {
                    cap: Some(Duration::from_secs(8)),
                    ..short
                }
            ),
            budget(&pos, &short)
        );
    }

    #[test]
    fn movetime_is_used_almost_fully() {
        let b = budget(
            &Position::new(),
            &Limits {
                movetime: Some(Duration::from_millis(1000)),
                ..Limits::default()
            },
        );
        assert_eq!(b.hard, Some(Duration::from_millis(985)));
    }

    #[test]
    fn one_minute_games_leave_time_for_every_move() {
        let limits = Limits {
            clock: Some(Clock {
                wtime: Duration::from_secs(60),
                btime: Duration::from_secs(60),
                ..Clock::default()
            }),
            ..Limits::default()
        };
        let b = budget(&Position::new(), &limits);
        let hard = b.hard.unwrap();
        assert!(hard < Duration::from_secs(8), "{hard:?}");
        assert!(hard > Duration::from_millis(500), "{hard:?}");
        // Almost out of time: still positive, never above a quarter of what is left.
        let limits = Limits {
            clock: Some(Clock {
                wtime: Duration::from_millis(200),
                btime: Duration::from_secs(60),
                ..Clock::default()
            }),
            ..Limits::default()
        };
        let hard = budget(&Position::new(), &limits).hard.unwrap();
        assert!(hard <= Duration::from_millis(50), "{hard:?}");
    }
}
