//! Game records: headers and numbered turns, in a PGN-like text format.
//!
//! ```text
//! [White "alice"]
//! [Black "bob"]
//! [Date "2026.03.21"]
//! [Variant "standard"]
//! [TimeControl "10+5"]
//! [Result "0-1"]
//! [Termination "resignation"]
//! [Site "example.org"]
//!
//! 1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.g3-g6 0-1
//! ```
//!
//! The header section is one `[Name "value"]` per line; inside the quotes `\"` is a
//! quote, `\\` a backslash and `\n` a line break. A blank line ends it. Then come the
//! turns in the long form of [`crate::notation::turn`], each prefixed with its number
//! (odd = White, even = Black), separated by spaces or line breaks, and last the result
//! token: `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished). A `{comment}` may follow a turn;
//! `{[%clk 0:04:58]}` is the time left on that turn's player's clock
//! ([`Record::clocks`]). A game that began from a
//! `Position` numbers its turns from there: 1 when White acts first, 2 when Black does.
//!
//! Known headers, written in this order:
//!
//! | header | value | when written |
//! |---|---|---|
//! | `White`, `Black` | player names, `?` when unknown | always |
//! | `Date` | `YYYY.MM.DD`, unknown parts as `?` | always |
//! | `Variant` | `standard` or `blitz` | always |
//! | `Targets` | `<white>-<black>` rings to win (handicap, RULES.md V3) | when not the variant's |
//! | `TurnLimit` | ring moves (RULES.md V4) | when there is one |
//! | `Position` | the start position string ([`crate::notation::fen`]) | when the game began from one |
//! | `TimeControl` | `<minutes>+<increment seconds>`, `<seconds>s+<increment>`, or `-` | always |
//! | `Result` | as the result token | always |
//! | `Termination` | see [`Termination`] | when the game is finished |
//!
//! Any other header is kept, in order, after these.
//!
//! Reading is lenient where it costs nothing: names of known headers in any case, turns
//! in either case and either row-end order, turn numbers optional (`e3 a5` reads as
//! `1.e3 2.a5`) or apart from their turn (`1. e3`), no result token, no blank line.
//! It is strict about the game: every action is replayed from the start, each turn must
//! hold exactly the actions of its player, and a finished result must agree with the
//! board.
//!
//! ```
//! use yinsh::notation::record::{GameResult, Record, Termination};
//! use yinsh::{Color, Rules};
//!
//! let text = "[White \"alice\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n\
//!             [Termination \"resignation\"]\n\n1.e3 2.a5 3.b5 0-1\n";
//! let record = Record::parse(text).unwrap();
//! assert_eq!(record.white, "alice");
//! assert_eq!(record.actions.len(), 3);
//! assert_eq!(record.result, Some(GameResult::resignation(Color::White)));
//! assert_eq!(Record::parse(&record.to_string()).unwrap(), record);
//!
//! // A claim the board contradicts is refused.
//! assert!(Record::parse("[Result \"1-0\"]\n[Termination \"target reached\"]\n\n1.e3").is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use crate::action::Action;
use crate::color::Color;
use crate::notation::turn::{self, NumberedTurn, ParseTurnError, Turn};
use crate::position::{IllegalAction, Position};
use crate::rules::{EndReason, Outcome, Rules, Variant};

/// How a game ended: one of the board's [`EndReason`]s, or a platform matter
/// (RULES.md E5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A player removed their target number of rings (E1).
    TargetReached,
    /// The pool was empty once the removals of the ring move that placed the last
    /// marker were done (E2, E3).
    PoolExhausted,
    /// Neither player could move a ring (E4).
    NoMoves,
    /// The agreed number of ring moves was played (V4).
    TurnLimit,
    /// A player resigned; the other one wins.
    Resignation,
    /// A player ran out of time; the other one wins.
    Time,
    /// The players agreed to a draw.
    Agreement,
    /// The game was left unfinished and adjudicated (either result).
    Abandoned,
}

impl Termination {
    /// Every termination, board reasons first.
    pub const ALL: [Termination; 8] = [
        Termination::TargetReached,
        Termination::PoolExhausted,
        Termination::NoMoves,
        Termination::TurnLimit,
        Termination::Resignation,
        Termination::Time,
        Termination::Agreement,
        Termination::Abandoned,
    ];

    /// The text of the `Termination` header: `target reached`, `pool exhausted`,
    /// `no moves`, `turn limit`, `resignation`, `time`, `agreement` or `abandoned`.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::TargetReached => "target reached",
            Termination::PoolExhausted => "pool exhausted",
            Termination::NoMoves => "no moves",
            Termination::TurnLimit => "turn limit",
            Termination::Resignation => "resignation",
            Termination::Time => "time",
            Termination::Agreement => "agreement",
            Termination::Abandoned => "abandoned",
        }
    }

    /// Picks a termination by its [`Termination::name`] (either case).
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The board's reason, for the terminations that happen on the board.
    pub const fn end_reason(self) -> Option<EndReason> {
        match self {
            Termination::TargetReached => Some(EndReason::TargetReached),
            Termination::PoolExhausted => Some(EndReason::PoolExhausted),
            Termination::NoMoves => Some(EndReason::NoMoves),
            Termination::TurnLimit => Some(EndReason::TurnLimit),
            _ => None,
        }
    }

    /// Whether the game ends on the board this way (the board then decides the
    /// winner); otherwise the game ends while the board is unfinished.
    pub const fn is_on_board(self) -> bool {
        self.end_reason().is_some()
    }
}

impl From<EndReason> for Termination {
    fn from(reason: EndReason) -> Termination {
        match reason {
            EndReason::TargetReached => Termination::TargetReached,
            EndReason::PoolExhausted => Termination::PoolExhausted,
            EndReason::NoMoves => Termination::NoMoves,
            EndReason::TurnLimit => Termination::TurnLimit,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game: who won and how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub termination: Termination,
}

impl GameResult {
    /// `loser` resigned.
    pub fn resignation(loser: Color) -> GameResult {
        GameResult {
            winner: Some(!loser),
            termination: Termination::Resignation,
        }
    }

    /// `loser` ran out of time.
    pub fn time(loser: Color) -> GameResult {
        GameResult {
            winner: Some(!loser),
            termination: Termination::Time,
        }
    }

    /// The players agreed to a draw.
    pub const fn agreed_draw() -> GameResult {
        GameResult {
            winner: None,
            termination: Termination::Agreement,
        }
    }

    /// The result token: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn score(&self) -> &'static str {
        score_text(self.winner)
    }

    /// Why this result cannot be, on its own: a resignation or a loss on time without a
    /// winner, an agreement with one.
    fn shape_error(&self) -> Option<&'static str> {
        match (self.termination, self.winner) {
            (Termination::Resignation, None) => Some("a resignation needs a winner"),
            (Termination::Time, None) => Some("a loss on time needs a winner"),
            (Termination::Agreement, Some(_)) => Some("an agreed result is a draw"),
            _ => None,
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(outcome: Outcome) -> GameResult {
        GameResult {
            winner: outcome.winner,
            termination: outcome.reason.into(),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.score(), self.termination)
    }
}

const fn score_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// Reads a result token: `Some(Some(winner))` for a finished game (a draw has no
/// winner), `Some(None)` for `*`, `None` for anything else.
fn parse_score(text: &str) -> Option<Option<Option<Color>>> {
    match text {
        "1-0" => Some(Some(Some(Color::White))),
        "0-1" => Some(Some(Some(Color::Black))),
        "1/2-1/2" => Some(Some(None)),
        "*" => Some(None),
        _ => None,
    }
}

/// A time control: initial time on each clock and an increment per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Initial time on each clock, in seconds.
    pub initial_secs: u32,
    /// Time added after each turn, in seconds.
    pub increment_secs: u32,
}

impl TimeControl {
    /// `minutes` on each clock and `increment_secs` seconds per move.
    pub const fn minutes(minutes: u32, increment_secs: u32) -> TimeControl {
        TimeControl {
            initial_secs: minutes * 60,
            increment_secs,
        }
    }
}

impl fmt::Display for TimeControl {
    /// `10+5` for whole minutes, `90s+2` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.initial_secs % 60 == 0 {
            write!(f, "{}+{}", self.initial_secs / 60, self.increment_secs)
        } else {
            write!(f, "{}s+{}", self.initial_secs, self.increment_secs)
        }
    }
}

/// Text that is not a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTimeControlError(pub String);

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control '{}': expected <minutes>+<seconds> or <seconds>s+<seconds>",
            self.0
        )
    }
}

impl std::error::Error for ParseTimeControlError {}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// Reads `10+5` (minutes, increment seconds) or `90s+2` (seconds, increment).
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let err = || ParseTimeControlError(s.to_owned());
        let number = |t: &str| -> Result<u32, ParseTimeControlError> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err());
            }
            t.parse().map_err(|_| err())
        };
        let (initial, increment) = s.split_once('+').ok_or_else(err)?;
        let initial_secs = match initial.strip_suffix(['s', 'S']) {
            Some(secs) => number(secs)?,
            None => number(initial)?.checked_mul(60).ok_or_else(err)?,
        };
        Ok(TimeControl {
            initial_secs,
            increment_secs: number(increment)?,
        })
    }
}

/// Why a record could not be read, or does not describe a legal game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// A line of the header section is not `[Name "value"]`.
    HeaderSyntax {
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// A known header has a value that cannot be used, or appears twice.
    HeaderValue {
        /// Line number, from 1.
        line: usize,
        /// The header's name.
        name: String,
        /// Its value.
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A token of the turn section is not a turn.
    Turn {
        /// Line number, from 1.
        line: usize,
        /// The error of the turn.
        error: ParseTurnError,
    },
    /// A turn number out of sequence.
    TurnNumber {
        /// Line number, from 1.
        line: usize,
        /// The number written.
        found: u32,
        /// The number due.
        expected: u32,
    },
    /// Text after the result token, or a result token that disagrees with the
    /// `Result` header.
    ResultToken {
        /// Line number, from 1.
        line: usize,
        /// The token.
        token: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The rules (targets, turn limit) are out of range.
    InvalidRules,
    /// The rules are not those of the start position (its targets or turn limit).
    PositionRules,
    /// An action cannot be played.
    Illegal {
        /// Line number, from 1, when read from text.
        line: Option<usize>,
        /// Number of the turn the action is in.
        turn: u32,
        /// The action and why it is refused.
        illegal: IllegalAction,
    },
    /// A turn holds an action the other player must take: the turns are cut in the
    /// wrong places.
    WrongPlayer {
        /// Line number, from 1.
        line: usize,
        /// Number of the turn.
        turn: u32,
        /// The action.
        action: Action,
    },
    /// The result disagrees with the board, or is impossible.
    Result(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::HeaderSyntax { line, reason } => {
                write!(f, "line {line}: bad header: {reason}")
            }
            RecordError::HeaderValue {
                line,
                name,
                value,
                reason,
            } => write!(f, "line {line}: header {name} \"{value}\": {reason}"),
            RecordError::Turn { line, error } => write!(f, "line {line}: {error}"),
            RecordError::TurnNumber {
                line,
                found,
                expected,
            } => write!(f, "line {line}: turn number {found}, expected {expected}"),
            RecordError::ResultToken {
                line,
                token,
                reason,
            } => write!(f, "line {line}: '{token}': {reason}"),
            RecordError::InvalidRules => {
                f.write_str("targets must be 1 to 5 and a turn limit at least 1")
            }
            RecordError::PositionRules => {
                f.write_str("the rules disagree with the start position's targets or turn limit")
            }
            RecordError::Illegal {
                line,
                turn,
                illegal,
            } => {
                if let Some(line) = line {
                    write!(f, "line {line}: ")?;
                }
                write!(f, "turn {turn}: {illegal}")
            }
            RecordError::WrongPlayer { line, turn, action } => write!(
                f,
                "line {line}: turn {turn} is {}'s, but {action} is the other player's action",
                turn::color_of(*turn)
            ),
            RecordError::Result(why) => write!(f, "bad result: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// The header names the record reads into its own fields.
const RESERVED: [&str; 10] = [
    "White",
    "Black",
    "Date",
    "Variant",
    "Targets",
    "TurnLimit",
    "Position",
    "TimeControl",
    "Result",
    "Termination",
];

/// Width the turn section is wrapped at.
const LINE_WIDTH: usize = 80;

/// A game: players, date, rules, time control, result, other headers and the actions
/// played from the empty board or from a start position.
///
/// The fields are public; [`Record::replay`] checks that they describe a legal game.
/// Its text form (`Display`, [`Record::parse`]) is described in the
/// [module docs](self); `Record::parse(&record.to_string())` gives back the record for
/// every record that replays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// White's name, `?` when unknown.
    pub white: String,
    /// Black's name, `?` when unknown.
    pub black: String,
    /// The date, `YYYY.MM.DD` with `?` for unknown parts.
    pub date: String,
    /// The time control, `None` when untimed.
    pub time_control: Option<TimeControl>,
    /// The rules played under (a start position's own, when there is one).
    pub rules: Rules,
    /// The position the game began from, when not the empty board (the `Position`
    /// header); [`Record::with_position`] sets it with its rules.
    pub position: Option<Position>,
    /// The result, `None` while the game is unfinished.
    pub result: Option<GameResult>,
    /// Other headers, in order. Their names are made of ASCII letters, digits and `_`
    /// and are none of the known ones (`White`, `Black`, `Date`, `Variant`, `Targets`,
    /// `TurnLimit`, `TimeControl`, `Result`, `Termination`); entries that break this
    /// are not written.
    pub headers: Vec<(String, String)>,
    /// The actions from the start, in order.
    pub actions: Vec<Action>,
    /// The time left on the clock of each turn's player once that turn was played, in
    /// milliseconds: one entry per turn ([`Record::turns`]), `None` where unknown;
    /// empty for a record without clock times. Written `{[%clk 0:04:58.2]}` after
    /// the turn.
    pub clocks: Vec<Option<u64>>,
}

impl Default for Record {
    fn default() -> Record {
        Record::new(Rules::STANDARD)
    }
}

impl Record {
    /// An empty, unfinished record under `rules`, with unknown players and date.
    pub fn new(rules: Rules) -> Record {
        Record {
            white: "?".to_owned(),
            black: "?".to_owned(),
            date: "????.??.??".to_owned(),
            time_control: None,
            rules,
            position: None,
            result: None,
            headers: Vec::new(),
            actions: Vec::new(),
            clocks: Vec::new(),
        }
    }

    /// Begins the game at `position` instead of the empty board (`None`: the empty
    /// board), under its rules.
    pub fn with_position(mut self, position: Option<Position>) -> Record {
        if let Some(p) = &position {
            self.rules = *p.rules();
        }
        self.position = position;
        self
    }

    /// Sets the players' names.
    pub fn with_players(mut self, white: impl Into<String>, black: impl Into<String>) -> Record {
        self.white = white.into();
        self.black = black.into();
        self
    }

    /// Sets the date (`YYYY.MM.DD`).
    pub fn with_date(mut self, date: impl Into<String>) -> Record {
        self.date = date.into();
        self
    }

    /// Sets the time control (`None`: untimed).
    pub fn with_time_control(mut self, time_control: Option<TimeControl>) -> Record {
        self.time_control = time_control;
        self
    }

    /// Sets the result (`None`: unfinished).
    pub fn with_result(mut self, result: Option<GameResult>) -> Record {
        self.result = result;
        self
    }

    /// Sets the actions.
    pub fn with_actions(mut self, actions: Vec<Action>) -> Record {
        self.actions = actions;
        self
    }

    /// Sets the clock times after each turn (see [`Record::clocks`]).
    pub fn with_clocks(mut self, clocks: Vec<Option<u64>>) -> Record {
        self.clocks = clocks;
        self
    }

    /// Adds another header at the end (see [`Record::headers`] for the names allowed).
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Record {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The value of the other header `name` (exact case), the first if there are
    /// several.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position: [`Record::position`], or the empty board under the rules.
    pub fn start(&self) -> Result<Position, RecordError> {
        if !self.rules.is_valid() {
            return Err(RecordError::InvalidRules);
        }
        match self.position {
            Some(p) if *p.rules() != self.rules => Err(RecordError::PositionRules),
            Some(p) => Ok(p),
            None => Ok(Position::with_rules(self.rules)),
        }
    }

    /// The actions cut into numbered turns (see [`turn::split`]).
    pub fn turns(&self) -> Result<Vec<NumberedTurn>, RecordError> {
        turn::split(&self.start()?, &self.actions).map_err(|e| RecordError::Illegal {
            line: None,
            turn: e.turn,
            illegal: e.illegal,
        })
    }

    /// Every position of the game: the start, then the position after each action
    /// (one more than there are actions). Checks the actions, not the result.
    pub fn positions(&self) -> Result<Vec<Position>, RecordError> {
        let mut out = Vec::with_capacity(self.actions.len() + 1);
        self.play_all(|pos| out.push(*pos))?;
        Ok(out)
    }

    /// Replays the game and returns the final position. Fails on the first illegal
    /// action, and when the result disagrees with the board: a game that ended on the
    /// board must carry exactly the board's result, and a game that did not may only
    /// end by resignation, time, agreement or abandonment.
    pub fn replay(&self) -> Result<Position, RecordError> {
        let pos = self.play_all(|_| {})?;
        check_result(&pos, self.result)?;
        Ok(pos)
    }

    /// Plays every action from the start, showing `each` the start and every position
    /// after an action; an illegal action is reported with its turn number.
    fn play_all(&self, mut each: impl FnMut(&Position)) -> Result<Position, RecordError> {
        let mut pos = self.start()?;
        each(&pos);
        let mut color = pos.turn();
        let mut number = first_number(&pos);
        for &action in &self.actions {
            if pos.turn() != color {
                color = pos.turn();
                number += 1;
            }
            pos.play(action).map_err(|illegal| RecordError::Illegal {
                line: None,
                turn: number,
                illegal,
            })?;
            each(&pos);
        }
        Ok(pos)
    }

    /// Reads a file of records one after the other (as exports write them: each
    /// record's headers begin a new one); the first error is given with the number of
    /// the record it is in (from 0; its line numbers count within that record).
    pub fn parse_all(text: &str) -> Result<Vec<Record>, (usize, RecordError)> {
        let mut records = Vec::new();
        let mut current = String::new();
        let mut in_body = false;
        for line in text.lines() {
            let header = line.trim_start().starts_with('[');
            if header && in_body {
                let record = Record::parse(&current).map_err(|e| (records.len(), e))?;
                records.push(record);
                current.clear();
                in_body = false;
            }
            if !header && !line.trim().is_empty() {
                in_body = true;
            }
            current.push_str(line);
            current.push('\n');
        }
        if !current.trim().is_empty() {
            let record = Record::parse(&current).map_err(|e| (records.len(), e))?;
            records.push(record);
        }
        Ok(records)
    }

    /// Reads a record (see the [module docs](self)), replays it and checks its result.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
        let mut raw_headers: Vec<(usize, String, String)> = Vec::new();
        while let Some(&(n, line)) = lines.peek() {
            let line = line.trim();
            if line.starts_with('[') {
                let (name, value) = parse_header_line(line)
                    .map_err(|reason| RecordError::HeaderSyntax { line: n, reason })?;
                raw_headers.push((n, name, value));
            } else if !line.is_empty() {
                break;
            }
            lines.next();
        }
        let headers = Headers::read(raw_headers)?;
        let mut record = Record::new(headers.rules);
        record.white = headers.white;
        record.black = headers.black;
        record.date = headers.date;
        record.time_control = headers.time_control;
        record.position = headers.position;
        record.headers = headers.other;

        let mut pos = record.start()?;
        let body = read_body(lines, first_number(&pos))?;
        if !body.clocks.is_empty() {
            record.clocks = body.clocks.clone();
            record.clocks.resize(body.turns.len(), None);
        }
        for (line, numbered) in &body.turns {
            let color = numbered.color();
            for &action in numbered.turn.actions() {
                if pos.turn() != color && !pos.is_over() {
                    return Err(RecordError::WrongPlayer {
                        line: *line,
                        turn: numbered.number,
                        action,
                    });
                }
                pos.play(action).map_err(|illegal| RecordError::Illegal {
                    line: Some(*line),
                    turn: numbered.number,
                    illegal,
                })?;
                record.actions.push(action);
            }
        }

        // The score comes from the Result header or the result token; they must agree.
        let score = match (&headers.result, &body.result) {
            (Some((_, h)), Some((line, token, t))) => {
                if h != t {
                    return Err(RecordError::ResultToken {
                        line: *line,
                        token: token.clone(),
                        reason: "the result token disagrees with the Result header",
                    });
                }
                *h
            }
            (Some((_, h)), None) => *h,
            (None, Some((_, _, t))) => *t,
            (None, None) => None,
        };
        record.result = match (score, headers.termination) {
            (None, None) => None,
            (None, Some((line, value, _))) => {
                return Err(RecordError::HeaderValue {
                    line,
                    name: "Termination".to_owned(),
                    value,
                    reason: "an unfinished game (result *) has no termination",
                });
            }
            (Some(winner), Some((line, value, termination))) => {
                let result = GameResult {
                    winner,
                    termination,
                };
                if let Some(reason) = result.shape_error() {
                    return Err(RecordError::HeaderValue {
                        line,
                        name: "Termination".to_owned(),
                        value,
                        reason,
                    });
                }
                Some(result)
            }
            (Some(winner), None) => match pos.outcome() {
                // The board knows why it ended; a mismatch is reported below.
                Some(outcome) => Some(GameResult {
                    winner,
                    termination: outcome.reason.into(),
                }),
                None => {
                    return Err(RecordError::Result(format!(
                        "{} needs a Termination header: the game did not end on the board",
                        score_text(winner)
                    )));
                }
            },
        };
        check_result(&pos, record.result)?;
        Ok(record)
    }

    /// Writes the turn section: numbered turns wrapped at 80 columns, then the result
    /// token. Actions that cannot be replayed are written as one last turn.
    fn write_body(&self, out: &mut String) {
        let mut tokens: Vec<String> = Vec::new();
        if let Ok(start) = self.start() {
            match turn::split(&start, &self.actions) {
                Ok(turns) => {
                    for (i, turn) in turns.iter().enumerate() {
                        tokens.push(turn.to_string());
                        if let Some(Some(ms)) = self.clocks.get(i) {
                            tokens.push(format!("{{[%clk {}]}}", clock_text(*ms)));
                        }
                    }
                }
                Err(e) => {
                    // The legal turns, then everything from the refused action on in the
                    // turn it belongs to.
                    let mut turns =
                        turn::split(&start, &self.actions[..e.index]).unwrap_or_default();
                    let mut rest = match turns.last() {
                        Some(last) if last.number == e.turn => turns.pop().map(|t| t.turn),
                        _ => None,
                    }
                    .unwrap_or_default();
                    for &action in &self.actions[e.index..] {
                        rest.push(action);
                    }
                    turns.push(NumberedTurn {
                        number: e.turn,
                        turn: rest,
                    });
                    tokens.extend(turns.iter().map(ToString::to_string));
                }
            }
        } else if !self.actions.is_empty() {
            tokens.push(format!("1.{}", Turn::new(self.actions.clone())));
        }
        tokens.push(self.result.map_or("*", |r| r.score()).to_owned());
        let mut width = 0;
        for token in tokens {
            if width > 0 && width + 1 + token.len() > LINE_WIDTH {
                out.push('\n');
                width = 0;
            } else if width > 0 {
                out.push(' ');
                width += 1;
            }
            out.push_str(&token);
            width += token.len();
        }
        out.push('\n');
    }
}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(s: &str) -> Result<Record, RecordError> {
        Record::parse(s)
    }
}

impl fmt::Display for Record {
    /// Writes the record as text; see the [module docs](self).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(256 + 8 * self.actions.len());
        let mut header = |name: &str, value: &str| {
            out.push('[');
            out.push_str(name);
            out.push_str(" \"");
            escape_into(&mut out, value);
            out.push_str("\"]\n");
        };
        header("White", &self.white);
        header("Black", &self.black);
        header("Date", &self.date);
        let targets = self.rules.targets;
        let variant = if targets.white == 1 && targets.black == 1 {
            Variant::Blitz
        } else {
            Variant::Standard
        };
        header("Variant", variant.name());
        if targets.white != variant.target() || targets.black != variant.target() {
            header("Targets", &format!("{}-{}", targets.white, targets.black));
        }
        if let Some(limit) = self.rules.turn_limit {
            header("TurnLimit", &limit.to_string());
        }
        if let Some(position) = &self.position {
            header("Position", &position.to_fen());
        }
        let tc = self
            .time_control
            .map_or_else(|| "-".to_owned(), |tc| tc.to_string());
        header("TimeControl", &tc);
        header("Result", self.result.map_or("*", |r| r.score()));
        if let Some(result) = self.result {
            header("Termination", result.termination.name());
        }
        for (name, value) in &self.headers {
            if is_header_name(name) && !is_reserved(name) {
                header(name, value);
            }
        }
        out.push('\n');
        self.write_body(&mut out);
        f.write_str(&out)
    }
}

/// Checks `result` against the final position `pos`.
fn check_result(pos: &Position, result: Option<GameResult>) -> Result<(), RecordError> {
    if let Some(reason) = result.and_then(|r| r.shape_error()) {
        return Err(RecordError::Result(reason.to_owned()));
    }
    match (pos.outcome(), result) {
        (Some(outcome), None) => Err(RecordError::Result(format!(
            "the game ended on the board ({}) but the record says it is unfinished",
            GameResult::from(outcome)
        ))),
        (Some(outcome), Some(result)) => {
            let board = GameResult::from(outcome);
            if board == result {
                Ok(())
            } else {
                Err(RecordError::Result(format!(
                    "the game ended on the board with {board}, the record says {result}"
                )))
            }
        }
        (None, Some(result)) if result.termination.is_on_board() => Err(RecordError::Result(
            format!("the record says {result}, but the game did not end on the board"),
        )),
        (None, _) => Ok(()),
    }
}

fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn is_reserved(name: &str) -> bool {
    RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name))
}

fn escape_into(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}

/// Reads `[Name "value"]` (already trimmed).
fn parse_header_line(line: &str) -> Result<(String, String), &'static str> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("expected [Name \"value\"]")?;
    let inner = inner.trim();
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or("expected a name and a quoted value")?;
    if !is_header_name(name) {
        return Err("a header name is made of letters, digits and _");
    }
    let rest = rest.trim();
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .filter(|_| rest.len() >= 2)
        .ok_or("the value must be in double quotes")?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('"') => value.push('"'),
                Some('\\') => value.push('\\'),
                Some('n') => value.push('\n'),
                _ => return Err("unknown escape (use \\\", \\\\ or \\n)"),
            },
            '"' => return Err("a quote inside the value must be written \\\""),
            c => value.push(c),
        }
    }
    Ok((name.to_owned(), value))
}

/// The headers of a record text, read and checked.
struct Headers {
    white: String,
    black: String,
    date: String,
    time_control: Option<TimeControl>,
    rules: Rules,
    position: Option<Position>,
    /// Line and score of the `Result` header.
    result: Option<(usize, Option<Option<Color>>)>,
    /// Line, text and value of the `Termination` header.
    termination: Option<(usize, String, Termination)>,
    other: Vec<(String, String)>,
}

impl Headers {
    fn read(raw: Vec<(usize, String, String)>) -> Result<Headers, RecordError> {
        let defaults = Record::default();
        let mut h = Headers {
            white: defaults.white,
            black: defaults.black,
            date: defaults.date,
            time_control: None,
            rules: Rules::STANDARD,
            position: None,
            result: None,
            termination: None,
            other: Vec::new(),
        };
        // The line of the `Position` header, and whether a header set the rules.
        let mut position_line = 0;
        let mut rules_given = false;
        let mut seen: Vec<&'static str> = Vec::new();
        let mut variant = Variant::Standard;
        let mut targets = None;
        let mut turn_limit = None;
        for (line, name, value) in raw {
            let Some(&known) = RESERVED.iter().find(|r| r.eq_ignore_ascii_case(&name)) else {
                h.other.push((name, value));
                continue;
            };
            let bad = |reason| RecordError::HeaderValue {
                line,
                name: known.to_owned(),
                value: value.clone(),
                reason,
            };
            if seen.contains(&known) {
                return Err(bad("the header appears twice"));
            }
            seen.push(known);
            match known {
                "White" => h.white = value,
                "Black" => h.black = value,
                "Date" => h.date = value,
                "Position" => {
                    let pos = Position::from_fen(value.trim())
                        .map_err(|_| bad("not a legal position string (docs/notation.md)"))?;
                    h.position = Some(pos);
                    position_line = line;
                }
                "Variant" => {
                    rules_given = true;
                    variant = value
                        .trim()
                        .parse()
                        .map_err(|_| bad("expected standard or blitz"))?;
                }
                "Targets" => {
                    rules_given = true;
                    let pair = value
                        .trim()
                        .split_once('-')
                        .and_then(|(w, b)| Some((small_number(w)?, small_number(b)?)));
                    let (w, b) = pair.ok_or_else(|| bad("expected <white>-<black>"))?;
                    if !(1..=5).contains(&w) || !(1..=5).contains(&b) {
                        return Err(bad("targets are 1 to 5"));
                    }
                    targets = Some((w, b));
                }
                "TurnLimit" => {
                    rules_given = true;
                    let limit = small_number(value.trim())
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| bad("expected a number of ring moves, at least 1"))?;
                    turn_limit = Some(limit);
                }
                "TimeControl" => {
                    let v = value.trim();
                    h.time_control = if v == "-" {
                        None
                    } else {
                        Some(v.parse().map_err(|_| {
                            bad("expected <minutes>+<seconds>, <seconds>s+<seconds> or -")
                        })?)
                    };
                }
                "Result" => {
                    let score = parse_score(value.trim())
                        .ok_or_else(|| bad("expected 1-0, 0-1, 1/2-1/2 or *"))?;
                    h.result = Some((line, score));
                }
                "Termination" => {
                    let t = Termination::from_name(&value).ok_or_else(|| {
                        bad("unknown termination (target reached, pool exhausted, no moves, turn limit, resignation, time, agreement, abandoned)")
                    })?;
                    h.termination = Some((line, value, t));
                }
                _ => unreachable!("every reserved name is handled"),
            }
        }
        let mut rules = Rules::of(variant);
        if let Some((w, b)) = targets {
            rules = rules.with_targets(w, b);
        }
        h.rules = rules.with_turn_limit(turn_limit);
        if let Some(pos) = &h.position {
            // The position carries its rules; headers that say otherwise are wrong.
            if rules_given && h.rules != *pos.rules() {
                return Err(RecordError::HeaderValue {
                    line: position_line,
                    name: "Position".to_owned(),
                    value: pos.to_fen(),
                    reason: "its targets or turn limit disagree with the Variant, Targets or TurnLimit header",
                });
            }
            h.rules = *pos.rules();
        }
        Ok(h)
    }
}

/// A number of at most five digits that fits `T`.
fn small_number<T: FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || text.len() > 5 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The turn section, read but not replayed.
struct Body {
    /// Each turn with its line.
    turns: Vec<(usize, NumberedTurn)>,
    /// The clock times read after the turns (as [`Record::clocks`]).
    clocks: Vec<Option<u64>>,
    /// Line, text and score of the result token.
    result: Option<(usize, String, Option<Option<Color>>)>,
}

/// A piece of the turn section: a word, or a `{comment}`.
enum BodyToken<'a> {
    Word(&'a str),
    Comment(&'a str),
}

/// The words and `{comments}` of one line of the turn section (a comment that is not
/// closed on its line runs to the line's end).
fn body_tokens(text: &str) -> Vec<BodyToken<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.extend(rest[..open].split_whitespace().map(BodyToken::Word));
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        out.push(BodyToken::Comment(&after[..close]));
        rest = after.get(close + 1..).unwrap_or("");
    }
    out.extend(rest.split_whitespace().map(BodyToken::Word));
    out
}

/// `h:mm:ss`, with the tenth of a second when it is not 0 (`0:04:58`, `0:00:07.3`):
/// a clock time is written to the tenth, down.
fn clock_text(ms: u64) -> String {
    let tenths = (ms / 100) % 10;
    let secs = ms / 1000;
    let base = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if tenths == 0 {
        base
    } else {
        format!("{base}.{tenths}")
    }
}

/// The milliseconds of a `[%clk h:mm:ss(.d)]` in a comment.
fn clock_of(comment: &str) -> Option<u64> {
    let at = comment.find("[%clk")?;
    let inner = comment[at + 6..].split(']').next()?.trim();
    let (hms, tenths) = match inner.split_once('.') {
        Some((hms, t)) if t.len() == 1 => (hms, t.parse::<u64>().ok()?),
        Some(_) => return None,
        None => (inner, 0),
    };
    let parts: Vec<u64> = hms
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, sec] = parts[..] else {
        return None;
    };
    if m >= 60 || sec >= 60 {
        return None;
    }
    Some(((h * 60 + m) * 60 + sec) * 1000 + tenths * 100)
}

/// The number of the first turn played from `start`: 1 when White acts, 2 when Black
/// does (as [`turn::split`] numbers them).
fn first_number(start: &Position) -> u32 {
    start.turn().fold(1, 2)
}

/// Reads the turn section, whose first turn is numbered `first`.
fn read_body<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    first: u32,
) -> Result<Body, RecordError> {
    let mut body = Body {
        turns: Vec::new(),
        clocks: Vec::new(),
        result: None,
    };
    // A number written apart from its turn (`1. e3`), with its line.
    let mut pending: Option<(usize, u32)> = None;
    for (line, text) in lines {
        for token in body_tokens(text) {
            let token = match token {
                BodyToken::Word(word) => word,
                BodyToken::Comment(comment) => {
                    // A clock time belongs to the turn before it; other comments are
                    // read past.
                    if let (Some(ms), Some(_)) = (clock_of(comment), body.turns.last()) {
                        let i = body.turns.len() - 1;
                        body.clocks.resize(body.turns.len(), None);
                        body.clocks[i] = Some(ms);
                    }
                    continue;
                }
            };
            if body.result.is_some() {
                return Err(RecordError::ResultToken {
                    line,
                    token: token.to_owned(),
                    reason: "nothing may follow the result token",
                });
            }
            let expected = body.turns.last().map_or(first, |(_, t)| t.number + 1);
            if let Some(score) = parse_score(token) {
                if pending.is_some() {
                    return Err(RecordError::ResultToken {
                        line,
                        token: token.to_owned(),
                        reason: "a turn number must be followed by its turn",
                    });
                }
                body.result = Some((line, token.to_owned(), score));
                continue;
            }
            let numbered = if let Some((_, number)) = pending.take() {
                let turn = token
                    .parse::<Turn>()
                    .map_err(|error| RecordError::Turn { line, error })?;
                NumberedTurn { number, turn }
            } else if let Some(number) = token
                .strip_suffix('.')
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            {
                let found = number.parse().unwrap_or(u32::MAX);
                if found != expected {
                    return Err(RecordError::TurnNumber {
                        line,
                        found,
                        expected,
                    });
                }
                pending = Some((line, found));
                continue;
            } else if token.contains('.') {
                token
                    .parse::<NumberedTurn>()
                    .map_err(|error| RecordError::Turn { line, error })?
            } else {
                let turn = token
                    .parse::<Turn>()
                    .map_err(|error| RecordError::Turn { line, error })?;
                NumberedTurn {
                    number: expected,
                    turn,
                }
            };
            if numbered.number != expected {
                return Err(RecordError::TurnNumber {
                    line,
                    found: numbered.number,
                    expected,
                });
            }
            if let Some((previous_line, previous)) = body.turns.last() {
                let ends_with_row =
                    matches!(previous.turn.actions().last(), Some(Action::RemoveRow(_)));
                if ends_with_row {
                    return Err(RecordError::Turn {
                        line: *previous_line,
                        error: ParseTurnError {
                            part: previous.to_string(),
                            reason: "only the last turn may end with a row removal without its ring",
                        },
                    });
                }
            }
            body.turns.push((line, numbered));
        }
    }
    if let Some((line, number)) = pending {
        return Err(RecordError::Turn {
            line,
            error: ParseTurnError {
                part: format!("{number}."),
                reason: "a turn number must be followed by its turn",
            },
        });
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminations_round_trip_by_name() {
        for t in Termination::ALL {
            assert_eq!(Termination::from_name(t.name()), Some(t));
            assert_eq!(t.is_on_board(), t.end_reason().is_some());
        }
        assert_eq!(
            Termination::from_name("Target Reached"),
            Some(Termination::TargetReached)
        );
        assert_eq!(Termination::from_name("draw"), None);
    }

    #[test]
    fn time_controls() {
        let tc: TimeControl = "10+5".parse().unwrap();
        assert_eq!(tc, TimeControl::minutes(10, 5));
        assert_eq!(tc.to_string(), "10+5");
        let tc: TimeControl = "90s+2".parse().unwrap();
        assert_eq!(tc.initial_secs, 90);
        assert_eq!(tc.to_string(), "90s+2");
        assert_eq!("120s+0".parse::<TimeControl>().unwrap().to_string(), "2+0");
        for bad in ["", "10", "+5", "10+", "a+b", "10m+5", "-", "99999999999+1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn header_lines() {
        assert_eq!(
            parse_header_line(r#"[Event "a \"b\" \\ c"]"#),
            Ok(("Event".to_owned(), r#"a "b" \ c"#.to_owned()))
        );
        assert_eq!(
            parse_header_line(r#"[White ""]"#),
            Ok(("White".to_owned(), String::new()))
        );
        assert!(parse_header_line(r#"[White "x""#).is_err());
        assert!(parse_header_line(r#"[White x]"#).is_err());
        assert!(parse_header_line(r#"[Wh-ite "x"]"#).is_err());
        assert!(parse_header_line(r#"[White "a"b"]"#).is_err());
        assert!(parse_header_line(r#"[White "\q"]"#).is_err());
        assert!(parse_header_line(r#"[White "]"#).is_err());
        let mut out = String::new();
        escape_into(&mut out, "a \"b\" \\ c\nd");
        assert_eq!(out, r#"a \"b\" \\ c\nd"#);
    }

    #[test]
    fn results() {
        assert_eq!(GameResult::resignation(Color::Black).score(), "1-0");
        assert_eq!(GameResult::time(Color::White).score(), "0-1");
        assert_eq!(GameResult::agreed_draw().score(), "1/2-1/2");
        assert_eq!(
            GameResult::resignation(Color::Black).to_string(),
            "1-0 (resignation)"
        );
    }
}
