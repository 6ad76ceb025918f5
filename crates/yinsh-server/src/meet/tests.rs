//! Unit tests of the meeting place: seeks pairing, colours, challenges across nodes.

use super::*;
use crate::protocol::{TimeSetting, VariantName};
use crate::vocab::PlayerId;

fn seek(id: &str, player: i64, rated: bool, rating: f64, since: Instant) -> Seek {
    Seek {
        id: id.to_owned(),
        player: Player {
            id: PlayerId(player),
            name: format!("P{player}"),
            bot: false,
        },
        conn: player as u64,
        options: TableOptions {
            time: Some(TimeSetting {
                minutes: 5,
                increment: 3,
            }),
            rated,
            ..TableOptions::default()
        },
        rating,
        provisional: false,
        since,
        bots: false,
    }
}

#[test]
fn bots_are_paired_with_people_who_welcome_them_and_with_each_other() {
    let t0 = Instant::now();
    let bot = |id: &str, player: i64| {
        let mut s = seek(id, player, false, 1500.0, t0);
        s.player.bot = true;
        s.bots = true;
        s
    };
    let person = seek("p", 1, false, 1500.0, t0);
    let welcoming = Seek {
        bots: true,
        ..seek("w", 2, false, 1500.0, t0)
    };
    assert!(!person.matches(&bot("b", 3), t0));
    assert!(!bot("b", 3).matches(&person, t0));
    assert!(welcoming.matches(&bot("b", 3), t0));
    assert!(bot("b", 3).matches(&welcoming, t0));
    assert!(bot("b", 3).matches(&bot("c", 4), t0));
    // People with people, whether they welcome bots or not.
    assert!(person.matches(&welcoming, t0));
    // Waiting longer changes nothing.
    assert!(!person.matches(&bot("b", 3), t0 + Duration::from_secs(600)));
}

#[test]
fn seeks_pair_by_game_and_rating_with_a_range_that_widens() {
    let t0 = Instant::now();
    let a = seek("a", 1, true, 1500.0, t0);
    let b = seek("b", 2, true, 1800.0, t0);
    // 300 apart: not at first, but after 10 s (150 + 15 × 10).
    assert!(!a.matches(&b, t0));
    assert!(a.matches(&b, t0 + Duration::from_secs(10)));
    // Far apart: anyone after the range reached its widest.
    let c = seek("c", 3, true, 2500.0, t0);
    assert!(!a.matches(&c, t0 + Duration::from_secs(20)));
    assert!(!a.matches(
        &seek("d", 3, true, 2500.0, t0),
        t0 + Duration::from_secs(200)
    ));
    assert!(a.matches(
        &seek("e", 3, true, 2300.0, t0),
        t0 + Duration::from_secs(200)
    ));
    // Casual seeks ignore ratings; other games, and oneself, never pair.
    assert!(seek("f", 1, false, 900.0, t0).matches(&seek("g", 2, false, 2400.0, t0), t0));
    assert!(!a.matches(&seek("h", 2, false, 1500.0, t0), t0));
    assert!(!a.matches(&seek("i", 1, true, 1500.0, t0), t0));
    let mut blitz = seek("j", 2, true, 1500.0, t0);
    blitz.options.variant = VariantName::Blitz;
    assert!(!a.matches(&blitz, t0));
}

#[test]
fn pairs_are_taken_oldest_first_and_once() {
    let meet = Meet::default();
    let t0 = Instant::now();
    meet.state().seeks = vec![
        seek("a", 1, true, 1500.0, t0),
        seek("b", 2, true, 2100.0, t0),
        seek("c", 3, true, 1550.0, t0),
        seek("d", 4, true, 2050.0, t0),
        seek("e", 5, true, 1520.0, t0),
    ];
    let pairs = meet.take_pairs(t0);
    let ids: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b)| (a.id.as_str(), b.id.as_str()))
        .collect();
    assert_eq!(ids, [("a", "c"), ("b", "d")]);
    assert_eq!(meet.seeks().len(), 1);
    assert!(meet.take_pairs(t0).is_empty());
}

#[test]
fn seeks_ask_for_a_clocked_game_of_the_variant_only() {
    let timed = TableOptions {
        time: Some(TimeSetting {
            minutes: 3,
            increment: 2,
        }),
        log: false,
        ..TableOptions::default()
    };
    assert!(seek_options(&TableOptions::default()).is_err());
    assert!(
        seek_options(&TableOptions {
            turn_limit: Some(30),
            ..timed.clone()
        })
        .is_err()
    );
    // Kept: the game goes to the archive like every paired game.
    assert!(seek_options(&timed).unwrap().log);
}

fn view(id: &str, from: i64, to: Option<i64>, at: i64) -> ChallengeView {
    let player = |id: i64| crate::protocol::PlayerView {
        id: Some(id),
        name: format!("P{id}"),
        bot: None,
        online: true,
        guest: false,
        title: None,
    };
    ChallengeView {
        id: id.to_owned(),
        from: player(from),
        to: to.map(player),
        options: TableOptions::default(),
        color: None,
        created_at: at,
    }
}

#[test]
fn challenges_held_at_other_nodes_are_found_until_they_end() {
    let meet = Meet::default();
    meet.remote_challenge("a", view("c1", 1, Some(2), 10));
    meet.remote_challenge("a", view("c2", 3, None, 5));
    meet.remote_challenge("b", view("c3", 2, Some(4), 1));
    assert_eq!(meet.challenge_view("c2").unwrap().from.id, Some(3));
    let ids = |player| -> Vec<String> {
        meet.challenges_of(PlayerId(player))
            .into_iter()
            .map(|c| c.id)
            .collect()
    };
    // To and from player 2, oldest first.
    assert_eq!(ids(2), ["c3", "c1"]);
    // Ended only by the node that holds it.
    meet.remote_challenge_gone("b", "c1");
    assert!(meet.challenge_view("c1").is_some());
    meet.remote_challenge_gone("a", "c1");
    assert!(meet.challenge_view("c1").is_none());
    // What a node says it holds replaces what was known of it.
    meet.replace_challenges("a", vec![view("c4", 5, None, 20)]);
    assert!(meet.challenge_view("c2").is_none());
    assert!(meet.challenge_view("c4").is_some());
    // A dead node's challenges are gone with it.
    meet.keep_nodes(&std::collections::HashSet::from(["a".to_owned()]));
    assert!(meet.challenge_view("c3").is_none());
    assert!(meet.local_challenges().is_empty());
    assert_eq!(ids(5), ["c4"]);
}
