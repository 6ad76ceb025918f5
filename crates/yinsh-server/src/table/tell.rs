//! What a table tells its players when they are not looking: whose turn it is now
//! (the header's count), that a correspondence game waits for them, that its deadline
//! is near, that a game ended while they were away ([`crate::notify`]).

use std::time::Duration;

use tokio::time::Instant;
use yinsh::Color;

use super::core::{Core, Seat};
use crate::Ctx;
use crate::notify::protocol::{Notice, NoticeKind, Outcome};
use crate::protocol::ResultView;
use crate::vocab::PlayerId;

/// Before a correspondence deadline, the player to act is told this many hours ahead
/// (those shorter than the allowance: a one-day game is told an hour ahead only).
const WARNINGS: [u8; 2] = [24, 1];

/// The notices a turn's passing makes stale once the player acted.
const ACTED_ON: &[NoticeKind] = &[NoticeKind::YourTurn, NoticeKind::Deadline];

/// What a table has told its players so far.
#[derive(Debug, Default)]
pub(super) struct Teller {
    /// The person the game waited for when last told.
    to_act: Option<PlayerId>,
    /// The action count and the hours of the last deadline warning given.
    warned: Option<(usize, u8)>,
}

impl Teller {
    /// A teller for a table as it is restored or made: nobody is told again what the
    /// game already said before. A table that slept until `slept_until` gave every
    /// deadline warning due before then (it slept only until the next one).
    pub(super) fn new(core: &Core, slept_until: Option<Instant>) -> Teller {
        let mut teller = Teller {
            to_act: core.player_to_act(),
            warned: None,
        };
        if let (Some(until), Some(game)) = (slept_until, core.game())
            && let Some(deadline) = game.deadline()
        {
            // A second's margin: the time the table slept until was stored to the
            // millisecond, and the warning due then is still to give.
            let given = |h: u8| {
                deadline
                    .checked_sub(hours(h))
                    .is_some_and(|at| at + Duration::from_secs(1) < until)
            };
            if let Some(&h) = WARNINGS.iter().rev().find(|&&h| given(h)) {
                teller.warned = Some((game.actions.len(), h));
            }
        }
        teller
    }

    /// After events at the table: who is told that the turn passed to them, that a game
    /// ended (`ended`), that their count of turns changed. `here` says whether a player
    /// has the table open.
    pub(super) fn after_events(
        &mut self,
        ctx: &Ctx,
        core: &Core,
        ended: Option<&ResultView>,
        here: impl Fn(PlayerId) -> bool,
    ) {
        let to_act = core.player_to_act();
        let table = core.id().to_string();
        if to_act != self.to_act {
            for player in [self.to_act, to_act].into_iter().flatten() {
                ctx.notify.turns_changed(player);
            }
            let correspondence = core.options().correspondence.is_some();
            // Only correspondence games have turn and deadline notices to read.
            if let (Some(before), true) = (self.to_act, correspondence) {
                ctx.notify
                    .acted_on(before, ACTED_ON, Notice::about_table(&table));
            }
            if let (Some(player), true) = (to_act, correspondence)
                && !here(player)
            {
                ctx.notify.tell(
                    player,
                    Notice::YourTurn {
                        table: table.clone(),
                        opponent: opponent_name(core, player),
                    },
                );
            }
            self.to_act = to_act;
        }
        let Some(result) = ended else { return };
        let game = core.game().map_or(0, |g| g.id.0);
        for color in [Color::White, Color::Black] {
            let Some(player) = core.seats()[color].as_ref().and_then(Seat::human) else {
                continue;
            };
            ctx.notify.turns_changed(player.id);
            if here(player.id) {
                continue;
            }
            let outcome = match result.winner {
                None => Outcome::Draw,
                Some(w) if Color::from(w) == color => Outcome::Win,
                Some(_) => Outcome::Loss,
            };
            ctx.notify.tell(
                player.id,
                Notice::GameOver {
                    table: table.clone(),
                    game,
                    opponent: opponent_name(core, player.id),
                    outcome,
                },
            );
        }
    }

    /// When the player to act in a correspondence game is next to be told that its
    /// deadline nears, and how many hours ahead: the most urgent warning already due
    /// (at `now`: a table restored late gives one, not each it missed), else the next.
    pub(super) fn warning_due(&self, core: &Core, now: Instant) -> Option<(Instant, u8)> {
        core.options().correspondence?;
        core.player_to_act()?;
        let game = core.game()?;
        let deadline = game.deadline()?;
        let allowance = game.clocks.as_ref()?.initial;
        let ply = game.actions.len();
        let at = |h: u8| deadline.checked_sub(hours(h)).unwrap_or(deadline);
        let left: Vec<u8> = WARNINGS
            .into_iter()
            .filter(|&h| hours(h) < allowance)
            .filter(|&h| match self.warned {
                Some((p, told)) if p == ply => h < told,
                _ => true,
            })
            .collect();
        match left.iter().rev().find(|&&h| at(h) <= now) {
            Some(&h) => Some((now, h)),
            None => left.first().map(|&h| (at(h), h)),
        }
    }

    /// Tells the player to act that `hours` hours or less are left (a warning due now).
    pub(super) fn warn(&mut self, ctx: &Ctx, core: &Core, hours: u8) {
        let (Some(player), Some(game)) = (core.player_to_act(), core.game()) else {
            return;
        };
        self.warned = Some((game.actions.len(), hours));
        ctx.notify.tell(
            player,
            Notice::Deadline {
                table: core.id().to_string(),
                opponent: opponent_name(core, player),
                hours,
            },
        );
    }
}

fn hours(h: u8) -> Duration {
    Duration::from_secs(3600 * u64::from(h))
}

/// The name of `player`'s opponent at the table (the engine's level for the engine).
fn opponent_name(core: &Core, player: PlayerId) -> String {
    let Some(color) = core.seat_of(player) else {
        return String::new();
    };
    match &core.seats()[!color] {
        Some(Seat::Human(p)) => p.name.clone(),
        Some(Seat::Bot(level)) => format!("Engine {}", level.get()),
        None => String::new(),
    }
}
