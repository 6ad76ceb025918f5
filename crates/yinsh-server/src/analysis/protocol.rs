//! Computer analysis on the wire: results, their progress, the workers' jobs, and
//! the analysis board's positions and records.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::archive::protocol::Frame;
use crate::protocol::vocab::Pair;
use crate::table::protocol::{ResultView, TableOptions};

/// A game that is over, as the analysis sees it: who won, or a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Over {
    /// White won.
    White,
    /// Black won.
    Black,
    /// A draw.
    Draw,
}

impl Over {
    /// The game won by `winner` (none: a draw).
    pub fn of(winner: Option<yinsh::Color>) -> Over {
        match winner {
            Some(yinsh::Color::White) => Over::White,
            Some(yinsh::Color::Black) => Over::Black,
            None => Over::Draw,
        }
    }

    /// Who won (none: a draw).
    pub fn winner(self) -> Option<yinsh::Color> {
        match self {
            Over::White => Some(yinsh::Color::White),
            Over::Black => Some(yinsh::Color::Black),
            Over::Draw => None,
        }
    }
}

/// What a decision is marked, by the win chance it gave away (docs/engine.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// An inaccuracy.
    Inaccuracy,
    /// A mistake.
    Mistake,
    /// A blunder.
    Blunder,
}

impl From<yinsh_engine::analysis::Mark> for Mark {
    fn from(mark: yinsh_engine::analysis::Mark) -> Mark {
        use yinsh_engine::analysis::Mark as Engine;
        match mark {
            Engine::Inaccuracy => Mark::Inaccuracy,
            Engine::Mistake => Mark::Mistake,
            Engine::Blunder => Mark::Blunder,
        }
    }
}

/// A position as the analysis judged it, for White.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct EvalView {
    /// The evaluation for White, in hundredths of a ring.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// A forced win: in this many actions, for White when positive, for Black when
    /// negative.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<i32>,
    /// The game is over: `white`, `black` or `draw`.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<Over>,
    /// White's chance to win (0 to 1; docs/engine.md, "The win chance").
    pub white_chance: f64,
}

/// One action of an analysed game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ActionAnalysis {
    /// The action played.
    pub action: String,
    /// The engine's choice in the position before, when there was a choice.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The engine's line from the position before (starting with `best`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// The position after the action.
    pub eval: EvalView,
    /// The mover's win chance the action gave away (0 to 1).
    pub loss: f64,
    /// `inaccuracy`, `mistake` or `blunder`, when it lost enough.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
}

/// One player's decisions in an analysed game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AnalysisSummary {
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
    /// Accuracy in percent (0 to 100).
    pub accuracy: f64,
}

/// The computer analysis of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AnalysisResult {
    /// The engine that analysed it.
    pub engine: String,
    /// Its settings (`1000000 nodes`).
    pub settings: String,
    /// Another engine or other settings than this server's made it (an older version):
    /// asking for the analysis again (`POST`) makes it anew.
    pub outdated: bool,
    /// The start position.
    pub start: EvalView,
    /// Every action.
    pub actions: Vec<ActionAnalysis>,
    /// Each player's summary.
    pub summary: Pair<AnalysisSummary>,
}

/// Where the analysis of a game is (`GET`/`POST /api/archive/{id}/analysis`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AnalysisState {
    /// The game.
    #[ts(type = "number")]
    pub game: i64,
    /// Where the job is.
    pub state: crate::analysis::store::JobState,
    /// Positions searched so far.
    pub done: u32,
    /// Positions to search (known once a worker began).
    pub total: u32,
    /// The analysis, once done.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<AnalysisResult>,
}

/// The engine's view of one position, as a worker sends it: the best action, its line,
/// the score for the player to act (`cp` or a forced `win`) and that of the search's
/// iteration before its last (`shallow_cp` or `shallow_win`); or `over` with the winner
/// (`white`, `black`, `draw`) when the game is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct WorkView {
    /// The best action.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// Its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// The evaluation for the player to act, in hundredths of a ring.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// A forced win (positive) or loss (negative) in this many actions, for the player
    /// to act.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<i32>,
    /// `cp` of the search's iteration before its last (docs/engine.md, "Analysis").
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shallow_cp: Option<i32>,
    /// `win` of that iteration.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shallow_win: Option<i32>,
    /// The game is over: `white`, `black` or `draw`.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<Over>,
}

/// A job for an analysis worker (`POST /api/worker/acquire`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkJob {
    /// The game.
    #[ts(type = "number")]
    pub game: i64,
    /// Its options (the rules: variant, handicap, turn limit).
    pub options: TableOptions,
    /// Its actions, in order.
    pub actions: Vec<String>,
    /// The nodes to search each position with.
    #[ts(type = "number")]
    pub nodes: u64,
    /// Until when the worker holds the job, in milliseconds since 1970 (report
    /// progress to keep it).
    #[ts(type = "number")]
    pub lease_until: i64,
}

/// What a worker hands in (`POST /api/worker/{game}/result`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct WorkResult {
    /// The engine (name and version).
    pub engine: String,
    /// The nodes it searched each position with (the job's).
    #[ts(type = "number")]
    pub nodes: u64,
    /// Its view of every position: the start, then after each action.
    pub views: Vec<WorkView>,
}

/// A position on the analysis board: everything a client needs to show it and let
/// the player to act choose (`POST /api/position`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BoardPosition {
    /// The position string, the pieces, the player to act and what they must do.
    #[serde(flatten)]
    pub frame: Frame,
    /// Rings each player must remove to win.
    pub targets: Pair<u8>,
    /// Ring moves played so far.
    pub ring_moves: u16,
    /// The number of ring moves after which the game is scored, if any.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u16>,
    /// The legal actions of the player to act (none once the game is over).
    pub legal: Vec<String>,
    /// How the game ended on the board, once it is over.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
}

/// What `POST /api/position` plays: actions from a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The start, a position string; the empty board of the standard game when absent.
    #[ts(optional)]
    #[serde(default)]
    pub position: Option<String>,
    /// Actions to play from it, in order (at most 600).
    #[serde(default)]
    pub actions: Vec<String>,
}

/// The answer of `POST /api/position`: the start and the position after each action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PositionLine {
    /// One more than the actions.
    pub positions: Vec<BoardPosition>,
}

/// A game record read by `POST /api/record/parse` (our record format or a
/// boardspace SGF file), for the analysis board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ParsedRecord {
    /// White's name (`?` when unknown).
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The date, `YYYY.MM.DD` with `?` for unknown parts.
    pub date: String,
    /// The result, when the game is finished.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// Its actions, in order.
    pub actions: Vec<String>,
    /// The game as a record in our format.
    pub record: String,
    /// The start and the position after each action.
    pub positions: Vec<BoardPosition>,
}

/// The TypeScript of these types (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        Over::decl(cfg),
        Mark::decl(cfg),
        crate::analysis::store::JobState::decl(cfg),
        EvalView::decl(cfg),
        ActionAnalysis::decl(cfg),
        AnalysisSummary::decl(cfg),
        AnalysisResult::decl(cfg),
        AnalysisState::decl(cfg),
        WorkView::decl(cfg),
        WorkJob::decl(cfg),
        WorkResult::decl(cfg),
        BoardPosition::decl(cfg),
        PositionRequest::decl(cfg),
        PositionLine::decl(cfg),
        ParsedRecord::decl(cfg),
    ]
}
