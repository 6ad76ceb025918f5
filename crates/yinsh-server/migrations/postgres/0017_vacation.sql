-- Vacation, as pente.org has it: an account has 240 hours (10 days) a year, spent an
-- hour at a time and only when a correspondence game with days per turn would
-- otherwise be lost on time. Each row is hours spent by `player_id` in `game_id` while
-- the game waited for its action number `ply` (from 0), in the calendar year `year`
-- (UTC). A year's balance is 240 less the sum of that year's rows. The hours of the
-- live rows at a game's current ply lengthen that turn's deadline (a restored game
-- adds them again); a takeback back past a ply marks its rows no longer live (the
-- hours stay spent). The rows outlive a game that is deleted (an aborted or unarchived
-- one): hours spent are spent. Guests and bot accounts have none.
CREATE TABLE vacation (
    game_id BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    year BIGINT NOT NULL,
    hours BIGINT NOT NULL,
    spent_at BIGINT NOT NULL,
    live BIGINT NOT NULL DEFAULT 1
);

CREATE INDEX vacation_game ON vacation (game_id, ply);
CREATE INDEX vacation_player ON vacation (player_id, year);
