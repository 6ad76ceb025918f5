//! Where players, sessions, games and every accepted action are kept: the store's edge.
//!
//! Each domain says what it keeps in a trait of its own (`account::store`,
//! `game::store`, `rating::store`, `analysis::store`, `archive::store`,
//! `cluster::store`); [`Stores`] holds one of each, and the server only speaks to
//! those. [`SqlStore`] implements every one of them over SQLite (the default, a file in
//! the working directory) and PostgreSQL, with one migrations folder per backend and
//! the same queries for both (each domain's part in its own `sql.rs`). A test double
//! implements only the traits it needs, and takes the others from a real store.

pub mod base;
pub(crate) mod batch;
pub(crate) mod sql;
mod wal;

use std::sync::Arc;

pub use base::{Database, Outage, StoreError, StoreErrorKind, StoreFuture, StoreResult};
pub use sql::SqlStore;
pub use wal::WalPolicy;

use crate::account::store::{AccountStore, SessionStore, TokenStore};
use crate::analysis::store::AnalysisStore;
use crate::archive::store::ArchiveStore;
use crate::cluster::store::LeaseStore;
use crate::game::store::GameStore;
use crate::game::vacation::VacationStore;
use crate::mail::store::MailStore;
use crate::meet::store::SeekStore;
use crate::notify::store::NotificationStore;
use crate::rating::store::RatingStore;
use crate::tournament::store::TournamentStore;

/// A store of everything the server keeps (the SQL store is one): every domain's trait.
pub trait Store:
    Database
    + SessionStore
    + AccountStore
    + TokenStore
    + GameStore
    + ArchiveStore
    + RatingStore
    + AnalysisStore
    + LeaseStore
    + NotificationStore
    + SeekStore
    + MailStore
    + VacationStore
    + TournamentStore
{
}

impl<T> Store for T where
    T: Database
        + SessionStore
        + AccountStore
        + TokenStore
        + GameStore
        + ArchiveStore
        + RatingStore
        + AnalysisStore
        + LeaseStore
        + NotificationStore
        + SeekStore
        + MailStore
        + VacationStore
        + TournamentStore
{
}

/// The stores the server speaks to, one per domain. Usually one store behind them all
/// (`Stores::from(store)`); a test double stands in for some and leaves the others to
/// a real store (`Stores { games: double, ..Stores::from(store) }`).
#[derive(Clone)]
pub struct Stores {
    /// The database as a whole: is it there, a backup.
    pub database: Arc<dyn Database>,
    /// Sessions.
    pub sessions: Arc<dyn SessionStore>,
    /// Accounts.
    pub accounts: Arc<dyn AccountStore>,
    /// API tokens.
    pub tokens: Arc<dyn TokenStore>,
    /// Games as they are played.
    pub games: Arc<dyn GameStore>,
    /// The archive and imports.
    pub archive: Arc<dyn ArchiveStore>,
    /// Ratings.
    pub ratings: Arc<dyn RatingStore>,
    /// Analysis jobs.
    pub analyses: Arc<dyn AnalysisStore>,
    /// A cluster's leases.
    pub leases: Arc<dyn LeaseStore>,
    /// Notifications.
    pub notifications: Arc<dyn NotificationStore>,
    /// The correspondence seek list.
    pub seeks: Arc<dyn SeekStore>,
    /// Mail: addresses, links, the outbox.
    pub mail: Arc<dyn MailStore>,
    /// Vacation hours.
    pub vacation: Arc<dyn VacationStore>,
    /// Tournaments.
    pub tournaments: Arc<dyn TournamentStore>,
}

impl From<Arc<dyn Store>> for Stores {
    fn from(store: Arc<dyn Store>) -> Stores {
        Stores {
            database: store.clone(),
            sessions: store.clone(),
            accounts: store.clone(),
            tokens: store.clone(),
            games: store.clone(),
            archive: store.clone(),
            ratings: store.clone(),
            analyses: store.clone(),
            leases: store.clone(),
            notifications: store.clone(),
            seeks: store.clone(),
            vacation: store.clone(),
            tournaments: store.clone(),
            mail: store,
        }
    }
}

/// Opens the store a database URL names: `sqlite://…` or `postgres://…`, running its
/// migrations.
pub async fn open(url: &str) -> StoreResult<Arc<dyn Store>> {
    Ok(Arc::new(SqlStore::connect(url).await?))
}
