//! What the arena API answers (docs/protocol.md, "Tournaments"), in lichess's shape and
//! field names: the web client's types are made from these.

use serde::Serialize;
use ts_rs::TS;

/// An arena's clock: seconds on each clock and added a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct ArenaClock {
    /// Seconds on each clock.
    pub limit: u32,
    /// Seconds added after each turn.
    pub increment: u32,
}

/// A variant as lichess names one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ArenaVariant {
    /// `standard` or `blitz`.
    pub key: String,
    /// `Standard` or `Blitz`.
    pub name: String,
}

/// The rating category an arena's games count for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ArenaPerf {
    /// `standard-quick`, …
    pub key: String,
    /// Its time class: `quick`, …
    pub name: String,
}

/// An arena.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ArenaView {
    /// Its id.
    pub id: String,
    /// Always `arena`.
    pub system: String,
    /// Its name.
    pub full_name: String,
    /// Who made it (`yinsh`: the server's schedule).
    pub created_by: String,
    /// How long it runs.
    pub minutes: u32,
    /// Its games' clock.
    pub clock: ArenaClock,
    /// Its games' variant.
    pub variant: ArenaVariant,
    /// The rating category, for a rated arena's games.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perf: Option<ArenaPerf>,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// Whether bot accounts may join.
    pub bots: bool,
    /// Players who joined.
    pub nb_players: usize,
    /// When it begins (ms since 1970).
    #[ts(type = "number")]
    pub starts_at: i64,
    /// When it ends.
    #[ts(type = "number")]
    pub finishes_at: i64,
    /// 10 not begun, 20 under way, 30 over (lichess's numbers).
    pub status: u32,
    /// Under way.
    pub is_started: bool,
    /// Over.
    pub is_finished: bool,
    /// Until it begins, before it does.
    #[ts(type = "number", optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_to_start: Option<i64>,
    /// Until it ends, while it runs.
    #[ts(type = "number", optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_to_finish: Option<i64>,
}

/// A player's sheet: each game's points, newest first, and whether they are on fire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SheetView {
    /// The points of each game, one digit or number a game, newest first.
    pub scores: String,
    /// Their next game scores double.
    pub fire: bool,
}

/// Games played and won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct GameCounts {
    /// Played.
    pub game: usize,
    /// Won.
    pub win: usize,
}

/// A line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct StandingLine {
    /// Place, from 1.
    pub rank: usize,
    /// The player.
    pub name: String,
    /// `BOT` for a bot account.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Their rating as they joined.
    #[ts(type = "number")]
    pub rating: i64,
    /// Their points.
    pub score: u32,
    /// Their sheet.
    pub sheet: SheetView,
    /// Games played and won.
    pub nb: GameCounts,
    /// Their performance rating, once they played.
    #[ts(type = "number", optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub performance: Option<i64>,
    /// Withdrawn after the start.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withdraw: Option<bool>,
    /// The table of the game they play now.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playing: Option<String>,
}

/// A page of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Standing {
    /// This page, from 1.
    pub page: usize,
    /// Pages in all.
    pub pages: usize,
    /// Its lines.
    pub players: Vec<StandingLine>,
}

/// An arena with a page of its standings (`GET /api/tournament/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ArenaFull {
    /// The arena.
    #[serde(flatten)]
    #[ts(flatten)]
    pub arena: ArenaView,
    /// A page of the standings.
    pub standing: Standing,
    /// The first three, once it is over.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub podium: Option<Vec<StandingLine>>,
    /// Seconds a player waits after a game before the next pairing.
    #[ts(type = "number")]
    pub pair_delay_seconds: i64,
    /// The asker's own line, when they joined (a page's session).
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub me: Option<StandingLine>,
}

/// `GET /api/tournament`: the arenas by status.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ArenaList {
    /// Not begun, soonest first.
    pub created: Vec<ArenaView>,
    /// Under way.
    pub started: Vec<ArenaView>,
    /// The last finished.
    pub finished: Vec<ArenaView>,
}

/// The wire types for the web client.
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        ArenaClock::decl(cfg),
        ArenaVariant::decl(cfg),
        ArenaPerf::decl(cfg),
        ArenaView::decl(cfg),
        SheetView::decl(cfg),
        GameCounts::decl(cfg),
        StandingLine::decl(cfg),
        Standing::decl(cfg),
        ArenaFull::decl(cfg),
        ArenaList::decl(cfg),
    ]
}
