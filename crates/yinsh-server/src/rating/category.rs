//! Rating categories: a variant and a time class. Defined here once; the web client
//! gets them, and the time classes' limits, from `client/src/protocol.ts`
//! (`typescript`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::protocol::vocab::VariantName;
use crate::table::protocol::TableOptions;

/// Turns a game is expected to last, for its time class: a YINSH game has about 30
/// ring moves a player.
pub const EXPECTED_TURNS: u32 = 30;

/// How long a game of a time control is expected to last, in seconds: the initial time
/// and the increments of [`EXPECTED_TURNS`] turns.
pub fn estimated_secs(minutes: u32, increment: u32) -> u32 {
    minutes * 60 + EXPECTED_TURNS * increment
}

/// The time classes of rated games, by [`estimated_secs`]. Named so that none is the
/// Blitz variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum TimeClass {
    /// Under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Quick,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Correspondence play: days per turn.
    Correspondence,
}

impl TimeClass {
    /// Every class, fastest first.
    pub const ALL: [TimeClass; 5] = [
        TimeClass::Bullet,
        TimeClass::Quick,
        TimeClass::Rapid,
        TimeClass::Classical,
        TimeClass::Correspondence,
    ];

    /// The expected length (seconds) a game of this class stays under; none for the
    /// slowest live class and for correspondence.
    pub const fn below(self) -> Option<u32> {
        match self {
            TimeClass::Bullet => Some(180),
            TimeClass::Quick => Some(480),
            TimeClass::Rapid => Some(1500),
            TimeClass::Classical | TimeClass::Correspondence => None,
        }
    }

    /// The class of a live game expected to last `secs`.
    pub fn of(secs: u32) -> TimeClass {
        TimeClass::ALL
            .into_iter()
            .find(|c| c.below().is_none_or(|below| secs < below))
            .unwrap_or(TimeClass::Classical)
    }

    /// `bullet`, `quick`, `rapid`, `classical`, `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Quick => "quick",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
            TimeClass::Correspondence => "correspondence",
        }
    }
}

/// A rating category: a variant and a time class, `standard-rapid` on the wire and in
/// the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum RatingCategory {
    /// Standard, bullet.
    StandardBullet,
    /// Standard, quick.
    StandardQuick,
    /// Standard, rapid.
    StandardRapid,
    /// Standard, classical.
    StandardClassical,
    /// Standard, correspondence.
    StandardCorrespondence,
    /// Blitz, bullet.
    BlitzBullet,
    /// Blitz, quick.
    BlitzQuick,
    /// Blitz, rapid.
    BlitzRapid,
    /// Blitz, classical.
    BlitzClassical,
    /// Blitz, correspondence.
    BlitzCorrespondence,
}

impl RatingCategory {
    /// Every category, in the order pages show them.
    pub const ALL: [RatingCategory; 10] = [
        RatingCategory::StandardBullet,
        RatingCategory::StandardQuick,
        RatingCategory::StandardRapid,
        RatingCategory::StandardClassical,
        RatingCategory::StandardCorrespondence,
        RatingCategory::BlitzBullet,
        RatingCategory::BlitzQuick,
        RatingCategory::BlitzRapid,
        RatingCategory::BlitzClassical,
        RatingCategory::BlitzCorrespondence,
    ];

    /// Their names, in the order of [`RatingCategory::ALL`].
    const NAMES: [&'static str; 10] = [
        "standard-bullet",
        "standard-quick",
        "standard-rapid",
        "standard-classical",
        "standard-correspondence",
        "blitz-bullet",
        "blitz-quick",
        "blitz-rapid",
        "blitz-classical",
        "blitz-correspondence",
    ];

    /// Time classes a variant has.
    const CLASSES: usize = TimeClass::ALL.len();

    /// Its place in [`RatingCategory::ALL`] (the variants are declared in that order).
    fn index(self) -> usize {
        self as usize
    }

    /// The category of `variant` and `class`.
    pub fn of(variant: VariantName, class: TimeClass) -> RatingCategory {
        let offset = match variant {
            VariantName::Standard => 0,
            VariantName::Blitz => RatingCategory::CLASSES,
        };
        RatingCategory::ALL[offset + class as usize]
    }

    /// Its variant.
    pub fn variant(self) -> VariantName {
        if self.index() < RatingCategory::CLASSES {
            VariantName::Standard
        } else {
            VariantName::Blitz
        }
    }

    /// Its time class.
    pub fn class(self) -> TimeClass {
        TimeClass::ALL[self.index() % RatingCategory::CLASSES]
    }

    /// `standard-rapid`, `blitz-bullet`, … (as the wire and the store write it).
    pub fn name(self) -> &'static str {
        RatingCategory::NAMES[self.index()]
    }

    /// The category called `name`.
    pub fn from_name(name: &str) -> Option<RatingCategory> {
        RatingCategory::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl std::fmt::Display for RatingCategory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How fast a game with `options` is, as lichess names it: `bullet` … `classical` by
/// its clock, `correspondence`, or `unlimited` for a game without a clock.
pub fn speed_of(options: &TableOptions) -> &'static str {
    if options.correspondence.is_some() {
        return TimeClass::Correspondence.name();
    }
    match options.time {
        Some(t) => TimeClass::of(estimated_secs(t.minutes, t.increment)).name(),
        None => "unlimited",
    }
}

/// The rating category of a game with `options`: `None` for an untimed game (or
/// unlimited correspondence), which cannot be rated.
pub fn category(options: &TableOptions) -> Option<RatingCategory> {
    if let Some(c) = options.correspondence {
        c.days?;
        return Some(RatingCategory::of(
            options.variant,
            TimeClass::Correspondence,
        ));
    }
    let time = options.time?;
    let class = TimeClass::of(estimated_secs(time.minutes, time.increment));
    Some(RatingCategory::of(options.variant, class))
}

/// The types and constants of this module in TypeScript (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    let list = |names: Vec<String>| {
        let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        format!("[{}]", quoted.join(", "))
    };
    let classes = list(TimeClass::ALL.iter().map(|c| c.name().to_owned()).collect());
    let categories = list(
        RatingCategory::ALL
            .iter()
            .map(|c| c.name().to_owned())
            .collect(),
    );
    let below: Vec<String> = TimeClass::ALL
        .iter()
        .filter_map(|c| Some(format!("{}: {}", c.name(), c.below()?)))
        .collect();
    vec![
        TimeClass::decl(cfg),
        RatingCategory::decl(cfg),
        format!("const TIME_CLASSES: readonly TimeClass[] = {classes}; // fastest first"),
        format!(
            "const EXPECTED_TURNS = {EXPECTED_TURNS}; \
             // a game's expected length: minutes × 60 + EXPECTED_TURNS × increment seconds"
        ),
        format!(
            "const TIME_CLASS_BELOW: Readonly<Record<Exclude<TimeClass, \"classical\" | \"correspondence\">, number>> = \
             {{ {} }}; // the expected length (seconds) each class stays under",
            below.join(", ")
        ),
        format!(
            "const RATING_CATEGORIES: readonly RatingCategory[] = {categories}; \
             // in the order pages show them"
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_are_a_variant_and_a_class() {
        for (i, category) in RatingCategory::ALL.into_iter().enumerate() {
            assert_eq!(
                RatingCategory::of(category.variant(), category.class()),
                category
            );
            assert_eq!(RatingCategory::ALL[category.index()], category);
            assert_eq!(RatingCategory::from_name(category.name()), Some(category));
            let wire = serde_json::to_string(&category).unwrap();
            assert_eq!(wire, format!("\"{}\"", category.name()));
            assert_eq!(category.class(), TimeClass::ALL[i % TimeClass::ALL.len()]);
        }
        assert_eq!(RatingCategory::StandardRapid.name(), "standard-rapid");
        assert_eq!(RatingCategory::BlitzBullet.name(), "blitz-bullet");
        assert_eq!(RatingCategory::from_name("chess-rapid"), None);
        assert_eq!(
            RatingCategory::BlitzCorrespondence.name(),
            "blitz-correspondence"
        );
    }

    #[test]
    fn time_classes_by_expected_length() {
        for (secs, class) in [
            (0, TimeClass::Bullet),
            (179, TimeClass::Bullet),
            (180, TimeClass::Quick),
            (479, TimeClass::Quick),
            (480, TimeClass::Rapid),
            (1499, TimeClass::Rapid),
            (1500, TimeClass::Classical),
            (u32::MAX, TimeClass::Classical),
        ] {
            assert_eq!(TimeClass::of(secs), class, "{secs}");
        }
        assert_eq!(estimated_secs(7, 2), 480);
    }
}
