-- A cluster of nodes on one database: each node's lease, and which node owns each
-- table. A table's lease is its owner's: it holds while the owner renews its row, and
-- once that row is past `alive_until` (by the database's clock, in milliseconds since
-- 1970) another node may take the table over, raising its `incarnation`.
CREATE TABLE cluster_nodes (
    node_id TEXT PRIMARY KEY,
    alive_until BIGINT NOT NULL
);

CREATE TABLE table_owners (
    table_id TEXT PRIMARY KEY,
    node_id TEXT NOT NULL,
    incarnation BIGINT NOT NULL
);

CREATE INDEX table_owners_by_node ON table_owners (node_id);
