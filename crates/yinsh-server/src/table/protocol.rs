//! The table's messages: its options and commands, the game and table views, and
//! the events every watcher is sent.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::protocol::vocab::{Pair, PlayerView, SeatColor, VariantName};
use yinsh::notation::record::Termination;

/// A time control: minutes on each clock and seconds added after each turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TimeSetting {
    /// Initial time on each clock, in whole minutes (1–180).
    pub minutes: u32,
    /// Increment after each completed turn, in seconds (0–60).
    pub increment: u32,
}

/// The days a correspondence player may take for a turn.
pub const DAYS_PER_TURN: [u8; 7] = [1, 2, 3, 5, 7, 10, 14];

/// Correspondence play: each turn (a ring move with the removals after it) may take up
/// to `days`, and the whole allowance starts again with each turn, as on lichess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Correspondence {
    /// Days per turn, one of [`DAYS_PER_TURN`]; unlimited when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u8>,
}

/// The options of a table; they can change only between games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableOptions {
    /// `standard` or `blitz`.
    pub variant: VariantName,
    /// Rings each player must remove to win, when they differ from the variant's
    /// (handicap, RULES.md V3): white's and black's target.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<Pair<u8>>,
    /// The game ends after this many ring moves (RULES.md V4); none when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u16>,
    /// The clocks; untimed when absent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeSetting>,
    /// Correspondence play (days per turn, or unlimited), instead of `time`: the game
    /// waits for players who are away, and is never adjudicated for it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<Correspondence>,
    /// Whether the finished game goes to the public archive.
    pub log: bool,
    /// Whether the game counts for the players' ratings: it needs two registered
    /// players, a clock, the variant's own targets and no turn limit, and is archived.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The position the games begin from, as a position string (docs/notation.md),
    /// when not the empty board ("play on from here"). Its targets and turn limit are
    /// the game's: a new table takes its variant, handicap and turn limit from it, and
    /// they cannot be changed. Such a game is never rated.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Whether an engine seat plays at full strength: it spends its clock as in a
    /// match (a minute or more over a decision in a long game) instead of at most 6
    /// seconds a decision, and thinks up to 10 seconds a decision in an untimed game
    /// instead of 1.5 (docs/engine.md, "Against people").
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub engine_full: bool,
    /// The tournament whose game this is (its id), set by the tournament as it opens
    /// the table (docs/tournaments.md): such a table plays that one game, and a
    /// player's options with it are refused.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
}

impl Default for TableOptions {
    fn default() -> TableOptions {
        TableOptions {
            variant: VariantName::Standard,
            handicap: None,
            turn_limit: None,
            time: None,
            correspondence: None,
            log: true,
            rated: false,
            position: None,
            engine_full: false,
            tournament: None,
        }
    }
}

/// One change of a table option, as `/option …` makes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "option", rename_all = "snake_case")]
pub enum OptionChange {
    /// `/option log on|off`.
    Log {
        /// Whether the game is archived.
        on: bool,
    },
    /// `/option time <min>[+<sec>]|off`.
    Time {
        /// The new time control; untimed when absent.
        #[ts(optional)]
        #[serde(default)]
        time: Option<TimeSetting>,
    },
    /// `/option variant standard|blitz` (clears a handicap).
    Variant {
        /// The variant.
        variant: VariantName,
    },
    /// `/option handicap <white-target> <black-target>`.
    Handicap {
        /// White's target.
        white: u8,
        /// Black's target.
        black: u8,
    },
    /// `/option rated on|off`.
    Rated {
        /// Whether the game counts for the ratings.
        on: bool,
    },
    /// `/option days <n>|unlimited|off`: correspondence play (it replaces a clock), or
    /// none.
    Correspondence {
        /// Days per turn, or unlimited; live play when absent.
        #[ts(optional)]
        #[serde(default)]
        correspondence: Option<Correspondence>,
    },
    /// `/option turns <n>|off`.
    Turns {
        /// The turn limit; none when absent.
        #[ts(optional)]
        #[serde(default)]
        limit: Option<u16>,
    },
    /// `/option engine quick|full`.
    Engine {
        /// Whether an engine seat plays at full strength (`full`) rather than at a
        /// person's pace (`quick`, the default).
        full: bool,
    },
}

/// A table command: what a chat slash command or a button asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// `/join [white|black]`: take a seat (the free one when no colour is given).
    Join {
        /// The seat wanted.
        #[ts(optional)]
        #[serde(default)]
        color: Option<SeatColor>,
    },
    /// `/leave`: give up your seat (not while your game runs: resign first).
    Leave,
    /// `/start`: begin the game (both seats taken; a seated player starts it).
    Start,
    /// `/option …`: change an option before the start.
    Option {
        /// The change.
        change: OptionChange,
    },
    /// `/bot [level]`: seat the engine in the free seat.
    Bot {
        /// Strength 1–10 (default 5).
        #[ts(optional)]
        #[serde(default)]
        level: Option<u8>,
    },
    /// `/resign`.
    Resign,
    /// `/draw`: offer a draw.
    Draw,
    /// `/takeback`: ask to undo your last turn.
    Takeback,
    /// `/accept`: accept the opponent's draw offer or takeback request.
    Accept,
    /// `/decline`: decline it.
    Decline,
    /// `/claim [draw]`: end the game when the opponent has been away longer than the
    /// grace period: a win, or a draw with `draw`.
    Claim {
        /// Claim a draw rather than the win (`false` when absent).
        #[serde(default)]
        draw: bool,
    },
    /// `/abort`: end the game without a result, while neither player has made two
    /// actions.
    Abort,
    /// `/berserk`: in a tournament game, before your first action, halve your clock
    /// and give up its increment (a win with enough turns then earns a point more).
    Berserk,
    /// `/who`: who is at the table.
    Who,
    /// `/help`: the list of commands.
    Help,
}

/// The last event a client saw of a table, to resume from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Since {
    /// The table's epoch (it changes when the server restarts).
    #[ts(type = "number")]
    pub epoch: u64,
    /// The last version seen.
    #[ts(type = "number")]
    pub version: u64,
}

/// What the lobby shows of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableSummary {
    /// The table id.
    pub id: String,
    /// Its options.
    pub options: TableOptions,
    /// Who sits where.
    pub seats: Pair<Option<PlayerView>>,
    /// How many spectators watch.
    pub spectators: u32,
    /// `waiting` or `playing`.
    pub status: TableStatus,
    /// The result of the table's last game, while the table waits for the next one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_result: Option<ResultView>,
}

/// Whether a table's game runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum TableStatus {
    /// No game has started, or the last one is over and no new one yet.
    Waiting,
    /// A game runs.
    Playing,
}

/// Both clocks at the moment a message is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ClockView {
    /// White's remaining time in milliseconds.
    #[ts(type = "number")]
    pub white_ms: u64,
    /// Black's remaining time in milliseconds.
    #[ts(type = "number")]
    pub black_ms: u64,
    /// The clock that runs now, if any (count it down from the moment of arrival).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<SeatColor>,
    /// Seconds added after each completed turn.
    pub increment: u32,
    /// Days per turn, in a correspondence game: each turn begins with the whole
    /// allowance on the clock of the player to act.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u8>,
    /// In a correspondence game with days per turn, each player's vacation hours left
    /// this year (`null`: a player without vacation, a guest or a bot). They are spent
    /// an hour at a time when the player's turn would otherwise be lost on time.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation: Option<Pair<Option<u32>>>,
    /// In a tournament game with a clock, whether each player berserked (halved their
    /// clock, without increment); absent in other games, where nobody can.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub berserk: Option<Pair<bool>>,
}

/// The pieces on the board, as lists of points (`e5`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BoardView {
    /// Rings of each colour.
    pub rings: Pair<Vec<String>>,
    /// Markers of each colour.
    pub markers: Pair<Vec<String>>,
}

/// What the player to act must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum StageName {
    /// Place a ring.
    Place,
    /// Move a ring (or pass when none can move).
    Move,
    /// Choose a row to remove.
    RemoveRow,
    /// Choose a ring to remove.
    RemoveRing,
    /// The game is over.
    Over,
}

/// Why a game ended, on the wire: [`yinsh::notation::record::Termination`] by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum Ending {
    /// `target reached`.
    #[serde(rename = "target reached")]
    TargetReached,
    /// `pool exhausted`.
    #[serde(rename = "pool exhausted")]
    PoolExhausted,
    /// `no moves`.
    #[serde(rename = "no moves")]
    NoMoves,
    /// `turn limit`.
    #[serde(rename = "turn limit")]
    TurnLimit,
    /// `resignation`.
    #[serde(rename = "resignation")]
    Resignation,
    /// `time`.
    #[serde(rename = "time")]
    Time,
    /// `agreement`.
    #[serde(rename = "agreement")]
    Agreement,
    /// `abandoned`.
    #[serde(rename = "abandoned")]
    Abandoned,
}

impl From<Termination> for Ending {
    fn from(t: Termination) -> Ending {
        match t {
            Termination::TargetReached => Ending::TargetReached,
            Termination::PoolExhausted => Ending::PoolExhausted,
            Termination::NoMoves => Ending::NoMoves,
            Termination::TurnLimit => Ending::TurnLimit,
            Termination::Resignation => Ending::Resignation,
            Termination::Time => Ending::Time,
            Termination::Agreement => Ending::Agreement,
            Termination::Abandoned => Ending::Abandoned,
        }
    }
}

impl From<Ending> for Termination {
    fn from(e: Ending) -> Termination {
        Termination::ALL
            .into_iter()
            .find(|t| Ending::from(*t) == e)
            .expect("every ending is a termination")
    }
}

impl Ending {
    /// Its name (`target reached`, …).
    pub fn as_str(self) -> &'static str {
        Termination::from(self).name()
    }
}

impl PartialEq<&str> for Ending {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A game's score, on the wire: `1-0`, `0-1` or `1/2-1/2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum ScoreText {
    /// White won.
    #[serde(rename = "1-0")]
    WhiteWon,
    /// Black won.
    #[serde(rename = "0-1")]
    BlackWon,
    /// A draw.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl ScoreText {
    /// The score of a game won by `winner` (none: a draw).
    pub fn of(winner: Option<yinsh::Color>) -> ScoreText {
        match winner {
            Some(yinsh::Color::White) => ScoreText::WhiteWon,
            Some(yinsh::Color::Black) => ScoreText::BlackWon,
            None => ScoreText::Draw,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            ScoreText::WhiteWon => "1-0",
            ScoreText::BlackWon => "0-1",
            ScoreText::Draw => "1/2-1/2",
        }
    }
}

impl PartialEq<&str> for ScoreText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One player's rating before and after a rated game (rounded to whole points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RatingDiff {
    /// Before the game.
    pub before: i32,
    /// After it.
    pub after: i32,
    /// Whether the rating after it is still provisional (deviation ≥ 110).
    pub provisional: bool,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ResultView {
    /// The winner; a draw has none.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<SeatColor>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: ScoreText,
    /// `target reached`, `pool exhausted`, `no moves`, `turn limit`, `resignation`,
    /// `time`, `agreement` or `abandoned` (claimed after the opponent left, or
    /// adjudicated after both left).
    pub termination: Ending,
    /// In a rated game, each player's rating before and after it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Pair<RatingDiff>>,
}

/// A game as everyone at the table sees it; the legal actions are included so that
/// clients need no rules of their own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GameView {
    /// The game's id (its archive id once it is logged).
    #[ts(type = "number")]
    pub id: i64,
    /// The position string (docs/notation.md).
    pub position: String,
    /// The pieces.
    pub board: BoardView,
    /// The player to act.
    pub to_move: SeatColor,
    /// What they must do.
    pub stage: StageName,
    /// Markers left in the pool.
    pub pool: u32,
    /// Rings each player has removed.
    pub removed: Pair<u8>,
    /// Rings each player must remove to win.
    pub targets: Pair<u8>,
    /// Ring moves played so far.
    pub ring_moves: u16,
    /// The legal actions of the player to act, for that player only: filled in the
    /// snapshot a connection of theirs is sent, and given after each change of the game
    /// by a `legal` message; empty for everyone else, in events, and once the game is
    /// over or while it is paused.
    pub legal: Vec<String>,
    /// Every action played, in order.
    pub moves: Vec<String>,
    /// The clocks, for a timed game.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<ClockView>,
    /// The result, once the game is over.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// The player whose draw offer is pending.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<SeatColor>,
    /// The player whose takeback request is pending.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback_request: Option<SeatColor>,
    /// Takebacks granted to each player so far (at most 3 each per game).
    pub takebacks: Pair<u8>,
    /// Whether a seated player may still abort the game (neither has made two actions).
    pub abortable: bool,
    /// The player who may claim the game now (`/claim`): their opponent has been away
    /// longer than the grace period.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimable: Option<SeatColor>,
    /// Whether the clocks stand still because the database is not available.
    pub paused: bool,
}

/// A chat line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChatLine {
    /// Who wrote it.
    pub from: String,
    /// The writer is a guest (absent for accounts).
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// The text, to be shown as text (never as markup).
    pub text: String,
    /// When, in milliseconds since 1970 (UTC).
    #[ts(type = "number")]
    pub at: i64,
}

/// Everything about a table: the answer to `open`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableView {
    /// The table id.
    pub id: String,
    /// Changes when the server restarts; resume with `since` only within one epoch.
    #[ts(type = "number")]
    pub epoch: u64,
    /// The version of the last event.
    #[ts(type = "number")]
    pub version: u64,
    /// The options.
    pub options: TableOptions,
    /// The seats.
    pub seats: Pair<Option<PlayerView>>,
    /// How many spectators watch.
    pub spectator_count: u32,
    /// The names of the spectators, sorted; the first 100 when there are more.
    pub spectators: Vec<String>,
    /// The most recent chat lines, oldest first.
    pub chat: Vec<ChatLine>,
    /// The current game, or the last one (over) until the next starts.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameView>,
    /// The node of the cluster that runs the table (none on a lone server). A client
    /// connected to another node may connect to it instead (`/ws?node=<id>`, through a
    /// proxy that routes on it), so that its requests need not be forwarded.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}

/// Something that happened at a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// A player took a seat.
    Joined {
        /// The seat.
        color: SeatColor,
        /// The player.
        player: PlayerView,
    },
    /// A seat was given up.
    Left {
        /// The seat.
        color: SeatColor,
    },
    /// A seated player's connection came or went.
    Presence {
        /// The seat.
        color: SeatColor,
        /// Whether they are connected now.
        online: bool,
    },
    /// The spectators changed (announced at most once a second).
    Spectators {
        /// How many watch.
        count: u32,
        /// Their names, sorted; the first 100 when there are more.
        names: Vec<String>,
    },
    /// The options changed.
    Options {
        /// The new options.
        options: TableOptions,
        /// Who changed them.
        by: String,
    },
    /// A game began.
    Started,
    /// A game action was played. The event carries no game view: a client applies it
    /// to the game it holds (the action appended to the moves, the board and the rest
    /// read from `position`), and the player to act is sent a `legal` message.
    Acted {
        /// Who played it.
        color: SeatColor,
        /// The action token.
        action: String,
        /// Actions played with this one: it is `moves[ply - 1]`.
        ply: u32,
        /// The position after it (docs/notation.md, "Position string"): the board, the
        /// player to act, what they must do, the rings removed, the targets and the ring
        /// moves (the pool is 51 less the markers on the board).
        position: String,
        /// Whether a seated player may still abort the game (absent: no longer).
        #[ts(as = "Option<bool>", optional)]
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        abortable: bool,
    },
    /// The last turn(s) were taken back.
    TookBack {
        /// How many actions were undone.
        actions: u32,
    },
    /// A draw was offered.
    DrawOffered {
        /// By whom.
        by: SeatColor,
    },
    /// A takeback was requested.
    TakebackRequested {
        /// By whom.
        by: SeatColor,
    },
    /// A draw offer or takeback request was declined (or withdrawn by playing on).
    Declined {
        /// By whom.
        by: SeatColor,
    },
    /// The game ended.
    GameOver {
        /// How.
        result: ResultView,
    },
    /// `color` berserked: their clock lost half of the allowance, and they get no
    /// increment.
    Berserk {
        /// Who.
        color: SeatColor,
    },
    /// The game was aborted: it ends without a result and is not archived.
    Aborted {
        /// The player who aborted it; none when the server did (both players gone).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<SeatColor>,
    },
    /// A player's opponent has been away longer than the grace period: the player may
    /// claim the game (`/claim`) until the opponent comes back.
    Claimable {
        /// The player who may claim.
        by: SeatColor,
    },
    /// The player to act ran out of time in a correspondence game and was given vacation
    /// hours instead: their deadline moved on by `hours` (the clocks sent with the event
    /// show it).
    Vacation {
        /// The player on vacation.
        color: SeatColor,
        /// Hours spent now.
        hours: u32,
        /// Their hours left this year.
        left: u32,
    },
    /// The database is not available: the clocks stand still and actions are refused
    /// until it is back.
    Interrupted,
    /// The database is back: the clocks run again from where they stood.
    Resumed,
    /// A chat line.
    Chat {
        /// The line.
        line: ChatLine,
    },
}

/// The TypeScript of these types (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        TimeSetting::decl(cfg),
        Correspondence::decl(cfg),
        format!(
            "const DAYS_PER_TURN: readonly number[] = {:?}; // a correspondence turn's allowances",
            DAYS_PER_TURN
        ),
        TableOptions::decl(cfg),
        OptionChange::decl(cfg),
        Command::decl(cfg),
        Since::decl(cfg),
        TableSummary::decl(cfg),
        TableStatus::decl(cfg),
        ClockView::decl(cfg),
        BoardView::decl(cfg),
        StageName::decl(cfg),
        Ending::decl(cfg),
        ScoreText::decl(cfg),
        RatingDiff::decl(cfg),
        ResultView::decl(cfg),
        GameView::decl(cfg),
        ChatLine::decl(cfg),
        TableView::decl(cfg),
        TableEvent::decl(cfg),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_and_scores_are_written_as_records_write_them() {
        for t in Termination::ALL {
            let ending = Ending::from(t);
            assert_eq!(Termination::from(ending), t);
            let wire = serde_json::to_string(&ending).unwrap();
            assert_eq!(wire, format!("\"{}\"", t.name()));
        }
        for winner in [Some(yinsh::Color::White), Some(yinsh::Color::Black), None] {
            let result = yinsh::notation::record::GameResult {
                winner,
                termination: Termination::Abandoned,
            };
            let wire = serde_json::to_string(&ScoreText::of(winner)).unwrap();
            assert_eq!(wire, format!("\"{}\"", result.score()));
        }
    }
}
