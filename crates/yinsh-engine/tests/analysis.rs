//! The analysis of a game (`yinsh_engine::analysis`): a move that lets the opponent
//! force a win is a blunder, with the engine's saving move as the better one.

use std::sync::atomic::AtomicBool;

use yinsh::notation::sgf;
use yinsh::{Action, Position};
use yinsh_engine::analysis::{Mark, analyse};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Engine, Limits, Score};

/// The first 39 actions of a game of boardspace.net (DrMih against Dumbot), then the
/// mover's h5-h3: after it the opponent wins by force in three actions, where the
/// engine's better move keeps the game (about −0.3 ring).
fn known_blunder() -> (yinsh::Rules, Vec<Action>) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../yinsh/tests/fixtures/boardspace/Y-DrMih-Dumbot-2026-02-23-1415.sgf"
    ))
    .unwrap();
    let record = sgf::import(&text).unwrap();
    let mut actions = record.actions[..39].to_vec();
    actions.push("h5-h3".parse().unwrap());
    (record.rules, actions)
}

#[test]
fn a_move_that_allows_a_forced_loss_is_a_blunder_with_the_saving_move_as_the_better_one() {
    let (rules, actions) = known_blunder();
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let mut engine = Searcher::new();
    let stop = AtomicBool::new(false);
    let analysis = analyse(
        &mut engine,
        Position::with_rules(rules),
        &actions,
        &limits,
        &stop,
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(analysis.actions.len(), 40);
    let last = analysis.actions.last().unwrap();
    assert_eq!(last.played.to_string(), "h5-h3");
    assert_eq!(last.mark, Some(Mark::Blunder), "{last:?}");
    // (f5-h7 with the hand-made evaluation alone; g7-f7 with the learned terms: which
    // one does not matter, that it saves the game does, below.)
    assert_ne!(last.best, Some(last.played));
    assert_eq!(
        last.line.first(),
        last.best.as_ref(),
        "the line starts with it"
    );
    // A loss of the whole game's chance from where the better move leaves it (about
    // 0.3 with the hand-made evaluation, which thought that position better than the
    // learned terms do).
    assert!(last.loss >= 0.15, "{last:?}");
    // The better action saves the game: no forced win for the opponent after it.
    let mut pos = Position::with_rules(rules);
    for &a in &actions[..39] {
        pos.play(a).unwrap();
    }
    let mover = pos.turn();
    pos.play(last.best.unwrap()).unwrap();
    assert_ne!(pos.turn(), mover);
    let score = engine.search(&pos, &limits, &stop, &mut |_| {}).info.score;
    assert!(!matches!(score, Score::Win(n) if n > 0), "{score:?}");
    // The mover's accuracy shows it; the same analysis again gives the same marks.
    let s = analysis.summary[mover];
    assert!(s.blunders >= 1 && s.accuracy < 100.0, "{s:?}");
    let again = analyse(
        &mut engine,
        Position::with_rules(rules),
        &actions,
        &limits,
        &stop,
        &mut |_, _| {},
    )
    .unwrap();
    let marks =
        |a: &yinsh_engine::analysis::Analysis| a.actions.iter().map(|j| j.mark).collect::<Vec<_>>();
    assert_eq!(marks(&again), marks(&analysis));
}
