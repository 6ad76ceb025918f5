-- Players, sessions, games and their actions (SQLite).
CREATE TABLE players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    created_at BIGINT NOT NULL
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    options TEXT NOT NULL,
    white_id BIGINT,
    white_name TEXT NOT NULL,
    white_bot BIGINT,
    black_id BIGINT,
    black_name TEXT NOT NULL,
    black_bot BIGINT,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    winner TEXT,
    termination TEXT,
    action_count BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX games_unfinished ON games (finished_at);
CREATE INDEX games_white ON games (white_name);
CREATE INDEX games_black ON games (black_name);

CREATE TABLE actions (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply BIGINT NOT NULL,
    token TEXT NOT NULL,
    white_ms BIGINT,
    black_ms BIGINT,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
