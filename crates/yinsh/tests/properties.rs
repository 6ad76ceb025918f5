//! Property tests over random games: every game is driven by a `u64` seed (through
//! [`SplitMix64`]) under the standard, blitz, handicap and turn-limit rules, and every
//! position along it is checked against the rules.
//!
//! - `legal_actions()` is exactly the set of actions `play()` accepts: every legal
//!   action is accepted, every other action (all placements, ring moves, row and ring
//!   removals over all points, and passes) is refused and leaves the position unchanged;
//! - the moves and rows agree with a slow reference built from `Point::step` and
//!   `Row::all`, and a ring move changes exactly the markers RULES.md M1/M4 say;
//! - copy-make leaves the original untouched; the incremental hash equals
//!   `hash_from_scratch()`; position strings and action tokens round-trip;
//! - markers on the board plus the pool is 51 and the ring moves account for every
//!   marker placed; no game has more than 71 ring moves (E6); every game ends with an
//!   outcome that agrees with its reason;
//! - the end of the game agrees with a reference judged from the board and the score
//!   (E1, E2, E4, V4): in particular, an empty pool with no removal pending is always a
//!   finished game, whether or not the player to act could move (E3: no pass first).
//!
//! The whole file runs in under ten seconds in a debug build.

use std::collections::HashSet;

use proptest::prelude::*;
use yinsh::random::{SplitMix64, playout, random_action};
use yinsh::{
    Action, Bitboard, ByColor, Color, Direction, EndReason, MARKERS, Point, Position, Row, Rules,
    Setup, SetupError, Stage,
};

use crate::support::{fixture_lines, perft_by, set};

/// Every action that can be written down: 85 placements, the 7 140 ordered pairs of
/// distinct points as ring moves, 123 rows, 85 ring removals and the pass.
fn all_actions() -> Vec<Action> {
    let mut out = Vec::with_capacity(7434);
    out.extend(Point::ALL.map(Action::Place));
    for from in Point::ALL {
        for to in Point::ALL {
            if from != to {
                out.push(Action::Move { from, to });
            }
        }
    }
    out.extend(Row::all().map(Action::RemoveRow));
    out.extend(Point::ALL.map(Action::RemoveRing));
    out.push(Action::Pass);
    out
}

/// The rule sets the games are played under.
fn rules_strategy() -> impl Strategy<Value = Rules> {
    prop_oneof![
        3 => Just(Rules::STANDARD),
        2 => Just(Rules::BLITZ),
        1 => (1u8..=5, 1u8..=5).prop_map(|(w, b)| Rules::STANDARD.with_targets(w, b)),
        1 => (1u16..=80).prop_map(|n| Rules::STANDARD.with_turn_limit(Some(n))),
    ]
}

/// Most ring moves a game can have: 51 markers, and 5 more for every row removed before
/// someone reaches their target (E6: 71 in the standard game).
fn max_ring_moves(rules: &Rules) -> u16 {
    let rows = u16::from(rules.targets.white - 1) + u16::from(rules.targets.black - 1);
    let by_markers = MARKERS as u16 + 5 * rows;
    rules.turn_limit.map_or(by_markers, |l| l.min(by_markers))
}

/// A whole random game from the empty board: every position (the first one, then one
/// after each action) and the action that led away from it.
fn random_game(rules: Rules, seed: u64) -> Vec<(Position, Option<Action>)> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::with_rules(rules);
    let mut out = Vec::new();
    // 10 placements, at most 71 ring moves and as many passes, 2 actions per row.
    for _ in 0..1000 {
        let actions = pos.legal_actions();
        if actions.is_empty() {
            out.push((pos, None));
            return out;
        }
        let action = actions[rng.below(actions.len())];
        out.push((pos, Some(action)));
        pos.play(action)
            .unwrap_or_else(|e| panic!("{e} in {pos:?}"));
    }
    panic!("the game from seed {seed} under {rules:?} did not end: {pos:?}");
}

/// The ring moves of `color`, by walking the board with `Point::step` (RULES.md M2),
/// independent of the library's ray tables and bitboard fills.
fn reference_moves(pos: &Position, color: Color) -> HashSet<Action> {
    let mut out = HashSet::new();
    let rings = pos.all_rings();
    let markers = pos.all_markers();
    for from in pos.rings(color) {
        for dir in Direction::ALL {
            let mut jumped = false;
            let mut at = from;
            while let Some(next) = at.step(dir) {
                if rings.contains(next) {
                    break;
                }
                at = next;
                if markers.contains(next) {
                    jumped = true;
                    continue;
                }
                out.insert(Action::Move { from, to: next });
                if jumped {
                    break;
                }
            }
        }
    }
    out
}

/// The rows of `color`, from the list of all 123 windows (RULES.md R1).
fn reference_rows(pos: &Position, color: Color) -> HashSet<Action> {
    Row::all()
        .filter(|row| pos.markers(color).is_superset(row.points()))
        .map(Action::RemoveRow)
        .collect()
}

/// Whether the game is over, judged from the board, the score and the rules (RULES.md
/// E1, E2, E4, V4) rather than from the library's stage, which only tells whether a
/// removal is pending. The game is over when a player has reached their target, or
/// when no removal is pending (everything between two ring moves is done) and the
/// turn limit is reached, the pool is empty (E2: even when the player to act could not
/// move, E3), or neither player has a ring move (E4).
fn reference_is_over(pos: &Position) -> bool {
    let rules = pos.rules();
    if Color::ALL
        .into_iter()
        .any(|c| pos.removed(c) >= rules.targets[c])
    {
        return true;
    }
    match pos.stage() {
        Stage::Place | Stage::RemoveRow { .. } | Stage::RemoveRing { .. } => false,
        Stage::Move | Stage::Over => {
            rules.turn_limit.is_some_and(|l| pos.ring_moves() >= l)
                || pos.pool() == 0
                || Color::ALL
                    .into_iter()
                    .all(|c| reference_moves(pos, c).is_empty())
        }
    }
}

/// The legal actions a slow reference expects, for the stages it can judge alone; none
/// when [`reference_is_over`] says the game is over.
fn reference_actions(pos: &Position) -> HashSet<Action> {
    let over = reference_is_over(pos);
    assert_eq!(over, pos.is_over(), "the end of the game in {pos:?}");
    if over {
        return HashSet::new();
    }
    match pos.stage() {
        Stage::Place => (!pos.occupied()).into_iter().map(Action::Place).collect(),
        Stage::Move => {
            let moves = reference_moves(pos, pos.turn());
            if moves.is_empty() {
                HashSet::from([Action::Pass])
            } else {
                moves
            }
        }
        Stage::RemoveRow { .. } => reference_rows(pos, pos.turn()),
        Stage::RemoveRing { .. } => pos
            .rings(pos.turn())
            .into_iter()
            .map(Action::RemoveRing)
            .collect(),
        Stage::Over => unreachable!("checked above"),
    }
}

/// The points strictly between two points of a line, by stepping.
fn strictly_between(from: Point, to: Point) -> Bitboard {
    let dir = Direction::between(from, to).expect("a ring move follows a line");
    let mut out = Bitboard::EMPTY;
    let mut at = from.step(dir).unwrap();
    while at != to {
        out.add(at);
        at = at.step(dir).unwrap();
    }
    out
}

/// Checks what a legal action did to the position (M1, M4, R2, the pool).
fn check_effect(before: &Position, action: Action, after: &Position) {
    let me = before.turn();
    match action {
        Action::Place(p) => {
            assert_eq!(after.rings(me), before.rings(me) | Bitboard::from_point(p));
            assert_eq!(after.all_markers(), Bitboard::EMPTY);
        }
        Action::Move { from, to } => {
            let flipped = strictly_between(from, to) & before.all_markers();
            assert_eq!(before.markers_between(from, to), flipped);
            let mut mine = before.markers(me) ^ flipped;
            let theirs = before.markers(!me) ^ flipped;
            mine.add(from);
            assert_eq!(after.markers(me), mine, "{action} in {before:?}");
            assert_eq!(after.markers(!me), theirs, "{action} in {before:?}");
            let mut rings = before.rings(me);
            rings.remove(from);
            rings.add(to);
            assert_eq!(after.rings(me), rings);
            assert_eq!(after.pool(), before.pool() - 1);
            assert_eq!(after.ring_moves(), before.ring_moves() + 1);
        }
        Action::RemoveRow(row) => {
            assert_eq!(after.markers(me), before.markers(me) - row.points());
            assert_eq!(after.pool(), before.pool() + 5);
            assert!(matches!(after.stage(), Stage::RemoveRing { .. }));
            assert_eq!(after.turn(), me);
        }
        Action::RemoveRing(p) => {
            assert!(!after.rings(me).contains(p));
            assert_eq!(after.removed(me), before.removed(me) + 1);
            assert_eq!(after.all_markers(), before.all_markers());
        }
        Action::Pass => {
            assert_eq!(after.turn(), !me);
            assert_eq!(after.all_markers(), before.all_markers());
            assert_eq!(after.pool(), before.pool());
            assert_eq!(after.ring_moves(), before.ring_moves());
        }
    }
    if !matches!(action, Action::RemoveRing(_)) {
        assert_eq!(after.removed(me), before.removed(me));
    }
    assert_eq!(after.removed(!me), before.removed(!me));
}

/// What must hold in every position of a game.
fn check_invariants(pos: &Position) {
    let rules = *pos.rules();
    // S1: the pool never underflows and makes 51 with the markers on the board.
    assert!(pos.all_markers().count() <= MARKERS);
    assert_eq!(pos.pool() + pos.all_markers().count(), MARKERS);
    // Every ring move placed one marker; every row removed took five back, and every
    // removed ring (or the ring still to be chosen) stands for one row.
    let rows_removed = u32::from(pos.removed(Color::White))
        + u32::from(pos.removed(Color::Black))
        + u32::from(matches!(pos.stage(), Stage::RemoveRing { .. }));
    assert_eq!(
        u32::from(pos.ring_moves()),
        pos.all_markers().count() + 5 * rows_removed,
        "{pos:?}"
    );
    // E6.
    assert!(pos.ring_moves() <= max_ring_moves(&rules), "{pos:?}");
    for c in Color::ALL {
        assert!(pos.rings(c).count() + u32::from(pos.removed(c)) <= 5);
    }
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "{pos:?}");
    // E2, E3: an empty pool with no removal pending ends the game at once, also when
    // the player to act could not move (no pass comes first).
    if pos.pool() == 0 {
        match pos.stage() {
            Stage::RemoveRow { .. } | Stage::RemoveRing { .. } => {}
            _ => assert!(pos.is_over(), "an empty pool and the game goes on: {pos:?}"),
        }
    }
    let me = pos.turn();
    match pos.stage() {
        Stage::Place => assert_eq!(pos.all_markers(), Bitboard::EMPTY),
        Stage::Move => {
            // R5: all removals are done before a ring move.
            assert!(!pos.has_row(Color::White) && !pos.has_row(Color::Black));
            // E2: a ring move or a pass is only ever asked for with a marker left.
            assert!(pos.pool() > 0, "{pos:?}");
            assert!(pos.can_move(me) || pos.can_move(!me), "E4: {pos:?}");
        }
        Stage::RemoveRow { after_move } => {
            assert!(pos.has_row(me));
            if !after_move {
                assert!(!pos.has_row(!me), "the mover removes first: {pos:?}");
            }
        }
        Stage::RemoveRing { after_move } => {
            if !after_move {
                assert!(!pos.has_row(!me));
            }
        }
        Stage::Over => check_outcome(pos),
    }
    if pos.stage() != Stage::Over {
        assert_eq!(pos.outcome(), None);
        for c in Color::ALL {
            assert!(pos.removed(c) < rules.targets[c]);
        }
    }
}

fn check_outcome(pos: &Position) {
    let rules = pos.rules();
    let outcome = pos.outcome().expect("a finished game has an outcome");
    let (w, b) = (pos.removed(Color::White), pos.removed(Color::Black));
    let by_score = match w.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Color::White),
        std::cmp::Ordering::Less => Some(Color::Black),
        std::cmp::Ordering::Equal => None,
    };
    match outcome.reason {
        EndReason::TargetReached => {
            let winner = outcome.winner.expect("a target reached has a winner");
            assert!(pos.removed(winner) >= rules.targets[winner]);
            assert!(pos.removed(!winner) < rules.targets[!winner]);
        }
        EndReason::PoolExhausted => {
            assert_eq!(pos.pool(), 0);
            assert_eq!(outcome.winner, by_score);
        }
        EndReason::NoMoves => {
            assert!(!pos.can_move(Color::White) && !pos.can_move(Color::Black));
            assert_eq!(outcome.winner, by_score);
        }
        EndReason::TurnLimit => {
            assert!(pos.ring_moves() >= rules.turn_limit.expect("a turn limit"));
            assert_eq!(outcome.winner, by_score);
        }
    }
    assert!(pos.legal_actions().is_empty());
}

/// The fast move generators (whole-board fills by sense, per-ring destinations,
/// mobility, `can_move`, flippable markers) against the reference, for both players in any stage.
fn check_fast_generators(pos: &Position) {
    for color in Color::ALL {
        let moves = reference_moves(pos, color);
        let mut by_sense = HashSet::new();
        for (dir, landings) in Direction::ALL
            .into_iter()
            .zip(pos.destinations_by_direction(color))
        {
            for to in landings {
                let from = pos
                    .ring_moving_to(to, dir)
                    .unwrap_or_else(|| panic!("no ring lands on {to} going {dir:?}: {pos:?}"));
                assert_eq!(Direction::between(from, to), Some(dir));
                assert!(
                    by_sense.insert(Action::Move { from, to }),
                    "{from}-{to} found twice in {pos:?}"
                );
            }
        }
        assert_eq!(by_sense, moves, "{color} in {pos:?}");
        assert_eq!(pos.mobility(color) as usize, moves.len());
        assert_eq!(pos.can_move(color), !moves.is_empty());
        let flippable: Bitboard = moves
            .iter()
            .map(|a| match *a {
                Action::Move { from, to } => pos.markers_between(from, to),
                _ => Bitboard::EMPTY,
            })
            .fold(Bitboard::EMPTY, |a, b| a | b);
        assert_eq!(pos.flippable(color), flippable, "{color} in {pos:?}");
        for ring in pos.rings(color) {
            let reference: Bitboard = moves
                .iter()
                .filter_map(|a| match *a {
                    Action::Move { from, to } if from == ring => Some(to),
                    _ => None,
                })
                .collect();
            assert_eq!(pos.ring_destinations(ring), reference, "{ring} in {pos:?}");
        }
    }
    for p in !pos.all_rings() {
        assert_eq!(pos.ring_destinations(p), Bitboard::EMPTY);
    }
}

/// The token round trips of RULES.md §7 for one action.
fn check_token(action: Action) {
    let text = action.to_string();
    assert_eq!(text, text.to_lowercase());
    assert_eq!(text.parse::<Action>(), Ok(action), "{text}");
    assert_eq!(text.to_uppercase().parse::<Action>(), Ok(action), "{text}");
    if let Action::RemoveRow(row) = action {
        let reversed = format!("x{}-{}", row.end(), row.start());
        assert_eq!(reversed.parse::<Action>(), Ok(action), "{reversed}");
        assert_eq!(reversed.to_uppercase().parse::<Action>(), Ok(action));
    }
}

/// Plays `action` on a copy and checks that it is accepted exactly when it is legal,
/// and that a refusal leaves the copy as it was.
fn check_accepts_exactly_the_legal(pos: &Position, legal: &HashSet<Action>, action: Action) {
    let mut copy = *pos;
    match copy.play(action) {
        Ok(()) => assert!(legal.contains(&action), "{action} accepted in {pos:?}"),
        Err(e) => {
            assert!(!legal.contains(&action), "{action} refused in {pos:?}: {e}");
            assert_eq!(e.action, action);
            assert_eq!(copy, *pos, "refused {action} changed {pos:?}");
        }
    }
}

/// The checks made at every position of every game: the legal actions against the
/// reference, and each of them played on a copy.
fn check_position(pos: &Position) {
    check_invariants(pos);
    let text = pos.to_fen();
    let read = Position::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(read, *pos, "{text}");
    assert_eq!(read.hash(), pos.hash());

    let actions = pos.legal_actions();
    let legal: HashSet<Action> = actions.iter().copied().collect();
    assert_eq!(legal.len(), actions.len(), "duplicate actions in {pos:?}");
    assert_eq!(legal, reference_actions(pos), "{pos:?}");
    assert_eq!(actions.is_empty(), pos.is_over());
    check_fast_generators(pos);
    for &action in &actions {
        check_token(action);
        let original = *pos;
        let mut child = *pos;
        child
            .play(action)
            .unwrap_or_else(|e| panic!("legal {action} refused: {e}"));
        assert_eq!(original, *pos, "copy-make: the original is untouched");
        check_effect(pos, action, &child);
        check_invariants(&child);
        // play_unchecked does the same for legal actions.
        let mut fast = *pos;
        fast.play_unchecked(action);
        assert_eq!(fast, child);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every position of a random game passes every check, and the game ends within
    /// the ring-move bound with a consistent outcome.
    #[test]
    fn random_games_follow_the_rules(rules in rules_strategy(), seed in any::<u64>()) {
        let game = random_game(rules, seed);
        for (pos, _) in &game {
            check_position(pos);
        }
        let (last, _) = game.last().unwrap();
        prop_assert!(last.is_over());
        prop_assert!(last.outcome().is_some());
        prop_assert!(last.ring_moves() <= max_ring_moves(&rules));
    }

    /// Games driven by `random_action`, the generator of random playouts: it only
    /// draws legal actions, and its games follow the rules to their end.
    #[test]
    fn random_action_draws_legal_actions(rules in rules_strategy(), seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let mut pos = Position::with_rules(rules);
        for _ in 0..1000 {
            check_invariants(&pos);
            let Some(action) = random_action(&pos, &mut rng) else {
                break;
            };
            prop_assert!(pos.legal_actions().contains(&action), "{} in {:?}", action, pos);
            let before = pos;
            pos.play_unchecked(action);
            check_effect(&before, action, &pos);
        }
        prop_assert!(pos.is_over(), "{:?}", pos);
        check_outcome(&pos);
        let mut again = SplitMix64::new(seed);
        prop_assert_eq!(playout(Position::with_rules(rules), &mut again), pos);
    }

    /// Random action tokens (well formed or not, either case): whatever parses is played
    /// on positions of a random game, accepted exactly when legal, and a refusal changes
    /// nothing.
    #[test]
    fn random_tokens_are_accepted_exactly_when_legal(
        seed in any::<u64>(),
        tokens in prop::collection::vec(
            "[xX]?[a-lA-L](0|1[0-2]?|[2-9])(-[a-lA-L](0|1[0-2]?|[2-9]))?|pass|PASS",
            64,
        ),
    ) {
        let game = random_game(Rules::STANDARD, seed);
        for (i, (pos, _)) in game.iter().enumerate() {
            let legal: HashSet<Action> = pos.legal_actions().into_iter().collect();
            for token in tokens.iter().skip(i % 8).step_by(8) {
                if let Ok(action) = token.parse::<Action>() {
                    check_accepts_exactly_the_legal(pos, &legal, action);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 8,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every action that can be written down (7 434 of them) against every position of
    /// a random game: `play` accepts exactly `legal_actions()` and refusals change
    /// nothing.
    #[test]
    fn play_refuses_everything_else(rules in rules_strategy(), seed in any::<u64>()) {
        let universe = all_actions();
        let game = random_game(rules, seed);
        for (pos, _) in &game {
            let legal: HashSet<Action> = pos.legal_actions().into_iter().collect();
            for &action in &universe {
                check_accepts_exactly_the_legal(pos, &legal, action);
            }
        }
    }
}

/// A random board at the move stage: five rings each and up to 51 markers of random
/// colours anywhere, with the ring moves that placed them. Dense boards are full of
/// rows, runs and crossings.
fn random_setup(seed: u64) -> Setup {
    let mut rng = SplitMix64::new(seed);
    let mut points = Point::ALL.to_vec();
    for i in (1..points.len()).rev() {
        points.swap(i, rng.below(i + 1));
    }
    let markers = rng.below(52);
    let white_share = rng.below(101);
    let mut setup = Setup::empty(Rules::STANDARD);
    setup.stage = Stage::Move;
    setup.turn = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    setup.rings = ByColor {
        white: points[..5].iter().copied().collect(),
        black: points[5..10].iter().copied().collect(),
    };
    for &p in &points[10..10 + markers] {
        if rng.below(100) < white_share {
            setup.markers.white.add(p);
        } else {
            setup.markers.black.add(p);
        }
    }
    setup.ring_moves = markers as u16;
    setup
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Arbitrary boards: a row on the board at the move stage is refused exactly when the
    /// reference finds one; at a row-removal stage the rows offered are exactly the
    /// reference's; whatever is accepted passes every check and round-trips.
    #[test]
    fn random_boards_are_judged_like_the_reference(seed in any::<u64>()) {
        let setup = random_setup(seed);
        let rows = |color: Color| -> HashSet<Row> {
            Row::all().filter(|r| setup.markers[color].is_superset(r.points())).collect()
        };
        let (own, other) = (rows(setup.turn), rows(!setup.turn));
        match Position::from_setup(setup) {
            Ok(pos) => {
                prop_assert!(own.is_empty() && other.is_empty());
                check_position(&pos);
            }
            Err(SetupError::RowOnBoard(row)) => {
                prop_assert!(own.contains(&row) || other.contains(&row));
            }
            Err(e) => panic!("{setup}: {e}"),
        }
        let after = Setup { stage: Stage::RemoveRow { after_move: true }, ..setup };
        match Position::from_setup(after) {
            Ok(pos) => {
                let offered: HashSet<Row> = pos
                    .legal_actions()
                    .into_iter()
                    .map(|a| match a {
                        Action::RemoveRow(row) => row,
                        other => panic!("{other} at a row stage"),
                    })
                    .collect();
                prop_assert_eq!(&offered, &own);
                check_position(&pos);
            }
            Err(SetupError::NoRowToRemove) => prop_assert!(own.is_empty()),
            Err(e) => panic!("{after}: {e}"),
        }
    }
}

/// A board with one marker left in the pool, at the move stage: 50 markers on random
/// points, coloured so that they make no row (White where column + row is a multiple
/// of 3) and then a few flipped at random, so that moves make rows now and then. In
/// every other board the rings stand at random; in the others White's a2 a3 a4 (two
/// removed) are boxed in by Black's a5 b2 b3 b4 b5 and Black is to move, so that the
/// last marker often leaves White without a move.
fn last_marker_setup(seed: u64) -> Setup {
    let mut rng = SplitMix64::new(seed);
    let mut setup = Setup::empty(Rules::STANDARD);
    setup.stage = Stage::Move;
    let mut points = Point::ALL.to_vec();
    if seed % 2 == 0 {
        for i in (1..points.len()).rev() {
            points.swap(i, rng.below(i + 1));
        }
        setup.rings.white = points[..5].iter().copied().collect();
        setup.rings.black = points[5..10].iter().copied().collect();
        setup.turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
    } else {
        setup.rings.white = set("a2 a3 a4");
        setup.rings.black = set("a5 b2 b3 b4 b5");
        setup.removed.white = 2;
        setup.turn = Color::Black;
    }
    let rings = setup.rings.white | setup.rings.black;
    points.retain(|&p| !rings.contains(p));
    for i in (1..points.len()).rev() {
        points.swap(i, rng.below(i + 1));
    }
    let flip_percent = rng.below(16);
    for &p in &points[..50] {
        let white = ((p.col() + p.row()) % 3 == 0) != (rng.below(100) < flip_percent);
        if white {
            setup.markers.white.add(p);
        } else {
            setup.markers.black.add(p);
        }
    }
    setup.ring_moves = 50 + 5 * u16::from(setup.removed.white);
    setup
}

/// RULES.md E2, E3: from boards with one marker left, every ring move that leaves no
/// removal pending ends the game at once, whether the next player could move or not;
/// a move that makes a row goes on to the removal, which refills the pool.
#[test]
fn the_last_marker_ends_the_game_unless_a_removal_is_pending() {
    let (mut next_blocked, mut next_free, mut pending, mut boards) = (0, 0, 0, 0);
    for seed in 0..400 {
        let setup = last_marker_setup(seed);
        let pos = match Position::from_setup(setup) {
            Ok(pos) => pos,
            Err(SetupError::RowOnBoard(_)) => continue,
            Err(e) => panic!("{setup}: {e}"),
        };
        boards += 1;
        check_position(&pos);
        assert_eq!(pos.pool(), 1);
        if pos.is_over() {
            continue; // nobody can move (E4)
        }
        for action in pos.legal_actions() {
            let mut child = pos;
            child.play_unchecked(action);
            if action == Action::Pass {
                assert_eq!(child.pool(), 1);
                continue;
            }
            assert_eq!(child.pool(), 0);
            match child.stage() {
                Stage::RemoveRow { .. } => pending += 1,
                Stage::Over => {
                    let reason = child.outcome().unwrap().reason;
                    if child.can_move(child.turn()) {
                        assert_eq!(reason, EndReason::PoolExhausted, "{action} in {pos:?}");
                        next_free += 1;
                    } else if child.can_move(!child.turn()) {
                        assert_eq!(reason, EndReason::PoolExhausted, "{action} in {pos:?}");
                        next_blocked += 1;
                    } else {
                        assert_eq!(reason, EndReason::NoMoves, "{action} in {pos:?}");
                    }
                }
                stage => panic!("{action} in {pos:?} leads to {stage:?}"),
            }
        }
    }
    assert!(boards > 200, "{boards}");
    assert!(
        next_blocked > 100 && next_free > 100 && pending > 10,
        "{next_blocked} {next_free} {pending}"
    );
}

/// Perft with the slow reference generator instead of `legal_actions` gives the
/// fixtures' counts, and `play` accepts every action it lists.
#[test]
fn reference_generator_reproduces_the_perft_fixture() {
    let mut checked = 0;
    let files = [
        include_str!("fixtures/perft.txt"),
        include_str!("fixtures/perft-extra.txt"),
    ];
    for line in files.into_iter().flat_map(fixture_lines) {
        let pos = line.position();
        let count = perft_by(&pos, line.depth, &reference_actions);
        assert_eq!(count, line.count, "{line:?}");
        checked += 1;
    }
    assert!(checked >= 36);
}

#[test]
fn every_action_token_round_trips() {
    let universe = all_actions();
    assert_eq!(universe.len(), 85 + 85 * 84 + 123 + 85 + 1);
    for action in universe {
        check_token(action);
    }
}

#[test]
fn playouts_end_within_71_ring_moves() {
    // E6 over many quick games (the checks above look at fewer, more closely).
    let mut rng = SplitMix64::new(0x5949_4e53_4800_0006);
    let mut longest = 0;
    for _ in 0..1000 {
        let end = yinsh::random::playout(Position::new(), &mut rng);
        check_invariants(&end);
        assert!(end.ring_moves() <= 71, "{end:?}");
        longest = longest.max(end.ring_moves());
    }
    assert!(longest > 40, "random games are long: {longest}");
}
