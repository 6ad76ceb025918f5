-- Takebacks granted to each player of a game (at most a few per game: the count must
-- survive a restart).
ALTER TABLE games ADD COLUMN white_takebacks BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_takebacks BIGINT NOT NULL DEFAULT 0;
