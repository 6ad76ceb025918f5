//! Turns, position strings and game records (RULES.md §7), from outside the crate.

use proptest::prelude::*;
use yinsh::notation::record::{GameResult, Record, RecordError, Termination, TimeControl};
use yinsh::notation::token::parse_list;
use yinsh::notation::turn::{self, NumberedTurn, Turn};
use yinsh::random::{SplitMix64, random_action};
use yinsh::{Action, Color, IllegalReason, Position, Rules, Stage};

use crate::support::{after, after_in};

/// White builds c3–c7 with one ring and takes it with k10 (an own row, "after").
const OWN_ROW: &str = "c3 a2 k10 a5 i4 b7 j5 e10 g2 h11 c3-c4 a2-a3 c4-c5 a3-a4 c5-c6 \
                       b7-b6 c6-c7 e10-e9 c7-c8 xc3-c7 xk10 a4-b4";

/// Black's 18th turn b5-d5 flips c5 and completes White's row c3–c7, which White
/// removes before their own ring move (a row "before").
const FORCED_ROW: &str = "c3 c5 c6 a2 k10 e10 i4 h11 j5 a5 c3-c4 c5-b5 c4-b4 a2-a3 \
                          c6-c7 a3-a4 c7-c8 b5-d5 xc3-c7 xk10 b4-b3";

/// A standard game (from a seeded game that walls Black in; Black passes twice on the
/// way, RULES.md E3): one marker is left, and White's `f3-e3` places it without making
/// a row and leaves Black, 2 rings to 0 ahead, without a ring move. The game ends there
/// (E2/E3): Black wins.
pub const LAST_MARKER_GAME: &str = "h6 e3 h3 j8 g10 k8 d4 g4 g6 g3 h3-h4 j8-g8 d4-e4 g8-c4 h6-h5 e3-e1 \
                                h5-d5 c4-c1 e4-e2 e1-d1 g10-g9 g3-d3 e2-c2 c1-d2 c2-b2 g4-g2 g9-f9 \
                                d1-b1 f9-f2 k8-f3 h4-j6 d3-f5 f2-i5 f5-f4 d5-g5 f4-i4 j6-i6 i4-j5 \
                                b2-b6 j5-j7 i6-i7 j7-k7 i7-g7 k7-k9 b6-b3 d2-a2 g7-f7 k9-k10 i5-i8 \
                                k10-j9 b3-a3 f3-c3 xf3-j7 xa2 a3-a2 j9-i9 g5-e5 i9-j10 f7-f10 j10-i10 \
                                a2-a4 i10-j11 a4-h11 c3-f3 i8-i6 f3-g4 xc3-g3 xb1 e5-h5 g4-g3 h5-f3 \
                                j11-i11 f10-h10 pass h11-g11 pass";

fn actions(tokens: &str) -> Vec<Action> {
    parse_list(tokens).unwrap_or_else(|e| panic!("{e}"))
}

fn turn_texts(tokens: &str) -> Vec<String> {
    turn::split(&Position::new(), &actions(tokens))
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn turns_of_rules_md_read_and_write() {
    for text in [
        "c3-c8;xc3-c7xk10",
        "xe7-i11xd9;i7-i11;xi6-i10xh4",
        "e3",
        "pass",
    ] {
        let t: Turn = text.parse().unwrap();
        assert_eq!(t.to_string(), text);
        assert_eq!(text.to_uppercase().parse::<Turn>().unwrap(), t);
    }
    let t: Turn = "xe7-i11xd9;i7-i11;xi6-i10xh4".parse().unwrap();
    assert_eq!(t.actions(), actions("xe7-i11 xd9 i7-i11 xi6-i10 xh4"));
    let t: NumberedTurn = "11.h7-g7".parse().unwrap();
    assert_eq!(t.color(), Color::White);
}

#[test]
fn an_own_row_stays_in_the_movers_turn() {
    let turns = turn_texts(OWN_ROW);
    assert_eq!(turns.len(), 20);
    assert_eq!(turns[0], "1.c3");
    assert_eq!(turns[18], "19.c7-c8;xc3-c7xk10");
    assert_eq!(turns[19], "20.a4-b4");
}

#[test]
fn a_forced_row_opens_the_opponents_turn() {
    let turns = turn_texts(FORCED_ROW);
    assert_eq!(turns[17], "18.b5-d5");
    assert_eq!(turns[18], "19.xc3-c7xk10;b4-b3");
    assert_eq!(turns.len(), 19);
}

#[test]
fn an_unfinished_list_may_stop_after_a_row() {
    let list = actions(OWN_ROW);
    let cut = &list[..20]; // … c7-c8 xc3-c7
    let turns = turn::split(&Position::new(), cut).unwrap();
    assert_eq!(turns.last().unwrap().to_string(), "19.c7-c8;xc3-c7");
    let record = Record::default().with_actions(cut.to_vec());
    let text = record.to_string();
    assert!(text.contains("19.c7-c8;xc3-c7 *"), "{text}");
    assert_eq!(Record::parse(&text).unwrap(), record);
}

#[test]
fn a_pass_is_a_turn_of_its_own() {
    // Black's last ring, on a2, is walled in by White's rings (handicap targets 5-5).
    let start = Position::from_fen("BW2/1WW4/8/9/10/9/10/9/8/7/WW2 b move 0-4 5-5 0").unwrap();
    let list = actions("pass k8-k10");
    let turns = turn::split(&start, &list).unwrap();
    let text: Vec<String> = turns.iter().map(ToString::to_string).collect();
    assert_eq!(text, ["2.pass", "3.k8-k10"]);
    assert!(turns[0].turn.is_pass());
    assert_eq!(turns[0].color(), Color::Black);
}

#[test]
fn position_strings_of_removals() {
    // Pinned for docs/notation.md.
    let list: Vec<&str> = OWN_ROW.split_whitespace().collect();
    let fen = |n: usize| after(&list[..n].join(" ")).to_fen();
    assert_eq!(fen(0), "4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0");
    assert_eq!(fen(10), "B2B/6B/2W5/9/9B/9/W9/8B/W7/W6/3W w move 0-0 3-3 0");
    assert_eq!(
        fen(19),
        "bbBB/5Bb/2wwwwwW/9/8Bb/9/W9/8B/W7/W6/3W w row-after 0-0 3-3 9"
    );
    assert_eq!(
        fen(20),
        "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/3W w ring-after 0-0 3-3 9"
    );
    assert_eq!(
        fen(21),
        "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b move 1-0 3-3 9"
    );
    let list: Vec<&str> = FORCED_ROW.split_whitespace().collect();
    let fen = |n: usize| after(&list[..n].join(" ")).to_fen();
    assert_eq!(
        fen(18),
        "bbBB/3Wb2/2wwwwwW/4B4/9B/9/10/8B/W7/W6/3W w row-before 0-0 3-3 8"
    );
    assert_eq!(
        fen(19),
        "bbBB/3Wb2/7W/4B4/9B/9/10/8B/W7/W6/3W w ring-before 0-0 3-3 8"
    );
    for n in 0..=list.len() {
        let pos = after(&list[..n].join(" "));
        assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
    }
}

#[test]
fn position_strings_of_other_rules() {
    // Pinned for docs/notation.md.
    let list: Vec<&str> = OWN_ROW.split_whitespace().collect();
    let blitz = after_in(Rules::BLITZ, &list[..21].join(" "));
    assert_eq!(
        blitz.to_fen(),
        "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 w end 1-0 1-1 9"
    );
    let rules = Rules::STANDARD.with_targets(2, 3).with_turn_limit(Some(40));
    let handicap = after_in(rules, &list[..12].join(" "));
    assert_eq!(
        handicap.to_fen(),
        "bB1B/6B/2wW4/9/9B/9/W9/8B/W7/W6/3W w move 0-0 2-3 2/40"
    );
}

const EXAMPLE: &str = r#"[White "alice"]
[Black "bob"]
[Date "2026.03.21"]
[Variant "standard"]
[TimeControl "10+5"]
[Result "1-0"]
[Termination "resignation"]
[Site "example.org"]

1.c3 2.c5 3.c6 4.a2 5.k10 6.e10 7.i4 8.h11 9.j5 10.a5 11.c3-c4 12.c5-b5 13.c4-b4
14.a2-a3 15.c6-c7 16.a3-a4 17.c7-c8 18.b5-d5 19.xc3-c7xk10;b4-b3 1-0
"#;

#[test]
fn the_example_record_reads_and_writes_back_exactly() {
    let record = Record::parse(EXAMPLE).unwrap();
    assert_eq!(record.white, "alice");
    assert_eq!(record.black, "bob");
    assert_eq!(record.date, "2026.03.21");
    assert_eq!(record.time_control, Some(TimeControl::minutes(10, 5)));
    assert_eq!(record.rules, Rules::STANDARD);
    assert_eq!(record.result, Some(GameResult::resignation(Color::Black)));
    assert_eq!(record.header("Site"), Some("example.org"));
    assert_eq!(record.actions, actions(FORCED_ROW));
    assert_eq!(record.to_string(), EXAMPLE);
    let pos = record.replay().unwrap();
    assert_eq!(pos.removed(Color::White), 1);
    assert_eq!(record.positions().unwrap().len(), record.actions.len() + 1);
    assert_eq!(record.turns().unwrap().len(), 19);
}

#[test]
fn records_are_read_leniently() {
    let text = "[white \"a\"]\n[BLACK \"b\"]\n[Variant \"Blitz\"]\n\
                1. E3 2. a5\n3.B5 c6\n*";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.white, "a");
    assert_eq!(record.black, "b");
    assert_eq!(record.rules, Rules::BLITZ);
    assert_eq!(record.actions, actions("e3 a5 b5 c6"));
    assert_eq!(record.result, None);
    // Headers only; no turns at all.
    let empty = Record::parse("").unwrap();
    assert_eq!(empty, Record::default());
    assert!(empty.to_string().ends_with("\n\n*\n"));
}

#[test]
fn rules_and_time_control_headers_round_trip() {
    let cases = [
        (Rules::STANDARD.with_targets(2, 3), "[Targets \"2-3\"]"),
        (Rules::BLITZ.with_turn_limit(Some(40)), "[TurnLimit \"40\"]"),
        (Rules::BLITZ.with_targets(1, 2), "[Targets \"1-2\"]"),
        (Rules::BLITZ, "[Variant \"blitz\"]"),
    ];
    for (rules, line) in cases {
        let record = Record::new(rules)
            .with_time_control(Some(TimeControl {
                initial_secs: 90,
                increment_secs: 2,
            }))
            .with_actions(actions("e3 a5"));
        let text = record.to_string();
        assert!(text.contains(line), "{text}");
        assert!(text.contains("[TimeControl \"90s+2\"]"), "{text}");
        assert_eq!(Record::parse(&text).unwrap(), record, "{text}");
    }
    let plain = Record::new(Rules::STANDARD).to_string();
    assert!(!plain.contains("Targets") && !plain.contains("TurnLimit"));
    assert!(plain.contains("[TimeControl \"-\"]"));
}

#[test]
fn other_headers_keep_their_order_and_escapes() {
    let record = Record::default()
        .with_players("a \"quoted\" name", "back\\slash")
        .with_header("Event", "club night\nround 2")
        .with_header("Round", "2")
        .with_header("Event", "again");
    let text = record.to_string();
    assert!(text.contains(r#"[White "a \"quoted\" name"]"#), "{text}");
    assert!(text.contains(r#"[Event "club night\nround 2"]"#), "{text}");
    let back = Record::parse(&text).unwrap();
    assert_eq!(back, record);
    assert_eq!(back.header("Event"), Some("club night\nround 2"));
    // Reserved or malformed names in `headers` are not written.
    let odd = Record::default()
        .with_header("Result", "1-0")
        .with_header("bad name", "x");
    assert_eq!(Record::parse(&odd.to_string()).unwrap().headers, []);
}

#[test]
fn results_must_agree_with_the_board() {
    // A blitz game that ends on the board: White's row wins.
    let mut rng = SplitMix64::new(7);
    let (list, pos) = random_game(Rules::BLITZ, &mut rng);
    let outcome = pos.outcome().unwrap();
    let record = Record::new(Rules::BLITZ)
        .with_actions(list.clone())
        .with_result(Some(outcome.into()));
    let text = record.to_string();
    assert_eq!(Record::parse(&text).unwrap(), record);

    let other = match outcome.winner {
        Some(Color::White) => "0-1",
        _ => "1-0",
    };
    let lie = text.replace(
        &format!("[Result \"{}\"]", outcome.result()),
        &format!("[Result \"{other}\"]"),
    );
    let lie = lie.replace(&format!(" {}\n", outcome.result()), &format!(" {other}\n"));
    let err = Record::parse(&lie).unwrap_err();
    assert!(matches!(err, RecordError::Result(_)), "{err}");
    assert!(
        err.to_string()
            .starts_with("bad result: the game ended on the board with")
    );

    // Unfinished on a finished board.
    let unfinished = Record::new(Rules::BLITZ).with_actions(list.clone());
    assert!(matches!(unfinished.replay(), Err(RecordError::Result(_))));
    assert!(Record::parse(&unfinished.to_string()).is_err());

    // A result without a Termination is taken from the board.
    let bare = format!(
        "[Variant \"blitz\"]\n[Result \"{}\"]\n\n{}",
        outcome.result(),
        text.split("\n\n").nth(1).unwrap()
    );
    assert_eq!(Record::parse(&bare).unwrap(), record);

    // A resignation after the end of the game is refused.
    let resigned = record
        .clone()
        .with_result(Some(GameResult::resignation(Color::Black)));
    assert!(resigned.replay().is_err());
}

#[test]
fn platform_results_need_an_unfinished_board() {
    let base = Record::default().with_actions(actions("e3 a5 b5"));
    for result in [
        GameResult::resignation(Color::White),
        GameResult::time(Color::Black),
        GameResult::agreed_draw(),
        GameResult {
            winner: None,
            termination: Termination::Abandoned,
        },
    ] {
        let record = base.clone().with_result(Some(result));
        record.replay().unwrap();
        assert_eq!(Record::parse(&record.to_string()).unwrap(), record);
    }
    for (result, why) in [
        (
            "1-0\"]\n[Termination \"target reached",
            "did not end on the board",
        ),
        (
            "1/2-1/2\"]\n[Termination \"resignation",
            "a resignation needs a winner",
        ),
        (
            "1-0\"]\n[Termination \"agreement",
            "an agreed result is a draw",
        ),
        ("1-0", "needs a Termination header"),
        (
            "*\"]\n[Termination \"time",
            "an unfinished game (result *) has no termination",
        ),
    ] {
        let text = format!("[Result \"{result}\"]\n\n1.e3 2.a5 3.b5");
        let err = Record::parse(&text).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
}

#[test]
fn bad_records_name_the_line_and_turn() {
    let err = |text: &str| Record::parse(text).unwrap_err().to_string();
    assert_eq!(
        err("[White \"a\"]\n\n1.e3 2.a5\n3.e3"),
        "line 4: turn 3: illegal action e3: the point is occupied"
    );
    assert_eq!(err("1.e3 3.a5"), "line 1: turn number 3, expected 2");
    assert_eq!(
        err("1.e3 2.a5 1-0 3.b5"),
        "line 1: '3.b5': nothing may follow the result token"
    );
    assert_eq!(
        err("[Result \"0-1\"]\n[Termination \"time\"]\n\n1.e3 1-0"),
        "line 4: '1-0': the result token disagrees with the Result header"
    );
    assert_eq!(
        err("[White \"a\"\n"),
        "line 1: bad header: expected [Name \"value\"]"
    );
    assert_eq!(
        err("[White \"a\"]\n[White \"b\"]"),
        "line 2: header White \"b\": the header appears twice"
    );
    assert_eq!(
        err("[Variant \"giant\"]"),
        "line 1: header Variant \"giant\": expected standard or blitz"
    );
    assert_eq!(
        err("[Targets \"3-9\"]"),
        "line 1: header Targets \"3-9\": targets are 1 to 5"
    );
    assert_eq!(
        err("[TurnLimit \"0\"]"),
        "line 1: header TurnLimit \"0\": expected a number of ring moves, at least 1"
    );
    assert_eq!(
        err("[TimeControl \"fast\"]"),
        "line 1: header TimeControl \"fast\": expected <minutes>+<seconds>, <seconds>s+<seconds> or -"
    );
    assert_eq!(
        err("1.e3 2.a5;b5"),
        "line 1: bad turn part 'b5': a turn has at most one placement, ring move or pass"
    );
    assert_eq!(
        err("1.e3 2."),
        "line 1: bad turn part '2.': a turn number must be followed by its turn"
    );
    // Turns cut in the wrong place: White's removal written in Black's turn.
    let own: Vec<String> = turn_texts(OWN_ROW);
    let mut wrong = own[..18].join(" ");
    wrong.push_str(" 19.c7-c8 20.xc3-c7xk10");
    assert_eq!(
        err(&wrong),
        "line 1: turn 20 is black's, but xc3-c7 is the other player's action"
    );
    // A row without its ring in the middle of the game.
    let mut lone = own[..18].join(" ");
    lone.push_str(" 19.c7-c8;xc3-c7 20.a4-b4");
    assert_eq!(
        err(&lone),
        "line 1: bad turn part '19.c7-c8;xc3-c7': only the last turn may end with a row removal without its ring"
    );
}

#[test]
fn records_with_illegal_actions_are_written_but_do_not_replay() {
    let record = Record::default().with_actions(actions("e3 a5 e3 b5"));
    let err = record.replay().unwrap_err();
    assert_eq!(
        err.to_string(),
        "turn 3: illegal action e3: the point is occupied"
    );
    assert!(record.positions().is_err());
    let text = record.to_string();
    assert!(text.contains("1.e3 2.a5 3.e3;b5 *"), "{text}");
    assert!(Record::parse(&text).is_err());
    let invalid = Record::new(Rules::STANDARD.with_targets(0, 3));
    assert_eq!(invalid.replay(), Err(RecordError::InvalidRules));
}

/// Plays a random game to its end; returns the actions and the final position.
fn random_game(rules: Rules, rng: &mut SplitMix64) -> (Vec<Action>, Position) {
    let mut pos = Position::with_rules(rules);
    let mut list = Vec::new();
    while let Some(a) = random_action(&pos, rng) {
        pos.play(a).unwrap();
        list.push(a);
    }
    (list, pos)
}

#[test]
fn random_games_split_write_and_read_back() {
    let rule_sets = [
        Rules::STANDARD,
        Rules::BLITZ,
        Rules::STANDARD.with_targets(2, 3),
        Rules::STANDARD.with_turn_limit(Some(30)),
        Rules::STANDARD.with_targets(5, 4),
    ];
    let mut forced_turns = 0;
    let mut rng = SplitMix64::new(2026);
    for game in 0..150 {
        let rules = rule_sets[game % rule_sets.len()];
        let (list, end) = random_game(rules, &mut rng);
        let start = Position::with_rules(rules);
        let turns = turn::split(&start, &list).unwrap();
        assert_eq!(
            turn::flatten(turns.iter().map(|t| &t.turn)),
            list,
            "actions survive the split"
        );
        // Turns alternate, numbered from 1, and each is its player's.
        let mut pos = start;
        for (i, t) in turns.iter().enumerate() {
            assert_eq!(t.number as usize, i + 1);
            assert_eq!(t.color(), pos.turn());
            if matches!(pos.stage(), Stage::RemoveRow { after_move: false }) {
                forced_turns += 1;
            }
            for &a in t.turn.actions() {
                assert_eq!(pos.turn(), t.color(), "{t}");
                pos.play(a).unwrap();
            }
            let text = t.to_string();
            assert_eq!(text.parse::<NumberedTurn>().unwrap(), *t, "{text}");
            assert_eq!(text.to_uppercase().parse::<NumberedTurn>().unwrap(), *t);
        }
        assert_eq!(pos, end);

        // The finished game, and the same game cut short and resigned.
        let record = Record::new(rules)
            .with_players("w", "b")
            .with_actions(list.clone())
            .with_result(end.outcome().map(GameResult::from));
        let text = record.to_string();
        assert!(
            text.lines().all(|l| l.len() <= 80 || !l.contains(' ')),
            "{text}"
        );
        assert_eq!(Record::parse(&text).unwrap(), record, "{text}");
        let cut = rng.below(list.len());
        let loser = record.positions().unwrap()[cut].turn();
        let short = Record::new(rules)
            .with_actions(list[..cut].to_vec())
            .with_result(Some(GameResult::resignation(loser)));
        assert_eq!(Record::parse(&short.to_string()).unwrap(), short);
    }
    assert!(forced_turns > 0, "no random game had a forced row");
}

#[test]
fn no_prefix_of_a_record_panics() {
    for (i, _) in EXAMPLE.char_indices() {
        let _ = Record::parse(&EXAMPLE[..i]);
    }
}

proptest! {
    #[test]
    fn arbitrary_turn_text_never_panics(text in "[a-kA-KxX0-9;.\\-]{0,24}|pass") {
        if let Ok(t) = text.parse::<Turn>() {
            prop_assert_eq!(t.to_string().parse::<Turn>().unwrap(), t);
        }
    }

    #[test]
    fn arbitrary_record_text_never_panics(text in "(\\[[A-Za-z]{0,6} \"[ -~]{0,8}\"\\]\n){0,3}\n?([0-9a-kx;.\\- ]{0,12}\n?){0,3}(1-0|0-1|\\*)?") {
        if let Ok(record) = Record::parse(&text) {
            prop_assert_eq!(Record::parse(&record.to_string()).unwrap(), record);
        }
    }
}

#[test]
fn an_illegal_action_inside_a_turn_is_written_in_that_turn() {
    // White's row removal is due; c4–c8 is not a row (c8 holds a ring).
    let mut list = actions(OWN_ROW);
    list.truncate(19);
    list.push("xc4-c8".parse().unwrap());
    let record = Record::default().with_actions(list);
    let text = record.to_string();
    assert!(text.contains(" 19.c7-c8;xc4-c8 *"), "{text}");
    let err = Record::parse(&text).unwrap_err().to_string();
    assert!(
        err.ends_with(
            "turn 19: illegal action xc4-c8: those points are not a row of the player's markers"
        ),
        "{err}"
    );
}

#[test]
fn a_pass_after_the_last_marker_is_refused() {
    // The last marker ends the game at once, also when the next player could not move
    // (RULES.md E2/E3). Records written under the old E3 had the boxed-in player pass
    // first; that pass is now an action after the end of the game and is refused.
    let end = after(&format!("{LAST_MARKER_GAME} f3-e3"));
    let list = actions(&format!("{LAST_MARKER_GAME} f3-e3"));
    assert!(!end.can_move(Color::Black));
    let outcome = end.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    let record = Record::default()
        .with_actions(list.clone())
        .with_result(Some(outcome.into()));
    assert_eq!(
        record.result.unwrap().termination,
        Termination::PoolExhausted
    );
    assert_eq!(record.replay().unwrap(), end);
    let text = record.to_string();
    assert!(text.contains("[Termination \"pool exhausted\"]"), "{text}");
    // Black, walled in, passed twice while markers were left (E3); the record ends with
    // White's last marker.
    let last = record.turns().unwrap().last().unwrap().number;
    assert!(text.contains("70.pass 71.h11-g11 72.pass "), "{text}");
    assert!(text.ends_with(&format!(" {last}.f3-e3 0-1\n")), "{text}");
    assert_eq!(Record::parse(&text).unwrap(), record);

    // The same record with the superfluous pass: Black's turn after White's last.
    let body = text.trim_end().strip_suffix("0-1").unwrap().trim_end();
    let old = format!("{body} {}.pass 0-1\n", last + 1);
    let line = old.lines().count();
    let err = Record::parse(&old).unwrap_err();
    match &err {
        RecordError::Illegal {
            line: at,
            turn,
            illegal,
        } => {
            assert_eq!((*at, *turn), (Some(line), last + 1));
            assert_eq!(illegal.action, Action::Pass);
            assert_eq!(illegal.reason, IllegalReason::GameOver);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        err.to_string(),
        format!(
            "line {line}: turn {}: illegal action pass: the game is over",
            last + 1
        )
    );
    // Replaying the actions refuses it the same way.
    let mut with_pass = list;
    with_pass.push(Action::Pass);
    let err = record.with_actions(with_pass).replay().unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("turn {}: illegal action pass: the game is over", last + 1)
    );
}

#[test]
fn records_from_a_position_name_it_and_number_turns_from_there() {
    // Random games cut anywhere, also inside a turn, continue as records of their own
    // whose start is the position at the cut.
    let mut rng = SplitMix64::new(14);
    let mut black_first = 0;
    for game in 0..60 {
        let rules = [Rules::STANDARD, Rules::BLITZ.with_turn_limit(Some(40))][game % 2];
        let (list, end) = random_game(rules, &mut rng);
        let cut = rng.below(list.len());
        let mut start = Position::with_rules(rules);
        for &a in &list[..cut] {
            start.play(a).unwrap();
        }
        let record = Record::new(Rules::STANDARD)
            .with_players("w", "b")
            .with_position(Some(start))
            .with_actions(list[cut..].to_vec())
            .with_result(end.outcome().map(GameResult::from));
        assert_eq!(record.rules, rules, "the position's rules are the record's");
        assert_eq!(record.replay().unwrap(), end);
        let text = record.to_string();
        assert!(
            text.contains(&format!("[Position \"{}\"]", start.to_fen())),
            "{text}"
        );
        let first = if start.turn() == Color::White {
            "\n\n1."
        } else {
            black_first += 1;
            "\n\n2."
        };
        assert!(text.contains(first), "{text}");
        assert_eq!(Record::parse(&text).unwrap(), record, "{text}");
    }
    assert!(black_first > 0);

    // A Position header whose rules the other headers contradict, or that is no legal
    // position, is refused with its line.
    let fen = "bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b move 1-0 3-3 9";
    let start = Position::from_fen(fen).unwrap();
    let reply = start.legal_actions()[0];
    let text = format!("[Variant \"blitz\"]\n[Position \"{fen}\"]\n\n{reply} *\n");
    assert!(matches!(
        Record::parse(&text),
        Err(RecordError::HeaderValue { line: 2, ref name, .. }) if name == "Position"
    ));
    let text = format!("[Variant \"standard\"]\n[Position \"{fen}\"]\n\n2.{reply} *\n");
    let record = Record::parse(&text).unwrap();
    assert_eq!(record.rules, Rules::STANDARD);
    assert_eq!(record.actions, vec![reply]);
    // Turn numbers count from the position: Black acts first, so 1 is wrong.
    let text = format!("[Position \"{fen}\"]\n\n1.{reply} *\n");
    assert!(matches!(
        Record::parse(&text),
        Err(RecordError::TurnNumber {
            found: 1,
            expected: 2,
            ..
        })
    ));
    assert!(Record::parse("[Position \"4/7/8 w place\"]\n\n*\n").is_err());
    // The example of docs/notation.md.
    let example = "[White \"alice\"]\n[Black \"bob\"]\n[Date \"2026.12.02\"]\n\
                   [Variant \"standard\"]\n[Position \"{fen}\"]\n[TimeControl \"-\"]\n\
                   [Result \"*\"]\n\n2.b6-b3 3.g2-g5 *\n"
        .replace("{fen}", fen);
    assert_eq!(Record::parse(&example).unwrap().to_string(), example);
    // Rules set by hand that differ from the position's do not replay.
    let mut odd = Record::new(Rules::STANDARD).with_position(Some(start));
    odd.rules = Rules::BLITZ;
    assert_eq!(odd.replay(), Err(RecordError::PositionRules));
}

#[test]
fn clock_times_follow_their_turns() {
    let record = Record::new(Rules::STANDARD)
        .with_actions(actions("e3 a5 b5"))
        .with_time_control(Some(TimeControl::minutes(5, 3)))
        .with_clocks(vec![Some(302_600), None, Some(7_000)]);
    let text = record.to_string();
    assert!(
        text.contains("1.e3 {[%clk 0:05:02.6]} 2.a5 3.b5 {[%clk 0:00:07]} *"),
        "{text}"
    );
    assert_eq!(Record::parse(&text).unwrap(), record);
    // Other comments are read past; a clock time belongs to the turn before it.
    let read = Record::parse("1.e3 {good start} 2.a5 {[%clk 1:00:00]} {[%clk 9:99:99]} *").unwrap();
    assert_eq!(read.actions, actions("e3 a5"));
    assert_eq!(read.clocks, vec![None, Some(3_600_000)]);
    // Without any clock time a record has none.
    assert!(Record::parse("1.e3 2.a5 *").unwrap().clocks.is_empty());
    // A comment cannot hide a turn's mistakes.
    assert!(Record::parse("1.e3 {x} 2.e3 *").is_err());
}

#[test]
fn files_of_records_read_one_after_the_other() {
    let one = Record::new(Rules::STANDARD)
        .with_players("a", "b")
        .with_actions(actions("e3 a5"));
    let two = Record::new(Rules::BLITZ)
        .with_players("c", "d")
        .with_actions(actions("e3"))
        .with_result(Some(GameResult::resignation(Color::Black)));
    let file = format!("{one}\n{two}\n");
    assert_eq!(Record::parse_all(&file).unwrap(), vec![one.clone(), two]);
    assert_eq!(Record::parse_all("").unwrap(), vec![]);
    let bad = format!("{one}\n[White \"x\"]\n\n1.e3 2.e3 *\n");
    assert_eq!(Record::parse_all(&bad).unwrap_err().0, 1);
}
