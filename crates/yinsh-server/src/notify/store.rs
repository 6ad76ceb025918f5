//! What the notifications domain keeps: each player's notifications and the kinds
//! they switched off.

use super::protocol::{Notice, NoticeKind, NotificationList, NotificationView};
use crate::store::base::StoreFuture;
use crate::vocab::PlayerId;

/// Notifications: kept when they happen, listed newest first, marked read. Every
/// method is one transaction.
pub trait NotificationStore: Send + Sync + 'static {
    /// Keeps `notice` for `player`, made at `at` (milliseconds since 1970), unless they
    /// switched its kind off: an unread one of the same kind about the same thing is
    /// replaced, and only the newest [`super::KEPT`] of theirs are kept. The notification
    /// and how many are unread now; `None` when its kind is off.
    fn notify<'a>(
        &'a self,
        player: PlayerId,
        notice: &'a Notice,
        at: i64,
    ) -> StoreFuture<'a, Option<(NotificationView, u32)>>;

    /// The newest `limit` notifications of `player`, and how many of all are unread.
    fn notifications(&self, player: PlayerId, limit: u32) -> StoreFuture<'_, NotificationList>;

    /// Marks `player`'s notifications `ids` read (every one with `None`) at `at`: how
    /// many are unread after.
    fn mark_read<'a>(
        &'a self,
        player: PlayerId,
        ids: Option<&'a [i64]>,
        at: i64,
    ) -> StoreFuture<'a, u32>;

    /// Marks `player`'s unread notifications of `kinds` about `about` read (they acted
    /// on them): how many are unread after, or `None` when none was marked.
    fn mark_read_about<'a>(
        &'a self,
        player: PlayerId,
        kinds: &'a [NoticeKind],
        about: &'a str,
        at: i64,
    ) -> StoreFuture<'a, Option<u32>>;

    /// The kinds `player` switched off.
    fn notices_off(&self, player: PlayerId) -> StoreFuture<'_, Vec<NoticeKind>>;

    /// Switches `off` these kinds for `player` and every other kind on.
    fn set_notices_off<'a>(
        &'a self,
        player: PlayerId,
        off: &'a [NoticeKind],
    ) -> StoreFuture<'a, ()>;
}
