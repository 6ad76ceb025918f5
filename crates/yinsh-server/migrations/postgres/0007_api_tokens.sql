-- Personal API tokens: an account's programs act for it over the HTTP API with
-- `Authorization: Bearer <token>`, within the token's scopes (space-separated:
-- `bot:play`, `challenge:write`, `board:play`). Only the SHA-256 of a token is kept;
-- the token itself is shown once, when it is made. Revoking deletes the row.
CREATE TABLE api_tokens (
    id BIGSERIAL PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
);

CREATE INDEX api_tokens_player ON api_tokens (player_id);
