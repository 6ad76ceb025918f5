//! Opening sets: a few random ring placements, seeded, so that a match does not replay
//! the same game and can be reproduced exactly.

use std::collections::HashSet;

use yinsh::random::SplitMix64;
use yinsh::{Action, Point, Position, Rules};

/// Whether `p` is off the board's edge: edge points are legal but rarely sensible
/// places for a ring, so random openings avoid them.
fn is_inner(p: Point) -> bool {
    let dc = i32::from(p.col()) - 5;
    let dr = i32::from(p.row()) - 5;
    dc.abs().max(dr.abs()).max((dc - dr).abs()) <= 4
}

/// `count` distinct openings of `plies` ring placements each (at most 10), chosen
/// uniformly among the empty points off the edge, from `seed`.
pub fn generate(rules: Rules, count: usize, plies: usize, seed: u64) -> Vec<Vec<Action>> {
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(count);
    while openings.len() < count {
        let mut opening = one(rules, plies, &mut rng);
        // A repeat is drawn again; after many tries (tiny `plies`) repeats are allowed.
        for _ in 0..100 {
            if !seen.contains(&opening) {
                break;
            }
            opening = one(rules, plies, &mut rng);
        }
        seen.insert(opening.clone());
        openings.push(opening);
    }
    openings
}

fn one(rules: Rules, plies: usize, rng: &mut SplitMix64) -> Vec<Action> {
    let mut pos = Position::with_rules(rules);
    let mut actions = Vec::with_capacity(plies);
    for _ in 0..plies.min(10) {
        let empty: Vec<Point> = Point::ALL
            .into_iter()
            .filter(|&p| is_inner(p) && !pos.occupied().contains(p))
            .collect();
        let action = Action::Place(empty[rng.below(empty.len())]);
        pos.play(action).expect("an empty point takes a ring");
        actions.push(action);
    }
    actions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_distinct_and_legal() {
        let a = generate(Rules::STANDARD, 20, 4, 7);
        assert_eq!(a, generate(Rules::STANDARD, 20, 4, 7));
        assert_ne!(a, generate(Rules::STANDARD, 20, 4, 8));
        assert_eq!(a.iter().collect::<HashSet<_>>().len(), 20);
        for opening in &a {
            assert_eq!(opening.len(), 4);
            let mut pos = Position::new();
            for &action in opening {
                pos.play(action).unwrap();
            }
        }
        assert_eq!(generate(Rules::STANDARD, 3, 0, 1), vec![Vec::new(); 3]);
        assert_eq!(generate(Rules::STANDARD, 1, 99, 1)[0].len(), 10);
    }

    #[test]
    fn inner_points() {
        assert_eq!(Point::ALL.iter().filter(|&&p| is_inner(p)).count(), 61);
    }
}
