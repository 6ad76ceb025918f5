//! What the nodes of a cluster keep in their shared database: their leases, the
//! owner of each table, and the cluster's id.

use crate::store::base::{StoreError, StoreErrorKind, StoreFuture};

/// Who owns a table of a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableOwner {
    /// The table.
    pub table: String,
    /// The owning node.
    pub node: String,
    /// Raised every time the table changes hands (or its owner restarts).
    pub incarnation: i64,
    /// The node that owned it before (the node itself, but for a table just taken
    /// over from another).
    pub previous: String,
}

/// What a node's writes to a table's game carry in a cluster: the table, the node
/// and the incarnation it runs. The store makes a fenced write only while the table's
/// owner row still says so, so a node that lost a table (frozen, or cut off from the
/// database past its lease) can never write to the game its new owner runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The table.
    pub table: String,
    /// The node that runs it.
    pub node: String,
    /// The incarnation it runs.
    pub incarnation: i64,
}

impl Fence {
    /// The refusal of a write under this fence when it is stale: another node owns the
    /// table now.
    pub fn moved(&self) -> StoreError {
        StoreError::new(
            StoreErrorKind::Moved,
            format!(
                "table {} is no longer node {}'s at incarnation {}",
                self.table, self.node, self.incarnation
            ),
        )
    }
}

/// Node leases and table ownership.
/// Every method is one transaction: it happens whole or not at all.
pub trait LeaseStore: Send + Sync + 'static {
    /// The id of the cluster on this database: `fresh` if no node has set one yet (it
    /// then is), else the one set first.
    fn cluster_id<'a>(&'a self, fresh: &'a str) -> StoreFuture<'a, String>;

    /// Renews the lease of cluster node `node` in its run `boot`: it holds for `ttl_ms`
    /// from now, by the database's clock. A run's first renewal marks when it came
    /// alive ([`LeaseStore::live_nodes`] lists the oldest first); later ones, even after the
    /// lease ran out meanwhile, keep that time.
    fn renew_node<'a>(&'a self, node: &'a str, boot: u64, ttl_ms: i64) -> StoreFuture<'a, ()>;

    /// Gives up the lease of `node` at once (a node that stops), so that its tables can
    /// be taken over without waiting for it to expire.
    fn end_node<'a>(&'a self, node: &'a str) -> StoreFuture<'a, ()>;

    /// The nodes whose lease holds now, by the database's clock: the run alive longest
    /// first (then by id).
    fn live_nodes(&self) -> StoreFuture<'_, Vec<String>>;

    /// Makes `node` the owner of the new table `table` (incarnation 1); `false` when the
    /// id is taken.
    fn claim_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, bool>;

    /// The table closed: `node` lets go of it (nothing when it is not the owner).
    fn release_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, ()>;

    /// Who owns `table` now.
    fn table_owner<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<TableOwner>>;

    /// The tables `node` owns.
    fn tables_of<'a>(&'a self, node: &'a str) -> StoreFuture<'a, Vec<TableOwner>>;

    /// Takes over, for `node`, up to `limit` tables whose owner's lease has run out —
    /// and, with `own`, the tables `node` itself owns (a node that restarts under the
    /// same id takes its tables back). Each gets a new incarnation. Two nodes taking
    /// over at once never get the same table.
    fn take_over<'a>(
        &'a self,
        node: &'a str,
        own: bool,
        limit: u32,
    ) -> StoreFuture<'a, Vec<TableOwner>>;
}
