//! What the meeting place keeps: the correspondence seek list (live seeks and
//! challenges live in memory, with their players' connections).

use crate::account::store::Player;
use crate::store::base::StoreFuture;
use crate::table::protocol::TableOptions;
use crate::vocab::PlayerId;

/// A correspondence seek as it is kept.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredSeek {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub player: Player,
    /// Their rating in the game's category as of the seek (registered players).
    pub rating: Option<i32>,
    /// Whether it was provisional.
    pub provisional: bool,
    /// The game sought.
    pub options: TableOptions,
    /// Bot accounts may take it.
    pub bots: bool,
    /// When it was made, in milliseconds since 1970.
    pub created_at: i64,
}

/// The correspondence seek list. Every method is one transaction.
pub trait SeekStore: Send + Sync + 'static {
    /// Keeps `seek`, unless its player has `limit` seeks already: whether it was kept.
    fn add_seek<'a>(&'a self, seek: &'a StoredSeek, limit: u32) -> StoreFuture<'a, bool>;

    /// Every seek, oldest first.
    fn correspondence_seeks(&self) -> StoreFuture<'_, Vec<StoredSeek>>;

    /// Seek `id`, if it stands.
    fn correspondence_seek<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredSeek>>;

    /// Takes seek `id` out of the list for `taker` (anyone but its player): the seek,
    /// or `None` when it is gone or `taker`'s own. Two takers never both get it.
    fn take_seek<'a>(&'a self, id: &'a str, taker: PlayerId)
    -> StoreFuture<'a, Option<StoredSeek>>;

    /// Withdraws `player`'s seek `id`: whether there was one.
    fn withdraw_seek<'a>(&'a self, id: &'a str, player: PlayerId) -> StoreFuture<'a, bool>;
}
