//! Sets of points as 128-bit masks over the 11×11 grid.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::point::Point;

/// A set of points: bit `i` stands for the point with grid index `i`
/// ([`Point::index`]). Only the 85 bits of [`Bitboard::FULL`] are ever set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u128);

const fn full_mask() -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < Point::COUNT {
        mask |= 1u128 << Point::ALL[i].index();
        i += 1;
    }
    mask
}

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 85 points of the board.
    pub const FULL: Bitboard = Bitboard(full_mask());

    /// The set holding only `p`.
    #[inline]
    pub const fn from_point(p: Point) -> Bitboard {
        Bitboard(1u128 << p.index())
    }

    /// Whether `p` is in the set.
    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        self.0 & (1u128 << p.index()) != 0
    }

    /// Adds `p`.
    #[inline]
    pub fn add(&mut self, p: Point) {
        self.0 |= 1u128 << p.index();
    }

    /// Removes `p`.
    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0 &= !(1u128 << p.index());
    }

    /// Toggles `p`.
    #[inline]
    pub fn toggle(&mut self, p: Point) {
        self.0 ^= 1u128 << p.index();
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one point.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether every point of `other` is in `self`.
    #[inline]
    pub const fn is_superset(self, other: Bitboard) -> bool {
        self.0 & other.0 == other.0
    }

    /// The point with the lowest index, if any.
    #[inline]
    pub fn first(self) -> Option<Point> {
        self.into_iter().next()
    }

    /// The `n`-th point (from 0) in the order of iteration, if the set has that many.
    #[inline]
    pub fn nth(self, n: usize) -> Option<Point> {
        let bits = self.0 & Bitboard::FULL.0;
        let low = bits as u64;
        let low_count = low.count_ones() as usize;
        let (mut half, mut n, base) = if n < low_count {
            (low, n, 0)
        } else {
            ((bits >> 64) as u64, n - low_count, 64)
        };
        if n >= half.count_ones() as usize {
            return None;
        }
        while n > 0 {
            half &= half - 1;
            n -= 1;
        }
        Some(Point::from_board_index(
            (base + half.trailing_zeros()) as u8,
        ))
    }

    /// Shifts the set `n` grid indices down (towards index 0), keeping only board points.
    #[inline]
    pub(crate) const fn shr(self, n: u32) -> Bitboard {
        Bitboard((self.0 >> n) & Bitboard::FULL.0)
    }
}

/// Iterates the points of a [`Bitboard`] by increasing grid index.
#[derive(Debug, Clone)]
pub struct Points(u128);

impl Iterator for Points {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Point::from_board_index(i as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Points {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Points;

    #[inline]
    fn into_iter(self) -> Points {
        // Only board points are iterated, whatever bits the raw value has.
        Points(self.0 & Bitboard::FULL.0)
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for p in iter {
            bb.add(p);
        }
        bb
    }
}

impl From<Point> for Bitboard {
    fn from(p: Point) -> Bitboard {
        Bitboard::from_point(p)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;

    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;

    /// Complement within the 85 board points.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}
