//! The game domain's views: a player's running games (`GET /api/account/playing`), in
//! the shape of lichess's.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::protocol::vocab::{SeatColor, VariantName};

/// `GET /api/account/playing`: every running game of the player, live and
/// correspondence, those that wait for their action first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NowPlayingList {
    /// The games.
    pub now_playing: Vec<NowPlaying>,
    /// How many of them wait for the player's action.
    pub my_turn: u32,
}

/// One running game of the player's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NowPlaying {
    /// The table it is played at (`#/table/{id}`, the bot API's game id).
    pub game_id: String,
    /// The same: a table's id is all a player needs to play at it.
    pub full_id: String,
    /// The player's colour.
    pub color: SeatColor,
    /// Whether the game waits for the player's action.
    pub is_my_turn: bool,
    /// Whether the player has acted in it yet.
    pub has_moved: bool,
    /// The time left to the player to act, in seconds (none in an untimed game, or
    /// unlimited correspondence).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds_left: Option<u64>,
    /// Days per turn, in a correspondence game (none for unlimited and live games).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_turn: Option<u8>,
    /// `bullet`, `blitz`, `rapid`, `classical`, `correspondence` or `unlimited`.
    pub speed: String,
    /// The rating category (as `speed` for a game without one).
    pub perf: String,
    /// Whether it is rated.
    pub rated: bool,
    /// The variant.
    pub variant: VariantKey,
    /// The last action played (empty before the first).
    pub last_move: String,
    /// Actions played so far.
    pub actions: u32,
    /// The opponent.
    pub opponent: Opponent,
}

/// A game's variant, as lichess writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct VariantKey {
    /// `standard` or `blitz`.
    pub key: VariantName,
    /// Its name.
    pub name: String,
}

/// The other player of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Opponent {
    /// An account's id: its name in lower case, as lichess's (none for a guest or the
    /// engine).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The name shown.
    pub username: String,
    /// Their rating in the game's category (none for guests and the engine).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
    /// Whether that rating is provisional.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
    /// The engine's level, for the engine.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<u8>,
}

/// The types of this module in TypeScript (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        NowPlayingList::decl(cfg),
        NowPlaying::decl(cfg),
        VariantKey::decl(cfg),
        Opponent::decl(cfg),
    ]
}
