//! The position string: one line that round-trips every reachable state, including the
//! states inside a turn where a row or a ring must be removed. Described in full in
//! `docs/notation.md`.
//!
//! Six space-separated fields:
//!
//! 1. the board, column by column from `a` to `k` separated by `/`, each column from its
//!    lowest row upwards: `W`/`B` a white/black ring, `w`/`b` a marker showing
//!    white/black, a number for that many empty points;
//! 2. the player whose turn it is, `w` or `b`;
//! 3. what they must do: `place`, `move`, `row-before`, `ring-before` (removals forced
//!    by the opponent's move, before one's own ring move), `row-after`, `ring-after`
//!    (removals after one's own ring move) or `end`;
//! 4. removed rings, `<white>-<black>`;
//! 5. targets, `<white>-<black>` (`3-3` standard, `1-1` blitz, others handicap);
//! 6. ring moves played, with `/<limit>` when there is a turn limit.
//!
//! ```
//! use yinsh::Position;
//! use yinsh::notation::fen;
//!
//! let start = "4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0";
//! let pos = fen::parse(start).unwrap();
//! assert_eq!(pos, Position::new());
//! assert_eq!(fen::write(&pos.to_setup()), start);
//! ```

use std::fmt;
use std::fmt::Write as _;

use crate::color::{ByColor, Color};
use crate::point::Point;
use crate::position::{Position, Setup, SetupError, Stage};
use crate::rules::Rules;

/// Why a position string could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Not six fields.
    FieldCount(usize),
    /// The board field is malformed.
    Board(String),
    /// Field 2 is not `w` or `b`.
    Turn(String),
    /// Field 3 is not a known stage.
    Stage(String),
    /// A numeric field is malformed.
    Number {
        /// Which field: `removed`, `targets` or `ring moves`.
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// The string is well formed but the state is not legal.
    Setup(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "position string has {n} fields, expected 6"),
            FenError::Board(why) => write!(f, "bad board field: {why}"),
            FenError::Turn(t) => write!(f, "bad turn '{t}': expected w or b"),
            FenError::Stage(s) => write!(
                f,
                "bad stage '{s}': expected place, move, row-before, ring-before, row-after, ring-after or end"
            ),
            FenError::Number { field, text } => write!(f, "bad {field} field '{text}'"),
            FenError::Setup(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<SetupError> for FenError {
    fn from(e: SetupError) -> FenError {
        FenError::Setup(e)
    }
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Place => "place",
        Stage::Move => "move",
        Stage::RemoveRow { after_move: false } => "row-before",
        Stage::RemoveRing { after_move: false } => "ring-before",
        Stage::RemoveRow { after_move: true } => "row-after",
        Stage::RemoveRing { after_move: true } => "ring-after",
        Stage::Over => "end",
    }
}

/// Writes a setup as a position string.
pub fn write(setup: &Setup) -> String {
    let mut out = String::with_capacity(80);
    for col in 0..11i8 {
        if col > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for row in 0..11i8 {
            let Some(p) = Point::from_coords(col, row) else {
                continue;
            };
            let piece = if setup.rings.white.contains(p) {
                Some('W')
            } else if setup.rings.black.contains(p) {
                Some('B')
            } else if setup.markers.white.contains(p) {
                Some('w')
            } else if setup.markers.black.contains(p) {
                Some('b')
            } else {
                None
            };
            match piece {
                Some(c) => {
                    if empty > 0 {
                        write!(out, "{empty}").expect("write to string");
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(out, "{empty}").expect("write to string");
        }
    }
    let r = &setup.rules;
    write!(
        out,
        " {} {} {}-{} {}-{} {}",
        setup.turn.char(),
        stage_name(setup.stage),
        setup.removed.white,
        setup.removed.black,
        r.targets.white,
        r.targets.black,
        setup.ring_moves
    )
    .expect("write to string");
    if let Some(limit) = r.turn_limit {
        write!(out, "/{limit}").expect("write to string");
    }
    out
}

fn parse_pair(field: &'static str, text: &str) -> Result<ByColor<u8>, FenError> {
    let bad = || FenError::Number {
        field,
        text: text.to_owned(),
    };
    let (w, b) = text.split_once('-').ok_or_else(bad)?;
    let num = |s: &str| -> Result<u8, FenError> {
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse().map_err(|_| bad())
    };
    Ok(ByColor {
        white: num(w)?,
        black: num(b)?,
    })
}

fn parse_count(text: &str) -> Result<u16, FenError> {
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return Err(FenError::Number {
            field: "ring moves",
            text: text.to_owned(),
        });
    }
    text.parse().map_err(|_| FenError::Number {
        field: "ring moves",
        text: text.to_owned(),
    })
}

fn parse_board(text: &str, setup: &mut Setup) -> Result<(), FenError> {
    let columns: Vec<&str> = text.split('/').collect();
    if columns.len() != 11 {
        return Err(FenError::Board(format!(
            "{} columns, expected 11",
            columns.len()
        )));
    }
    for (col, column) in columns.into_iter().enumerate() {
        let points: Vec<Point> = (0..11i8)
            .filter_map(|row| Point::from_coords(col as i8, row))
            .collect();
        let letter = (b'a' + col as u8) as char;
        let mut i = 0;
        let mut chars = column.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as usize;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d as usize;
                    chars.next();
                }
                if n == 0 {
                    return Err(FenError::Board(format!(
                        "empty run of 0 in column {letter}"
                    )));
                }
                i += n;
                if i > points.len() {
                    break;
                }
                continue;
            }
            let Some(&p) = points.get(i) else {
                i += 1;
                break;
            };
            match c {
                'W' => setup.rings.white.add(p),
                'B' => setup.rings.black.add(p),
                'w' => setup.markers.white.add(p),
                'b' => setup.markers.black.add(p),
                other => {
                    return Err(FenError::Board(format!(
                        "unknown piece '{other}' in column {letter}"
                    )));
                }
            }
            i += 1;
        }
        if i != points.len() {
            return Err(FenError::Board(format!(
                "column {letter} describes {i} points, it has {}",
                points.len()
            )));
        }
    }
    Ok(())
}

/// Reads a position string into a setup, without checking legality.
pub fn parse_setup(text: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 6 {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut setup = Setup::empty(Rules::STANDARD);
    parse_board(fields[0], &mut setup)?;
    setup.turn = match fields[1] {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return Err(FenError::Turn(other.to_owned())),
    };
    setup.stage = match fields[2].to_ascii_lowercase().as_str() {
        "place" => Stage::Place,
        "move" => Stage::Move,
        "row-before" => Stage::RemoveRow { after_move: false },
        "ring-before" => Stage::RemoveRing { after_move: false },
        "row-after" => Stage::RemoveRow { after_move: true },
        "ring-after" => Stage::RemoveRing { after_move: true },
        "end" => Stage::Over,
        _ => return Err(FenError::Stage(fields[2].to_owned())),
    };
    setup.removed = parse_pair("removed", fields[3])?;
    let targets = parse_pair("targets", fields[4])?;
    let (moves, limit) = match fields[5].split_once('/') {
        Some((m, l)) => (parse_count(m)?, Some(parse_count(l)?)),
        None => (parse_count(fields[5])?, None),
    };
    setup.ring_moves = moves;
    setup.rules = Rules {
        targets,
        turn_limit: limit,
    };
    Ok(setup)
}

/// Reads a position string into a legal position.
pub fn parse(text: &str) -> Result<Position, FenError> {
    Ok(Position::from_setup(parse_setup(text)?)?)
}

impl Position {
    /// The position string of this position.
    pub fn to_fen(&self) -> String {
        write(&self.to_setup())
    }

    /// Reads a position string (see [`crate::notation::fen`]).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        parse(text)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_round_trips() {
        let text = "4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0";
        assert_eq!(parse(text).unwrap().to_fen(), text);
    }

    #[test]
    fn rejects_wrong_column_lengths() {
        assert!(matches!(
            parse("5/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0"),
            Err(FenError::Board(_))
        ));
        assert!(matches!(
            parse("3/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0"),
            Err(FenError::Board(_))
        ));
        assert!(matches!(
            parse("4W/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0"),
            Err(FenError::Board(_))
        ));
    }

    #[test]
    fn rejects_bad_fields() {
        assert!(matches!(
            parse("4/7/8/9/10/9/10/9/8/7/4 x place 0-0 3-3 0"),
            Err(FenError::Turn(_))
        ));
        assert!(matches!(
            parse("4/7/8/9/10/9/10/9/8/7/4 w jump 0-0 3-3 0"),
            Err(FenError::Stage(_))
        ));
        assert!(matches!(
            parse("4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3"),
            Err(FenError::FieldCount(5))
        ));
        assert!(matches!(
            parse("4/7/8/9/10/9/10/9/8/7/4 w place 0+0 3-3 0"),
            Err(FenError::Number { .. })
        ));
        assert!(matches!(
            parse("4/7/8/9/10/9/10/9/8/7/4 w place 0-0 9-3 0"),
            Err(FenError::Setup(SetupError::InvalidRules))
        ));
    }
}
