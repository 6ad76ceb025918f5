//! Geometry tables computed at compile time: the rays from every point in every sense.

use crate::bitboard::Bitboard;
use crate::point::{Direction, GRID, Point};

/// Longest ray on the board (from an edge point straight across).
pub(crate) const MAX_RAY: usize = 10;

/// The points met walking from a point in one sense, nearest first, up to the edge.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    pub(crate) points: [Point; MAX_RAY],
    pub(crate) len: u8,
    /// The same points as a set.
    pub(crate) set: Bitboard,
}

impl Ray {
    #[inline]
    pub(crate) fn points(&self) -> &[Point] {
        &self.points[..self.len as usize]
    }
}

const GRID_SIZE: usize = (GRID as usize) * (GRID as usize);

const fn build_rays() -> [[Ray; 6]; GRID_SIZE] {
    let blank = Ray {
        points: [Point::ALL[0]; MAX_RAY],
        len: 0,
        set: Bitboard::EMPTY,
    };
    let mut rays = [[blank; 6]; GRID_SIZE];
    let mut i = 0;
    while i < Point::COUNT {
        let start = Point::ALL[i];
        let mut d = 0;
        while d < 6 {
            let dir = Direction::ALL[d];
            let mut ray = blank;
            let mut cur = start;
            while let Some(next) = cur.step(dir) {
                ray.points[ray.len as usize] = next;
                ray.len += 1;
                ray.set = Bitboard(ray.set.0 | (1u128 << next.index()));
                cur = next;
            }
            rays[start.index()][d] = ray;
            d += 1;
        }
        i += 1;
    }
    rays
}

/// `RAYS[p][d]`: the ray from point `p` (grid index) in sense `Direction::ALL[d]`.
pub(crate) static RAYS: [[Ray; 6]; GRID_SIZE] = build_rays();

/// The points strictly between `from` and `to`, which lie on a common line in sense `dir`.
#[inline]
pub(crate) fn between(from: Point, to: Point, dir: Direction) -> Bitboard {
    RAYS[from.index()][dir as usize].set & RAYS[to.index()][dir.opposite() as usize].set
}
