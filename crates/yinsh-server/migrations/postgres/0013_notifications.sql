-- A player's notifications (the bell): what happened (`kind`, and what it is about in
-- `body`, JSON as `Notice` in docs/protocol.md), when, and whether it was read. `about`
-- names what it concerns (a table, a challenge, a game), so that a newer notice of the
-- same kind about the same thing replaces an unread older one.
CREATE TABLE notifications (
    id BIGSERIAL PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL,
    about TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    read_at BIGINT
);

CREATE INDEX notifications_player ON notifications (player_id, id);

-- The kinds a player switched off, by channel (`site`; `mail` once mail is sent): a
-- row is a kind off, none means every kind on.
CREATE TABLE notifications_off (
    player_id BIGINT NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL,
    channel TEXT NOT NULL,
    PRIMARY KEY (player_id, kind, channel)
);
