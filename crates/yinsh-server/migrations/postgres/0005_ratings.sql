-- Ratings (PostgreSQL): one Glicko-2 rating per player and category (standard-rapid,
-- blitz-bullet, …), with the player's results in it; and the change each rated game
-- made, written in the transaction that stores its result. The primary key of
-- rating_changes makes a game rate its players at most once, whatever is retried.
CREATE TABLE ratings (
    player_id BIGINT NOT NULL REFERENCES players (id),
    category TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    last_game_at BIGINT,
    PRIMARY KEY (player_id, category)
);

CREATE INDEX ratings_board ON ratings (category, rating);

CREATE TABLE rating_changes (
    game_id BIGINT NOT NULL REFERENCES games (id),
    color TEXT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    category TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);

CREATE INDEX rating_changes_player ON rating_changes (player_id, at);

-- A player's games, for their page.
CREATE INDEX games_white_id ON games (white_id);
CREATE INDEX games_black_id ON games (black_id);
