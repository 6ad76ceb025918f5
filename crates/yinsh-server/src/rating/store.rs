//! What the rating domain keeps: ratings per category and their history.

use yinsh::ByColor;

use crate::account::store::Player;
use crate::rating::{Rating, RatingCategory};
use crate::store::base::StoreFuture;
use crate::vocab::{GameId, PlayerId};

/// One player's rating change in a rated game, stored with its result.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub player: PlayerId,
    /// The rating category ([`crate::rating::category()`]).
    pub category: RatingCategory,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
}

impl RatingChange {
    /// As the players see it: whole points, and whether it is still provisional.
    pub fn view(&self) -> crate::protocol::RatingDiff {
        crate::protocol::RatingDiff {
            before: self.before.round() as i32,
            after: self.after.round() as i32,
            provisional: self.deviation >= crate::rating::PROVISIONAL_DEVIATION,
        }
    }
}

/// Both players' rating changes as they see them.
pub fn rated_view(rated: &Rated) -> Option<crate::protocol::Pair<crate::protocol::RatingDiff>> {
    rated.as_ref().map(|r| crate::protocol::Pair {
        white: r.white.view(),
        black: r.black.view(),
    })
}

/// What a [`GameStore::write_game`](crate::game::store::GameStore::write_game) did beyond the write: the rating changes of a rated
/// game that ended (the same ones when a result is written again).
pub type Rated = Option<ByColor<RatingChange>>;

/// A player's rating in one category, with their results in it.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryRating {
    /// The category.
    pub category: RatingCategory,
    /// The rating, as of the last game.
    pub rating: Rating,
    /// Rated games won in the category.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// A player's rating after one rated game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingPoint {
    /// The game.
    pub game: GameId,
    /// Its category.
    pub category: RatingCategory,
    /// When it ended, in milliseconds since 1970.
    pub at: i64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// Games won, drawn and lost (by one player against another, or in a category).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// Ratings, as player pages and leaderboards read them (a rated result is rated in
/// the same transaction as the game's write: [`crate::game::store::GameStore::write_game`]).
/// Every method is one transaction: it happens whole or not at all.
pub trait RatingStore: Send + Sync + 'static {
    /// The ratings of `player`, one per category played.
    fn ratings(&self, player: PlayerId) -> StoreFuture<'_, Vec<CategoryRating>>;

    /// The rating of `player` after each of their rated games, oldest first.
    fn rating_history(&self, player: PlayerId) -> StoreFuture<'_, Vec<RatingPoint>>;

    /// The finished, logged games of `player` against `other`, from `player`'s side.
    fn head_to_head(&self, player: PlayerId, other: PlayerId) -> StoreFuture<'_, Tally>;

    /// The best ratings of `category` whose stored deviation is at most `deviation`
    /// after at least `games` games: at most `limit`, best first.
    fn leaderboard<'a>(
        &'a self,
        category: RatingCategory,
        deviation: f64,
        games: u32,
        limit: u32,
    ) -> StoreFuture<'a, Vec<(Player, CategoryRating)>>;
}
