-- Which run of a node holds its lease (`boot`, the run's epoch) and since when that run
-- has been alive (`since`, milliseconds by the database's clock): the oldest living run
-- holds the cluster's seeks and challenges, so a node that joins later does not take
-- that role over, and one that only missed renewals (a database outage) keeps it.
ALTER TABLE cluster_nodes ADD COLUMN boot BIGINT NOT NULL DEFAULT 0;
ALTER TABLE cluster_nodes ADD COLUMN since BIGINT NOT NULL DEFAULT 0;
