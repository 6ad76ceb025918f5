-- Who acts after each action (none once the game is over on the board). A game waits
-- for its last action's `to_act` (White before the first), so a player's games and
-- whose turn each is are read without replaying them. A takeback deletes actions, and
-- the last one kept says again whose turn it is.
ALTER TABLE actions ADD COLUMN to_act TEXT;

-- A player's running games, from either seat.
CREATE INDEX games_running_white ON games (white_id) WHERE finished_at IS NULL;
CREATE INDEX games_running_black ON games (black_id) WHERE finished_at IS NULL;
