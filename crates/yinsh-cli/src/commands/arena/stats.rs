//! Match statistics: the score of engine 1 and the logistic Elo difference it implies,
//! with a 95 % confidence interval from the per-game variance of the score.

use std::fmt;

/// The 97.5 % quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one engine's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Points per game, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The same games seen from the opponent.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Counts one game worth `points` (1, ½ or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// The Elo difference and its 95 % interval; `None` before the first game.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = f64::from(self.games());
        let p = self.score()?;
        // Variance of one game's score around the mean (trinomial: 1, ½, 0).
        let variance = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let margin = Z_95 * (variance / n).sqrt();
        Some(EloEstimate {
            elo: elo_of_score(p),
            low: elo_of_score(p - margin),
            high: elo_of_score(p + margin),
        })
    }
}

/// The logistic Elo difference that predicts the score `p`: `-400·log10(1/p - 1)`,
/// infinite at (and beyond) 0 and 1.
pub fn elo_of_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// An Elo difference with its 95 % interval (bounds may be infinite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Lower bound of the interval.
    pub low: f64,
    /// Upper bound of the interval.
    pub high: f64,
}

/// `+35.2`, `-4.0`, `+inf`, `-inf`.
fn signed(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".to_owned()
    } else if x == f64::NEG_INFINITY {
        "-inf".to_owned()
    } else {
        // Avoid "-0.0".
        let x = if x.abs() < 0.05 { 0.0 } else { x };
        format!("{x:+.1}")
    }
}

impl fmt::Display for EloEstimate {
    /// `+35.2 (95 % interval -12.0 to +83.9)`, or `+inf (95 % interval n/a)` when the
    /// score is 0 or 100 %.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.elo.is_infinite() {
            write!(f, "{} (95 % interval n/a)", signed(self.elo))
        } else {
            write!(
                f,
                "{} (95 % interval {} to {})",
                signed(self.elo),
                signed(self.low),
                signed(self.high)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn even_score_is_zero_elo() {
        let e = tally(5, 0, 5).elo().unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(e.low < 0.0 && e.high > 0.0);
        assert!((e.low + e.high).abs() < 1e-9, "symmetric: {e:?}");
    }

    #[test]
    fn known_values() {
        // 75 %: 400·log10(3) ≈ 190.8.
        let e = tally(3, 0, 1).elo().unwrap();
        assert!((e.elo - 190.848).abs() < 0.01, "{e:?}");
        // sd of one game is sqrt(0.1875) = 0.433; se = 0.2165, so p ± 0.424 leaves (0, 1).
        assert_eq!(e.high, f64::INFINITY);
        let e = tally(60, 20, 20).elo().unwrap();
        // p = 0.7: 147.2 Elo.
        assert!((e.elo - 147.19).abs() < 0.01, "{e:?}");
        let variance: f64 = (60.0 * 0.09 + 20.0 * 0.04 + 20.0 * 0.49) / 100.0;
        let margin = Z_95 * (variance / 100.0).sqrt();
        assert!((e.low - elo_of_score(0.7 - margin)).abs() < 1e-9);
        assert!((e.high - elo_of_score(0.7 + margin)).abs() < 1e-9);
    }

    #[test]
    fn all_draws_has_an_empty_interval() {
        let e = tally(0, 4, 0).elo().unwrap();
        assert_eq!((e.elo, e.low, e.high), (0.0, 0.0, 0.0));
        assert_eq!(e.to_string(), "+0.0 (95 % interval +0.0 to +0.0)");
    }

    #[test]
    fn perfect_scores_are_infinite() {
        assert_eq!(
            tally(4, 0, 0).elo().unwrap().to_string(),
            "+inf (95 % interval n/a)"
        );
        assert_eq!(
            tally(0, 0, 3).elo().unwrap().to_string(),
            "-inf (95 % interval n/a)"
        );
        assert_eq!(tally(0, 0, 0).elo(), None);
    }

    #[test]
    fn reversing_and_adding() {
        let mut t = Tally::default();
        for p in [1.0, 0.5, 0.0, 1.0] {
            t.add(p);
        }
        assert_eq!(t, tally(2, 1, 1));
        assert_eq!(t.reversed(), tally(1, 1, 2));
        assert_eq!(t.points(), 2.5);
    }
}
