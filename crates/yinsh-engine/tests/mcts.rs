//! The UCT baseline.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use yinsh::random::{SplitMix64, random_action};
use yinsh::{Action, Position, Rules, Stage};
use yinsh_engine::mcts::Uct;
use yinsh_engine::{Engine, Limits, Score, SearchResult};

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn search(uct: &mut Uct, pos: &Position, limits: &Limits) -> SearchResult {
    uct.search(pos, limits, &AtomicBool::new(false), &mut |_| {})
}

/// Positions of random games, one every `every` actions, all stages included.
fn random_positions(rules: Rules, games: u64, every: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = SplitMix64::new(seed);
        let mut pos = Position::with_rules(rules);
        let mut i = 0;
        while let Some(a) = random_action(&pos, &mut rng) {
            let removal = matches!(
                pos.stage(),
                Stage::RemoveRow { .. } | Stage::RemoveRing { .. }
            );
            if i % every == 0 || removal {
                out.push(pos);
            }
            pos.play_unchecked(a);
            i += 1;
        }
    }
    out
}

#[test]
fn never_returns_an_illegal_action() {
    let mut uct = Uct::new();
    let positions = random_positions(Rules::STANDARD, 3, 9);
    assert!(
        positions
            .iter()
            .any(|p| matches!(p.stage(), Stage::RemoveRing { .. }))
    );
    for pos in &positions {
        // The same engine throughout, so tree reuse is exercised along each game.
        let result = search(&mut uct, pos, &nodes(40));
        assert!(pos.is_legal(result.best), "{pos:?}: {}", result.best);
        assert_eq!(result.info.pv.first(), Some(&result.best));
    }
}

#[test]
fn returns_the_only_legal_action() {
    let pos = random_positions(Rules::STANDARD, 10, 1)
        .into_iter()
        .find(|p| p.legal_actions().len() == 1)
        .expect("some position with one legal action");
    let mut uct = Uct::new();
    let result = search(&mut uct, &pos, &Limits::default());
    assert_eq!(result.best, pos.legal_actions()[0]);
    assert_eq!(result.info.nodes, 0);
}

/// A blitz position in which the player to move has a ring move that makes a row of
/// their own (and so wins at once), but only a few of them among many moves.
fn blitz_win_in_one() -> (Position, Vec<Action>) {
    for seed in 0.. {
        let mut rng = SplitMix64::new(seed);
        let mut pos = Position::with_rules(Rules::BLITZ);
        while let Some(a) = random_action(&pos, &mut rng) {
            if pos.stage() == Stage::Move {
                let actions = pos.legal_actions();
                let wins: Vec<Action> = actions
                    .iter()
                    .copied()
                    .filter(|&a| {
                        let mut next = pos;
                        next.play_unchecked(a);
                        next.stage() == Stage::RemoveRow { after_move: true }
                    })
                    .collect();
                if !wins.is_empty() && wins.len() <= 2 && actions.len() >= 20 {
                    return (pos, wins);
                }
            }
            pos.play_unchecked(a);
        }
    }
    unreachable!()
}

#[test]
fn finds_an_immediate_win() {
    let (pos, wins) = blitz_win_in_one();
    let mut uct = Uct::new();
    let result = search(&mut uct, &pos, &nodes(3000));
    assert!(
        wins.contains(&result.best),
        "{pos:?}: {} not in {wins:?}",
        result.best
    );
    // The winning line: the move, then the row and ring removal that end the game.
    assert!(result.info.pv.len() >= 3, "{:?}", result.info.pv);
    match result.info.score {
        Score::Cp(cp) => assert!(cp >= 900, "{cp}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn reuses_the_subtree_of_the_next_position() {
    let mut uct = Uct::new();
    let mut pos = Position::new();
    for t in "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8".split(' ') {
        pos.play(t.parse().unwrap()).unwrap();
    }
    let first = search(&mut uct, &pos, &nodes(2000));
    let mut next = pos;
    next.play(first.best).unwrap();
    let reply = search(&mut uct, &next, &nodes(100));
    // The playouts through the chosen child are kept.
    assert!(uct.root_visits() > 100, "{}", uct.root_visits());
    next.play(reply.best).unwrap();
    search(&mut uct, &next, &nodes(100));
    assert!(uct.root_visits() > 100, "{}", uct.root_visits());

    // An unrelated position starts afresh; a new game clears the tree.
    search(&mut uct, &Position::new(), &nodes(50));
    assert_eq!(uct.root_visits(), 50);
    uct.new_game(Rules::STANDARD);
    assert_eq!(uct.tree_size(), 0);
}

#[test]
fn honours_the_stop_flag_and_the_clock() {
    let pos = Position::new();
    let mut uct = Uct::new();
    let stop = AtomicBool::new(true);
    let result = uct.search(&pos, &Limits::default(), &stop, &mut |_| {});
    assert!(pos.is_legal(result.best));
    assert_eq!(result.info.nodes, 0);

    let limits = Limits {
        movetime: Some(Duration::from_millis(30)),
        ..Limits::default()
    };
    let mut reports = 0;
    let result = uct.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {
        reports += 1
    });
    assert!(pos.is_legal(result.best));
    assert!(reports >= 1);
}

#[test]
fn depth_limit_ends_the_search() {
    let pos = Position::new();
    let mut uct = Uct::new();
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let result = search(&mut uct, &pos, &limits);
    assert!(result.info.depth >= 2);
    assert!(pos.is_legal(result.best));
}

#[test]
fn equal_seeds_give_equal_searches() {
    let (pos, _) = blitz_win_in_one();
    let run = |seed| {
        let mut uct = Uct::new();
        uct.set_seed(seed);
        uct.set_exploration(0.7);
        search(&mut uct, &pos, &nodes(300)).info.pv
    };
    assert_eq!(run(1), run(1));
}

#[test]
fn a_full_arena_still_searches() {
    let mut uct = Uct::new();
    uct.set_max_nodes(10);
    let pos = Position::new();
    let result = search(&mut uct, &pos, &nodes(200));
    assert!(pos.is_legal(result.best));
    assert_eq!(uct.tree_size(), 10);
    assert_eq!(result.info.nodes, 200);
}

/// Prints the speed of the baseline (not an assertion: tests never time things):
/// `cargo test -p yinsh-engine --release -- --ignored uct_speed --nocapture`.
#[test]
#[ignore = "prints a measurement; run in release"]
fn uct_speed() {
    let mut pos = Position::new();
    for t in "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8".split(' ') {
        pos.play(t.parse().unwrap()).unwrap();
    }
    for (name, pos) in [
        ("empty board", Position::new()),
        ("after placement", pos),
        ("blitz, empty board", Position::with_rules(Rules::BLITZ)),
    ] {
        let mut rng = SplitMix64::new(1);
        let start = std::time::Instant::now();
        let mut raw = 0u64;
        while start.elapsed() < Duration::from_secs(1) {
            yinsh::random::playout(pos, &mut rng);
            raw += 1;
        }
        println!("{name}: {raw} bare playouts/s");
        let mut uct = Uct::new();
        let limits = Limits {
            movetime: Some(Duration::from_secs(2)),
            ..Limits::default()
        };
        let r = search(&mut uct, &pos, &limits);
        println!(
            "{name}: {} playouts in {} ms = {} playouts/s, tree {} nodes, best {}",
            r.info.nodes,
            r.info.time.as_millis(),
            r.info.nps(),
            uct.tree_size(),
            r.best
        );
    }
}
