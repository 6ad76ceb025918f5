//! The 85 points of the board and the three line directions (RULES.md G1–G3).

use std::fmt;
use std::str::FromStr;

/// Width of the square grid the hexagonal board is embedded in.
pub(crate) const GRID: i8 = 11;

/// One of the 85 points of the board, named by a column `a`–`k` and a row `1`–`11`
/// (RULES.md G2).
///
/// Internally a point is its index `column + 11 × row` in an 11×11 grid (both from 0),
/// so that a line step is a constant offset; only the 85 valid indices exist as values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Point(u8);

/// Whether the zero-based grid coordinates name a point of the board (RULES.md G2).
const fn on_board(col: i8, row: i8) -> bool {
    if col < 0 || row < 0 || col >= GRID || row >= GRID {
        return false;
    }
    let dc = col - 5;
    let dr = row - 5;
    let a = dc.abs();
    let b = dr.abs();
    let c = (dc - dr).abs();
    let fives = (a == 5) as u8 + (b == 5) as u8 + (c == 5) as u8;
    a <= 5 && b <= 5 && c <= 5 && fives <= 1
}

const fn all_points() -> [Point; 85] {
    let mut out = [Point(0); 85];
    let mut n = 0;
    let mut col = 0;
    while col < GRID {
        let mut row = 0;
        while row < GRID {
            if on_board(col, row) {
                out[n] = Point((col + GRID * row) as u8);
                n += 1;
            }
            row += 1;
        }
        col += 1;
    }
    assert!(n == 85);
    out
}

impl Point {
    /// Number of points on the board.
    pub const COUNT: usize = 85;

    /// All 85 points, column by column (`a2 … a5, b1 … k10`), each column upwards.
    pub const ALL: [Point; 85] = all_points();

    /// The point at zero-based column `col` (0 = `a`) and row `row` (0 = row 1), if it
    /// is on the board.
    #[inline]
    pub const fn from_coords(col: i8, row: i8) -> Option<Point> {
        if on_board(col, row) {
            Some(Point((col + GRID * row) as u8))
        } else {
            None
        }
    }

    /// The point at grid index `index` (`column + 11 × row`), if it is on the board.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Point> {
        if index >= (GRID as usize * GRID as usize) {
            return None;
        }
        Point::from_coords((index % GRID as usize) as i8, (index / GRID as usize) as i8)
    }

    /// The point with grid index `index`, which the caller knows to be on the board
    /// (it comes from a bit of [`crate::Bitboard::FULL`]).
    #[inline]
    pub(crate) const fn from_board_index(index: u8) -> Point {
        debug_assert!(Point::from_index(index as usize).is_some());
        Point(index)
    }

    /// The grid index `column + 11 × row` (below 121).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based column (0 = `a`).
    #[inline]
    pub const fn col(self) -> i8 {
        self.0 as i8 % GRID
    }

    /// Zero-based row (0 = row 1).
    #[inline]
    pub const fn row(self) -> i8 {
        self.0 as i8 / GRID
    }

    /// The column letter, `'a'`–`'k'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.col() as u8) as char
    }

    /// The neighbour one step away in `dir`, if it is on the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Point> {
        let (dc, dr) = dir.delta();
        Point::from_coords(self.col() + dc, self.row() + dr)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.row() + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A point name that is not one of the 85 points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePointError(pub String);

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a point of the board", self.0)
    }
}

impl std::error::Error for ParsePointError {}

impl FromStr for Point {
    type Err = ParsePointError;

    /// Parses `e3`, `K10` and the like (either case).
    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let err = || ParsePointError(s.to_owned());
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(err)?.to_ascii_lowercase();
        if !('a'..='k').contains(&file) {
            return Err(err());
        }
        let rank = chars.as_str();
        if rank.is_empty()
            || rank.len() > 2
            || !rank.bytes().all(|b| b.is_ascii_digit())
            || rank.starts_with('0')
        {
            return Err(err());
        }
        let rank: i8 = rank.parse().map_err(|_| err())?;
        Point::from_coords(file as i8 - 'a' as i8, rank - 1).ok_or_else(err)
    }
}

/// One of the six senses along the three line directions (RULES.md G3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Direction {
    /// Up the column: row + 1.
    North = 0,
    /// Along the row: column + 1.
    East = 1,
    /// Diagonally: column + 1, row + 1.
    NorthEast = 2,
    /// Down the column: row − 1.
    South = 3,
    /// Along the row: column − 1.
    West = 4,
    /// Diagonally: column − 1, row − 1.
    SouthWest = 5,
}

impl Direction {
    /// All six senses; the first three are the positive ones.
    pub const ALL: [Direction; 6] = [
        Direction::North,
        Direction::East,
        Direction::NorthEast,
        Direction::South,
        Direction::West,
        Direction::SouthWest,
    ];

    /// The step `(column, row)` of this sense.
    #[inline]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::NorthEast => (1, 1),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
            Direction::SouthWest => (-1, -1),
        }
    }

    /// The opposite sense.
    #[inline]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::NorthEast => Direction::SouthWest,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
            Direction::SouthWest => Direction::NorthEast,
        }
    }

    /// The line this sense runs along.
    #[inline]
    pub const fn line(self) -> Line {
        match self {
            Direction::North | Direction::South => Line::Column,
            Direction::East | Direction::West => Line::Row,
            Direction::NorthEast | Direction::SouthWest => Line::Diagonal,
        }
    }

    /// The sense that leads from `from` to `to` in a straight line, if they are distinct
    /// points on a common line.
    pub fn between(from: Point, to: Point) -> Option<Direction> {
        let dc = to.col() - from.col();
        let dr = to.row() - from.row();
        match (dc.signum(), dr.signum()) {
            (0, 1) => Some(Direction::North),
            (0, -1) => Some(Direction::South),
            (1, 0) => Some(Direction::East),
            (-1, 0) => Some(Direction::West),
            (1, 1) if dc == dr => Some(Direction::NorthEast),
            (-1, -1) if dc == dr => Some(Direction::SouthWest),
            _ => None,
        }
    }

    /// Number of steps from `from` to `to` along `self` (assuming they are on that line).
    #[inline]
    pub(crate) fn distance(self, from: Point, to: Point) -> i8 {
        let dc = (to.col() - from.col()).abs();
        let dr = (to.row() - from.row()).abs();
        dc.max(dr)
    }
}

/// One of the three line directions (RULES.md G3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Line {
    /// Same column.
    Column = 0,
    /// Same row.
    Row = 1,
    /// The diagonal with step (1, 1).
    Diagonal = 2,
}

impl Line {
    /// The three lines.
    pub const ALL: [Line; 3] = [Line::Column, Line::Row, Line::Diagonal];

    /// The positive sense along the line (the canonical order of a row's ends).
    #[inline]
    pub const fn forward(self) -> Direction {
        match self {
            Line::Column => Direction::North,
            Line::Row => Direction::East,
            Line::Diagonal => Direction::NorthEast,
        }
    }

    /// Grid-index offset of one forward step.
    #[inline]
    pub(crate) const fn offset(self) -> u32 {
        match self {
            Line::Column => GRID as u32,
            Line::Row => 1,
            Line::Diagonal => GRID as u32 + 1,
        }
    }
}
