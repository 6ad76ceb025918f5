//! The alpha-beta engine: forced wins, legality everywhere, passes, removals, blitz.

use std::sync::atomic::AtomicBool;

use yinsh::random::{SplitMix64, random_action};
use yinsh::{Action, ByColor, Color, Position, Rules, Setup, Stage};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits, Score};

use crate::support::{position, setup};

/// A ring-move position, White to act, thirty ring moves into the game.
fn white_to_move(rules: Rules, rings: [&str; 2], markers: [&str; 2], removed: [u8; 2]) -> Position {
    position(Setup {
        removed: ByColor {
            white: removed[0],
            black: removed[1],
        },
        ring_moves: 30,
        rules,
        ..setup(rings[0], rings[1], markers[0], markers[1])
    })
}

fn best(pos: &Position, depth: u32) -> (Action, Score) {
    let mut engine = Searcher::new();
    engine.new_game(*pos.rules());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = engine.search(pos, &limits, &AtomicBool::new(false), &mut |_| {});
    (r.best, r.info.score)
}

/// Plays the engine's choices until the game ends or `max` actions are played.
fn play_out(mut pos: Position, depth: u32, max: usize) -> Position {
    for _ in 0..max {
        if pos.is_over() {
            break;
        }
        let (a, _) = best(&pos, depth);
        pos.play(a).unwrap();
    }
    pos
}

#[test]
fn finds_the_row_that_wins_the_game_now() {
    // White has two rings removed; moving the ring off e7 completes e3–e7.
    let pos = white_to_move(
        Rules::STANDARD,
        ["e7 a2 b1", "g2 h3 i4 j5 k7"],
        ["e3 e4 e5 e6", "c3 c4 h9"],
        [2, 0],
    );
    let (a, score) = best(&pos, 2);
    assert!(
        matches!(a, Action::Move { from, .. } if from == "e7".parse().unwrap()),
        "{a}"
    );
    assert!(matches!(score, Score::Win(n) if n > 0), "{score:?}");
    let end = play_out(pos, 2, 3);
    assert_eq!(end.outcome().and_then(|o| o.winner), Some(Color::White));
}

#[test]
fn completes_the_third_row_even_when_it_makes_one_for_the_opponent() {
    // The ring on d7 can only go east over e7 (flipping it: Black gets e3–e7) or south
    // over d6–d3 (flipping White's own markers). East also completes d3–d7 for White,
    // and the mover removes first (RULES.md R5, E1): White wins at once.
    let pos = white_to_move(
        Rules::STANDARD,
        ["d7 a2 b1", "d8 c7 e8 c6 k10"],
        ["d3 d4 d5 d6 e7", "e3 e4 e5 e6"],
        [2, 0],
    );
    let (a, score) = best(&pos, 2);
    assert_eq!(a.to_string(), "d7-f7");
    assert!(matches!(score, Score::Win(n) if n > 0), "{score:?}");
    let end = play_out(pos, 2, 3);
    assert_eq!(end.outcome().and_then(|o| o.winner), Some(Color::White));
}

#[test]
fn blitz_takes_the_first_row() {
    let pos = white_to_move(
        Rules::BLITZ,
        ["e7 a2 b1 g11 k8", "g2 h3 i4 j5 k7"],
        ["e3 e4 e5 e6", "c3 c4 h9"],
        [0, 0],
    );
    let end = play_out(pos, 2, 3);
    assert_eq!(end.outcome().and_then(|o| o.winner), Some(Color::White));
}

#[test]
fn never_plays_an_illegal_action() {
    let mut rng = SplitMix64::new(42);
    let mut engine = Searcher::new();
    let limits = Limits {
        depth: Some(2),
        nodes: Some(3000),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut seen_stages = [0usize; 4];
    for game in 0..60 {
        let rules = match game % 3 {
            0 => Rules::STANDARD,
            1 => Rules::BLITZ,
            _ => Rules::STANDARD.with_targets(2, 3),
        };
        engine.new_game(rules);
        let mut pos = Position::with_rules(rules);
        while !pos.is_over() {
            // Mostly random play, with the engine asked at every step.
            let choice = engine.search(&pos, &limits, &stop, &mut |_| {}).best;
            assert!(pos.is_legal(choice), "{choice} in {pos:?}");
            seen_stages[match pos.stage() {
                Stage::Place => 0,
                Stage::Move => 1,
                Stage::RemoveRow { .. } => 2,
                _ => 3,
            }] += 1;
            let a = if rng.below(4) == 0 {
                choice
            } else {
                random_action(&pos, &mut rng).unwrap()
            };
            pos.play(a).unwrap();
        }
    }
    assert!(seen_stages.iter().all(|&n| n > 0), "{seen_stages:?}");
}

#[test]
fn answers_a_forced_pass() {
    // Handicap targets 5–5: Black has removed four rings; its last ring on a2 is walled
    // in by White rings on a3, b2 and b3, so Black must pass (RULES.md E3).
    let mut pos = white_to_move(
        Rules::STANDARD.with_targets(5, 5),
        ["a3 b2 b3 f6 g7", "a2"],
        ["", ""],
        [0, 4],
    )
    .to_setup();
    pos.turn = Color::Black;
    let pos = Position::from_setup(pos).unwrap();
    assert_eq!(pos.legal_actions().as_slice(), [Action::Pass]);
    assert_eq!(best(&pos, 3).0, Action::Pass);
}

#[test]
fn the_last_marker_ends_the_game_without_a_pass_to_search() {
    // One marker is left in both positions (from games that wall a player in), and no
    // ring move makes a row that counts: the move that places the last marker ends the
    // game at once (RULES.md E2/E3), also when it leaves the opponent without a move,
    // so the result is one action away, never two (move, then a pass).
    //
    // White, 0-2 down, loses with every move; 10 of its 17 moves wall Black in.
    let behind = Position::from_fen(
        "wbw1/1bw2w1/wb1b4/bb1ww4/bw1bw5/wWbw1w1ww/BBwbWwbwwW/wwww3Ww/bwWwwbbB/bb1bbbb/bwbb \
         w move 0-2 3-3 60",
    )
    .unwrap();
    assert_eq!(behind.pool(), 1);
    let (a, score) = best(&behind, 3);
    assert!(behind.is_legal(a), "{a}");
    assert_eq!(score, Score::Win(-1));
    // Black, 2-1 up, wins with any move that makes no row (f9-i9 walls White in).
    let ahead = Position::from_fen(
        "3b/2b1ww1/bB2b2b/wbb1bw3/wWwBbwb3/wwbwbb1B1/bwwbb5/wwbwwb1w1/Wbwww1ww/wbwwWww/wwWw \
         b move 1-2 3-3 65",
    )
    .unwrap();
    let (a, score) = best(&ahead, 3);
    assert_eq!(score, Score::Win(1));
    let mut end = ahead;
    end.play(a).unwrap();
    assert_eq!(end.outcome().and_then(|o| o.winner), Some(Color::Black));
    let mut walled = ahead;
    walled.play("f9-i9".parse().unwrap()).unwrap();
    assert!(walled.is_over() && !walled.can_move(Color::White));
}
