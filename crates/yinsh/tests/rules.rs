//! The rules of RULES.md, one test (or a few) per rule id: each test is named after the
//! rule it checks (`g4_…`, `m2_…`, `r4_…`, `e2_…`, `v3_…`) and builds its position from
//! a position string, a [`Setup`] or a list of tokens, then asserts on the legal actions,
//! the results and reasons of `play`, the stage, the turn, the pool and the outcome.
//!
//! Most positions keep the rings that play no part in a test out of the way in the
//! top-right corner (`WHITE_SPARES`, `BLACK_SPARES`).

use std::collections::BTreeMap;

use yinsh::{
    Action, Bitboard, ByColor, Color, Direction, EndReason, IllegalReason, Line, MARKERS, Point,
    Position, Row, Rules, Setup, SetupError, Stage,
};

use crate::support::{act, fen, play, position, pt, set, setup};

/// Four White rings parked on row 11, away from every test line.
const WHITE_SPARES: &str = "g11 h11 i11 j11";
/// Four Black rings parked on column k, away from every test line.
const BLACK_SPARES: &str = "k7 k8 k9 k10";

const AFTER: Stage = Stage::RemoveRow { after_move: true };
const BEFORE: Stage = Stage::RemoveRow { after_move: false };
const RING_AFTER: Stage = Stage::RemoveRing { after_move: true };
const RING_BEFORE: Stage = Stage::RemoveRing { after_move: false };

/// The legal actions as sorted tokens.
fn legal(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos.legal_actions().iter().map(Action::to_string).collect();
    out.sort();
    out
}

/// The sorted landing points of the legal moves of the ring on `from`.
fn destinations(pos: &Position, from: &str) -> Vec<String> {
    let from = pt(from);
    let mut out: Vec<String> = pos
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { from: f, to } if f == from => Some(to.to_string()),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn sorted(tokens: &str) -> Vec<String> {
    let mut out: Vec<String> = tokens.split_whitespace().map(str::to_owned).collect();
    out.sort();
    out
}

/// Plays an action that must be refused: checks that the position is unchanged, that the
/// action is not among the legal ones, and returns the reason.
fn refused(pos: &mut Position, action: Action) -> IllegalReason {
    let before = *pos;
    let err = pos
        .play(action)
        .expect_err(&format!("{action} should be illegal in {before:?}"));
    assert_eq!(err.action, action);
    assert_eq!(*pos, before, "a refused {action} changed the position");
    assert_eq!(pos.hash(), before.hash());
    assert!(!before.legal_actions().contains(&action));
    assert!(!before.is_legal(action));
    err.reason
}

fn refused_token(pos: &mut Position, token: &str) -> IllegalReason {
    refused(pos, act(token))
}

fn outcome(pos: &Position) -> (Option<Color>, EndReason) {
    let o = pos
        .outcome()
        .unwrap_or_else(|| panic!("the game is not over: {pos:?}"));
    assert_eq!(pos.stage(), Stage::Over);
    assert!(pos.legal_actions().is_empty());
    (o.winner, o.reason)
}

// ---------------------------------------------------------------------------------------
// 1. Board
// ---------------------------------------------------------------------------------------

#[test]
fn g1_85_points_the_hexagon_without_its_corners() {
    assert_eq!(Point::ALL.len(), 85);
    assert_eq!(Bitboard::FULL.count(), 85);
    let mut named = 0;
    let mut hexagon = 0;
    for col in 1..=11i32 {
        for row in 1..=11i32 {
            let (dc, dr) = (col - 6, row - 6);
            if dc.abs().max(dr.abs()).max((dc - dr).abs()) <= 5 {
                hexagon += 1;
            }
            let letter = (b'a' + col as u8 - 1) as char;
            if format!("{letter}{row}").parse::<Point>().is_ok() {
                named += 1;
            }
        }
    }
    assert_eq!(hexagon, 91, "the hexagon of radius 5");
    assert_eq!(named, 85);
    for corner in ["a1", "a6", "f1", "f11", "k6", "k11"] {
        assert!(
            corner.parse::<Point>().is_err(),
            "{corner} is a missing corner"
        );
    }
    // Edge points are playable: every one of the 85 points takes a ring.
    let pos = Position::new();
    assert_eq!(pos.legal_actions().len(), 85);
    for edge in [
        "a2", "a5", "b1", "b7", "e1", "e10", "g11", "j11", "k7", "k10",
    ] {
        assert!(pos.is_legal(Action::Place(pt(edge))), "{edge}");
    }
}

#[test]
fn g2_validity_formula_matches_the_column_table() {
    let table = [
        ('a', 2, 5),
        ('b', 1, 7),
        ('c', 1, 8),
        ('d', 1, 9),
        ('e', 1, 10),
        ('f', 2, 10),
        ('g', 2, 11),
        ('h', 3, 11),
        ('i', 4, 11),
        ('j', 5, 11),
        ('k', 7, 10),
    ];
    for (i, &(letter, low, high)) in table.iter().enumerate() {
        let col = i as i32 + 1;
        for row in 1..=11i32 {
            let (dc, dr) = (col - 6, row - 6);
            let distances = [dc.abs(), dr.abs(), (dc - dr).abs()];
            let formula = distances.iter().all(|&d| d <= 5)
                && distances.iter().filter(|&&d| d == 5).count() <= 1;
            let in_table = (low..=high).contains(&row);
            let name = format!("{letter}{row}");
            assert_eq!(formula, in_table, "{name}: formula against table");
            let parsed = name.parse::<Point>();
            assert_eq!(parsed.is_ok(), in_table, "{name}: parse");
            assert_eq!(
                Point::from_coords(i as i8, row as i8 - 1).is_some(),
                in_table,
                "{name}: from_coords"
            );
            if let Ok(p) = parsed {
                assert_eq!(p.to_string(), name);
                assert_eq!(name.to_uppercase().parse::<Point>(), Ok(p));
            }
        }
    }
    for bad in ["l5", "a0", "e11", "e01", "", "e", "5e", "e5x"] {
        assert!(bad.parse::<Point>().is_err(), "{bad:?}");
    }
}

#[test]
fn g3_three_directions_of_eleven_lines_and_123_windows() {
    let expected = [4, 7, 8, 9, 10, 9, 10, 9, 8, 7, 4];
    for line in Line::ALL {
        // The points of one line share this key.
        let key = |p: Point| match line {
            Line::Column => p.col(),
            Line::Row => p.row(),
            Line::Diagonal => p.col() - p.row(),
        };
        let mut lengths: BTreeMap<i8, usize> = BTreeMap::new();
        for p in Point::ALL {
            *lengths.entry(key(p)).or_default() += 1;
        }
        let lengths: Vec<usize> = lengths.into_values().collect();
        assert_eq!(lengths, expected, "{line:?}");
        let windows = Row::all().filter(|r| r.line() == line).count();
        assert_eq!(windows, expected.iter().map(|n| n - 4).sum::<usize>());
        assert_eq!(windows, 41);
    }
    assert_eq!(Row::all().count(), 123);

    // Each window is five adjacent points along its line.
    for row in Row::all() {
        let (dc, dr) = row.line().forward().delta();
        let pts: Bitboard = (0..5)
            .map(|k| Point::from_coords(row.start().col() + k * dc, row.start().row() + k * dr))
            .map(Option::unwrap)
            .collect();
        assert_eq!(row.points(), pts);
        assert_eq!(Row::from_ends(row.end(), row.start()), Some(row));
    }

    // The six senses, and (1, −1) is not among them.
    let deltas: Vec<(i8, i8)> = Direction::ALL.iter().map(|d| d.delta()).collect();
    assert_eq!(deltas, [(0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1)]);
    assert_eq!(Direction::between(pt("e5"), pt("f4")), None);
    assert_eq!(Direction::between(pt("b6"), pt("f2")), None);
    assert_eq!(Row::from_ends(pt("b6"), pt("f2")), None);
    assert!("xb6-f2".parse::<Action>().is_err());
    assert_eq!(
        Direction::between(pt("e5"), pt("g7")),
        Some(Direction::NorthEast)
    );
    assert_eq!(
        Direction::between(pt("g7"), pt("e5")),
        Some(Direction::SouthWest)
    );
}

/// The number of moves of a White ring alone on `p`; the only other ring (Black's, each
/// player has removed four of five under targets of five) stands off every line through
/// `p`.
fn lone_ring_moves(p: Point) -> usize {
    let q = Point::ALL
        .into_iter()
        .find(|&q| q != p && Direction::between(p, q).is_none())
        .unwrap();
    let setup = Setup {
        rings: ByColor {
            white: Bitboard::from_point(p),
            black: Bitboard::from_point(q),
        },
        removed: ByColor { white: 4, black: 4 },
        stage: Stage::Move,
        ..Setup::empty(Rules::STANDARD.with_targets(5, 5))
    };
    let pos = position(setup);
    let actions = pos.legal_actions();
    assert!(
        actions
            .iter()
            .all(|a| matches!(a, Action::Move { from, .. } if *from == p))
    );
    actions.len()
}

#[test]
fn g4_lone_ring_move_counts() {
    assert_eq!(lone_ring_moves(pt("f6")), 24);
    assert_eq!(lone_ring_moves(pt("e5")), 26);
    assert_eq!(lone_ring_moves(pt("a2")), 18);
    let total: usize = Point::ALL.into_iter().map(lone_ring_moves).sum();
    assert_eq!(total, 1848);
}

// ---------------------------------------------------------------------------------------
// 2. Pieces and setup
// ---------------------------------------------------------------------------------------

#[test]
fn s1_one_shared_pool_of_51_markers() {
    let mut pos = Position::new();
    assert_eq!(MARKERS, 51);
    assert_eq!(pos.pool(), 51);
    play(&mut pos, "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8");
    assert_eq!(pos.pool(), 51, "placing rings takes no markers");
    // Both players take from the same pool.
    play(&mut pos, "e3-e2");
    assert_eq!(pos.pool(), 50);
    assert_eq!(pos.markers(Color::White), set("e3"));
    play(&mut pos, "e4-e5");
    assert_eq!(pos.pool(), 49);
    assert_eq!(pos.markers(Color::Black), set("e4"));
    assert_eq!(pos.pool() + pos.all_markers().count(), 51);
}

#[test]
fn s2_alternating_placement_white_first_then_white_moves() {
    let mut pos = Position::new();
    assert_eq!(pos.stage(), Stage::Place);
    assert_eq!(pos.turn(), Color::White);
    let placements: Vec<&str> = "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8".split(' ').collect();
    for (i, token) in placements.iter().enumerate() {
        let mover = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(pos.stage(), Stage::Place);
        assert_eq!(pos.turn(), mover);
        assert_eq!(pos.legal_actions().len(), 85 - i);
        assert!(
            pos.legal_actions()
                .iter()
                .all(|a| matches!(a, Action::Place(_)))
        );
        play(&mut pos, token);
        assert!(pos.rings(mover).contains(pt(token)));
        assert_eq!(
            pos.rings(Color::White).count() + pos.rings(Color::Black).count(),
            i as u32 + 1
        );
    }
    assert_eq!(pos.rings(Color::White), set("e3 b5 d6 h7 g3"));
    assert_eq!(pos.rings(Color::Black), set("a5 c6 e4 g2 g8"));
    // White makes the first ring move.
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.ring_moves(), 0);
    assert!(pos.legal_actions().iter().all(
        |a| matches!(a, Action::Move { from, .. } if pos.rings(Color::White).contains(*from))
    ));
    assert_eq!(pos.legal_actions().len(), 86); // RULES.md §8
    assert_eq!(
        refused_token(&mut pos, "a5-a4"),
        IllegalReason::NotOwnRing,
        "Black may not move first"
    );
    assert_eq!(
        refused_token(&mut pos, "f6"),
        IllegalReason::WrongStage(Stage::Move)
    );
}

#[test]
fn s2_placement_refusals() {
    let mut pos = Position::new();
    assert_eq!(
        refused_token(&mut pos, "e3-e4"),
        IllegalReason::WrongStage(Stage::Place)
    );
    assert_eq!(
        refused(&mut pos, Action::Pass),
        IllegalReason::WrongStage(Stage::Place)
    );
    assert_eq!(
        refused_token(&mut pos, "xe3"),
        IllegalReason::WrongStage(Stage::Place)
    );
    play(&mut pos, "e3");
    assert_eq!(refused_token(&mut pos, "e3"), IllegalReason::Occupied);
    assert_eq!(pos.legal_actions().len(), 84);
}

// ---------------------------------------------------------------------------------------
// 3. A turn
// ---------------------------------------------------------------------------------------

#[test]
fn m1_marker_of_the_movers_colour_stays_on_the_start_point() {
    let mut pos = position(setup(
        &format!("e5 {WHITE_SPARES}"),
        &format!("c3 {BLACK_SPARES}"),
        "",
        "",
    ));
    assert_eq!(pos.pool(), 51);
    play(&mut pos, "e5-e8");
    assert_eq!(pos.markers(Color::White), set("e5"));
    assert!(pos.rings(Color::White).contains(pt("e8")));
    assert!(!pos.rings(Color::White).contains(pt("e5")));
    assert_eq!(pos.pool(), 50);
    assert_eq!(pos.ring_moves(), 1);
    assert_eq!(pos.turn(), Color::Black);
    play(&mut pos, "c3-c1");
    assert_eq!(pos.markers(Color::Black), set("c3"));
    assert_eq!(pos.pool(), 49);
    assert_eq!(pos.ring_moves(), 2);
}

#[test]
fn m2_slide_over_empty_points_in_all_six_senses() {
    // A White ring on e5 with the other rings far away: 26 moves (G4), every one a slide.
    let pos = position(setup(
        &format!("e5 {WHITE_SPARES}"),
        &format!("c2 {BLACK_SPARES}"),
        "",
        "",
    ));
    assert_eq!(
        destinations(&pos, "e5"),
        sorted(
            "e1 e2 e3 e4 e6 e7 e8 e9 e10 \
             a5 b5 c5 d5 f5 g5 h5 i5 j5 \
             b2 c3 d4 f6 g7 h8 i9 j10"
        )
    );
}

#[test]
fn m2_slide_then_jump() {
    // e2 ring; e3 empty; group e4 e5; e6 empty: it may stop on e3 or land on e6.
    let mut pos = position(setup(
        &format!("e2 {WHITE_SPARES}"),
        &format!("c2 {BLACK_SPARES}"),
        "e5",
        "e4",
    ));
    let north: Vec<String> = destinations(&pos, "e2")
        .into_iter()
        .filter(|p| p.starts_with('e'))
        .collect();
    assert_eq!(north, sorted("e1 e3 e6"));
    assert_eq!(
        refused_token(&mut pos, "e2-e4"),
        IllegalReason::LandsOnMarker
    );
    assert_eq!(
        refused_token(&mut pos, "e2-e5"),
        IllegalReason::LandsOnMarker
    );
    assert_eq!(
        refused_token(&mut pos, "e2-e7"),
        IllegalReason::MustStopAfterMarkers
    );
    assert_eq!(
        refused_token(&mut pos, "e2-e10"),
        IllegalReason::MustStopAfterMarkers
    );
    play(&mut pos, "e2-e6");
    assert!(pos.rings(Color::White).contains(pt("e6")));
}

#[test]
fn m2_jump_must_land_right_behind_the_group() {
    // A group that starts right next to the ring: the only landing is e5.
    let mut pos = position(setup(
        &format!("e1 {WHITE_SPARES}"),
        &format!("c2 {BLACK_SPARES}"),
        "e2 e4",
        "e3",
    ));
    let north: Vec<String> = destinations(&pos, "e1")
        .into_iter()
        .filter(|p| p.starts_with('e'))
        .collect();
    assert_eq!(north, ["e5"]);
    for beyond in ["e6", "e7", "e10"] {
        assert_eq!(
            refused_token(&mut pos, &format!("e1-{beyond}")),
            IllegalReason::MustStopAfterMarkers
        );
    }
}

#[test]
fn m2_second_group_cannot_be_jumped() {
    // e2 ring; group e3; empty e4; group e5 e6; empty e7: only e4 is reachable northward.
    let mut pos = position(setup(
        &format!("e2 {WHITE_SPARES}"),
        &format!("c2 {BLACK_SPARES}"),
        "e3 e6",
        "e5",
    ));
    let north: Vec<String> = destinations(&pos, "e2")
        .into_iter()
        .filter(|p| p.starts_with('e'))
        .collect();
    assert_eq!(north, sorted("e1 e4"));
    assert_eq!(
        refused_token(&mut pos, "e2-e7"),
        IllegalReason::MustStopAfterMarkers
    );
}

#[test]
fn m2_ring_right_after_a_group_blocks_the_direction() {
    // e2 ring; group e3 e4; Black ring e5: nothing northward at all.
    let mut pos = position(setup(
        &format!("e2 {WHITE_SPARES}"),
        &format!("e5 {BLACK_SPARES}"),
        "e3",
        "e4",
    ));
    let north: Vec<String> = destinations(&pos, "e2")
        .into_iter()
        .filter(|p| p.starts_with('e'))
        .collect();
    assert_eq!(north, ["e1"]);
    assert_eq!(
        refused_token(&mut pos, "e2-e5"),
        IllegalReason::RingInTheWay
    );
    assert_eq!(
        refused_token(&mut pos, "e2-e6"),
        IllegalReason::RingInTheWay
    );
}

#[test]
fn m2_group_reaching_the_edge_gives_no_landing() {
    // e7 ring; e8 e9 e10 markers up to the edge of column e.
    let mut pos = position(setup(
        &format!("e7 {WHITE_SPARES}"),
        &format!("c2 {BLACK_SPARES}"),
        "e8 e10",
        "e9",
    ));
    let north: Vec<String> = destinations(&pos, "e7")
        .into_iter()
        .filter(|p| pt(p).col() == 4 && pt(p).row() > 6)
        .collect();
    assert!(north.is_empty(), "{north:?}");
    assert_eq!(
        refused_token(&mut pos, "e7-e10"),
        IllegalReason::LandsOnMarker
    );
    // The same ring still slides south.
    assert!(destinations(&pos, "e7").contains(&"e1".to_string()));
}

#[test]
fn m2_a_ring_can_neither_pass_nor_land_on_a_ring() {
    let mut pos = position(setup(
        &format!("e2 {WHITE_SPARES}"),
        &format!("e5 {BLACK_SPARES}"),
        "",
        "",
    ));
    let north: Vec<String> = destinations(&pos, "e2")
        .into_iter()
        .filter(|p| p.starts_with('e'))
        .collect();
    assert_eq!(north, sorted("e1 e3 e4"));
    assert_eq!(
        refused_token(&mut pos, "e2-e5"),
        IllegalReason::RingInTheWay
    );
    assert_eq!(
        refused_token(&mut pos, "e2-e6"),
        IllegalReason::RingInTheWay
    );
    assert_eq!(
        refused_token(&mut pos, "e2-e10"),
        IllegalReason::RingInTheWay
    );
    // The player's own rings block as well.
    let mut own = position(setup(
        "e2 e5 g11 h11 i11",
        &format!("c2 {BLACK_SPARES}"),
        "",
        "",
    ));
    assert_eq!(
        refused_token(&mut own, "e2-e7"),
        IllegalReason::RingInTheWay
    );
}

#[test]
fn m2_straight_lines_only_and_at_least_one_point() {
    let mut pos = position(setup(
        &format!("e5 {WHITE_SPARES}"),
        &format!("c2 {BLACK_SPARES}"),
        "",
        "",
    ));
    assert_eq!(refused_token(&mut pos, "e5-f4"), IllegalReason::NotALine);
    assert_eq!(refused_token(&mut pos, "e5-d6"), IllegalReason::NotALine);
    assert_eq!(refused_token(&mut pos, "e5-g6"), IllegalReason::NotALine);
    let e5 = pt("e5");
    assert_eq!(
        refused(&mut pos, Action::Move { from: e5, to: e5 }),
        IllegalReason::ZeroMove
    );
    assert!("e5-e5".parse::<Action>().is_err());
    assert_eq!(refused_token(&mut pos, "c2-c3"), IllegalReason::NotOwnRing);
    assert_eq!(refused_token(&mut pos, "d5-d6"), IllegalReason::NotOwnRing);
}

#[test]
fn m3_only_rings_with_a_destination_and_every_ring_destination_pair() {
    // White's ring on a2 is boxed in by rings on a3, b2 and b3.
    let mut pos = position(setup("a2 e5 g11 h11 i11", "b2 b3 a3 k8 k9", "", ""));
    assert!(destinations(&pos, "a2").is_empty());
    assert_eq!(
        refused_token(&mut pos, "a2-a4"),
        IllegalReason::RingInTheWay
    );
    assert_eq!(
        refused_token(&mut pos, "a2-c2"),
        IllegalReason::RingInTheWay
    );
    // The legal moves are exactly the (ring, destination) pairs that `play` accepts.
    let mut brute = Vec::new();
    for from in Point::ALL {
        for to in Point::ALL {
            if from != to && pos.is_legal(Action::Move { from, to }) {
                brute.push(Action::Move { from, to });
            }
        }
    }
    let mut generated: Vec<Action> = pos.legal_actions().to_vec();
    generated.sort();
    brute.sort();
    assert_eq!(generated, brute);
    assert!(!generated.is_empty());
}

#[test]
fn m4_flips_exactly_the_markers_strictly_between() {
    // e2 ring; group e3 (w) e4 (b) e5 (b); lands on e6. Markers off the path (d3, e7,
    // f3) and behind the landing point keep their colour.
    let mut pos = position(setup(
        &format!("e2 {WHITE_SPARES}"),
        &format!("c2 {BLACK_SPARES}"),
        "e3 d3",
        "e4 e5 e7 f3",
    ));
    play(&mut pos, "e2-e6");
    assert_eq!(pos.markers(Color::White), set("e2 e4 e5 d3"));
    assert_eq!(pos.markers(Color::Black), set("e3 e7 f3"));
    assert_eq!(pos.rings(Color::White), set(&format!("e6 {WHITE_SPARES}")));
    assert_eq!(pos.pool(), 51 - 7);
}

#[test]
fn m4_the_dropped_marker_never_flips() {
    // Black moves over markers: the start point keeps a Black marker, also after a
    // slide across empty points before the group (e2 → e3 empty, e4 e5 group → e6).
    let mut pos = position(Setup {
        turn: Color::Black,
        ..setup(
            &format!("c2 {WHITE_SPARES}"),
            &format!("e2 {BLACK_SPARES}"),
            "e4",
            "e5",
        )
    });
    play(&mut pos, "e2-e6");
    assert_eq!(pos.markers(Color::Black), set("e2 e4"));
    assert_eq!(pos.markers(Color::White), set("e5"));
    assert!(pos.markers(Color::Black).contains(pt("e2")));
    assert_eq!(pos.turn(), Color::White);
}

// ---------------------------------------------------------------------------------------
// 4. Rows
// ---------------------------------------------------------------------------------------

#[test]
fn r1_five_markers_of_one_colour_in_a_line() {
    // c2..c5 White markers and the White ring on c6: the ring breaks the row until it
    // leaves its marker behind.
    let start = position(setup(
        &format!("c6 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "c2 c3 c4 c5",
        "",
    ));
    assert!(!start.has_row(Color::White));
    let mut pos = start;
    play(&mut pos, "c6-d6");
    assert!(pos.has_row(Color::White));
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.stage(), AFTER);
    assert_eq!(legal(&pos), ["xc2-c6"]);

    // A Black ring in the middle of five points breaks the row.
    let broken = position(setup(
        &format!("c6 {WHITE_SPARES}"),
        &format!("c4 {BLACK_SPARES}"),
        "c2 c3 c5 c7",
        "",
    ));
    assert!(!broken.has_row(Color::White));

    // Mixed colours are no row, and five along the non-line (1, −1) are none either.
    let mixed = position(setup(
        &format!("c6 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "c2 c3 c5 b6 d4 e3 f2",
        "c4",
    ));
    assert!(!mixed.has_row(Color::White));
    assert_eq!(mixed.stage(), Stage::Move);
    assert_eq!(mixed.rows(Color::White).count(), 0);
}

#[test]
fn r2_a_row_belongs_to_its_colour_whoever_made_it() {
    // Black markers d3 d4 d6 d7, a White marker on d5. White's c5 jumps d5 to e5 and
    // flips it: the row d3-d7 is Black's, so Black removes it and then moves.
    let mut pos = position(setup(
        &format!("c5 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "d5",
        "d3 d4 d6 d7",
    ));
    play(&mut pos, "c5-e5");
    assert_eq!(pos.markers(Color::White), set("c5"));
    assert!(!pos.has_row(Color::White));
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.stage(), BEFORE);
    assert_eq!(legal(&pos), ["xd3-d7"]);
    assert_eq!(pos.pool(), 45);
    play(&mut pos, "xd3-d7");
    assert_eq!(pos.pool(), 50);
    assert_eq!(pos.stage(), RING_BEFORE);
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(legal(&pos), sorted("xa2 xk7 xk8 xk9 xk10"));
    assert_eq!(refused_token(&mut pos, "xe5"), IllegalReason::NotOwnRing);
    play(&mut pos, "xk9");
    assert_eq!(pos.removed(Color::Black), 1);
    assert_eq!(pos.removed(Color::White), 0);
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(pos.turn(), Color::Black);
}

#[test]
fn r2_owner_removes_the_row_then_any_ring_also_the_one_just_moved() {
    let mut pos = position(setup(
        &format!("c6 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "c2 c3 c4 c5",
        "",
    ));
    play(&mut pos, "c6-d6");
    assert_eq!(pos.pool(), 46);
    assert_eq!(
        refused_token(&mut pos, "xd6"),
        IllegalReason::WrongStage(AFTER),
        "the row comes first"
    );
    assert_eq!(refused_token(&mut pos, "xc3-c7"), IllegalReason::NotOwnRow);
    play(&mut pos, "xc2-c6");
    assert_eq!(pos.all_markers(), Bitboard::EMPTY);
    assert_eq!(pos.pool(), 51);
    assert_eq!(pos.stage(), RING_AFTER);
    assert_eq!(legal(&pos), sorted("xd6 xg11 xh11 xi11 xj11"));
    assert_eq!(
        refused_token(&mut pos, "xa2"),
        IllegalReason::NotOwnRing,
        "not an opponent's ring"
    );
    assert_eq!(refused_token(&mut pos, "xc2"), IllegalReason::NotOwnRing);
    play(&mut pos, "xd6");
    assert_eq!(pos.rings(Color::White), set(WHITE_SPARES));
    assert_eq!(pos.removed(Color::White), 1);
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.stage(), Stage::Move);
}

#[test]
fn r3_a_run_of_six_offers_two_windows() {
    // c2 c3 c4 c5 c7 and the ring on c6: six in a row once it moves.
    let start = position(setup(
        &format!("c6 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "c2 c3 c4 c5 c7",
        "",
    ));
    for (window, left) in [("xc2-c6", "c7"), ("xc3-c7", "c2")] {
        let mut pos = start;
        play(&mut pos, "c6-d6");
        assert_eq!(legal(&pos), ["xc2-c6", "xc3-c7"]);
        play(&mut pos, window);
        assert_eq!(pos.markers(Color::White), set(left));
        play(&mut pos, "xg11");
        assert_eq!(pos.turn(), Color::Black);
        assert_eq!(pos.stage(), Stage::Move);
    }
    // Both ends in either order name the same row.
    assert_eq!(act("xc6-c2"), act("xc2-c6"));
}

#[test]
fn r4_two_separate_rows_are_both_removed() {
    // e2 jumps e3 e4 (Black) to e5; the flips complete rows c3-g3 and c4-g4.
    let start = position(setup(
        &format!("e2 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "c3 d3 f3 g3 c4 d4 f4 g4",
        "e3 e4",
    ));
    let mut pos = start;
    play(&mut pos, "e2-e5");
    assert_eq!(pos.stage(), AFTER);
    assert_eq!(legal(&pos), ["xc3-g3", "xc4-g4"]);
    play(&mut pos, "xc4-g4 xg11");
    assert_eq!(pos.turn(), Color::White, "the second row is still White's");
    assert_eq!(pos.stage(), AFTER);
    assert_eq!(legal(&pos), ["xc3-g3"]);
    play(&mut pos, "xc3-g3 xh11");
    assert_eq!(pos.removed(Color::White), 2);
    assert_eq!(pos.markers(Color::White), set("e2"));
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(pos.pool(), 50);

    // The other order ends the same.
    let mut other = start;
    play(&mut other, "e2-e5 xc3-g3 xh11 xc4-g4 xg11");
    assert_eq!(other, pos);
}

#[test]
fn r4_crossing_rows_only_one_removed() {
    // e2 jumps e3 (Black) to e4; the flip completes row c3-g3 and diagonal c1-g5, which
    // cross on e3.
    let start = position(setup(
        &format!("e2 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "c3 d3 f3 g3 c1 d2 f4 g5",
        "e3",
    ));
    for (row, other) in [("xc3-g3", "c1 d2 f4 g5"), ("xc1-g5", "c3 d3 f3 g3")] {
        let mut pos = start;
        play(&mut pos, "e2-e4");
        assert_eq!(legal(&pos), ["xc1-g5", "xc3-g3"]);
        play(&mut pos, row);
        play(&mut pos, "xg11");
        assert_eq!(pos.removed(Color::White), 1);
        assert_eq!(pos.turn(), Color::Black, "the crossing row went with e3");
        assert_eq!(pos.stage(), Stage::Move);
        assert_eq!(pos.markers(Color::White), set(&format!("e2 {other}")));
    }
}

#[test]
fn r4_window_choice_decides_how_many_rows_follow() {
    // c5 slides to d6 and e7, jumps f8 and lands on g9: its marker completes c3..c8
    // (six) and the flip of f8 completes c8-g8, which touches the run at its end c8.
    let start = position(setup(
        &format!("c5 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "c3 c4 c6 c7 c8 d8 e8 g8",
        "f8",
    ));
    let mut moved = start;
    play(&mut moved, "c5-g9");
    assert_eq!(legal(&moved), ["xc3-c7", "xc4-c8", "xc8-g8"]);

    // Taking c4-c8 takes c8: the row c8-g8 is gone, one row in all.
    let mut one = moved;
    play(&mut one, "xc4-c8 xg9");
    assert_eq!(one.removed(Color::White), 1);
    assert_eq!(one.turn(), Color::Black);
    assert_eq!(one.markers(Color::White), set("c3 d8 e8 f8 g8"));

    // Taking c3-c7 leaves c8 and the row c8-g8: two rows.
    let mut two = moved;
    play(&mut two, "xc3-c7 xg9");
    assert_eq!(two.turn(), Color::White);
    assert_eq!(legal(&two), ["xc8-g8"]);
    play(&mut two, "xc8-g8 xg11");
    assert_eq!(two.removed(Color::White), 2);
    assert_eq!(two.turn(), Color::Black);
    assert_eq!(two.all_markers(), Bitboard::EMPTY);

    // Taking c8-g8 first leaves c3..c7, a row again: two rows.
    let mut first = moved;
    play(&mut first, "xc8-g8 xg9");
    assert_eq!(legal(&first), ["xc3-c7"]);
    play(&mut first, "xc3-c7 xg11");
    assert_eq!(first, two);
}

/// White's e1 jumps e2 (Black) and e3 (White) to e4: e2 turns White and completes
/// c2-g2, e3 turns Black and completes c3-g3. One move, a row for each player.
fn rows_for_both(removed_white: u8, removed_black: u8, rules: Rules) -> Position {
    let white_rings = ["e1", "g11", "h11", "i11", "j11"];
    let black_rings = ["a2", "k7", "k8", "k9", "k10"];
    let white_rings = white_rings[..5 - usize::from(removed_white)].join(" ");
    let black_rings = black_rings[..5 - usize::from(removed_black)].join(" ");
    position(Setup {
        removed: ByColor {
            white: removed_white,
            black: removed_black,
        },
        rules,
        ..setup(
            &white_rings,
            &black_rings,
            "c2 d2 f2 g2 e3",
            "c3 d3 f3 g3 e2",
        )
    })
}

#[test]
fn r5_rows_for_both_mover_first_then_the_opponent_in_their_own_turn() {
    let mut pos = rows_for_both(0, 0, Rules::STANDARD);
    play(&mut pos, "e1-e4");
    assert!(pos.has_row(Color::White) && pos.has_row(Color::Black));
    // The mover first…
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.stage(), AFTER);
    assert_eq!(legal(&pos), ["xc2-g2"]);
    assert_eq!(refused_token(&mut pos, "xc3-g3"), IllegalReason::NotOwnRow);
    play(&mut pos, "xc2-g2");
    assert_eq!(pos.stage(), RING_AFTER);
    play(&mut pos, "xe4");
    // …then the opponent, before their move: these removals are Black's turn.
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.stage(), BEFORE);
    assert_eq!(legal(&pos), ["xc3-g3"]);
    assert_eq!(
        refused_token(&mut pos, "a2-a3"),
        IllegalReason::WrongStage(BEFORE)
    );
    play(&mut pos, "xc3-g3");
    assert_eq!(pos.stage(), RING_BEFORE);
    assert_eq!(pos.turn(), Color::Black);
    play(&mut pos, "xk7");
    assert_eq!(pos.turn(), Color::Black, "Black now makes their ring move");
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(pos.removed(Color::White), 1);
    assert_eq!(pos.removed(Color::Black), 1);
    assert_eq!(pos.markers(Color::White), set("e1"));
    assert_eq!(pos.all_markers().count() + pos.pool(), 51);
    assert_eq!(pos.pool(), 50);
    assert_eq!(pos.ring_moves(), 1);
}

#[test]
fn r5_mid_turn_stages_round_trip_as_position_strings() {
    let mut pos = rows_for_both(0, 0, Rules::STANDARD);
    let mut seen = Vec::new();
    for token in "e1-e4 xc2-g2 xe4 xc3-g3 xk7".split(' ') {
        play(&mut pos, token);
        let text = pos.to_fen();
        assert_eq!(fen(&text), pos, "{text}");
        seen.push(text.split(' ').nth(2).unwrap().to_owned());
    }
    assert_eq!(
        seen,
        [
            "row-after",
            "ring-after",
            "row-before",
            "ring-before",
            "move"
        ]
    );
}

// ---------------------------------------------------------------------------------------
// 5. End
// ---------------------------------------------------------------------------------------

#[test]
fn e1_target_reached_wins_at_once_and_pending_rows_are_ignored() {
    // The two separate rows of r4, with White on two removed rings already: the first
    // ring removal wins and the second row stays on the board.
    let mut pos = position(Setup {
        removed: ByColor { white: 2, black: 0 },
        ..setup(
            "e2 g11 h11",
            &format!("a2 {BLACK_SPARES}"),
            "c3 d3 f3 g3 c4 d4 f4 g4",
            "e3 e4",
        )
    });
    play(&mut pos, "e2-e5 xc3-g3");
    assert!(!pos.is_over());
    play(&mut pos, "xe5");
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::TargetReached)
    );
    assert_eq!(pos.removed(Color::White), 3);
    assert!(pos.has_row(Color::White), "the pending row is ignored");
    assert_eq!(refused_token(&mut pos, "xc4-g4"), IllegalReason::GameOver);
    assert_eq!(refused(&mut pos, Action::Pass), IllegalReason::GameOver);
    assert_eq!(pos.outcome().unwrap().result(), "1-0");
}

#[test]
fn e1_a_third_row_for_both_the_mover_wins() {
    let mut pos = rows_for_both(2, 2, Rules::STANDARD);
    play(&mut pos, "e1-e4 xc2-g2 xe4");
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::TargetReached)
    );
    assert_eq!(pos.removed(Color::Black), 2);
    assert!(pos.has_row(Color::Black), "Black's row comes too late");
}

#[test]
fn e1_the_opponent_wins_through_the_movers_move() {
    // As in r2, White's move makes a row only for Black, who has two rings already.
    let mut pos = position(Setup {
        removed: ByColor { white: 0, black: 2 },
        ..setup(
            &format!("c5 {WHITE_SPARES}"),
            "a2 k7 k8",
            "d5",
            "d3 d4 d6 d7",
        )
    });
    play(&mut pos, "c5-e5");
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.stage(), BEFORE);
    play(&mut pos, "xd3-d7 xa2");
    assert_eq!(
        outcome(&pos),
        (Some(Color::Black), EndReason::TargetReached)
    );
    assert_eq!(pos.outcome().unwrap().result(), "0-1");
}

/// Fills points outside `reserved` with markers until the board holds `total`, coloured
/// so that they never make a row by themselves: White where (column + row) is a
/// multiple of 3, Black elsewhere. Along every line that is one White marker in three,
/// so no colour runs longer than two.
fn fill_markers(mut setup: Setup, reserved: Bitboard, total: u32) -> Setup {
    let taken = setup.rings.white | setup.rings.black | setup.markers.white | setup.markers.black;
    let mut missing = total - (setup.markers.white | setup.markers.black).count();
    for p in Point::ALL {
        if missing == 0 {
            break;
        }
        if reserved.contains(p) || taken.contains(p) {
            continue;
        }
        if (p.col() + p.row()) % 3 == 0 {
            setup.markers.white.add(p);
        } else {
            setup.markers.black.add(p);
        }
        missing -= 1;
    }
    assert_eq!(missing, 0, "not enough room for {total} markers");
    setup
}

/// Columns a to d: the corner where the pool-exhaustion scenes are played, kept free of
/// filler markers.
fn corner() -> Bitboard {
    Point::ALL.into_iter().filter(|p| p.col() <= 3).collect()
}

/// One marker left in the pool. White's c6 slides to d6 and drops it on c6, above White
/// markers c2 c3 c4 and c5 (White, completing c2-c6, when `row` is set; Black
/// otherwise). White's spare rings stand on column a, Black's on column b; the filler
/// markers cover the board right of column d.
fn last_marker(removed_white: u8, removed_black: u8, row: bool, rules: Rules) -> Position {
    let white_rings = ["c6", "a2", "a3", "a4", "a5"];
    let black_rings = ["b3", "b4", "b5", "b6", "b7"];
    let (white_markers, black_markers) = if row {
        ("c2 c3 c4 c5", "")
    } else {
        ("c2 c3 c4", "c5")
    };
    let scene = Setup {
        removed: ByColor {
            white: removed_white,
            black: removed_black,
        },
        rules,
        ..setup(
            &white_rings[..5 - usize::from(removed_white)].join(" "),
            &black_rings[..5 - usize::from(removed_black)].join(" "),
            white_markers,
            black_markers,
        )
    };
    let pos = position(fill_markers(scene, corner(), 50));
    assert_eq!(pos.pool(), 1);
    assert_eq!(pos.stage(), Stage::Move);
    pos
}

#[test]
fn e2_the_last_marker_completing_a_row_refills_the_pool_and_play_goes_on() {
    let mut pos = last_marker(0, 0, true, Rules::STANDARD);
    play(&mut pos, "c6-d6");
    assert_eq!(pos.pool(), 0);
    assert!(
        !pos.is_over(),
        "the row is removed before the pool is checked"
    );
    assert_eq!(pos.stage(), AFTER);
    assert_eq!(legal(&pos), ["xc2-c6"]);
    play(&mut pos, "xc2-c6");
    assert_eq!(pos.pool(), 5);
    play(&mut pos, "xd6");
    assert!(!pos.is_over());
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(pos.pool(), 5);
    assert_eq!(pos.removed(Color::White), 1);
    assert!(!pos.legal_actions().is_empty());
}

#[test]
fn e2_exhaustion_decisive() {
    let mut pos = last_marker(1, 0, false, Rules::STANDARD);
    play(&mut pos, "c6-d6");
    assert_eq!(pos.pool(), 0);
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::PoolExhausted)
    );
    assert_eq!(pos.turn(), Color::Black, "Black could not take a marker");

    let mut pos = last_marker(0, 2, false, Rules::STANDARD);
    play(&mut pos, "c6-d6");
    assert_eq!(
        outcome(&pos),
        (Some(Color::Black), EndReason::PoolExhausted)
    );
}

#[test]
fn e2_exhaustion_draw() {
    let mut pos = last_marker(1, 1, false, Rules::STANDARD);
    play(&mut pos, "c6-d6");
    assert_eq!(outcome(&pos), (None, EndReason::PoolExhausted));
    assert_eq!(pos.outcome().unwrap().result(), "1/2-1/2");
    // Written and read back, the finished game is the same.
    let text = pos.to_fen();
    assert!(text.contains(" end "), "{text}");
    assert_eq!(fen(&text), pos);
}

/// White's rings a2 a3 a4 (two removed) are boxed in by Black's a5 b2 b3 b4 b5.
fn boxed_in_white() -> Position {
    position(Setup {
        removed: ByColor { white: 2, black: 0 },
        ..setup("a2 a3 a4", "a5 b2 b3 b4 b5", "", "")
    })
}

#[test]
fn e3_a_player_who_cannot_move_passes() {
    let mut pos = boxed_in_white();
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(legal(&pos), ["pass"]);
    assert_eq!(
        refused_token(&mut pos, "a2-a3"),
        IllegalReason::RingInTheWay
    );
    play(&mut pos, "pass");
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(pos.pool(), 51, "no marker is taken");
    assert_eq!(pos.ring_moves(), 0, "a pass is no ring move");
    assert!(!pos.legal_actions().is_empty());
    // Black may not pass: Black can move.
    assert_eq!(refused(&mut pos, Action::Pass), IllegalReason::CannotPass);
}

/// One marker left in the pool and Black to move, with White boxed in as in
/// [`boxed_in_white`]; the filler markers cover the board right of column d.
fn last_marker_white_boxed_in() -> Position {
    let scene = Setup {
        turn: Color::Black,
        ..boxed_in_white().to_setup()
    };
    let pos = position(fill_markers(scene, corner(), 50));
    assert_eq!(pos.pool(), 1);
    assert_eq!(pos.stage(), Stage::Move);
    assert!(!pos.can_move(Color::White));
    pos
}

#[test]
fn e2_e3_the_last_marker_ends_the_game_even_when_the_next_player_cannot_move() {
    // The rulebook: when the supply of markers is exhausted, the game ends. Black's
    // a5-b6 places the last marker and makes no row; White, boxed in (a5's marker still
    // walls a4 in), would have to pass, but the game is over before: no pass is offered.
    let mut pos = last_marker_white_boxed_in();
    play(&mut pos, "a5-b6");
    assert_eq!(pos.pool(), 0);
    assert!(!pos.can_move(Color::White) && pos.can_move(Color::Black));
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.stage(), Stage::Over);
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::PoolExhausted)
    );
    assert_eq!(pos.outcome().unwrap().result(), "1-0");
    assert!(pos.legal_actions().is_empty());
    assert_eq!(refused(&mut pos, Action::Pass), IllegalReason::GameOver);
    // Written and read back, the finished game is the same.
    let text = pos.to_fen();
    assert!(text.contains(" w end 2-0 "), "{text}");
    assert_eq!(fen(&text), pos);
    // The same board at the move stage is already the finished game.
    assert_eq!(fen(&text.replace(" end ", " move ")), pos);
}

#[test]
fn e2_the_last_marker_ends_the_game_when_the_next_player_can_move() {
    // The same scene, but Black's b5-b6 leaves a marker on b5 that a4 can jump to c6:
    // White could move now, and the game ends just the same (as it always did).
    let mut pos = last_marker_white_boxed_in();
    play(&mut pos, "b5-b6");
    assert_eq!(pos.pool(), 0);
    assert!(pos.can_move(Color::White));
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::PoolExhausted)
    );
    assert!(pos.legal_actions().is_empty());
}

#[test]
fn e2_the_last_marker_making_a_row_for_the_opponent_refills_the_pool_first() {
    // White's c5-e5 places the last marker and flips d5, completing Black's d3-d7
    // (R5: Black removes it at the start of Black's turn). The pool is empty while the
    // row is pending, and the game goes on; the removal refills it.
    let scene = setup(
        &format!("c5 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "d5",
        "d3 d4 d6 d7",
    );
    let mut pos = position(fill_markers(scene, corner() | set("e5"), 50));
    assert_eq!(pos.pool(), 1);
    play(&mut pos, "c5-e5");
    assert_eq!(pos.pool(), 0);
    assert_eq!((pos.turn(), pos.stage()), (Color::Black, BEFORE));
    assert!(!pos.is_over());
    play(&mut pos, "xd3-d7");
    assert_eq!(pos.pool(), 5);
    play(&mut pos, "xa2");
    assert_eq!((pos.turn(), pos.stage()), (Color::Black, Stage::Move));
    assert_eq!(pos.removed(Color::Black), 1);
    assert!(!pos.is_over());
}

#[test]
fn e3_several_passes_in_a_row() {
    let mut pos = boxed_in_white();
    // a5's marker still walls a4 in: the column ends at a5.
    for black in ["a5-b6", "b6-c7", "c7-c8"] {
        assert_eq!(legal(&pos), ["pass"]);
        play(&mut pos, "pass");
        play(&mut pos, black);
        assert_eq!(pos.turn(), Color::White);
        assert!(!pos.is_over());
    }
    assert_eq!(legal(&pos), ["pass"]);
    assert_eq!(pos.ring_moves(), 3);
    assert_eq!(pos.pool(), 48);
}

#[test]
fn e3_no_pass_while_a_ring_can_move() {
    let mut pos = Position::new();
    play(&mut pos, "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8");
    assert_eq!(refused(&mut pos, Action::Pass), IllegalReason::CannotPass);
    assert!(!pos.legal_actions().contains(&Action::Pass));
}

/// One ring each (targets of five, four removed each). White's g2 jumps f2..b2 to a2;
/// then a2 and Black's a3 are walled in by rings and by marker groups that reach the
/// edge. The markers are coloured as in [`fill_markers`].
fn both_walled_in_after_white_moves() -> Position {
    let lines = "b2 c2 d2 e2 f2 \
                 b3 c3 d3 e3 f3 g3 h3 \
                 c4 d5 e6 f7 g8 h9 i10 j11 \
                 b4 c5 d6 e7 f8 g9 h10 i11 \
                 a4 a5";
    let mut scene = Setup {
        removed: ByColor { white: 4, black: 4 },
        rules: Rules::STANDARD.with_targets(5, 5),
        ..setup("g2", "a3", "", "")
    };
    for p in lines.split(' ').map(pt) {
        if (p.col() + p.row()) % 3 == 0 {
            scene.markers.white.add(p);
        } else {
            scene.markers.black.add(p);
        }
    }
    position(scene)
}

#[test]
fn e4_neither_player_can_move_the_game_ends_at_once_without_a_pass() {
    let mut pos = both_walled_in_after_white_moves();
    assert_eq!(pos.stage(), Stage::Move);
    assert!(pos.can_move(Color::White));
    play(&mut pos, "g2-a2");
    assert!(!pos.can_move(Color::White) && !pos.can_move(Color::Black));
    assert_eq!(outcome(&pos), (None, EndReason::NoMoves));
    assert_eq!(refused(&mut pos, Action::Pass), IllegalReason::GameOver);

    // The same board at the move stage is already a finished game.
    let mut text = pos.to_fen();
    assert!(text.contains(" end "), "{text}");
    text = text.replace(" end ", " move ");
    let read = fen(&text);
    assert_eq!(read, pos);
    assert_eq!(outcome(&read), (None, EndReason::NoMoves));
}

#[test]
fn e4_decided_by_the_score() {
    // The walled-in board of the test above, with a second Black ring on k10 (Black has
    // removed only three) walled in by markers to the edge: k9 k8 k7, j10 … e10 and
    // j9 … b1. White wins 4-3.
    let mut pos = both_walled_in_after_white_moves();
    play(&mut pos, "g2-a2");
    let mut setup = pos.to_setup();
    setup.stage = Stage::Move;
    setup.removed.black = 3;
    setup.rings.black.add(pt("k10"));
    let walls = "k9 k8 k7 j10 i10 h10 g10 f10 e10 j9 i8 h7 g6 f5 e4 d3 c2 b1";
    for p in walls.split(' ').map(pt) {
        if (setup.markers.white | setup.markers.black).contains(p) {
            continue;
        }
        if (p.col() + p.row()) % 3 == 0 {
            setup.markers.white.add(p);
        } else {
            setup.markers.black.add(p);
        }
    }
    let pos = position(setup);
    assert_eq!(outcome(&pos), (Some(Color::White), EndReason::NoMoves));
}

// ---------------------------------------------------------------------------------------
// 6. Variants
// ---------------------------------------------------------------------------------------

#[test]
fn v1_standard_target_is_three() {
    assert_eq!(Rules::STANDARD.targets, ByColor { white: 3, black: 3 });
    assert_eq!(Rules::STANDARD.turn_limit, None);
    assert_eq!(Position::new().rules(), &Rules::STANDARD);
    // Two removed rings are not yet a win.
    let mut pos = rows_for_both(1, 1, Rules::STANDARD);
    play(&mut pos, "e1-e4 xc2-g2 xe4 xc3-g3 xk7");
    assert!(!pos.is_over());
    assert_eq!(pos.removed(Color::White), 2);
}

#[test]
fn v2_blitz_first_row_wins() {
    let mut pos = position(Setup {
        rules: Rules::BLITZ,
        ..setup(
            &format!("c6 {WHITE_SPARES}"),
            &format!("a2 {BLACK_SPARES}"),
            "c2 c3 c4 c5",
            "",
        )
    });
    play(&mut pos, "c6-d6 xc2-c6 xd6");
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::TargetReached)
    );
}

#[test]
fn v2_blitz_a_row_made_only_for_the_opponent_makes_the_opponent_win() {
    let mut pos = position(Setup {
        rules: Rules::BLITZ,
        ..setup(
            &format!("c5 {WHITE_SPARES}"),
            &format!("a2 {BLACK_SPARES}"),
            "d5",
            "d3 d4 d6 d7",
        )
    });
    play(&mut pos, "c5-e5 xd3-d7 xk7");
    assert_eq!(
        outcome(&pos),
        (Some(Color::Black), EndReason::TargetReached)
    );
}

#[test]
fn v2_blitz_rows_for_both_the_mover_wins() {
    let mut pos = rows_for_both(0, 0, Rules::BLITZ);
    play(&mut pos, "e1-e4 xc2-g2 xg11");
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::TargetReached)
    );
}

#[test]
fn v2_blitz_exhaustion_at_nothing_each_is_a_draw() {
    let mut pos = last_marker(0, 0, false, Rules::BLITZ);
    play(&mut pos, "c6-d6");
    assert_eq!(outcome(&pos), (None, EndReason::PoolExhausted));
}

#[test]
fn v3_handicap_each_player_has_their_own_target() {
    // Black (target 2) has one ring; White (target 3) has none. One move gives both a
    // row: White removes first and does not win, then Black reaches 2 and wins.
    let rules = Rules::STANDARD.with_targets(3, 2);
    assert_eq!(rules.variant(), None);
    let mut pos = rows_for_both(0, 1, rules);
    play(&mut pos, "e1-e4 xc2-g2 xe4");
    assert!(!pos.is_over());
    assert_eq!(pos.turn(), Color::Black);
    play(&mut pos, "xc3-g3 xk7");
    assert_eq!(
        outcome(&pos),
        (Some(Color::Black), EndReason::TargetReached)
    );

    // Under the standard rules the same position plays on.
    let mut standard = rows_for_both(0, 1, Rules::STANDARD);
    play(&mut standard, "e1-e4 xc2-g2 xe4 xc3-g3 xk7");
    assert!(!standard.is_over());

    // A target of 2 for White: White's second ring wins.
    let mut pos = rows_for_both(1, 0, Rules::STANDARD.with_targets(2, 3));
    play(&mut pos, "e1-e4 xc2-g2 xe4");
    assert_eq!(
        outcome(&pos),
        (Some(Color::White), EndReason::TargetReached)
    );

    // The targets travel in the position string.
    let text = rows_for_both(0, 1, rules).to_fen();
    assert!(text.contains(" 0-1 3-2 "), "{text}");
    assert_eq!(fen(&text).rules(), &rules);
}

#[test]
fn v3_targets_outside_one_to_five_are_refused() {
    for (w, b) in [(0, 3), (3, 0), (6, 3), (3, 6)] {
        let rules = Rules::STANDARD.with_targets(w, b);
        assert!(!rules.is_valid());
        assert_eq!(
            Position::from_setup(Setup::empty(rules)),
            Err(SetupError::InvalidRules)
        );
    }
    assert!(Rules::STANDARD.with_targets(1, 5).is_valid());
}

#[test]
fn v4_turn_limit_ends_the_game_after_the_agreed_ring_moves() {
    let rules = Rules::STANDARD.with_turn_limit(Some(3));
    let mut pos = Position::with_rules(rules);
    play(&mut pos, "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8");
    play(&mut pos, "e3-e2 e4-e5");
    assert!(!pos.is_over());
    play(&mut pos, "b5-b4");
    assert_eq!(pos.ring_moves(), 3);
    assert_eq!(outcome(&pos), (None, EndReason::TurnLimit));
    assert_eq!(
        Position::from_setup(Setup::empty(Rules::STANDARD.with_turn_limit(Some(0)))),
        Err(SetupError::InvalidRules)
    );
}

#[test]
fn v4_turn_limit_scored_after_the_last_moves_removals() {
    // The limiting move makes a row: it is removed (and scores) before the game ends.
    let mut pos = position(Setup {
        ring_moves: 9,
        rules: Rules::STANDARD.with_turn_limit(Some(10)),
        ..setup(
            &format!("c6 {WHITE_SPARES}"),
            &format!("a2 {BLACK_SPARES}"),
            "c2 c3 c4 c5",
            "",
        )
    });
    assert!(pos.to_fen().ends_with(" 9/10"), "{}", pos.to_fen());
    play(&mut pos, "c6-d6");
    assert_eq!(pos.stage(), AFTER);
    play(&mut pos, "xc2-c6 xd6");
    assert_eq!(outcome(&pos), (Some(Color::White), EndReason::TurnLimit));
    // A pass does not count as a ring move.
    let mut boxed = position(Setup {
        ring_moves: 4,
        rules: Rules::STANDARD.with_turn_limit(Some(5)),
        ..boxed_in_white().to_setup()
    });
    play(&mut boxed, "pass");
    assert!(!boxed.is_over());
    play(&mut boxed, "a5-b6");
    assert_eq!(outcome(&boxed), (Some(Color::White), EndReason::TurnLimit));
}

// ---------------------------------------------------------------------------------------
// Setups that are not positions, and refused actions
// ---------------------------------------------------------------------------------------

#[test]
fn setup_errors() {
    let base = setup(
        &format!("c6 {WHITE_SPARES}"),
        &format!("a2 {BLACK_SPARES}"),
        "",
        "",
    );
    assert!(Position::from_setup(base).is_ok());

    let mut s = base;
    s.rings.white.add(pt("e5"));
    assert_eq!(
        Position::from_setup(s),
        Err(SetupError::TooManyRings(Color::White))
    );
    let mut s = base;
    s.removed.black = 1;
    assert_eq!(
        Position::from_setup(s),
        Err(SetupError::TooManyRings(Color::Black))
    );
    let mut s = base;
    s.rings.white.remove(pt("c6"));
    assert_eq!(
        Position::from_setup(s),
        Err(SetupError::TooFewRings(Color::White))
    );

    // 52 markers: one more than exist.
    let s = fill_markers(base, Bitboard::EMPTY, 52);
    assert_eq!(Position::from_setup(s), Err(SetupError::TooManyMarkers(52)));
    let s = fill_markers(base, Bitboard::EMPTY, 51);
    let full = position(s);
    assert_eq!(full.pool(), 0);
    assert_eq!(
        full.outcome().map(|o| o.reason),
        Some(EndReason::PoolExhausted)
    );

    // Two pieces on one point.
    let mut s = base;
    s.markers.white.add(pt("c6"));
    assert_eq!(Position::from_setup(s), Err(SetupError::Overlap(pt("c6"))));
    let mut s = base;
    s.markers.white.add(pt("e5"));
    s.markers.black.add(pt("e5"));
    assert_eq!(Position::from_setup(s), Err(SetupError::Overlap(pt("e5"))));

    // A row already on the board at the move stage, of either player.
    let mut s = base;
    s.markers.black = set("e3 e4 e5 e6 e7");
    assert!(matches!(
        Position::from_setup(s),
        Err(SetupError::RowOnBoard(row)) if row.to_string() == "e3-e7"
    ));
    let mut s = base;
    s.markers.white = set("e3 f4 g5 h6 i7");
    assert!(matches!(
        Position::from_setup(s),
        Err(SetupError::RowOnBoard(_))
    ));
    // …and of the player who removes second, while the first removes theirs.
    let mut s = base;
    s.stage = BEFORE;
    s.markers.white = set("e3 e4 e5 e6 e7");
    s.markers.black = set("g3 g4 g5 g6 g7");
    assert!(matches!(
        Position::from_setup(s),
        Err(SetupError::RowOnBoard(_))
    ));
    // The mover may see the opponent's row while removing their own.
    s.stage = AFTER;
    assert!(Position::from_setup(s).is_ok());
    // A row removal without a row.
    let mut s = base;
    s.stage = AFTER;
    assert_eq!(Position::from_setup(s), Err(SetupError::NoRowToRemove));

    // Ring placement: alternate, White first.
    let place = |white: &str, black: &str, turn: Color| Setup {
        rings: ByColor {
            white: set(white),
            black: set(black),
        },
        turn,
        ..Setup::empty(Rules::STANDARD)
    };
    assert!(Position::from_setup(place("e3", "a5", Color::White)).is_ok());
    assert!(Position::from_setup(place("e3 b5", "a5", Color::Black)).is_ok());
    assert_eq!(
        Position::from_setup(place("e3", "a5", Color::Black)),
        Err(SetupError::PlacementOrder)
    );
    assert_eq!(
        Position::from_setup(place("", "a5", Color::White)),
        Err(SetupError::PlacementOrder)
    );
    assert_eq!(
        Position::from_setup(place("e3 b5", "", Color::Black)),
        Err(SetupError::PlacementOrder)
    );
    let mut s = place("e3", "a5", Color::White);
    s.markers.white.add(pt("c3"));
    assert_eq!(
        Position::from_setup(s),
        Err(SetupError::PiecesDuringPlacement)
    );
    // The tenth ring placed: White's move is due.
    let all = position(place("e3 b5 d6 h7 g3", "a5 c6 e4 g2 g8", Color::White));
    assert_eq!(all.stage(), Stage::Move);
    assert_eq!(all.turn(), Color::White);

    // Targets already reached.
    let mut s = base;
    s.removed.white = 3;
    s.rings.white = set("g11 h11");
    assert_eq!(
        Position::from_setup(s),
        Err(SetupError::TargetAlreadyReached(Color::White))
    );
    s.stage = Stage::Over;
    assert_eq!(
        position(s).outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::White), EndReason::TargetReached))
    );
    s.removed.black = 3;
    s.rings.black = set("k7 k8");
    assert_eq!(Position::from_setup(s), Err(SetupError::BothReachedTarget));
    // Over, but nothing ends the game.
    let mut s = base;
    s.stage = Stage::Over;
    assert_eq!(Position::from_setup(s), Err(SetupError::NotOver));
}

#[test]
fn position_strings_of_the_test_scenes() {
    // The position strings of some of the scenes above, written out once so that a
    // reader can paste them into other tools.
    let rows_for_both = rows_for_both(0, 0, Rules::STANDARD);
    assert_eq!(
        rows_for_both.to_fen(),
        "B3/7/1wb5/1wb6/Wbw7/wb7/wb7W/8W/7W/6W/BBBB w move 0-0 3-3 0"
    );
    assert_eq!(
        fen("B3/7/1wb5/1wb6/Wbw7/wb7/wb7W/8W/7W/6W/BBBB w move 0-0 3-3 0"),
        rows_for_both
    );
}

#[test]
fn illegal_actions_leave_the_position_unchanged() {
    let mut pos = rows_for_both(0, 0, Rules::STANDARD);
    // Move stage.
    assert_eq!(
        refused_token(&mut pos, "f6"),
        IllegalReason::WrongStage(Stage::Move)
    );
    assert_eq!(
        refused_token(&mut pos, "xc2-g2"),
        IllegalReason::WrongStage(Stage::Move)
    );
    assert_eq!(
        refused_token(&mut pos, "xe1"),
        IllegalReason::WrongStage(Stage::Move)
    );
    assert_eq!(refused_token(&mut pos, "a2-a3"), IllegalReason::NotOwnRing);
    assert_eq!(refused_token(&mut pos, "e2-e4"), IllegalReason::NotOwnRing);
    assert_eq!(
        refused_token(&mut pos, "e1-e2"),
        IllegalReason::LandsOnMarker
    );
    assert_eq!(
        refused_token(&mut pos, "e1-e5"),
        IllegalReason::MustStopAfterMarkers
    );
    assert_eq!(refused_token(&mut pos, "e1-f3"), IllegalReason::NotALine);
    assert_eq!(refused(&mut pos, Action::Pass), IllegalReason::CannotPass);
    // Row stage.
    play(&mut pos, "e1-e4");
    assert_eq!(
        refused_token(&mut pos, "e4-e5"),
        IllegalReason::WrongStage(AFTER)
    );
    assert_eq!(refused_token(&mut pos, "xc3-g3"), IllegalReason::NotOwnRow);
    assert_eq!(refused_token(&mut pos, "xb2-f2"), IllegalReason::NotOwnRow);
    assert_eq!(
        refused_token(&mut pos, "xe4"),
        IllegalReason::WrongStage(AFTER)
    );
    assert_eq!(
        refused(&mut pos, Action::Pass),
        IllegalReason::WrongStage(AFTER)
    );
    // Ring stage.
    play(&mut pos, "xc2-g2");
    assert_eq!(refused_token(&mut pos, "xa2"), IllegalReason::NotOwnRing);
    assert_eq!(refused_token(&mut pos, "xe1"), IllegalReason::NotOwnRing);
    assert_eq!(
        refused_token(&mut pos, "xc3-g3"),
        IllegalReason::WrongStage(RING_AFTER)
    );
    assert_eq!(
        refused_token(&mut pos, "e4-e5"),
        IllegalReason::WrongStage(RING_AFTER)
    );
    // The refusals changed nothing: the game goes on exactly as before.
    play(&mut pos, "xe4 xc3-g3 xk7");
    assert_eq!(pos.stage(), Stage::Move);
    assert_eq!(pos.turn(), Color::Black);
}
