-- A correspondence game nobody is looking at is unloaded from memory ("asleep"), and
-- `wake_at` says when it must be loaded again by itself: its next deadline warning or
-- its deadline, in milliseconds since 1970 (the largest value for an unlimited game,
-- which never wakes by itself). NULL for every game that is awake: live games always,
-- and correspondence games while loaded (a server that stops without unloading them
-- loads them again when it starts).
ALTER TABLE games ADD COLUMN wake_at BIGINT;

-- The sweep of games due to wake reads only the sleeping ones.
CREATE INDEX games_wake ON games (wake_at) WHERE wake_at IS NOT NULL;

-- An asleep table is found by its id (a request for it, a new table's id checked).
CREATE INDEX games_running_table ON games (table_id) WHERE finished_at IS NULL;
