-- The correspondence seek list: a seek for a game across days stays open, whether or
-- not its player is online, until someone takes it or its player withdraws it. The
-- player's name and rating are kept as of the seek (`options`: the game sought, JSON
-- as `TableOptions`).
CREATE TABLE correspondence_seeks (
    id TEXT PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    player_name TEXT NOT NULL,
    player_bot BIGINT NOT NULL DEFAULT 0,
    rating BIGINT,
    provisional BIGINT NOT NULL DEFAULT 0,
    options TEXT NOT NULL,
    bots BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE INDEX correspondence_seeks_player ON correspondence_seeks (player_id);
