//! The static evaluation: what a position is worth to the player to act.
//!
//! The terms, all computed with whole-board bit operations (no loops over points):
//!
//! - **rings removed**, the score itself, by far the largest term;
//! - **row potential**: every five-point window (123 of them) with no opposing piece,
//!   weighted by how many of its points already show the player's markers; a window
//!   with four markers and one of the player's own rings on the fifth point is a row
//!   the player can complete by moving that ring away;
//! - **threats** on the move: a ready row for the player to act is almost a ring; ready
//!   rows of the opponent are dangerous but may still be broken by a flip;
//! - **mobility**: the number of ring moves (weighted 0 by default: every weight tried
//!   lost strength against the baseline, see docs/engine.md); rings on the central points
//!   stand in for it;
//! - **centrality** of the rings during placement and after;
//! - **markers** on the board (potential rows, and flips the opponent must spend moves on).

use yinsh::{Bitboard, Color, Line, Position, Stage};

/// Score of one removed ring. Evaluations are reported in hundredths of a ring.
pub const RING: i32 = 1000;
/// Score of a won game (minus the distance to it, in actions).
pub const WIN: i32 = 30_000;
/// Scores at or beyond this (in absolute value) are wins or losses.
pub const WIN_BOUND: i32 = WIN - 1000;

/// The weights of the evaluation terms, in thousandths of a ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Per marker on the board.
    pub marker: i32,
    /// Per clean window with 1, 2, 3 or 4 of the player's markers (no opposing piece).
    pub window: [i32; 5],
    /// Per clean window with four markers and the player's ring on the fifth point.
    pub ready_row: i32,
    /// Bonus when the player to act has a ready row.
    pub ready_on_move: i32,
    /// Per ring move available (0 skips computing mobility; see docs/engine.md).
    pub mobility: i32,
    /// Per ring on the central points (distance ≤ 2 from the centre).
    pub centre: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        // Tuned by matches at 100 ms a move: self-play (60 games a change) and then
        // against the UCT baseline (40 to 60 games a change); see docs/engine.md.
        Weights {
            marker: 8,
            window: [0, 2, 8, 30, 90],
            ready_row: 220,
            ready_on_move: 500,
            mobility: 0,
            centre: 80,
        }
    }
}

/// Points not more than `radius` steps from the centre f6.
const fn central(radius: i8) -> Bitboard {
    let mut bits = 0u128;
    let mut i = 0;
    while i < yinsh::Point::COUNT {
        let p = yinsh::Point::ALL[i];
        let dc = p.col() - 5;
        let dr = p.row() - 5;
        let d = {
            let a = if dc < 0 { -dc } else { dc };
            let b = if dr < 0 { -dr } else { dr };
            let c = if dc - dr < 0 { dr - dc } else { dc - dr };
            let m = if a > b { a } else { b };
            if m > c { m } else { c }
        };
        if d <= radius {
            bits |= 1u128 << p.index();
        }
        i += 1;
    }
    Bitboard(bits)
}

const CENTRE: Bitboard = central(2);

#[inline(always)]
fn shr(bits: u128, n: u32) -> u128 {
    (bits >> n) & Bitboard::FULL.0
}

/// Starts of the windows of five board points along the line with grid offset `o`.
#[inline(always)]
fn window_starts(o: u32) -> u128 {
    let f = Bitboard::FULL.0;
    f & shr(f, o) & shr(f, 2 * o) & shr(f, 3 * o) & shr(f, 4 * o)
}

/// Counts of windows by how many markers of one colour they hold, for one player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WindowCounts {
    /// `clean[n]`: windows with `n` of the player's markers and no opposing piece and no
    /// ring of the player (for `n` < 5).
    pub clean: [u32; 5],
    /// Windows with four markers of the player, the player's ring on the fifth point,
    /// and no opposing piece: rows the player can complete now.
    pub ready: u32,
}

/// Counts the windows of `color` (see [`WindowCounts`]).
pub fn windows(pos: &Position, color: Color) -> WindowCounts {
    let own = pos.markers(color).0;
    let ring = pos.rings(color).0;
    let other = (pos.markers(!color) | pos.rings(!color)).0;
    let mut counts = WindowCounts::default();
    for line in Line::ALL {
        let o = match line {
            Line::Column => 11,
            Line::Row => 1,
            Line::Diagonal => 12,
        };
        let m = [
            own,
            shr(own, o),
            shr(own, 2 * o),
            shr(own, 3 * o),
            shr(own, 4 * o),
        ];
        let blocked =
            other | shr(other, o) | shr(other, 2 * o) | shr(other, 3 * o) | shr(other, 4 * o);
        let ringed = ring | shr(ring, o) | shr(ring, 2 * o) | shr(ring, 3 * o) | shr(ring, 4 * o);
        // Bit-sliced sum of five one-bit counters: s2 s1 s0.
        let x = m[0] ^ m[1] ^ m[2];
        let c0 = (m[0] & m[1]) | (m[2] & (m[0] ^ m[1]));
        let y = m[3] ^ m[4];
        let c1 = m[3] & m[4];
        let s0 = x ^ y;
        let c2 = x & y;
        let s1 = c0 ^ c1 ^ c2;
        let s2 = (c0 & c1) | (c2 & (c0 ^ c1));
        let valid = window_starts(o) & !blocked;
        let clean = valid & !ringed;
        let n1 = !s2 & !s1 & s0;
        let n2 = !s2 & s1 & !s0;
        let n3 = !s2 & s1 & s0;
        let n4 = s2 & !s1 & !s0;
        counts.clean[1] += (clean & n1).count_ones();
        counts.clean[2] += (clean & n2).count_ones();
        counts.clean[3] += (clean & n3).count_ones();
        counts.clean[4] += (clean & n4).count_ones();
        counts.ready += (valid & ringed & n4).count_ones();
    }
    counts
}

/// The evaluation of `pos` for the player to act, in thousandths of a ring. Only for
/// positions that are not over.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let me = pos.turn();
    let side = |c: Color| -> (i32, WindowCounts) {
        let wc = windows(pos, c);
        let mut s = i32::from(pos.removed(c)) * RING;
        s += pos.markers(c).count() as i32 * w.marker;
        for n in 1..5 {
            s += wc.clean[n] as i32 * w.window[n];
        }
        s += wc.ready as i32 * w.ready_row;
        if w.mobility != 0 {
            s += pos.mobility(c) as i32 * w.mobility;
        }
        s += (pos.rings(c) & CENTRE).count() as i32 * w.centre;
        (s, wc)
    };
    let (mine, my_windows) = side(me);
    let (theirs, _) = side(!me);
    let mut score = mine - theirs;
    if pos.stage() == Stage::Move && my_windows.ready > 0 {
        score += w.ready_on_move;
    }
    score
}

/// The value of any position for the player to act: a win or loss score when the game
/// is over (0 for a draw), otherwise [`evaluate`].
pub fn evaluate_any(pos: &Position, w: &Weights) -> i32 {
    match pos.outcome() {
        Some(o) => match o.winner {
            Some(c) if c == pos.turn() => WIN,
            Some(_) => -WIN,
            None => 0,
        },
        None => evaluate(pos, w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn window_counts_match_a_direct_count() {
        let mut rng = yinsh::random::SplitMix64::new(3);
        for _ in 0..50 {
            let mut p = Position::new();
            for _ in 0..40 {
                match yinsh::random::random_action(&p, &mut rng) {
                    Some(a) => p.play_unchecked(a),
                    None => break,
                }
            }
            for c in Color::ALL {
                let mut expect = WindowCounts::default();
                for row in yinsh::Row::all() {
                    let pts = row.points();
                    let blocked = (pts & (p.markers(!c) | p.rings(!c))).any();
                    let n = (pts & p.markers(c)).count() as usize;
                    let rings = (pts & p.rings(c)).count();
                    if blocked {
                        continue;
                    }
                    if rings == 0 && n < 5 {
                        expect.clean[n] += 1;
                    }
                    if rings > 0 && n == 4 {
                        expect.ready += 1;
                    }
                }
                expect.clean[0] = 0;
                assert_eq!(windows(&p, c), expect);
            }
        }
    }

    #[test]
    fn ready_row_is_seen() {
        // White: markers e3 e4 e5 e6 and a ring on e7 — moving the ring makes a row.
        let p = pos("W3/W6/W7/9/2wwwwW3/1B7/B9/B8/B7/B6/W3 w move 0-0 3-3 4");
        assert_eq!(windows(&p, Color::White).ready, 1);
        assert!(evaluate(&p, &Weights::default()) > 500);
    }
}
