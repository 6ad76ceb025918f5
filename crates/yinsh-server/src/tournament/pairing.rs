//! Arena pairing: a maximum-weight matching over the players waiting for a game, as
//! lichess pairs its arenas. As many players as possible are paired; among the
//! pairings that pair that many, the one whose pairs are closest in current rank;
//! two players who have just played each other are never paired again at once.
//!
//! The matching is the blossom algorithm of the `integer-blossom` crate, over groups
//! of at most [`GROUP`] players of neighbouring ranks (its cost grows with the cube of
//! the players, so a thousand waiting players are paired in groups).

use crate::vocab::PlayerId;

/// The most players matched together: waiting players beyond it are split, in rank
/// order, into groups this size (the last group takes the rest).
pub const GROUP: usize = 64;

/// A player waiting for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    /// The player.
    pub player: PlayerId,
    /// Their place in the current standings (0 first).
    pub rank: usize,
    /// Whom they played last, if anybody.
    pub last_opponent: Option<PlayerId>,
}

/// Whether `a` and `b` may be paired now: not if they have just played each other.
fn may_meet(a: &Waiting, b: &Waiting) -> bool {
    a.player != b.player && a.last_opponent != Some(b.player) && b.last_opponent != Some(a.player)
}

/// The pairs for `waiting` (any order), as indices into it.
pub fn pair(waiting: &[Waiting]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&i| (waiting[i].rank, waiting[i].player.0));
    let mut pairs = Vec::new();
    let mut rest: &[usize] = &order;
    let mut carried: Vec<usize> = Vec::new();
    while !rest.is_empty() {
        // Whole groups while more than two groups' worth are left, then the rest.
        let take = if rest.len() >= 2 * GROUP {
            GROUP
        } else {
            rest.len()
        };
        let mut group: Vec<usize> = std::mem::take(&mut carried);
        group.extend_from_slice(&rest[..take]);
        rest = &rest[take..];
        let matched = pair_group(waiting, &group);
        let mut paired = vec![false; group.len()];
        for &(a, b) in &matched {
            paired[a] = true;
            paired[b] = true;
            pairs.push((group[a], group[b]));
        }
        // Who was left out of a group tries again with the next one.
        if !rest.is_empty() {
            carried = (0..group.len())
                .filter(|&k| !paired[k])
                .map(|k| group[k])
                .collect();
        }
    }
    pairs
}

/// The matching within one group (indices into `group`).
fn pair_group(waiting: &[Waiting], group: &[usize]) -> Vec<(usize, usize)> {
    let n = group.len();
    if n < 2 {
        return Vec::new();
    }
    // Each pair is worth `big` less the distance of the ranks: `big` beyond the sum of
    // the distances of any matching (at most n/2 pairs, each at most `span` apart), so
    // one more pair always outweighs closer ranks.
    let ranks = group.iter().map(|&i| waiting[i].rank as i64);
    let span = ranks.clone().max().unwrap_or(0) - ranks.min().unwrap_or(0);
    let big = (n as i64 / 2 + 1) * (span + 1) + 1;
    let mut weight = vec![0i64; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (&waiting[group[i]], &waiting[group[j]]);
            if may_meet(a, b) {
                let w = big - (a.rank as i64 - b.rank as i64).abs();
                weight[i * n + j] = w;
                weight[j * n + i] = w;
            }
        }
    }
    let mate = integer_blossom::max_weight_matching(&weight, n);
    mate.iter()
        .enumerate()
        .filter_map(|(i, m)| m.filter(|&j| i < j).map(|j| (i, j)))
        .collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn waiting(ranks_and_last: &[(usize, Option<i64>)]) -> Vec<Waiting> {
        ranks_and_last
            .iter()
            .enumerate()
            .map(|(i, &(rank, last))| Waiting {
                player: PlayerId(i as i64),
                rank,
                last_opponent: last.map(PlayerId),
            })
            .collect()
    }

    /// The best (most pairs, then least rank distance) over every matching, by brute
    /// force.
    fn brute_force(w: &[Waiting]) -> (usize, usize) {
        fn go(
            w: &[Waiting],
            free: &mut Vec<bool>,
            pairs: usize,
            distance: usize,
            best: &mut (usize, usize),
        ) {
            let Some(i) = free.iter().position(|&f| f) else {
                if pairs > best.0 || (pairs == best.0 && distance < best.1) {
                    *best = (pairs, distance);
                }
                return;
            };
            free[i] = false;
            // `i` sits out.
            go(w, free, pairs, distance, best);
            for j in i + 1..w.len() {
                if free[j] && may_meet(&w[i], &w[j]) {
                    free[j] = false;
                    let d = w[i].rank.abs_diff(w[j].rank);
                    go(w, free, pairs + 1, distance + d, best);
                    free[j] = true;
                }
            }
            free[i] = true;
        }
        let mut best = (0, usize::MAX);
        go(w, &mut vec![true; w.len()], 0, 0, &mut best);
        best
    }

    fn measure(w: &[Waiting], pairs: &[(usize, usize)]) -> (usize, usize) {
        let distance = pairs
            .iter()
            .map(|&(a, b)| w[a].rank.abs_diff(w[b].rank))
            .sum();
        (pairs.len(), distance)
    }

    fn check_valid(w: &[Waiting], pairs: &[(usize, usize)]) {
        let mut seen = vec![false; w.len()];
        for &(a, b) in pairs {
            assert!(may_meet(&w[a], &w[b]), "{a} and {b} just played");
            assert!(!seen[a] && !seen[b], "a player paired twice");
            seen[a] = true;
            seen[b] = true;
        }
    }

    #[test]
    fn neighbours_in_rank_are_paired_and_nobody_meets_their_last_opponent_again() {
        let sorted = |mut pairs: Vec<(usize, usize)>| {
            pairs.sort();
            pairs
        };
        let w = waiting(&[(0, None), (1, None), (2, None), (3, None)]);
        assert_eq!(sorted(pair(&w)), [(0, 1), (2, 3)]);
        // 2 and 3 just played each other: 1-2 and 0-3, or 0-2 and 1-3.
        let w = waiting(&[(0, None), (1, None), (2, Some(3)), (3, Some(2))]);
        let pairs = pair(&w);
        assert_eq!(pairs.len(), 2);
        check_valid(&w, &pairs);
        // Two who just played each other and nobody else: they wait.
        let w = waiting(&[(0, Some(1)), (1, Some(0))]);
        assert!(pair(&w).is_empty());
        // An odd one out waits.
        let w = waiting(&[(0, None), (1, None), (2, None)]);
        assert_eq!(pair(&w).len(), 1);
    }

    #[test]
    fn a_pairing_that_pairs_everybody_beats_one_of_closer_ranks() {
        // 1 and 2 are closest, but then 0 and 3 could not play (they just did): so 0-1
        // and 2-3, or 0-2 and 1-3.
        let w = waiting(&[(0, Some(3)), (1, None), (2, None), (3, Some(0))]);
        let pairs = pair(&w);
        assert_eq!(pairs.len(), 2);
        check_valid(&w, &pairs);
    }

    #[test]
    fn a_thousand_waiting_players_are_paired_in_groups_nearly_all_of_them() {
        let w: Vec<Waiting> = (0..1000)
            .map(|i| Waiting {
                player: PlayerId(i),
                rank: i as usize,
                last_opponent: Some(PlayerId(i ^ 1)),
            })
            .collect();
        let pairs = pair(&w);
        check_valid(&w, &pairs);
        assert_eq!(pairs.len(), 500);
        // Within a group, neighbours play: no pair is far apart in rank.
        assert!(
            pairs
                .iter()
                .all(|&(a, b)| w[a].rank.abs_diff(w[b].rank) <= 3)
        );
    }

    proptest! {
        #[test]
        fn the_matching_is_as_good_as_the_best_found_by_brute_force(
            players in prop::collection::vec((0usize..12, prop::option::of(0i64..10)), 0..10)
        ) {
            let w = waiting(&players);
            let pairs = pair(&w);
            check_valid(&w, &pairs);
            prop_assert_eq!(measure(&w, &pairs), brute_force(&w));
        }
    }
}
