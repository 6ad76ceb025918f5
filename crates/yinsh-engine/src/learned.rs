//! The learned terms of the evaluation: two tables fitted to the engine's own games,
//! added to the hand-made terms of [`crate::eval`] (docs/engine.md, "The learned
//! terms").
//!
//! - **Windows of five.** Each of the board's 123 windows of five points in a line is
//!   read as a pattern — every point empty, a marker or a ring of the player to act or
//!   of the opponent, 5⁵ patterns — and the table gives each pattern a value (a
//!   pattern and its mirror image one value). This is how the evaluation sees rows
//!   forming, blocked or broken by rings, which the hand-made terms count only as
//!   "four markers and nothing else".
//! - **Points.** A value for a ring or a marker of either side by class of points
//!   (the points the board's twelve symmetries take to each other: 11 classes), for
//!   the rings each side has removed, and for the placement phase.
//!
//! The tables (`learned_weights.rs`, written by `scripts/train-eval.py`) were fitted by
//! logistic regression to the search scores of self-play positions, on top of the
//! hand-made evaluation; evaluating them is a table lookup per piece and per window.
//! Both tables are the same under every symmetry of the board, and so are the terms.

use std::sync::OnceLock;

use yinsh::{Bitboard, Direction, Point, Position, Stage};

mod weights {
    include!("learned_weights.rs");
}

/// What a point holds, from the side of the player to act: a digit of a window's code.
const MY_MARKER: u8 = 1;
const THEIR_MARKER: u8 = 2;
const MY_RING: u8 = 3;
const THEIR_RING: u8 = 4;

/// Classes of points under the board's symmetries.
const CLASSES: usize = 11;
/// Point indexes run over an 11 × 11 grid (`row * 11 + col`).
const INDEXES: usize = 121;

/// The board's lines (in the three directions windows are read in, each from its
/// first point to its last) that hold at least one window of five, as point indexes:
/// the points of all lines one after another, and each line's length.
struct Lines {
    points: Vec<u8>,
    lengths: Vec<u8>,
}

fn lines() -> &'static Lines {
    static LINES: OnceLock<Lines> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut lines = Lines {
            points: Vec::new(),
            lengths: Vec::new(),
        };
        for dir in [Direction::East, Direction::North, Direction::NorthEast] {
            for start in Point::ALL {
                if start.step(dir.opposite()).is_some() {
                    continue;
                }
                let line: Vec<u8> = std::iter::successors(Some(start), |p| p.step(dir))
                    .map(|p| p.index() as u8)
                    .collect();
                if line.len() >= 5 {
                    lines.lengths.push(line.len() as u8);
                    lines.points.extend(line);
                }
            }
        }
        lines
    })
}

/// The point `p` turned by sixty degrees about the centre f6: in coordinates from the
/// centre along the lines (1, 0), (0, 1) and (1, 1), (x, y) goes to (x − y, x).
pub(crate) fn turned(p: Point) -> Point {
    let (x, y) = (p.col() - 5, p.row() - 5);
    Point::from_coords(x - y + 5, x + 5).expect("the board is symmetric")
}

/// The point `p` mirrored in the line through the centre along (1, 1).
pub(crate) fn mirrored(p: Point) -> Point {
    Point::from_coords(p.row(), p.col()).expect("the board is symmetric")
}

/// The classes of points the board's twelve symmetries take to each other, as sets,
/// numbered by their first point in index order (as `scripts/train-eval.py` does).
fn classes() -> &'static [Bitboard; CLASSES] {
    static SETS: OnceLock<[Bitboard; CLASSES]> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut points: Vec<Point> = Point::ALL.to_vec();
        points.sort_by_key(|p| p.index());
        let mut keys: Vec<usize> = Vec::new();
        let mut sets = [Bitboard::EMPTY; CLASSES];
        for p in points {
            let mut key = usize::MAX;
            for start in [p, mirrored(p)] {
                let mut q = start;
                for _ in 0..6 {
                    key = key.min(q.index());
                    q = turned(q);
                }
            }
            let class = keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                keys.push(key);
                keys.len() - 1
            });
            sets[class].add(p);
        }
        sets
    })
}

/// The point table's value of a piece at each point, by kind of piece (my rings,
/// their rings, my markers, their markers: the table's order), from its class's value.
fn piece_values() -> &'static [[i16; INDEXES]; 4] {
    static VALUES: OnceLock<[[i16; INDEXES]; 4]> = OnceLock::new();
    VALUES.get_or_init(|| {
        let mut values = [[0; INDEXES]; 4];
        for (kind, row) in values.iter_mut().enumerate() {
            for (class, points) in classes().iter().enumerate() {
                for p in *points {
                    row[p.index()] = weights::POINTS[kind * CLASSES + class];
                }
            }
        }
        values
    })
}

/// Every value of both tables, in order (for [`crate::eval::fingerprint`]).
pub(crate) fn values() -> impl Iterator<Item = i16> {
    weights::WINDOW
        .iter()
        .chain(weights::POINTS.iter())
        .copied()
}

/// The learned terms for the player to act in `pos`, in thousandths of a ring.
pub fn terms(pos: &Position) -> i32 {
    let me = pos.turn();
    let w = &weights::POINTS;
    let pieces = [
        (pos.rings(me), MY_RING),
        (pos.rings(!me), THEIR_RING),
        (pos.markers(me), MY_MARKER),
        (pos.markers(!me), THEIR_MARKER),
    ];
    let mut score = i32::from(w[51]);
    let mut board = [0u8; INDEXES];
    for ((set, digit), values) in pieces.iter().zip(piece_values()) {
        for p in *set {
            board[p.index()] = *digit;
            score += i32::from(values[p.index()]);
        }
    }
    score += i32::from(w[44 + usize::from(pos.removed(me).min(2))]);
    score += i32::from(w[47 + usize::from(pos.removed(!me).min(2))]);
    if pos.stage() == Stage::Place {
        score += i32::from(w[50]);
    }
    score + window_terms(&board)
}

/// The window table's values summed over the board's windows, `board` giving each
/// point's digit. A window's code has its first point as the lowest base-5 digit, so
/// the next window along a line drops that digit and takes its new point as the
/// highest: one point read per window.
fn window_terms(board: &[u8; INDEXES]) -> i32 {
    let lines = lines();
    let mut points = lines
        .points
        .iter()
        .map(|&p| usize::from(board[usize::from(p)]));
    let mut score = 0;
    for &length in &lines.lengths {
        let mut code = 0;
        for (k, digit) in points.by_ref().take(usize::from(length)).enumerate() {
            code = code / 5 + digit * 625;
            if k >= 4 {
                score += i32::from(weights::WINDOW[code]);
            }
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use yinsh::{ByColor, Setup};

    /// The board's windows of five points in a line (point indexes), each from its
    /// first point in the direction its line is read.
    fn windows() -> Vec<[usize; 5]> {
        let mut out = Vec::new();
        for p in Point::ALL {
            for dir in [Direction::East, Direction::North, Direction::NorthEast] {
                let window: Vec<usize> = std::iter::successors(Some(p), |q| q.step(dir))
                    .take(5)
                    .map(|q| q.index())
                    .collect();
                if let Ok(window) = window.try_into() {
                    out.push(window);
                }
            }
        }
        out
    }

    /// The window terms read window by window, five points each (what the lines'
    /// running codes must add up to).
    fn windows_one_by_one(pos: &Position) -> i32 {
        let me = pos.turn();
        let digit = |p: usize| {
            let p = Point::from_index(p).unwrap();
            [
                (pos.markers(me), MY_MARKER),
                (pos.markers(!me), THEIR_MARKER),
                (pos.rings(me), MY_RING),
                (pos.rings(!me), THEIR_RING),
            ]
            .iter()
            .find(|(set, _)| set.contains(p))
            .map_or(0, |(_, d)| usize::from(*d))
        };
        windows()
            .iter()
            .map(|w| {
                let code = w.iter().rev().fold(0, |code, &p| code * 5 + digit(p));
                i32::from(weights::WINDOW[code])
            })
            .sum()
    }

    /// The terms as the tables define them, computed the plain way: the point table's
    /// value for each class times the pieces of each kind in it, and each window's
    /// code read point by point.
    fn reference(pos: &Position) -> i32 {
        let me = pos.turn();
        let w = &weights::POINTS;
        let kinds = [
            pos.rings(me),
            pos.rings(!me),
            pos.markers(me),
            pos.markers(!me),
        ];
        let mut score = i32::from(w[51]) + windows_one_by_one(pos);
        for (kind, set) in kinds.iter().enumerate() {
            for (class, points) in classes().iter().enumerate() {
                score += i32::from(w[kind * CLASSES + class]) * (*set & *points).count() as i32;
            }
        }
        score += i32::from(w[44 + usize::from(pos.removed(me).min(2))]);
        score += i32::from(w[47 + usize::from(pos.removed(!me).min(2))]);
        if pos.stage() == Stage::Place {
            score += i32::from(w[50]);
        }
        score
    }

    #[test]
    fn the_board_has_123_windows_and_11_classes_of_points() {
        assert_eq!(windows().len(), 123);
        let lines = lines();
        let in_lines: usize = lines.lengths.iter().map(|&n| usize::from(n) - 4).sum();
        assert_eq!(in_lines, 123);
        assert_eq!(
            lines.points.len(),
            lines.lengths.iter().map(|&n| usize::from(n)).sum()
        );
        let sets = classes();
        let sizes: Vec<u32> = sets.iter().map(|s| s.count()).collect();
        assert_eq!(sizes.iter().sum::<u32>(), 85, "{sizes:?}");
        assert!(sizes.iter().all(|n| [1, 6, 12].contains(n)), "{sizes:?}");
        // Numbered as scripts/train-eval.py numbers them (the tables' order): by their
        // first point in index order: edge points of the first row first, the centre last.
        let at = |i| Point::from_index(i).unwrap();
        assert!(sets[0].contains(at(1)) && sets[0].contains(at(4)));
        assert!(sets[1].contains(at(2)) && sets[1].contains(at(3)));
        assert_eq!(sets[10], Bitboard::from_point(at(60)));
        // A class is closed under the symmetries.
        for set in sets {
            for p in *set {
                assert!(set.contains(turned(p)) && set.contains(mirrored(p)));
            }
        }
    }

    fn map(set: Bitboard, f: impl Fn(Point) -> Point) -> Bitboard {
        set.into_iter().map(f).collect()
    }

    /// `pos` with every piece moved by `f`.
    fn moved(pos: &Position, f: impl Fn(Point) -> Point + Copy) -> Position {
        let s = pos.to_setup();
        let setup = Setup {
            rings: ByColor {
                white: map(s.rings.white, f),
                black: map(s.rings.black, f),
            },
            markers: ByColor {
                white: map(s.markers.white, f),
                black: map(s.markers.black, f),
            },
            ..s
        };
        Position::from_setup(setup).expect("a symmetric image is a position")
    }

    /// `pos` with the colours swapped (the same position for the player to act).
    fn swapped(pos: &Position) -> Position {
        let s = pos.to_setup();
        let setup = Setup {
            rings: ByColor {
                white: s.rings.black,
                black: s.rings.white,
            },
            markers: ByColor {
                white: s.markers.black,
                black: s.markers.white,
            },
            removed: ByColor {
                white: s.removed.black,
                black: s.removed.white,
            },
            turn: !s.turn,
            ..s
        };
        Position::from_setup(setup).expect("the colours swapped is a position")
    }

    #[test]
    fn the_terms_are_the_tables_values_and_the_same_under_every_symmetry_and_colour() {
        let mut rng = yinsh::random::SplitMix64::new(7);
        for game in 0..40 {
            let mut pos = Position::new();
            for _ in 0..(game % 40) + 10 {
                let actions = pos.legal_actions();
                if actions.is_empty() {
                    break;
                }
                pos.play(actions[(rng.next_u64() % actions.len() as u64) as usize])
                    .unwrap();
            }
            if pos.is_over() {
                continue;
            }
            assert_eq!(terms(&pos), reference(&pos), "{}", pos.to_fen());
            let t = terms(&pos);
            assert_eq!(terms(&moved(&pos, turned)), t, "{}", pos.to_fen());
            assert_eq!(terms(&moved(&pos, mirrored)), t, "{}", pos.to_fen());
            assert_eq!(terms(&swapped(&pos)), t, "{}", pos.to_fen());
        }
    }
}
