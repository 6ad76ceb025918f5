//! Action tokens (RULES.md §7).
//!
//! | action | token |
//! |---|---|
//! | ring placement | `e3` |
//! | ring move | `h7-g7` |
//! | row removal | `xc3-c7` (canonical end order on output, either on input) |
//! | ring removal | `xk10` |
//! | pass | `pass` |
//!
//! Output is lowercase; input accepts either case.
//!
//! ```
//! use yinsh::Action;
//!
//! let row: Action = "XC7-C3".parse().unwrap();
//! assert_eq!(row.to_string(), "xc3-c7");
//! assert!("xc3-c6".parse::<Action>().is_err()); // four points are not a row
//! ```

use std::fmt;
use std::str::FromStr;

use crate::action::{Action, Row};
use crate::point::Point;

/// A token that does not name an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseActionError {
    /// The offending token.
    pub token: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad token '{}': {}", self.token, self.reason)
    }
}

impl std::error::Error for ParseActionError {}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => write!(f, "{p}"),
            Action::Move { from, to } => write!(f, "{from}-{to}"),
            Action::RemoveRow(row) => write!(f, "x{row}"),
            Action::RemoveRing(p) => write!(f, "x{p}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let err = |reason| ParseActionError {
            token: s.to_owned(),
            reason,
        };
        if s.is_empty() {
            return Err(err("empty token"));
        }
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
        let point = |text: &str| {
            text.parse::<Point>()
                .map_err(|_| err("not a point of the board"))
        };
        let (removal, body) = match s.strip_prefix(['x', 'X']) {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        match (removal, body.split_once('-')) {
            (false, None) => Ok(Action::Place(point(body)?)),
            (false, Some((from, to))) => {
                let (from, to) = (point(from)?, point(to)?);
                if from == to {
                    return Err(err("a ring must move at least one point"));
                }
                Ok(Action::Move { from, to })
            }
            (true, None) => Ok(Action::RemoveRing(point(body)?)),
            (true, Some((a, b))) => {
                let (a, b) = (point(a)?, point(b)?);
                Row::from_ends(a, b)
                    .map(Action::RemoveRow)
                    .ok_or_else(|| err("the ends are not five points apart on a line"))
            }
        }
    }
}

/// Parses space-separated tokens.
pub fn parse_list(text: &str) -> Result<Vec<Action>, ParseActionError> {
    text.split_whitespace().map(str::parse).collect()
}
