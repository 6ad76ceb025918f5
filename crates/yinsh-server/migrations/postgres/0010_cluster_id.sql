-- The cluster's id, chosen by the first node that starts on this database: the nodes
-- of one cluster name their message bus channels with it, so that clusters on other
-- databases may share one bus.
CREATE TABLE cluster_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
