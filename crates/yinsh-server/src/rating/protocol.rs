//! Ratings as pages show them: player pages, rating changes, leaderboards, the
//! engine's levels.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::archive::protocol::ArchiveEntry;
use crate::protocol::vocab::Title;

use crate::rating::category::RatingCategory;

/// A player's rating in one category, as of now (`GET /api/player/<name>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CategoryRatingView {
    /// `standard-rapid`, `blitz-bullet`, …
    pub category: RatingCategory,
    /// The rating, in whole points.
    pub rating: i32,
    /// Its deviation now (it grows between games).
    pub deviation: i32,
    /// Whether it is provisional (deviation ≥ 110): shown with a `?`.
    pub provisional: bool,
    /// Rated games played in the category.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// A player's rating after one rated game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RatingPointView {
    /// The game (its archive id).
    #[ts(type = "number")]
    pub game: i64,
    /// Its category.
    pub category: RatingCategory,
    /// When it ended, in milliseconds since 1970.
    #[ts(type = "number")]
    pub at: i64,
    /// The rating after it.
    pub rating: i32,
}

/// The games of one player against another, from the first's side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HeadToHead {
    /// The other player.
    pub opponent: String,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// A registered player's page (`GET /api/player/<name>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerProfile {
    /// The name, as the player writes it.
    pub name: String,
    /// `BOT` for a bot account.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Title>,
    /// When they first came, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Whether they are connected now.
    pub online: bool,
    /// Their ratings, one per category played.
    pub ratings: Vec<CategoryRatingView>,
    /// Their rating after each rated game, oldest first.
    pub history: Vec<RatingPointView>,
    /// Their latest archived games, newest first.
    pub recent: Vec<ArchiveEntry>,
    /// Their archived games in all.
    #[ts(type = "number")]
    pub games: u64,
    /// Their games against the player named by `?vs=`, when asked.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<HeadToHead>,
}

/// One level of the engine and its estimated rating (`GET /api/engine`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EngineLevel {
    /// The level, 1 to 10.
    pub level: u8,
    /// Its estimated rating on the players' scale (docs/engine.md).
    pub rating: i32,
}

/// One row of a leaderboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LeaderboardEntry {
    /// The place, from 1.
    pub rank: u32,
    /// The player.
    pub name: String,
    /// The rating.
    pub rating: i32,
    /// Its deviation now.
    pub deviation: i32,
    /// Rated games played in the category.
    pub games: u32,
}

/// The best settled ratings of a category (`GET /api/leaderboard`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Leaderboard {
    /// The category.
    pub category: RatingCategory,
    /// Best first.
    pub players: Vec<LeaderboardEntry>,
}

/// The TypeScript of these types (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    let mut decls = crate::rating::category::typescript(cfg);
    decls.extend([
        CategoryRatingView::decl(cfg),
        RatingPointView::decl(cfg),
        HeadToHead::decl(cfg),
        PlayerProfile::decl(cfg),
        EngineLevel::decl(cfg),
        LeaderboardEntry::decl(cfg),
        Leaderboard::decl(cfg),
    ]);
    decls
}
