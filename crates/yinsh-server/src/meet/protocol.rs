//! Seeks and challenges as players see them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::protocol::vocab::{PlayerView, SeatColor};
use crate::table::protocol::TableOptions;

/// A seek in the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub player: PlayerView,
    /// Their rating in the game's category (registered players).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// Whether that rating is provisional.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
    /// The game sought.
    pub options: TableOptions,
    /// The seek welcomes bot accounts (a bot's own seek always does).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bots: bool,
    /// When it was made, in milliseconds since 1970 (a correspondence seek).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<i64>,
}

/// A challenge, as its two players see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChallengeView {
    /// Its id (an open challenge's link is `#/challenge/<id>`).
    pub id: String,
    /// The challenger.
    pub from: PlayerView,
    /// The player challenged; none for an open challenge.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<PlayerView>,
    /// The game offered.
    pub options: TableOptions,
    /// The challenger's colour; random when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<SeatColor>,
    /// When it was made, in milliseconds since 1970.
    #[ts(type = "number")]
    pub created_at: i64,
}

/// Why a challenge ended (`challenge_gone`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum GoneReason {
    /// The player challenged took it: the game's start follows.
    Accepted,
    /// The player challenged said no.
    Declined,
    /// The challenger took it back, or left.
    Canceled,
}

/// The TypeScript of these types (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        SeekView::decl(cfg),
        ChallengeView::decl(cfg),
        GoneReason::decl(cfg),
    ]
}
