-- Bot accounts (the bot API): an account with no game may become a bot, for good.
-- Bots are marked as such wherever players are named (`title` BOT), and play through
-- the bot API with an API token.
ALTER TABLE players ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
