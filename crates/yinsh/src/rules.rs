//! Variants and house rules (RULES.md §6), and how a game ends (RULES.md §5).

use std::fmt;
use std::str::FromStr;

use crate::color::{ByColor, Color};

/// The two official variants (RULES.md V1, V2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Variant {
    /// Three removed rings win.
    #[default]
    Standard,
    /// One removed ring wins.
    Blitz,
}

impl Variant {
    /// The number of removed rings that wins.
    pub const fn target(self) -> u8 {
        match self {
            Variant::Standard => 3,
            Variant::Blitz => 1,
        }
    }

    /// `"standard"` or `"blitz"`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Blitz => "blitz",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name other than `standard` or `blitz`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVariantError(pub String);

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected standard or blitz)",
            self.0
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        if s.eq_ignore_ascii_case("standard") {
            Ok(Variant::Standard)
        } else if s.eq_ignore_ascii_case("blitz") {
            Ok(Variant::Blitz)
        } else {
            Err(ParseVariantError(s.to_owned()))
        }
    }
}

/// The rules a game is played under: a target per player (RULES.md V1–V3) and an
/// optional limit on the number of ring moves (RULES.md V4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// Removed rings each player needs to win, 1 to 5.
    pub targets: ByColor<u8>,
    /// After this many ring moves the game ends and is scored as on pool exhaustion.
    pub turn_limit: Option<u16>,
}

impl Rules {
    /// The standard game: three rings each, no turn limit.
    pub const STANDARD: Rules = Rules::of(Variant::Standard);
    /// Blitz: one ring each, no turn limit.
    pub const BLITZ: Rules = Rules::of(Variant::Blitz);

    /// The rules of an official variant.
    pub const fn of(variant: Variant) -> Rules {
        let t = variant.target();
        Rules {
            targets: ByColor { white: t, black: t },
            turn_limit: None,
        }
    }

    /// The same rules with per-player targets (handicap, RULES.md V3).
    pub const fn with_targets(self, white: u8, black: u8) -> Rules {
        Rules {
            targets: ByColor { white, black },
            ..self
        }
    }

    /// The same rules with a turn limit (RULES.md V4).
    pub const fn with_turn_limit(self, limit: Option<u16>) -> Rules {
        Rules {
            turn_limit: limit,
            ..self
        }
    }

    /// The official variant these rules are, if the targets are equal and there is no
    /// turn limit.
    pub fn variant(&self) -> Option<Variant> {
        if self.turn_limit.is_some() || self.targets.white != self.targets.black {
            return None;
        }
        [Variant::Standard, Variant::Blitz]
            .into_iter()
            .find(|v| v.target() == self.targets.white)
    }

    /// Whether every setting is in range: targets 1 to 5, a turn limit of at least 1.
    pub fn is_valid(&self) -> bool {
        (1..=5).contains(&self.targets.white)
            && (1..=5).contains(&self.targets.black)
            && self.turn_limit != Some(0)
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::STANDARD
    }
}

impl From<Variant> for Rules {
    fn from(v: Variant) -> Rules {
        Rules::of(v)
    }
}

/// Why a game ended on the board (RULES.md E1–E4, V4). Resignation, time and agreed
/// draws are platform matters (E5) and live in game records, not here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum EndReason {
    /// A player removed their target number of rings (E1).
    TargetReached,
    /// The pool was empty once the removals of the ring move that placed the last
    /// marker were done (E2, E3).
    PoolExhausted,
    /// Neither player could move a ring (E4).
    NoMoves,
    /// The agreed number of ring moves was played (V4).
    TurnLimit,
}

impl EndReason {
    /// A short lowercase description.
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::TargetReached => "target reached",
            EndReason::PoolExhausted => "marker pool exhausted",
            EndReason::NoMoves => "neither player can move",
            EndReason::TurnLimit => "turn limit reached",
        }
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// The result in notation: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.result())
    }
}
