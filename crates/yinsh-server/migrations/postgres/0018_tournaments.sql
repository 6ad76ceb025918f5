-- Tournaments (docs/tournaments.md). An arena runs from `starts_at` to `ends_at`
-- (milliseconds since 1970); `status` is `created`, `started` or `finished`;
-- `settings` is JSON: the clock, the variant, rated or casual, whether bots may join.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    system TEXT NOT NULL,
    name TEXT NOT NULL,
    created_by BIGINT REFERENCES players (id),
    creator TEXT,
    settings TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX tournaments_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_creator ON tournaments (created_by, status);

-- Who joined, with their rating in the tournament's category as they joined. A player
-- who withdraws after the start stays, `paused`: their points stay theirs, and joining
-- again unpauses them.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    name TEXT NOT NULL,
    bot BIGINT NOT NULL DEFAULT 0,
    rating BIGINT NOT NULL,
    joined_at BIGINT NOT NULL,
    paused BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, player_id)
);

-- Each game of a tournament: stored before its table is opened, its result
-- (`winner`: `white`, `black` or `draw`; `aborted` for a game that never began, which
-- scores nothing), its turns and who berserked when it ended. The standings are
-- these rows scored in the order they ended.
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    table_id TEXT NOT NULL,
    white_id BIGINT NOT NULL,
    black_id BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    game_id BIGINT,
    winner TEXT,
    turns BIGINT,
    white_berserk BIGINT NOT NULL DEFAULT 0,
    black_berserk BIGINT NOT NULL DEFAULT 0,
    ended_at BIGINT,
    PRIMARY KEY (tournament_id, table_id)
);

-- Who plays an unended game of a tournament now, and where: one row a player, so
-- that no player is ever paired twice at once (two directors of a cluster deciding in
-- the same moment included). Made with the game's row, gone when its end is kept.
CREATE TABLE tournament_seats (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    player_id BIGINT NOT NULL,
    table_id TEXT NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

-- A game that ended unheard (on another node, or as the director restarted) is found
-- by its table.
CREATE INDEX games_table ON games (table_id);
