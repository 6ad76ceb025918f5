//! An arena's score sheets and standings, as lichess counts them (docs/tournaments.md
//! states each rule): a win 2, a draw 1, a loss 0; after two wins in a row a player is
//! on fire and scores double until a game that is not a win; a draw before
//! [`ArenaRules::min_draw_turns`] scores nothing; a berserked win with at least
//! [`ArenaRules::berserk_min_turns`] of the player's own turns earns one point more.
//!
//! Pure: the director ([`super`]) feeds finished games in, in the order they ended.

use serde::Serialize;

use crate::vocab::PlayerId;

/// The numbers the arena's rules depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaRules {
    /// A draw with fewer turns than this (both players' together) scores nothing.
    pub min_draw_turns: u32,
    /// A berserked win earns its extra point only with at least this many of the
    /// winner's own turns.
    pub berserk_min_turns: u32,
}

impl Default for ArenaRules {
    /// A draw before each player has had ten turns (five ring placements and five ring
    /// moves) scores nothing; a berserk point needs seven of the winner's own turns.
    fn default() -> Self {
        ArenaRules {
            min_draw_turns: 20,
            berserk_min_turns: 7,
        }
    }
}

/// A game's outcome for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// One finished game, as one of its players scores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The outcome for this player.
    pub outcome: Outcome,
    /// Whether this player berserked in it.
    pub berserk: bool,
    /// The turns this player played (ring placements and ring moves).
    pub own_turns: u32,
    /// The turns of both players together.
    pub turns: u32,
}

/// A game on a score sheet: what it scored and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Scored {
    /// The outcome.
    pub outcome: Outcome,
    /// The points it earned.
    pub points: u32,
    /// Whether the player was on fire when it was played (its points doubled).
    pub fire: bool,
    /// Whether it earned the berserk point.
    pub berserk_point: bool,
}

/// A player's games in an arena, in the order they ended, and their points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sheet {
    games: Vec<Scored>,
    total: u32,
}

impl Sheet {
    /// On fire: the last two games were wins, so the next one scores double.
    pub fn on_fire(&self) -> bool {
        let n = self.games.len();
        n >= 2
            && self.games[n - 2..]
                .iter()
                .all(|g| g.outcome == Outcome::Win)
    }

    /// Scores `game` and adds it; what it scored.
    pub fn add(&mut self, rules: &ArenaRules, game: Played) -> Scored {
        let fire = self.on_fire();
        let base = match game.outcome {
            Outcome::Win => 2,
            Outcome::Draw if game.turns >= rules.min_draw_turns => 1,
            Outcome::Draw | Outcome::Loss => 0,
        };
        let berserk_point = game.outcome == Outcome::Win
            && game.berserk
            && game.own_turns >= rules.berserk_min_turns;
        let points = base * if fire { 2 } else { 1 } + u32::from(berserk_point);
        let scored = Scored {
            outcome: game.outcome,
            points,
            fire,
            berserk_point,
        };
        self.games.push(scored);
        self.total += points;
        scored
    }

    /// The points so far.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The games so far, in the order they ended.
    pub fn games(&self) -> &[Scored] {
        &self.games
    }

    /// Wins so far.
    pub fn wins(&self) -> usize {
        self.count(Outcome::Win)
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.games.iter().filter(|g| g.outcome == outcome).count()
    }
}

/// A player's performance rating over their games: the average of each opponent's
/// rating, plus 500 for a win and less 500 for a loss (as lichess computes it); `None`
/// before a game.
pub fn performance(games: &[(Outcome, f64)]) -> Option<f64> {
    if games.is_empty() {
        return None;
    }
    let sum: f64 = games
        .iter()
        .map(|(outcome, rating)| {
            rating
                + match outcome {
                    Outcome::Win => 500.0,
                    Outcome::Draw => 0.0,
                    Outcome::Loss => -500.0,
                }
        })
        .sum();
    Some(sum / games.len() as f64)
}

/// What the standings are made from: one line per player who joined.
#[derive(Debug, Clone)]
pub struct Entrant {
    /// The player.
    pub player: PlayerId,
    /// Their points.
    pub points: u32,
    /// Their performance rating, when they have played.
    pub performance: Option<f64>,
    /// Their rating as they joined.
    pub rating: f64,
    /// When they joined (ms since 1970): earlier first among equals.
    pub joined_at: i64,
}

/// The entrants in rank order: points, then performance, then rating as they
/// joined, then who joined first.
pub fn rank(entrants: &mut [Entrant]) {
    entrants.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then_with(|| {
                let perf = |e: &Entrant| e.performance.unwrap_or(f64::NEG_INFINITY);
                perf(b).total_cmp(&perf(a))
            })
            .then_with(|| b.rating.total_cmp(&a.rating))
            .then_with(|| a.joined_at.cmp(&b.joined_at))
            .then_with(|| a.player.0.cmp(&b.player.0))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(outcome: Outcome) -> Played {
        Played {
            outcome,
            berserk: false,
            own_turns: 15,
            turns: 30,
        }
    }

    fn points(sheet: &Sheet) -> Vec<u32> {
        sheet.games().iter().map(|g| g.points).collect()
    }

    #[test]
    fn two_wins_in_a_row_set_a_player_on_fire_until_a_game_that_is_not_a_win() {
        let rules = ArenaRules::default();
        let mut sheet = Sheet::default();
        use Outcome::*;
        for outcome in [Win, Win, Win, Draw, Win, Loss, Win, Win, Draw, Draw] {
            sheet.add(&rules, played(outcome));
        }
        // W2 W2 (fire) W4 D2 (fire ends) W2 L0 W2 W2 (fire) D2 D1
        assert_eq!(points(&sheet), [2, 2, 4, 2, 2, 0, 2, 2, 2, 1]);
        assert_eq!(sheet.total(), 19);
        assert_eq!(sheet.wins(), 6);
        assert!(!sheet.on_fire());
        let fires: Vec<bool> = sheet.games().iter().map(|g| g.fire).collect();
        assert_eq!(
            fires,
            [
                false, false, true, true, false, false, false, false, true, false
            ]
        );
    }

    #[test]
    fn a_short_draw_scores_nothing_and_ends_the_fire() {
        let rules = ArenaRules::default();
        let mut sheet = Sheet::default();
        sheet.add(&rules, played(Outcome::Win));
        sheet.add(&rules, played(Outcome::Win));
        let short = Played {
            turns: rules.min_draw_turns - 1,
            ..played(Outcome::Draw)
        };
        assert_eq!(sheet.add(&rules, short).points, 0);
        assert!(!sheet.on_fire());
        let long_enough = Played {
            turns: rules.min_draw_turns,
            ..played(Outcome::Draw)
        };
        assert_eq!(sheet.add(&rules, long_enough).points, 1);
    }

    #[test]
    fn a_berserked_win_with_enough_own_turns_earns_one_point_more_doubled_or_not() {
        let rules = ArenaRules::default();
        let mut sheet = Sheet::default();
        let berserk = |own_turns| Played {
            berserk: true,
            own_turns,
            ..played(Outcome::Win)
        };
        let first = sheet.add(&rules, berserk(rules.berserk_min_turns));
        assert_eq!((first.points, first.berserk_point), (3, true));
        let quick = sheet.add(&rules, berserk(rules.berserk_min_turns - 1));
        assert_eq!((quick.points, quick.berserk_point), (2, false));
        // On fire: the win doubles, the berserk point does not.
        let third = sheet.add(&rules, berserk(rules.berserk_min_turns));
        assert_eq!((third.points, third.fire), (5, true));
        // A berserked loss or draw earns nothing more.
        let lost = Played {
            berserk: true,
            ..played(Outcome::Loss)
        };
        assert_eq!(sheet.add(&rules, lost).points, 0);
        assert_eq!(sheet.total(), 10);
    }

    #[test]
    fn performance_is_the_average_opponent_rating_500_up_for_a_win_and_down_for_a_loss() {
        assert_eq!(performance(&[]), None);
        let games = [
            (Outcome::Win, 1500.0),
            (Outcome::Loss, 1700.0),
            (Outcome::Draw, 1600.0),
        ];
        assert_eq!(performance(&games), Some(1600.0));
        assert_eq!(performance(&[(Outcome::Win, 1500.0)]), Some(2000.0));
    }

    #[test]
    fn standings_rank_points_then_performance_then_rating_then_who_came_first() {
        let e = |id, points, performance, rating, joined_at| Entrant {
            player: PlayerId(id),
            points,
            performance,
            rating,
            joined_at,
        };
        let mut all = vec![
            e(1, 4, Some(1500.0), 1500.0, 0),
            e(2, 6, Some(1400.0), 1500.0, 0),
            e(3, 4, Some(1700.0), 1500.0, 0),
            e(4, 0, None, 1900.0, 5),
            e(5, 0, None, 1900.0, 3),
            e(6, 0, Some(1000.0), 1400.0, 0),
        ];
        rank(&mut all);
        let order: Vec<i64> = all.iter().map(|e| e.player.0).collect();
        assert_eq!(order, [2, 3, 1, 6, 5, 4]);
    }
}
