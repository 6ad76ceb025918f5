-- Mail (docs/protocol.md "Mail"): a player's address, verified or not, the language
-- their mail is written in, the kinds mailed to them (`mail_kinds`, opted into), and
-- whether their turns come as one daily digest instead of a mail each.
CREATE TABLE mail_addresses (
    player_id BIGINT PRIMARY KEY REFERENCES players (id),
    address TEXT NOT NULL,
    lang TEXT NOT NULL,
    verified_at BIGINT,
    digest BIGINT NOT NULL DEFAULT 0,
    last_digest_at BIGINT
);

CREATE INDEX mail_addresses_address ON mail_addresses (address);

CREATE TABLE mail_kinds (
    player_id BIGINT NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL,
    PRIMARY KEY (player_id, kind)
);

-- The links mail carries, by the hash of their token: a verification (for `address`,
-- a day), a password reset (an hour, used once) and an unsubscription (of `kind`, or
-- of every mail without one; never expires).
CREATE TABLE mail_tokens (
    token_hash TEXT PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    purpose TEXT NOT NULL,
    address TEXT NOT NULL,
    kind TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT,
    used_at BIGINT
);

CREATE INDEX mail_tokens_player ON mail_tokens (player_id, purpose, created_at);
CREATE INDEX mail_tokens_address ON mail_tokens (address, purpose, created_at);

-- The outbox: every mail as it will be sent, kept until the SMTP server took it
-- (`sent_at`) or refused it for good (`failed_at`). `next_at` is when it is tried
-- (again), `claimed_until` keeps two senders (two nodes) off one mail, and `dedupe`
-- names a mail that must go once (a day's digest).
CREATE TABLE mail_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dedupe TEXT UNIQUE,
    player_id BIGINT REFERENCES players (id),
    address TEXT NOT NULL,
    kind TEXT NOT NULL,
    about TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    unsubscribe TEXT,
    created_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    claimed_until BIGINT,
    sent_at BIGINT,
    failed_at BIGINT,
    last_error TEXT
);

CREATE INDEX mail_outbox_due ON mail_outbox (sent_at, failed_at, next_at);
CREATE INDEX mail_outbox_about ON mail_outbox (player_id, kind, about, created_at);
