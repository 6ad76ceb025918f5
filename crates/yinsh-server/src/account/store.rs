//! What the account domain keeps: players, sessions, accounts and API tokens.

use crate::store::base::StoreFuture;
use crate::vocab::PlayerId;

/// A person known to the server (a guest, for now).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// The id.
    pub id: PlayerId,
    /// The display name.
    pub name: String,
    /// Whether it is a bot account (the bot API; marked BOT where it is named).
    pub bot: bool,
}

/// An account to be: a registering guest's chosen name and password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    /// The name, as written.
    pub name: String,
    /// Its skeleton ([`crate::account::skeleton`]).
    pub skeleton: String,
    /// The password's hash (a PHC string).
    pub password_hash: String,
}

/// What [`AccountStore::register`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registration {
    /// The guest is an account now.
    Registered(Player),
    /// The session's player has an account already.
    AlreadyRegistered,
    /// No session has that token.
    NoSession,
}

/// A player as the account page shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The player.
    pub player: Player,
    /// Whether they registered (a guest otherwise).
    pub registered: bool,
    /// When they first came, in milliseconds since 1970.
    pub created_at: i64,
}

/// A personal API token of an account (its hash stays in the store; the token itself
/// is shown once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRecord {
    /// Its id.
    pub id: i64,
    /// The account.
    pub player: PlayerId,
    /// What its owner called it.
    pub name: String,
    /// Its scopes, space-separated.
    pub scopes: String,
    /// When it was made, in milliseconds since 1970.
    pub created_at: i64,
    /// When it was last used (to the minute), if ever.
    pub last_used_at: Option<i64>,
}

/// One session of a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// The hash of its token.
    pub token_hash: String,
    /// When it began, in milliseconds since 1970.
    pub created_at: i64,
}

/// Sessions: who a browser or program is.
/// Every method is one transaction: it happens whole or not at all.
pub trait SessionStore: Send + Sync + 'static {
    /// The player whose session token hashes to `token_hash`.
    fn session_player<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, Option<Player>>;

    /// Creates a guest called `name` with a session whose token hashes to `token_hash`.
    fn create_guest<'a>(&'a self, token_hash: &'a str, name: &'a str) -> StoreFuture<'a, Player>;

    /// Replaces the session whose token hashes to `old_hash` by one whose token hashes
    /// to `new_hash`, for the same player, and gives that player; `None` (and nothing
    /// changed) when no session has `old_hash`. The old token no longer identifies
    /// anyone afterwards. When two rotations of one session race, only one succeeds.
    fn rotate_session<'a>(
        &'a self,
        old_hash: &'a str,
        new_hash: &'a str,
    ) -> StoreFuture<'a, Option<Player>>;

    /// The player of the session whose token hashes to `token_hash`, with what the
    /// account page shows.
    fn session_info<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, Option<PlayerInfo>>;

    /// A new session of `player` whose token hashes to `token_hash`.
    fn create_session<'a>(&'a self, token_hash: &'a str, player: PlayerId) -> StoreFuture<'a, ()>;

    /// The sessions of `player`, oldest first.
    fn sessions(&self, player: PlayerId) -> StoreFuture<'_, Vec<SessionRecord>>;

    /// Ends the sessions of `player` whose token hashes are `hashes`; how many ended.
    fn end_sessions<'a>(&'a self, player: PlayerId, hashes: &'a [String]) -> StoreFuture<'a, u64>;
}

/// Registered accounts.
/// Every method is one transaction: it happens whole or not at all.
pub trait AccountStore: Send + Sync + 'static {
    /// Makes the guest of the session whose token hashes to `token_hash` an account
    /// named `account.name`. A name (ignoring case) or skeleton that is taken is a
    /// [`StoreErrorKind::Conflict`](crate::store::StoreErrorKind::Conflict).
    fn register<'a>(
        &'a self,
        token_hash: &'a str,
        account: &'a NewAccount,
    ) -> StoreFuture<'a, Registration>;

    /// The account called `name` (ignoring case) and its password hash.
    fn account<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<(Player, String)>>;

    /// Gives the account `player` the password hash `hash`.
    fn set_password<'a>(&'a self, player: PlayerId, hash: &'a str) -> StoreFuture<'a, ()>;

    /// Makes the account `player` a bot account, for good, if it has played no game;
    /// whether it did.
    fn upgrade_to_bot(&self, player: PlayerId) -> StoreFuture<'_, bool>;

    /// Which of `players` are bot accounts.
    fn bots_among<'a>(&'a self, players: &'a [PlayerId]) -> StoreFuture<'a, Vec<PlayerId>>;

    /// The account called `name` (ignoring case), with what its page shows.
    fn player_named<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<PlayerInfo>>;
}

/// Personal API tokens.
/// Every method is one transaction: it happens whole or not at all.
pub trait TokenStore: Send + Sync + 'static {
    /// A new API token of `player`, named `name`, with `scopes` (space-separated),
    /// whose token hashes to `hash`.
    fn create_token<'a>(
        &'a self,
        player: PlayerId,
        name: &'a str,
        scopes: &'a str,
        hash: &'a str,
        now: i64,
    ) -> StoreFuture<'a, TokenRecord>;

    /// The API tokens of `player`, oldest first.
    fn tokens(&self, player: PlayerId) -> StoreFuture<'_, Vec<TokenRecord>>;

    /// Revokes (deletes) token `id` of `player`; whether there was one.
    fn revoke_token(&self, player: PlayerId, id: i64) -> StoreFuture<'_, bool>;

    /// The token whose hash is `hash` and its account (its name as it is now), noting
    /// the use at `now` (kept to the minute: at most one write a minute per token).
    fn use_token<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
    ) -> StoreFuture<'a, Option<(TokenRecord, Player)>>;
}
