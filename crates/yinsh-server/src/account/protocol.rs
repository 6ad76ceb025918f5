//! The account's views: who a session is, its sessions and API tokens.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The player of a session, as `GET /api/account` and the account endpoints give it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountView {
    /// The player's id.
    #[ts(type = "number")]
    pub id: i64,
    /// The name.
    pub name: String,
    /// Whether the player has an account (a guest otherwise).
    pub registered: bool,
    /// When the player first came, in milliseconds since 1970.
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<i64>,
}

/// One session of an account (`GET /api/account/sessions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionView {
    /// A short id, for `DELETE /api/account/sessions/{id}`.
    pub id: String,
    /// When it began, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Whether it is the session of the request.
    pub current: bool,
}

/// What an API token lets a program do (docs/protocol.md, "API tokens").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
pub enum Scope {
    /// Play as a bot account (the bot API).
    #[serde(rename = "bot:play")]
    BotPlay,
    /// Send and answer challenges.
    #[serde(rename = "challenge:write")]
    ChallengeWrite,
    /// Play the account's own games from a program (the board API).
    #[serde(rename = "board:play")]
    BoardPlay,
    /// Create, join and withdraw from tournaments.
    #[serde(rename = "tournament:write")]
    TournamentWrite,
}

impl Scope {
    /// Every scope, in the order tokens list them.
    pub const ALL: [Scope; 4] = [
        Scope::BotPlay,
        Scope::ChallengeWrite,
        Scope::BoardPlay,
        Scope::TournamentWrite,
    ];

    /// `bot:play`, `challenge:write`, `board:play`, `tournament:write` (as the wire and the store write it).
    pub fn name(self) -> &'static str {
        match self {
            Scope::BotPlay => "bot:play",
            Scope::ChallengeWrite => "challenge:write",
            Scope::BoardPlay => "board:play",
            Scope::TournamentWrite => "tournament:write",
        }
    }

    /// The scope called `name`.
    pub fn from_name(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A personal API token of an account (`GET /api/token`); the token itself is never
/// shown again after it was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenView {
    /// Its id, for `DELETE /api/token/{id}`.
    #[ts(type = "number")]
    pub id: i64,
    /// What its owner called it.
    pub name: String,
    /// Its scopes (`bot:play`, `challenge:write`, `board:play`).
    pub scopes: Vec<Scope>,
    /// When it was made, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
    /// When it was last used (to the minute), if ever.
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used_at: Option<i64>,
}

/// What `POST /api/token` asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// A name to tell it by (1 to 40 characters).
    pub name: String,
    /// Its scopes, at least one.
    pub scopes: Vec<Scope>,
}

/// A token just made (`POST /api/token`): the only time the token is shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewToken {
    /// The token as listed.
    #[serde(flatten)]
    pub view: TokenView,
    /// The token, `yat_` and 64 hex digits: `Authorization: Bearer <token>`.
    pub token: String,
}

/// The TypeScript of these types (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        Scope::decl(cfg),
        AccountView::decl(cfg),
        SessionView::decl(cfg),
        TokenView::decl(cfg),
        TokenRequest::decl(cfg),
        NewToken::decl(cfg),
    ]
}
