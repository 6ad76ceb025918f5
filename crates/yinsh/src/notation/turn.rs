//! Turns in the official long form (RULES.md §7).
//!
//! A turn is everything one player does before the other player acts: removals forced
//! on them by the opponent's last move, their placement, ring move or pass, and the
//! removals their own move makes. The actions are joined with `;`, and a row removal
//! is written together with the ring removal that follows it, without separator:
//!
//! | turn | meaning |
//! |---|---|
//! | `e3` | a ring placement |
//! | `c3-c8;xc3-c7xk10` | a ring move that makes a row, the row and a ring removed |
//! | `xe7-i11xd9;i7-i11;xi6-i10xh4` | a row forced by the opponent, then a move and a row |
//! | `pass` | no ring can move (RULES.md E3) |
//!
//! Turns are numbered across both players from the start of the game: odd numbers are
//! White's, even numbers Black's (`1.e3 2.a5 … 11.h7-g7`). [`split`] cuts a sequence of
//! actions into turns by replaying it.
//!
//! ```
//! use yinsh::notation::turn::{self, Turn};
//! use yinsh::{Action, Position};
//!
//! let t: Turn = "C3-C8;XC7-C3XK10".parse().unwrap();
//! assert_eq!(t.to_string(), "c3-c8;xc3-c7xk10");
//! assert_eq!(t.actions().len(), 3);
//!
//! let actions: Vec<Action> = yinsh::notation::token::parse_list("e3 a5 b5").unwrap();
//! let turns = turn::split(&Position::new(), &actions).unwrap();
//! let text: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
//! assert_eq!(text, ["1.e3", "2.a5", "3.b5"]);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::action::Action;
use crate::color::Color;
use crate::position::{IllegalAction, Position};

/// The actions of one player's turn, in order. A notation type: it is not tied to a
/// position, and only [`Position::play`] decides whether its actions are legal.
///
/// Its text form is the official long form (see the [module docs](self)); an empty
/// turn has no text form and is never produced by [`split`] or parsing.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Turn {
    actions: Vec<Action>,
}

impl Turn {
    /// A turn made of `actions`, taken as they are.
    pub fn new(actions: Vec<Action>) -> Turn {
        Turn { actions }
    }

    /// The actions, in order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The actions, by value.
    pub fn into_actions(self) -> Vec<Action> {
        self.actions
    }

    /// Adds an action at the end.
    pub fn push(&mut self, action: Action) {
        self.actions.push(action);
    }

    /// Whether the turn has no actions.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Whether the turn is a pass (RULES.md E3) and nothing else.
    pub fn is_pass(&self) -> bool {
        self.actions == [Action::Pass]
    }
}

impl From<Vec<Action>> for Turn {
    fn from(actions: Vec<Action>) -> Turn {
        Turn::new(actions)
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, action) in self.actions.iter().enumerate() {
            // A ring removal is written right behind the row removal it completes.
            let glued = matches!(action, Action::RemoveRing(_))
                && i > 0
                && matches!(self.actions[i - 1], Action::RemoveRow(_));
            if i > 0 && !glued {
                f.write_str(";")?;
            }
            write!(f, "{action}")?;
        }
        Ok(())
    }
}

/// Text that is not a turn in the long form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTurnError {
    /// The offending part: one `;`-separated piece of the turn, or the whole text.
    pub part: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseTurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad turn part '{}': {}", self.part, self.reason)
    }
}

impl std::error::Error for ParseTurnError {}

/// Reads one `;`-separated part: a single action, or a row removal followed directly by
/// a ring removal (`xc3-c7xk10`).
fn parse_part(part: &str) -> Result<(Action, Option<Action>), ParseTurnError> {
    let err = |reason| ParseTurnError {
        part: part.to_owned(),
        reason,
    };
    if part.is_empty() {
        return Err(err("empty part (two ';' in a row, or one at an end)"));
    }
    let action = |token: &str| token.parse::<Action>().map_err(|e| err(e.reason));
    // A second `x` starts the ring removal of a row-and-ring part.
    let second_x = part
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c.eq_ignore_ascii_case(&'x'))
        .map(|(i, _)| i);
    match second_x {
        None => Ok((action(part)?, None)),
        Some(i) => {
            let (row, ring) = part.split_at(i);
            let row = action(row)?;
            let ring = action(ring)?;
            match (row, ring) {
                (Action::RemoveRow(_), Action::RemoveRing(_)) => Ok((row, Some(ring))),
                _ => Err(err("only a row removal and a ring removal may be joined")),
            }
        }
    }
}

impl FromStr for Turn {
    type Err = ParseTurnError;

    /// Reads a turn in the long form, either case, either row-end order. Checks its
    /// shape, not its legality: at most one placement, ring move or pass; every ring
    /// removal joined to the row removal before it; a row removal without its ring only
    /// as the very last part (a game stopped in the middle of a removal).
    fn from_str(s: &str) -> Result<Turn, ParseTurnError> {
        if s.is_empty() {
            return Err(ParseTurnError {
                part: String::new(),
                reason: "empty turn",
            });
        }
        let parts: Vec<&str> = s.split(';').collect();
        let mut actions = Vec::with_capacity(parts.len() + 2);
        let mut main_actions = 0;
        for (i, part) in parts.iter().enumerate() {
            let err = |reason| ParseTurnError {
                part: (*part).to_owned(),
                reason,
            };
            let (first, ring) = parse_part(part)?;
            match first {
                Action::Place(_) | Action::Move { .. } | Action::Pass => {
                    main_actions += 1;
                    if main_actions > 1 {
                        return Err(err("a turn has at most one placement, ring move or pass"));
                    }
                }
                Action::RemoveRing(_) => {
                    return Err(err(
                        "a ring removal must be joined to its row removal (xc3-c7xk10)",
                    ));
                }
                Action::RemoveRow(_) => {
                    if ring.is_none() && i + 1 != parts.len() {
                        return Err(err("a row removal must be followed by its ring removal"));
                    }
                }
            }
            actions.push(first);
            actions.extend(ring);
        }
        Ok(Turn { actions })
    }
}

/// A turn with its number: odd numbers are White's turns, even numbers Black's.
/// Written `<number>.<turn>`, e.g. `11.h7-g7`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NumberedTurn {
    /// The number, from 1.
    pub number: u32,
    /// The actions.
    pub turn: Turn,
}

impl NumberedTurn {
    /// The player whose turn it is: White for odd numbers, Black for even ones.
    pub fn color(&self) -> Color {
        color_of(self.number)
    }
}

/// The player of turn `number`: White for odd numbers, Black for even ones.
pub const fn color_of(number: u32) -> Color {
    if number % 2 == 1 {
        Color::White
    } else {
        Color::Black
    }
}

impl fmt::Display for NumberedTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.number, self.turn)
    }
}

impl FromStr for NumberedTurn {
    type Err = ParseTurnError;

    /// Reads `<number>.<turn>`; the number is at least 1.
    fn from_str(s: &str) -> Result<NumberedTurn, ParseTurnError> {
        let err = |reason| ParseTurnError {
            part: s.to_owned(),
            reason,
        };
        let (number, turn) = s
            .split_once('.')
            .ok_or_else(|| err("expected <number>.<turn>"))?;
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err("the turn number is not a number"));
        }
        let number: u32 = number
            .parse()
            .map_err(|_| err("the turn number is too large"))?;
        if number == 0 {
            return Err(err("turns are numbered from 1"));
        }
        Ok(NumberedTurn {
            number,
            turn: turn.parse()?,
        })
    }
}

/// An action that could not be played while splitting actions into turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitError {
    /// Index of the refused action in the list (from 0).
    pub index: usize,
    /// Number of the turn it would belong to.
    pub turn: u32,
    /// The refused action and why.
    pub illegal: IllegalAction,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "turn {}: {}", self.turn, self.illegal)
    }
}

impl std::error::Error for SplitError {}

/// Splits `actions`, played from `start`, into numbered turns: a turn is the longest run
/// of consecutive actions taken while [`Position::turn`] is the same player. The first
/// turn is numbered 1 when White is to act at `start`, 2 when Black is.
///
/// Fails on the first illegal action. A list may stop anywhere, also between a row
/// removal and its ring removal.
pub fn split(start: &Position, actions: &[Action]) -> Result<Vec<NumberedTurn>, SplitError> {
    let mut pos = *start;
    let mut number = start.turn().fold(1, 2);
    let mut turns: Vec<NumberedTurn> = Vec::new();
    for (index, &action) in actions.iter().enumerate() {
        let mover = pos.turn();
        match turns.last_mut() {
            Some(last) if last.color() == mover => {}
            Some(_) => number += 1,
            None => {}
        }
        pos.play(action).map_err(|illegal| SplitError {
            index,
            turn: number,
            illegal,
        })?;
        match turns.last_mut() {
            Some(last) if last.number == number => last.turn.push(action),
            _ => turns.push(NumberedTurn {
                number,
                turn: Turn::new(vec![action]),
            }),
        }
    }
    Ok(turns)
}

/// The actions of `turns`, in order.
pub fn flatten<'a>(turns: impl IntoIterator<Item = &'a Turn>) -> Vec<Action> {
    turns
        .into_iter()
        .flat_map(|t| t.actions().iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(s: &str) -> Turn {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn writes_rows_with_their_rings() {
        assert_eq!(turn("c3-c8;xc3-c7xk10").to_string(), "c3-c8;xc3-c7xk10");
        assert_eq!(
            turn("xe7-i11xd9;i7-i11;xi6-i10xh4").to_string(),
            "xe7-i11xd9;i7-i11;xi6-i10xh4"
        );
        assert_eq!(turn("e3").to_string(), "e3");
        assert_eq!(turn("PASS").to_string(), "pass");
    }

    #[test]
    fn reads_either_case_and_row_order() {
        assert_eq!(turn("C3-C8;XC7-C3XK10"), turn("c3-c8;xc3-c7xk10"));
        assert_eq!(turn("xI11-E7xD9;i7-i11"), turn("xe7-i11xd9;i7-i11"));
        assert_eq!(turn("c3-c8;xc3-c7xk10").actions().len(), 3);
    }

    #[test]
    fn a_lone_row_may_end_a_turn() {
        let t = turn("c3-c8;xc3-c7");
        assert_eq!(t.actions().len(), 2);
        assert_eq!(t.to_string(), "c3-c8;xc3-c7");
    }

    #[test]
    fn rejects_bad_shapes() {
        let reason = |s: &str| s.parse::<Turn>().unwrap_err().reason;
        assert_eq!(reason(""), "empty turn");
        assert_eq!(
            reason("e3;"),
            "empty part (two ';' in a row, or one at an end)"
        );
        assert_eq!(
            reason("e3;a5"),
            "a turn has at most one placement, ring move or pass"
        );
        assert_eq!(
            reason("c3-c8;xk10"),
            "a ring removal must be joined to its row removal (xc3-c7xk10)"
        );
        assert_eq!(
            reason("xc3-c7;c3-c8"),
            "a row removal must be followed by its ring removal"
        );
        assert_eq!(
            reason("xk10xc3-c7"),
            "only a row removal and a ring removal may be joined"
        );
        let err = "c3-c8;xc3-c6xk10".parse::<Turn>().unwrap_err();
        assert_eq!(err.part, "xc3-c6xk10");
        assert_eq!(
            err.to_string(),
            "bad turn part 'xc3-c6xk10': the ends are not five points apart on a line"
        );
    }

    #[test]
    fn numbered_turns() {
        let t: NumberedTurn = "11.H7-G7".parse().unwrap();
        assert_eq!(t.number, 11);
        assert_eq!(t.color(), Color::White);
        assert_eq!(t.to_string(), "11.h7-g7");
        assert_eq!(color_of(2), Color::Black);
        assert!("0.e3".parse::<NumberedTurn>().is_err());
        assert!("e3".parse::<NumberedTurn>().is_err());
        assert!("x.e3".parse::<NumberedTurn>().is_err());
    }

    #[test]
    fn split_stops_at_the_first_illegal_action() {
        let actions = crate::notation::token::parse_list("e3 a5 e3").unwrap();
        let err = split(&Position::new(), &actions).unwrap_err();
        assert_eq!(err.index, 2);
        assert_eq!(err.turn, 3);
        assert_eq!(
            err.to_string(),
            "turn 3: illegal action e3: the point is occupied"
        );
    }
}
