//! The static evaluation: what a position is worth to the player to act.
//!
//! The terms, all computed with whole-board bit operations (no loops over points):
//!
//! - **rings removed**, the score itself, by far the largest term;
//! - **markers** on the board (material for rows, and flips the opponent must spend
//!   moves on), less the **fragile** ones the opponent could flip with one ring move;
//! - **row potential**: five-point windows with no opposing piece, weighted by how many
//!   of their points already show the player's markers (only four counts by default); a
//!   window with four markers and one of the player's own rings on the fifth point is a
//!   ready row the player completes by moving that ring away;
//! - **threats** on the move: a ready row for the player to act is almost a ring;
//! - **ring placement**: rings on the central points count, rings on the edge count
//!   against;
//! - **mobility**: the number of ring moves (weighted 0 by default).
//!
//! The default weights are fitted to game results (docs/engine.md, "How the weights
//! were chosen"; `examples/eval_features.rs` and `scripts/fit-eval.py`).

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
    /// Per ring on the board's edge (distance 5 from the centre).
    pub edge: i32,
    /// Per marker of the player that the opponent could flip with one ring move.
    pub fragile: i32,
    /// Whether the learned terms ([`crate::learned`]) are added to these.
    pub learned: bool,
}

impl Default for Weights {
    fn default() -> Weights {
        // Fitted to the results of 586 games by logistic regression and rounded, the
        // small negative weights of windows with one to three markers left at 0; see
        // docs/engine.md.
        Weights {
            marker: 70,
            window: [0, 0, 0, 0, 35],
            ready_row: 200,
            ready_on_move: 320,
            mobility: 0,
            centre: 110,
            edge: -100,
            fragile: -70,
            learned: true,
        }
    }
}

/// A fingerprint of the evaluation with `weights` and the learned tables, as eight
/// hexadecimal digits (64-bit FNV-1a, the high half): stored analyses name their engine
/// with it ([`fingerprint`]), so that scores of different evaluations are told apart
/// while the crate's version stays the same.
pub fn fingerprint_of(weights: &Weights) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |byte: u8| hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    format!("{weights:?}").bytes().for_each(&mut add);
    for value in crate::learned::values() {
        value.to_le_bytes().into_iter().for_each(&mut add);
    }
    format!("{:08x}", hash >> 32)
}

/// [`fingerprint_of`] the default weights: the engine's evaluation.
pub fn fingerprint() -> String {
    fingerprint_of(&Weights::default())
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
/// The 24 points of the board's rim (the 61 others are within four steps of the centre).
const EDGE: Bitboard = Bitboard(Bitboard::FULL.0 & !central(4).0);

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

/// The raw terms of the evaluation for one player: what [`Weights`] multiply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features {
    /// Rings the player has removed.
    pub removed: u32,
    /// The player's markers on the board.
    pub markers: u32,
    /// The player's windows (clean and ready).
    pub windows: WindowCounts,
    /// The player's rings on the central points.
    pub centre: u32,
    /// The player's rings on the board's edge.
    pub edge: u32,
    /// The player's ring moves (0 when not computed).
    pub mobility: u32,
    /// The player's markers that the opponent could flip with one ring move (0 when not
    /// computed).
    pub fragile: u32,
}

impl Features {
    /// Every term of `color`, the costly ones (mobility, fragile markers) included.
    pub fn of(pos: &Position, color: Color) -> Features {
        Features::collect(pos, color, true, true)
    }

    fn collect(pos: &Position, color: Color, mobility: bool, fragile: bool) -> Features {
        Features {
            removed: u32::from(pos.removed(color)),
            markers: pos.markers(color).count(),
            windows: windows(pos, color),
            centre: (pos.rings(color) & CENTRE).count(),
            edge: (pos.rings(color) & EDGE).count(),
            mobility: if mobility { pos.mobility(color) } else { 0 },
            fragile: if fragile {
                (pos.markers(color) & pos.flippable(!color)).count()
            } else {
                0
            },
        }
    }

    /// The weighted sum of the terms (without the bonus for a ready row on the move).
    pub fn score(&self, w: &Weights) -> i32 {
        let n = |x: u32| x as i32;
        let mut s = n(self.removed) * RING
            + n(self.markers) * w.marker
            + n(self.windows.ready) * w.ready_row
            + n(self.centre) * w.centre
            + n(self.edge) * w.edge
            + n(self.mobility) * w.mobility
            + n(self.fragile) * w.fragile;
        for k in 1..5 {
            s += n(self.windows.clean[k]) * w.window[k];
        }
        s
    }
}

/// The evaluation of `pos` for the player to act, in thousandths of a ring: the
/// hand-made terms and, unless `w` leaves them out, the learned ones. Only for positions
/// that are not over.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let learned = if w.learned {
        crate::learned::terms(pos)
    } else {
        0
    };
    hand_made(pos, w) + learned
}

/// The hand-made terms of [`evaluate`] alone (what the learned terms were fitted on top
/// of).
pub fn hand_made(pos: &Position, w: &Weights) -> i32 {
    let me = pos.turn();
    // The costly terms are computed only when they count.
    let side = |c| Features::collect(pos, c, w.mobility != 0, w.fragile != 0);
    let (mine, theirs) = (side(me), side(!me));
    let mut score = mine.score(w) - theirs.score(w);
    if pos.stage() == Stage::Move && mine.windows.ready > 0 {
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

    #[test]
    fn the_fingerprint_names_the_weights() {
        let ours = fingerprint();
        assert_eq!(ours.len(), 8);
        assert!(ours.chars().all(|c| c.is_ascii_hexdigit()), "{ours}");
        assert_eq!(fingerprint(), ours);
        let other = Weights {
            edge: -99,
            ..Weights::default()
        };
        assert_ne!(fingerprint_of(&other), ours);
        let hand_made = Weights {
            learned: false,
            ..Weights::default()
        };
        assert_ne!(fingerprint_of(&hand_made), ours);
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The position after up to 40 random actions.
    fn random_position(rng: &mut yinsh::random::SplitMix64) -> Position {
        let mut p = Position::new();
        for _ in 0..40 {
            match yinsh::random::random_action(&p, rng) {
                Some(a) => p.play_unchecked(a),
                None => break,
            }
        }
        p
    }

    #[test]
    fn window_counts_match_a_direct_count() {
        let mut rng = yinsh::random::SplitMix64::new(3);
        for _ in 0..50 {
            let p = random_position(&mut rng);
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
    fn evaluation_is_the_weighted_difference_of_the_features_and_the_learned_terms() {
        let mut rng = yinsh::random::SplitMix64::new(5);
        let all = Weights {
            mobility: 3,
            window: [0, 1, 2, 3, 4],
            ..Weights::default()
        };
        for _ in 0..50 {
            let p = random_position(&mut rng);
            if p.is_over() {
                continue;
            }
            for w in [Weights::default(), all] {
                let (me, them) = (Features::of(&p, p.turn()), Features::of(&p, !p.turn()));
                let bonus = if p.stage() == Stage::Move && me.windows.ready > 0 {
                    w.ready_on_move
                } else {
                    0
                };
                let expect = me.score(&w) - them.score(&w) + bonus;
                assert_eq!(hand_made(&p, &w), expect);
                assert_eq!(evaluate(&p, &w), expect + crate::learned::terms(&p));
                let without = Weights {
                    learned: false,
                    ..w
                };
                assert_eq!(evaluate(&p, &without), expect);
            }
        }
    }

    #[test]
    fn fragile_markers_and_edge_rings_count_against() {
        // White's marker e5 sits between Black's ring e4 and the empty e6: Black can
        // flip it; White has no marker of Black's to flip.
        let open = pos("W3/W6/W7/9/3Bw1W3/1B7/B9/B8/B7/7/W3 w move 0-0 3-3 4");
        let f = Features::of(&open, Color::White);
        assert_eq!(f.fragile, 1, "{f:?}");
        assert_eq!(Features::of(&open, Color::Black).fragile, 0);
        let w = Weights::default();
        let mut no_fragile = w;
        no_fragile.fragile = 0;
        assert_eq!(
            evaluate(&open, &no_fragile) - evaluate(&open, &w),
            -w.fragile
        );
        assert_eq!((EDGE.count(), CENTRE.count()), (24, 19));
        // White's rings a2, b1, c1 and k7 are on the edge; so are Black's g2, h3, i4.
        assert_eq!((f.edge, Features::of(&open, Color::Black).edge), (4, 3));
        let mut no_edge = w;
        no_edge.edge = 0;
        let edge = (Features::of(&open, Color::White).edge as i32
            - Features::of(&open, Color::Black).edge as i32)
            * w.edge;
        assert_eq!(evaluate(&open, &w) - evaluate(&open, &no_edge), edge);
    }

    #[test]
    fn ready_row_is_seen() {
        // White: markers e3 e4 e5 e6 and a ring on e7 — moving the ring makes a row.
        let p = pos("W3/W6/W7/9/2wwwwW3/1B7/B9/B8/B7/B6/W3 w move 0-0 3-3 4");
        assert_eq!(windows(&p, Color::White).ready, 1);
        assert!(evaluate(&p, &Weights::default()) > 500);
    }
}
