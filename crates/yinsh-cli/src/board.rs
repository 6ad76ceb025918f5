//! An ASCII picture of the hexagonal board.
//!
//! The lattice of RULES.md G2 is drawn with each column vertical and each column set half
//! a step lower than the one to its left, so that all three line directions look
//! straight: a column runs up and down, a row runs down to the right, a diagonal up to the
//! right. Column letters stand above and below the board, row numbers at both ends of
//! each row.

use yinsh::{Color, Point, Position};

/// How to follow the three line directions in the picture, printed under it.
pub const LINES: &str = "columns go up under their letter, rows go down-right from their \
     number (a5 b5 c5 ...), diagonals go up-right (a2 b3 c4 ...)";

/// Text columns between two board columns.
const COLUMN_WIDTH: usize = 4;
/// Text columns left of column `a`, room for the labels of rows that start there.
const LEFT_MARGIN: usize = 4;
/// Number of board columns (`a`–`k`) and rows (`1`–`11`).
const SIZE: i8 = 11;

/// What each character of the picture means, printed under it.
pub const LEGEND: &str =
    "W/B = white/black ring, w/b = marker showing white/black, . = empty point";

/// The character of a point: a ring, a marker or `.` for empty.
fn piece_char(pos: &Position, p: Point) -> char {
    for color in Color::ALL {
        if pos.rings(color).contains(p) {
            return color.fold('W', 'B');
        }
        if pos.markers(color).contains(p) {
            return color.fold('w', 'b');
        }
    }
    '.'
}

/// Height of a grid point in text lines: two lines per row up a column, one line lower
/// per column to the right.
fn height(col: i8, row: i8) -> i32 {
    2 * i32::from(row) - i32::from(col)
}

/// Text column of board column `col` (may be -1 or 11 for labels beside the board).
fn x_of(col: i8) -> usize {
    (LEFT_MARGIN as isize + COLUMN_WIDTH as isize * isize::from(col)) as usize
}

/// A row label: the number of `row` written beside the point (`col`, `row`), which lies
/// just off the board.
struct Label {
    col: i8,
    row: i8,
    left: bool,
}

/// Draws the board of `pos`, one string per text line, without trailing spaces.
pub fn draw(pos: &Position) -> Vec<String> {
    let mut labels = Vec::new();
    for row in 0..SIZE {
        let cols: Vec<i8> = (0..SIZE)
            .filter(|&c| Point::from_coords(c, row).is_some())
            .collect();
        let (first, last) = (cols[0], cols[cols.len() - 1]);
        labels.push(Label {
            col: first - 1,
            row,
            left: true,
        });
        labels.push(Label {
            col: last + 1,
            row,
            left: false,
        });
    }
    let heights = Point::ALL
        .iter()
        .map(|p| height(p.col(), p.row()))
        .chain(labels.iter().map(|l| height(l.col, l.row)));
    let (low, high) = heights.fold((i32::MAX, i32::MIN), |(lo, hi), h| (lo.min(h), hi.max(h)));

    let width = x_of(SIZE) + 3;
    // One line of column letters above and below, with a blank line between them and the
    // board.
    let board_lines = (high - low + 1) as usize;
    let mut canvas = vec![vec![' '; width]; board_lines + 4];
    let line_of = |col: i8, row: i8| 2 + (high - height(col, row)) as usize;

    for col in 0..SIZE {
        let letter = char::from(b'a' + col as u8);
        let x = x_of(col);
        canvas[0][x] = letter;
        canvas[board_lines + 3][x] = letter;
    }
    for p in Point::ALL {
        canvas[line_of(p.col(), p.row())][x_of(p.col())] = piece_char(pos, p);
    }
    for label in &labels {
        let text = (label.row + 1).to_string();
        let x = x_of(label.col);
        // Left labels end at their slot, right labels start at it: both stay next to
        // the row they name.
        let start = if label.left { x + 1 - text.len() } else { x };
        let line = &mut canvas[line_of(label.col, label.row)];
        for (i, c) in text.chars().enumerate() {
            line[start + i] = c;
        }
    }
    canvas
        .into_iter()
        .map(|line| line.into_iter().collect::<String>().trim_end().to_owned())
        .collect()
}
