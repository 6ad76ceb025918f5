//! The public archive of logged games: the list and search, a game and its record
//! (`GET /api/archive…`), monthly exports of open data and imports of records.

pub mod export;
pub(crate) mod export_http;
pub(crate) mod http;
pub(crate) mod import_http;
pub mod protocol;
pub(crate) mod sql;
pub mod store;
