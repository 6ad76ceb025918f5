//! What every store shares: its errors, its futures, the flag of an outage, and the
//! database as a whole. The domains' store traits are built on these (and import
//! nothing else of the store's edge).

use std::future::Future;
use std::pin::Pin;

/// What kind of failure a [`StoreError`] is: what the caller may do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StoreErrorKind {
    /// The database is not reachable or refused to work: a connection, pool, I/O or TLS
    /// failure, a timeout, a busy or read-only database, an error of the database other
    /// than a constraint. The same request may succeed later.
    Unavailable,
    /// The write would break a unique or foreign-key constraint (a name or a token that
    /// is taken, a row that refers to none). Retrying the same write fails again; a
    /// different one (another name) may succeed.
    Conflict,
    /// What is stored cannot be read: a row that does not decode, a column of the wrong
    /// type, table options that are not JSON, a schema this server does not know (its
    /// migrations do not match the database's).
    Corrupt,
    /// The table is no longer this node's: another node of the cluster took it over
    /// (its [`Fence`](crate::cluster::store::Fence) is stale). Nothing was written; the table must close here.
    Moved,
}

impl StoreErrorKind {
    /// `unavailable`, `conflict` or `corrupt`.
    pub const fn name(self) -> &'static str {
        match self {
            StoreErrorKind::Unavailable => "unavailable",
            StoreErrorKind::Conflict => "conflict",
            StoreErrorKind::Corrupt => "corrupt",
            StoreErrorKind::Moved => "moved",
        }
    }
}

impl std::fmt::Display for StoreErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a store operation gives back when it fails: its [`StoreErrorKind`] and the
/// database's own description (for the log, never for clients: it can name the host
/// and the schema).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    /// What kind of failure it is.
    pub kind: StoreErrorKind,
    message: String,
}

impl StoreError {
    /// An error of `kind` described by `message`.
    pub fn new(kind: StoreErrorKind, message: impl Into<String>) -> StoreError {
        StoreError {
            kind,
            message: message.into(),
        }
    }

    /// The database is not reachable or refused to work.
    pub fn unavailable(message: impl Into<String>) -> StoreError {
        StoreError::new(StoreErrorKind::Unavailable, message)
    }

    /// A unique or foreign-key constraint refused the write.
    pub fn conflict(message: impl Into<String>) -> StoreError {
        StoreError::new(StoreErrorKind::Conflict, message)
    }

    /// What is stored cannot be read.
    pub fn corrupt(message: impl Into<String>) -> StoreError {
        StoreError::new(StoreErrorKind::Corrupt, message)
    }

    /// The description, without the kind.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "store ({}): {}", self.kind, self.message)
    }
}

impl std::error::Error for StoreError {}

/// The kind of an sqlx error: constraint violations are conflicts; rows, columns and
/// values that do not decode are corrupt data; everything else (connections, the pool,
/// I/O, TLS, timeouts, the database's other errors) means the database is unavailable.
fn kind_of(e: &sqlx::Error) -> StoreErrorKind {
    use sqlx::error::ErrorKind;
    match e {
        sqlx::Error::Database(db) => match db.kind() {
            ErrorKind::UniqueViolation | ErrorKind::ForeignKeyViolation => StoreErrorKind::Conflict,
            _ => StoreErrorKind::Unavailable,
        },
        sqlx::Error::RowNotFound
        | sqlx::Error::TypeNotFound { .. }
        | sqlx::Error::ColumnIndexOutOfBounds { .. }
        | sqlx::Error::ColumnNotFound(_)
        | sqlx::Error::ColumnDecode { .. }
        | sqlx::Error::Encode(_)
        | sqlx::Error::Decode(_)
        | sqlx::Error::AnyDriverError(_) => StoreErrorKind::Corrupt,
        sqlx::Error::Migrate(m) => migrate_kind(m),
        // Configuration, InvalidArgument, Io, Tls, Protocol, PoolTimedOut, PoolClosed,
        // WorkerCrashed, BeginFailed, … and whatever later versions add.
        _ => StoreErrorKind::Unavailable,
    }
}

/// The kind of a migration error: the kind of the database error when a migration
/// could not run; otherwise the database's migration history does not match this
/// server's migrations (a newer schema, an edited or half-applied migration), which
/// makes the stored data unreadable to it.
fn migrate_kind(e: &sqlx::migrate::MigrateError) -> StoreErrorKind {
    use sqlx::migrate::MigrateError;
    match e {
        MigrateError::Execute(e) | MigrateError::ExecuteMigration(e, _) => kind_of(e),
        _ => StoreErrorKind::Corrupt,
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError::new(kind_of(&e), e.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::new(migrate_kind(&e), e.to_string())
    }
}

/// What the tables know of the store, shared by all of them: once one table's write
/// found the store unavailable, the others refuse their changes at once instead of each
/// waiting for the database's time-out, until a write or a probe succeeds again.
#[derive(Debug, Clone, Default)]
pub struct Outage(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Outage {
    /// Whether the last write or probe found the store unavailable.
    pub fn is_down(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Notes what a write or probe of the store answered.
    pub fn observe<T>(&self, result: &StoreResult<T>) {
        let down = matches!(result, Err(e) if e.kind == StoreErrorKind::Unavailable);
        if result.is_ok() || down {
            self.0.store(down, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The error of a write not tried because the store is known to be down.
    pub fn refusal() -> StoreError {
        StoreError::unavailable("the store is down (found by another table)")
    }
}

/// The result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// A boxed future of a store operation (the trait is used as `dyn Store`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

/// The database as a whole.
pub trait Database: Send + Sync + 'static {
    /// Checks that the database answers.
    fn ping(&self) -> StoreFuture<'_, ()>;

    /// Writes a consistent copy of the whole database to the new file `path`, while the
    /// server runs (SQLite's `VACUUM INTO`; a PostgreSQL database is backed up with
    /// `pg_dump`, docs/deploy.md).
    fn backup<'a>(&'a self, path: &'a str) -> StoreFuture<'a, ()>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::sqlite::SqlitePoolOptions;

    /// The kind of the error that `sql` gives on a database with a table of unique
    /// names and one of rows that refer to them.
    async fn kind_of_sql(sql: &str) -> StoreErrorKind {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        sqlx::raw_sql(
            "PRAGMA foreign_keys = ON; \
             CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE); \
             CREATE TABLE s (p_id BIGINT NOT NULL REFERENCES p (id)); \
             INSERT INTO p (id, name) VALUES (1, 'taken');",
        )
        .execute(&pool)
        .await
        .unwrap();
        let e = sqlx::raw_sql(sql).execute(&pool).await.unwrap_err();
        let store_error = StoreError::from(e);
        // The database's own words are kept for the log.
        assert!(
            store_error.to_string().starts_with("store ("),
            "{store_error}"
        );
        store_error.kind
    }

    #[tokio::test]
    async fn database_errors_by_kind() {
        use StoreErrorKind::{Conflict, Unavailable};
        for (sql, want) in [
            ("INSERT INTO p (id, name) VALUES (2, 'taken')", Conflict),
            ("INSERT INTO p (id, name) VALUES (1, 'other')", Conflict),
            ("INSERT INTO s (p_id) VALUES (99)", Conflict),
            ("INSERT INTO p (id, name) VALUES (3, NULL)", Unavailable),
            ("SELECT * FROM nowhere", Unavailable),
            ("THIS IS NOT SQL", Unavailable),
        ] {
            assert_eq!(kind_of_sql(sql).await, want, "{sql}");
        }
    }

    #[tokio::test]
    async fn rows_that_do_not_decode_are_corrupt() {
        let pool = SqlitePoolOptions::new()
            .connect("sqlite::memory:")
            .await
            .unwrap();
        let row = sqlx::query("SELECT 'text' AS n")
            .fetch_one(&pool)
            .await
            .unwrap();
        use sqlx::Row;
        let e: StoreError = row.try_get::<i64, _>("n").unwrap_err().into();
        assert_eq!(e.kind, StoreErrorKind::Corrupt, "{e}");
        let e: StoreError = row.try_get::<String, _>("missing").unwrap_err().into();
        assert_eq!(e.kind, StoreErrorKind::Corrupt, "{e}");
        let e: StoreError = sqlx::query("SELECT 1 WHERE 0")
            .fetch_one(&pool)
            .await
            .map(drop)
            .unwrap_err()
            .into();
        assert_eq!(e.kind, StoreErrorKind::Corrupt, "{e}");
        // A closed pool: the database is not reachable.
        pool.close().await;
        let e: StoreError = sqlx::query("SELECT 1")
            .fetch_one(&pool)
            .await
            .map(drop)
            .unwrap_err()
            .into();
        assert_eq!(e.kind, StoreErrorKind::Unavailable, "{e}");
    }

    #[test]
    fn other_errors_by_kind() {
        use StoreErrorKind::{Corrupt, Unavailable};
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        for (e, want) in [
            (sqlx::Error::PoolTimedOut, Unavailable),
            (sqlx::Error::PoolClosed, Unavailable),
            (sqlx::Error::WorkerCrashed, Unavailable),
            (sqlx::Error::Io(io), Unavailable),
            (sqlx::Error::Protocol("garbled".to_owned()), Unavailable),
            (sqlx::Error::Configuration("bad URL".into()), Unavailable),
            (sqlx::Error::RowNotFound, Corrupt),
            (sqlx::Error::ColumnNotFound("name".to_owned()), Corrupt),
            (sqlx::Error::Decode("not a number".into()), Corrupt),
            (
                sqlx::Error::Migrate(Box::new(sqlx::migrate::MigrateError::VersionMissing(3))),
                Corrupt,
            ),
            (
                sqlx::Error::Migrate(Box::new(sqlx::migrate::MigrateError::Execute(
                    sqlx::Error::PoolTimedOut,
                ))),
                Unavailable,
            ),
        ] {
            let text = e.to_string();
            let e = StoreError::from(e);
            assert_eq!(e.kind, want, "{text}");
            assert_eq!(e.message(), text);
            assert_eq!(e.to_string(), format!("store ({}): {text}", want.name()));
        }
        let e = StoreError::corrupt("stored table options are unreadable");
        assert_eq!(e.kind, Corrupt);
        assert_eq!(
            e.to_string(),
            "store (corrupt): stored table options are unreadable"
        );
        assert_eq!(StoreError::conflict("x").kind, StoreErrorKind::Conflict);
        assert_eq!(StoreError::unavailable("x").kind, Unavailable);
        assert_eq!(
            StoreError::from(sqlx::migrate::MigrateError::VersionMismatch(1)).kind,
            Corrupt
        );
    }
}
