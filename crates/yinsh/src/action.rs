//! Actions: the atomic steps of a game (RULES.md §8) and rows of five.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::point::{Direction, Line, Point};

/// Five adjacent points on one line (RULES.md R1), named by its first point in the
/// canonical order and its line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Row {
    start: Point,
    line: Line,
}

impl Row {
    /// Number of points in a row.
    pub const LEN: usize = 5;

    /// The row that starts at `start` and runs forward along `line`, if all five of its
    /// points are on the board.
    pub fn new(start: Point, line: Line) -> Option<Row> {
        let (dc, dr) = line.forward().delta();
        Point::from_coords(start.col() + 4 * dc, start.row() + 4 * dr)?;
        Some(Row { start, line })
    }

    /// The row whose ends are `a` and `b`, in either order, if they are four steps apart
    /// on a line.
    pub fn from_ends(a: Point, b: Point) -> Option<Row> {
        let dir = Direction::between(a, b)?;
        if dir.distance(a, b) != 4 {
            return None;
        }
        let start = if dir == dir.line().forward() { a } else { b };
        Row::new(start, dir.line())
    }

    /// The first end in canonical order (lower column, or lower row in one column).
    #[inline]
    pub const fn start(self) -> Point {
        self.start
    }

    /// The last end in canonical order.
    pub fn end(self) -> Point {
        let (dc, dr) = self.line.forward().delta();
        Point::from_coords(self.start.col() + 4 * dc, self.start.row() + 4 * dr)
            .expect("rows are on the board")
    }

    /// The line the row runs along.
    #[inline]
    pub const fn line(self) -> Line {
        self.line
    }

    /// The five points of the row.
    #[inline]
    pub const fn points(self) -> Bitboard {
        let o = self.line.offset();
        let pattern = 1u128 | (1 << o) | (1 << (2 * o)) | (1 << (3 * o)) | (1 << (4 * o));
        Bitboard(pattern << self.start.index())
    }

    /// All 123 rows of the board (RULES.md G3), line by line.
    pub fn all() -> impl Iterator<Item = Row> {
        Line::ALL.into_iter().flat_map(|line| {
            Point::ALL
                .into_iter()
                .filter_map(move |p| Row::new(p, line))
        })
    }
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.start, self.end())
    }
}

impl fmt::Debug for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One atomic action (RULES.md §8): what a player does in one step of a turn.
///
/// An action is meaningful only against a position; [`crate::Position::play`] checks it.
/// Its text form is the token of RULES.md §7 (see [`crate::notation::token`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Put a ring of the player's colour on an empty point (setup, RULES.md S2).
    Place(Point),
    /// Drop a marker into the ring at `from` and move the ring to `to` (RULES.md M1–M4).
    Move {
        /// Where the ring stands, and where the new marker stays.
        from: Point,
        /// Where the ring lands.
        to: Point,
    },
    /// Take one of the player's rows off the board (RULES.md R2–R4).
    RemoveRow(Row),
    /// Take one of the player's rings off the board after a row (RULES.md R2).
    RemoveRing(Point),
    /// Skip the ring move when no ring can move (RULES.md E3).
    Pass,
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
