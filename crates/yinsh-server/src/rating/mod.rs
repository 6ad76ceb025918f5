//! Glicko-2 ratings as lichess uses them: each game rated on its own, the deviation
//! growing with the time between games, one rating per category (variant and time
//! class). The algorithm is the `skillratings` crate's; this module sets its constants
//! and adds the ageing and the limits. Pure: the store keeps the numbers.

pub mod category;
pub(crate) mod http;
pub mod protocol;
pub(crate) mod sql;
pub mod store;

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use yinsh::ByColor;

use crate::protocol::TableOptions;

use crate::rating::store::CategoryRating;
use crate::vocab::PlayerId;
pub use category::{RatingCategory, TimeClass, category, estimated_secs};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation (the most a deviation grows to).
pub const MAX_DEVIATION: f64 = 500.0;
/// The least a deviation shrinks to: a settled rating still moves.
pub const MIN_DEVIATION: f64 = 45.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.09;
/// Volatility stays within these bounds (lichess's).
pub const VOLATILITY: std::ops::RangeInclusive<f64> = 0.06..=0.09;
/// The system constant τ: how fast volatility may change.
pub const TAU: f64 = 0.75;
/// A rating is provisional while its deviation is at least this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Rating periods per day: the deviation grows by one period's volatility about every
/// 4.7 days without games (lichess's constant).
pub const PERIODS_PER_DAY: f64 = 0.21436;

/// The Glicko-2 scale factor (Glickman: 400 / ln 10).
const SCALE: f64 = 173.7178;

/// One player's rating in one category.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD): how uncertain it is.
    pub deviation: f64,
    /// Its volatility: how erratic the player's results are.
    pub volatility: f64,
    /// Rated games played in the category.
    pub games: u32,
    /// When the last rated game ended, in milliseconds since 1970 (`None`: never).
    pub last_game_ms: Option<i64>,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: MAX_DEVIATION,
            volatility: START_VOLATILITY,
            games: 0,
            last_game_ms: None,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional (shown with a `?`).
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating at `now_ms`: its deviation grown by the time since the last game
    /// (`φ' = √(φ² + σ²·t)`, `t` in rating periods), at most [`MAX_DEVIATION`].
    pub fn at(&self, now_ms: i64) -> Rating {
        let Some(last) = self.last_game_ms else {
            return *self;
        };
        let days = (now_ms - last).max(0) as f64 / 86_400_000.0;
        let periods = days * PERIODS_PER_DAY;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + self.volatility * self.volatility * periods).sqrt() * SCALE;
        Rating {
            deviation: grown.min(MAX_DEVIATION),
            ..*self
        }
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn after(&self, new: Glicko2Rating, now_ms: i64) -> Rating {
        Rating {
            rating: new.rating,
            deviation: new.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: new.volatility.clamp(*VOLATILITY.start(), *VOLATILITY.end()),
            games: self.games + 1,
            last_game_ms: Some(now_ms),
        }
    }
}

/// The result of a rated game, for the rating: White's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// White won.
    White,
    /// Black won.
    Black,
    /// A draw.
    Draw,
}

/// White's and Black's ratings after a game that ended at `now_ms` with `score`, each
/// first aged to `now_ms`.
pub fn rate(white: &Rating, black: &Rating, score: Score, now_ms: i64) -> (Rating, Rating) {
    let (w, b) = (white.at(now_ms), black.at(now_ms));
    let outcome = match score {
        Score::White => Outcomes::WIN,
        Score::Black => Outcomes::LOSS,
        Score::Draw => Outcomes::DRAW,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (nw, nb) = glicko2(&w.glicko(), &b.glicko(), &outcome, &config);
    (w.after(nw, now_ms), b.after(nb, now_ms))
}

impl Score {
    /// White's score in a game won by `winner` (`white`, `black`; `None` or anything
    /// else: a draw).
    pub fn of_winner(winner: Option<&str>) -> Score {
        match winner {
            Some("white") => Score::White,
            Some("black") => Score::Black,
            _ => Score::Draw,
        }
    }
}

/// One seat of a finished game, as the rating rule sees it: the player, if a person sat
/// there, and whether that player is a registered account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedSeat {
    /// The player (none: an engine seat).
    pub player: Option<PlayerId>,
    /// Whether the player is a registered account (a guest otherwise).
    pub registered: bool,
}

/// The category a finished game rates its two players in, with their ids (White's,
/// Black's): `None` when it rates nobody — a casual game, a guest or an engine at
/// either seat, one player at both, or options that name no category (no clock).
pub fn rated_in(
    options: &TableOptions,
    white: RatedSeat,
    black: RatedSeat,
) -> Option<(RatingCategory, ByColor<PlayerId>)> {
    if !options.rated || !white.registered || !black.registered {
        return None;
    }
    let (white, black) = (white.player?, black.player?);
    if white == black {
        return None;
    }
    Some((category(options)?, ByColor { white, black }))
}

/// Both players' records in a category after a rated game that ended at `now_ms` with
/// `score`: their ratings as [`rate`] makes them (one game more), and the game counted
/// as a win, a draw or a loss of each.
pub fn apply(
    white: &CategoryRating,
    black: &CategoryRating,
    score: Score,
    now_ms: i64,
) -> ByColor<CategoryRating> {
    let (w, b) = rate(&white.rating, &black.rating, score, now_ms);
    let counted = |record: &CategoryRating, rating: Rating, own: Option<bool>| CategoryRating {
        category: record.category,
        rating,
        wins: record.wins + u32::from(own == Some(true)),
        draws: record.draws + u32::from(own.is_none()),
        losses: record.losses + u32::from(own == Some(false)),
    };
    // Whether each won (`None`: a draw).
    let (white_won, black_won) = match score {
        Score::White => (Some(true), Some(false)),
        Score::Black => (Some(false), Some(true)),
        Score::Draw => (None, None),
    };
    ByColor {
        white: counted(white, w, white_won),
        black: counted(black, b, black_won),
    }
}

/// A leaderboard shows ratings whose deviation is at most this (settled ones)...
pub const LEADERBOARD_DEVIATION: f64 = 75.0;
/// ...of players with at least this many rated games in the category.
pub const LEADERBOARD_GAMES: u32 = 10;

/// The engine's estimated rating at each level (1 to 10), on the players' scale,
/// rounded to 50: the level ladder's Elo differences (docs/engine.md, "The level
/// ladder": each level against the one below, 20 or 40 games, each score shrunk by one
/// drawn game so that 19–1 is not read as infinite) added up from level 1 placed at
/// 800, a beginner who knows the rules. The engine's levels are not rated players: these are
/// a guide for choosing an opponent, to be re-anchored when games of rated players
/// against the levels say where they stand.
pub const ENGINE_RATINGS: [i32; 10] = [800, 1250, 1900, 2050, 2350, 2700, 2950, 3450, 3750, 4200];

/// The estimated rating of the engine at `level`.
pub fn engine_rating(level: crate::vocab::Level) -> i32 {
    ENGINE_RATINGS[usize::from(level.get()) - 1]
}

/// A rating as pages show it, aged to `now_ms`.
pub fn view(
    rating: &crate::rating::store::CategoryRating,
    now_ms: i64,
) -> crate::protocol::CategoryRatingView {
    let now = rating.rating.at(now_ms);
    crate::protocol::CategoryRatingView {
        category: rating.category,
        rating: now.rating.round() as i32,
        deviation: now.deviation.round() as i32,
        provisional: now.provisional(),
        games: rating.rating.games,
        wins: rating.wins,
        draws: rating.draws,
        losses: rating.losses,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(rated: bool) -> TableOptions {
        TableOptions {
            rated,
            time: Some(crate::protocol::TimeSetting {
                minutes: 10,
                increment: 5,
            }),
            ..TableOptions::default()
        }
    }

    #[test]
    fn only_rated_games_between_two_accounts_rate() {
        let account = |id| RatedSeat {
            player: Some(PlayerId(id)),
            registered: true,
        };
        let guest = RatedSeat {
            player: Some(PlayerId(3)),
            registered: false,
        };
        let engine = RatedSeat {
            player: None,
            registered: false,
        };
        let (category, players) = rated_in(&timed(true), account(1), account(2)).unwrap();
        assert_eq!(category, RatingCategory::StandardRapid);
        assert_eq!((players.white, players.black), (PlayerId(1), PlayerId(2)));
        assert_eq!(rated_in(&timed(false), account(1), account(2)), None);
        assert_eq!(rated_in(&timed(true), account(1), guest), None);
        assert_eq!(rated_in(&timed(true), engine, account(2)), None);
        assert_eq!(rated_in(&timed(true), account(1), account(1)), None);
        let untimed = TableOptions {
            time: None,
            ..timed(true)
        };
        assert_eq!(rated_in(&untimed, account(1), account(2)), None);
    }

    #[test]
    fn a_rated_game_counts_once_for_each_player() {
        let record = |rating: f64, wins, draws, losses| CategoryRating {
            category: RatingCategory::StandardRapid,
            rating: Rating {
                rating,
                games: wins + draws + losses,
                ..Rating::default()
            },
            wins,
            draws,
            losses,
        };
        let (w, b) = (record(1600.0, 3, 1, 2), record(1450.0, 0, 0, 1));
        for (score, white, black) in [
            (Score::White, (4, 1, 2), (0, 0, 2)),
            (Score::Black, (3, 1, 3), (1, 0, 1)),
            (Score::Draw, (3, 2, 2), (0, 1, 1)),
        ] {
            let after = apply(&w, &b, score, 1_000);
            let (rw, rb) = rate(&w.rating, &b.rating, score, 1_000);
            assert_eq!((after.white.rating, after.black.rating), (rw, rb));
            let counts = |r: &CategoryRating| (r.wins, r.draws, r.losses);
            assert_eq!(counts(&after.white), white, "{score:?}");
            assert_eq!(counts(&after.black), black, "{score:?}");
            assert_eq!(after.white.rating.games, 7);
            assert_eq!(after.black.rating.games, 2);
        }
        assert_eq!(Score::of_winner(Some("white")), Score::White);
        assert_eq!(Score::of_winner(Some("black")), Score::Black);
        assert_eq!(Score::of_winner(None), Score::Draw);
    }

    #[test]
    fn engine_ratings_follow_the_ladder() {
        use crate::vocab::Level;
        // Each level's step is its ladder score (one draw added) as an Elo difference.
        // (points, games) of the higher level, docs/engine.md "The level ladder".
        let ladder = [
            (19.0, 20.0),
            (20.0, 20.0),
            (29.5, 40.0),
            (17.0, 20.0),
            (18.0, 20.0),
            (16.5, 20.0),
            (19.5, 20.0),
            (17.0, 20.0),
            (19.0, 20.0),
        ];
        let mut rating = 800.0;
        for (i, (points, games)) in ladder.iter().enumerate() {
            let score: f64 = (points + 0.5) / (games + 1.0);
            rating += 400.0 * (score / (1.0 - score)).log10();
            let level = Level::new(i as u8 + 2).unwrap();
            assert!(
                (f64::from(engine_rating(level)) - rating).abs() <= 25.0,
                "level {level}: {rating}"
            );
        }
        assert_eq!(engine_rating(Level::new(1).unwrap()), 800);
        assert!(ENGINE_RATINGS.windows(2).all(|w| w[0] < w[1]));
    }
    use skillratings::glicko2::glicko2_rating_period;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    #[test]
    fn the_crate_reproduces_glickmans_worked_example() {
        // Glickman, "Example of the Glicko-2 system" (2013): a 1500/200/0.06 player
        // beats a 1400/30 one and loses to 1550/100 and 1700/300, τ = 0.5.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_game_moves_both_ratings_and_counts() {
        let (w, b) = rate(&Rating::default(), &Rating::default(), Score::White, 1_000);
        assert!(w.rating > START_RATING && b.rating < START_RATING);
        assert!(close(
            w.rating - START_RATING,
            START_RATING - b.rating,
            1e-6
        ));
        assert!(w.deviation < MAX_DEVIATION && w.provisional());
        assert_eq!((w.games, b.games, w.last_game_ms), (1, 1, Some(1_000)));
        let (dw, db) = rate(&Rating::default(), &Rating::default(), Score::Draw, 1_000);
        assert!(close(dw.rating, START_RATING, 1e-6) && close(db.rating, START_RATING, 1e-6));
    }

    #[test]
    fn deviations_grow_with_time_and_stay_in_bounds() {
        let settled = Rating {
            rating: 1800.0,
            deviation: 50.0,
            volatility: 0.06,
            games: 100,
            last_game_ms: Some(0),
        };
        assert_eq!(settled.at(0).deviation, 50.0);
        let month = settled.at(30 * 86_400_000).deviation;
        let year = settled.at(365 * 86_400_000).deviation;
        assert!(
            50.0 < month && month < year && year <= MAX_DEVIATION,
            "{month} {year}"
        );
        assert_eq!(
            settled.at(1_000 * 365 * 86_400_000).deviation,
            MAX_DEVIATION
        );
        // Many games against equals: the deviation settles at its floor, never below.
        let (mut a, mut b) = (Rating::default(), Rating::default());
        for i in 0..400 {
            let score = if i % 2 == 0 {
                Score::White
            } else {
                Score::Black
            };
            (a, b) = rate(&a, &b, score, 1_000 + i);
        }
        assert!(a.deviation >= MIN_DEVIATION && !a.provisional(), "{a:?}");
        assert!(VOLATILITY.contains(&a.volatility));
    }

    #[test]
    fn categories_by_variant_and_time_class() {
        use crate::protocol::TimeSetting;
        use crate::protocol::VariantName;
        let timed = |variant, minutes, increment| TableOptions {
            variant,
            time: Some(TimeSetting { minutes, increment }),
            ..TableOptions::default()
        };
        assert_eq!(category(&TableOptions::default()), None);
        let std = VariantName::Standard;
        assert_eq!(
            category(&timed(std, 1, 0)).unwrap().name(),
            "standard-bullet"
        );
        assert_eq!(
            category(&timed(std, 2, 2)).unwrap().name(),
            "standard-quick"
        );
        assert_eq!(
            category(&timed(std, 10, 5)).unwrap().name(),
            "standard-rapid"
        );
        assert_eq!(
            category(&timed(std, 30, 0)).unwrap().name(),
            "standard-classical"
        );
        assert_eq!(
            category(&timed(VariantName::Blitz, 5, 3)).unwrap().name(),
            "blitz-quick"
        );
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn rating() -> impl Strategy<Value = Rating> {
        (
            800.0..2800.0f64,
            MIN_DEVIATION..MAX_DEVIATION,
            0.06..0.09f64,
            0..500u32,
        )
            .prop_map(|(rating, deviation, volatility, games)| Rating {
                rating,
                deviation,
                volatility,
                games,
                last_game_ms: Some(0),
            })
    }

    proptest! {
        #[test]
        fn a_win_never_lowers_the_winner_nor_raises_the_loser(
            white in rating(), black in rating(), later in 0..(400 * 86_400_000i64),
        ) {
            let (w, b) = rate(&white, &black, Score::White, later);
            prop_assert!(w.rating >= white.rating && b.rating <= black.rating);
            let (w, b) = rate(&white, &black, Score::Black, later);
            prop_assert!(w.rating <= white.rating && b.rating >= black.rating);
            for r in [w, b] {
                prop_assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&r.deviation));
                prop_assert!(VOLATILITY.contains(&r.volatility));
            }
        }
    }
}
