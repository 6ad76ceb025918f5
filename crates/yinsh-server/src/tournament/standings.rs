//! An arena's standings, made from what its store keeps: the games that ended, scored
//! in the order they ended ([`super::arena`]), and everyone who joined.

use serde::Serialize;

use super::arena::{ArenaRules, Entrant, Outcome, Played, Scored, Sheet, performance, rank};
use super::store::{Ending, StoredEntrant, StoredPairing};
use crate::vocab::PlayerId;

/// One player's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// Their place, from 1.
    pub rank: usize,
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// A bot account.
    pub bot: bool,
    /// Their rating as they joined.
    pub rating: i64,
    /// Their points.
    pub points: u32,
    /// Each game's points, in the order they ended.
    pub sheet: Vec<Scored>,
    /// On fire now: their next game scores double.
    pub fire: bool,
    /// Their performance rating, once they have played.
    pub performance: Option<i64>,
    /// Games played (those that began).
    pub games: usize,
    /// Games won.
    pub wins: usize,
    /// Withdrawn after the start (not paired).
    pub paused: bool,
    /// The table of the game they play now, if any.
    pub playing: Option<String>,
    /// Whom they played last.
    pub last_opponent: Option<PlayerId>,
    /// When their last game ended (ms since 1970), if they have played.
    pub free_since: Option<i64>,
}

/// The standings of `entrants` after `pairings` (the ended ones scored in the order
/// they ended), best first.
pub fn standings(
    entrants: &[StoredEntrant],
    pairings: &[StoredPairing],
    rules: &ArenaRules,
) -> Vec<Line> {
    let index: std::collections::HashMap<PlayerId, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.player, i))
        .collect();
    let n = entrants.len();
    let mut sheets = vec![Sheet::default(); n];
    let mut opponents: Vec<Vec<(Outcome, f64)>> = vec![Vec::new(); n];
    let mut playing: Vec<Option<String>> = vec![None; n];
    let mut last: Vec<Option<PlayerId>> = vec![None; n];
    let mut free_since: Vec<Option<i64>> = vec![None; n];
    let mut ended: Vec<&StoredPairing> = pairings.iter().filter(|p| p.end.is_some()).collect();
    ended.sort_by_key(|p| {
        let end = p.end.expect("ended");
        (end.ended_at, p.started_at, p.table.clone())
    });
    for p in pairings.iter().filter(|p| p.end.is_none()) {
        for player in [p.white, p.black] {
            if let Some(&i) = index.get(&player) {
                playing[i] = Some(p.table.clone());
            }
        }
    }
    for p in ended {
        let end = p.end.expect("ended");
        let (Some(&w), Some(&b)) = (index.get(&p.white), index.get(&p.black)) else {
            continue;
        };
        for (i, opponent) in [(w, p.black), (b, p.white)] {
            last[i] = Some(opponent);
            free_since[i] = Some(end.ended_at);
        }
        let (white, black) = match end.ending {
            Ending::Aborted => continue,
            Ending::White => (Outcome::Win, Outcome::Loss),
            Ending::Black => (Outcome::Loss, Outcome::Win),
            Ending::Draw => (Outcome::Draw, Outcome::Draw),
        };
        // Turns alternate from White's first ring placement.
        let own = [end.turns.div_ceil(2), end.turns / 2];
        let sides = [
            (w, white, own[0], end.berserk.white, b),
            (b, black, own[1], end.berserk.black, w),
        ];
        for (i, outcome, own_turns, berserk, opponent) in sides {
            sheets[i].add(
                rules,
                Played {
                    outcome,
                    berserk,
                    own_turns,
                    turns: end.turns,
                },
            );
            opponents[i].push((outcome, entrants[opponent].rating as f64));
        }
    }
    let mut order: Vec<Entrant> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| Entrant {
            player: e.player,
            points: sheets[i].total(),
            performance: performance(&opponents[i]),
            rating: e.rating as f64,
            joined_at: e.joined_at,
        })
        .collect();
    rank(&mut order);
    order
        .iter()
        .enumerate()
        .map(|(place, e)| {
            let i = index[&e.player];
            let entrant = &entrants[i];
            Line {
                rank: place + 1,
                player: e.player,
                name: entrant.name.clone(),
                bot: entrant.bot,
                rating: entrant.rating,
                points: sheets[i].total(),
                sheet: sheets[i].games().to_vec(),
                fire: sheets[i].on_fire(),
                performance: e.performance.map(|p| p.round() as i64),
                games: sheets[i].games().len(),
                wins: sheets[i].wins(),
                paused: entrant.paused,
                playing: playing[i].clone(),
                last_opponent: last[i],
                free_since: free_since[i],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::store::GameEnd;

    fn entrant(id: i64, rating: i64) -> StoredEntrant {
        StoredEntrant {
            player: PlayerId(id),
            name: format!("P{id}"),
            bot: false,
            rating,
            joined_at: id,
            paused: false,
        }
    }

    fn game(table: &str, white: i64, black: i64, ending: Option<Ending>, at: i64) -> StoredPairing {
        StoredPairing {
            table: table.to_owned(),
            white: PlayerId(white),
            black: PlayerId(black),
            started_at: at - 1,
            end: ending.map(|ending| GameEnd {
                game: None,
                ending,
                turns: 40,
                berserk: Default::default(),
                ended_at: at,
            }),
        }
    }

    #[test]
    fn games_are_scored_in_the_order_they_ended_and_running_ones_are_marked() {
        let entrants = [entrant(1, 1500), entrant(2, 1600), entrant(3, 1700)];
        // Kept out of order: player 1 wins at t=10 and t=20, then is on fire at t=30.
        let pairings = [
            game("c", 1, 3, Some(Ending::White), 30),
            game("a", 1, 2, Some(Ending::White), 10),
            game("b", 3, 1, Some(Ending::Black), 20),
            game("x", 2, 3, Some(Ending::Aborted), 25),
            game("d", 2, 3, None, 40),
        ];
        let lines = standings(&entrants, &pairings, &ArenaRules::default());
        let one = &lines[0];
        assert_eq!((one.player, one.rank, one.points), (PlayerId(1), 1, 8));
        assert!(one.fire);
        let points: Vec<u32> = one.sheet.iter().map(|s| s.points).collect();
        assert_eq!(points, [2, 2, 4]);
        // (1600 + 500 + 1700 + 500 + 1700 + 500) / 3, rounded.
        assert_eq!(one.performance, Some(2167));
        assert_eq!(one.last_opponent, Some(PlayerId(3)));
        assert_eq!(one.free_since, Some(30));
        // The aborted game scores nothing and counts as no game; the running one is
        // where 2 and 3 are now.
        let two = lines.iter().find(|l| l.player == PlayerId(2)).unwrap();
        assert_eq!((two.games, two.points), (1, 0));
        assert_eq!(two.playing.as_deref(), Some("d"));
        assert_eq!(one.playing, None);
    }

    #[test]
    fn a_berserked_win_earns_its_point_and_a_berserked_loss_nothing() {
        let entrants = [entrant(1, 1500), entrant(2, 1500)];
        let mut won = game("a", 1, 2, Some(Ending::White), 10);
        won.end.as_mut().unwrap().berserk = yinsh::ByColor {
            white: true,
            black: true,
        };
        let lines = standings(&entrants, &[won], &ArenaRules::default());
        assert_eq!((lines[0].player, lines[0].points), (PlayerId(1), 3));
        assert_eq!((lines[1].player, lines[1].points), (PlayerId(2), 0));
    }
}
