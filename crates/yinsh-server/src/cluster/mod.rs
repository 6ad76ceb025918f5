//! Many nodes acting as one: the parts of a cluster.
//!
//! A cluster is several `yinsh serve` processes on one PostgreSQL database with a
//! message bus between them ([`bus`]). Each table is owned by one node at a time: the
//! ownership is a row of the store (`table_owners`) whose lease is its owner's row in
//! `cluster_nodes`, renewed while the node lives (see
//! [`LeaseStore::renew_node`](store::LeaseStore::renew_node) and
//! [`LeaseStore::take_over`](store::LeaseStore::take_over)). `docs/scaling.md` describes
//! the design.

pub mod bus;
pub mod lobby;
pub mod node;
pub mod route;
pub(crate) mod sql;
pub mod store;

use std::sync::Arc;

/// A server as a node of a cluster: the node (its lease, whether it is halted) and its
/// routing to the other nodes' tables. One is never without the other.
#[derive(Clone)]
pub struct Cluster {
    /// The node.
    pub node: Arc<node::Node>,
    /// Its routing.
    pub router: Arc<route::Router>,
}
