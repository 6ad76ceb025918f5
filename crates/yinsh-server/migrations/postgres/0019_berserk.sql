-- Berserk (docs/tournaments.md): in a tournament game, a player may halve their own
-- clock and give up its increment before their first action. Kept with the game, so
-- that a restored table runs the same clocks, and the tournament scores the extra
-- point.
ALTER TABLE games ADD COLUMN white_berserk BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_berserk BIGINT NOT NULL DEFAULT 0;
