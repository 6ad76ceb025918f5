-- Registered players (accounts). A guest who registers becomes one: the same player
-- row (id, sessions, games) with a chosen name, a password hash (argon2id, PHC string)
-- and the name's skeleton (lower case, look-alike characters folded, separators
-- dropped), unique so that no two accounts have names a reader could confuse. Guests
-- have neither.
ALTER TABLE players ADD COLUMN password_hash TEXT;
ALTER TABLE players ADD COLUMN skeleton TEXT;
CREATE UNIQUE INDEX players_skeleton_unique ON players (skeleton);
CREATE INDEX sessions_player ON sessions (player_id);
