//! The archive's views: its list, a game with its frames.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::protocol::vocab::{Pair, SeatColor, Title};
use crate::table::protocol::{BoardView, ResultView, StageName, TableOptions};

/// A logged game in the archive list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchiveEntry {
    /// The game id.
    #[ts(type = "number")]
    pub id: i64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's engine level, when the engine played white.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_bot: Option<u8>,
    /// Black's engine level, when the engine played black.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_bot: Option<u8>,
    /// White played as a guest (absent otherwise).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub white_guest: bool,
    /// Black played as a guest (absent otherwise).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub black_guest: bool,
    /// `BOT` when a bot account played white.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_title: Option<Title>,
    /// `BOT` when a bot account played black.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_title: Option<Title>,
    /// The options it was played with.
    pub options: TableOptions,
    /// When it started, in milliseconds since 1970 (UTC).
    #[ts(type = "number")]
    pub started_at: i64,
    /// When it ended.
    #[ts(type = "number")]
    pub finished_at: i64,
    /// The result.
    pub result: ResultView,
    /// How many actions were played.
    pub actions: u32,
    /// Imported from a record (`POST /api/import`), not played here: its names are the
    /// record's, nobody's account here (absent otherwise).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
}

/// One action of an archived game, with the clocks after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchivedAction {
    /// The action token.
    pub action: String,
    /// White's remaining time after it (timed games).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_ms: Option<u64>,
    /// Black's remaining time after it (timed games).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_ms: Option<u64>,
    /// When it was played, in milliseconds since 1970 (UTC).
    #[ts(type = "number")]
    pub at: i64,
}

/// The board at one moment of an archived game, for the replay viewer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Frame {
    /// Its position string (docs/notation.md): where the analysis board and "play on
    /// from here" begin.
    pub position: String,
    /// The pieces.
    pub board: BoardView,
    /// The player to act.
    pub to_move: SeatColor,
    /// What they must do (`over` at the end of a game decided on the board).
    pub stage: StageName,
    /// Markers left in the pool.
    pub pool: u32,
    /// Rings each player has removed.
    pub removed: Pair<u8>,
}

/// One archived game in full: `GET /api/archive/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchivedGame {
    /// What the list shows.
    #[serde(flatten)]
    pub entry: ArchiveEntry,
    /// Every action with its clocks.
    pub moves: Vec<ArchivedAction>,
    /// The position before the first action and after each one (one more than
    /// `moves`).
    pub frames: Vec<Frame>,
    /// The game record (docs/notation.md), as the download gives it.
    pub record: String,
}

/// The answer of `GET /api/archive`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchivePage {
    /// The games, newest first.
    pub games: Vec<ArchiveEntry>,
    /// How many games match in all.
    #[ts(type = "number")]
    pub total: u64,
}

/// The TypeScript of these types (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        ArchiveEntry::decl(cfg),
        ArchivedAction::decl(cfg),
        Frame::decl(cfg),
        ArchivedGame::decl(cfg),
        ArchivePage::decl(cfg),
    ]
}
