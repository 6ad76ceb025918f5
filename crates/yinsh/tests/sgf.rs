//! Import of boardspace.net SGF records (RULES.md §7), pinned by five real games.

use yinsh::notation::record::{Record, Termination};
use yinsh::notation::sgf::{self, SgfError};
use yinsh::notation::token::parse_list;
use yinsh::{Action, Color, Point, Position, Variant};

use crate::notation::LAST_MARKER_GAME;

/// A fixture from `fixtures/boardspace/`, with what the import must give.
struct Game {
    file: &'static str,
    text: &'static str,
    white: &'static str,
    black: &'static str,
    date: &'static str,
    /// Removed rings, White then Black.
    score: (u8, u8),
    winner: Color,
    termination: Termination,
}

const GAMES: [Game; 5] = [
    Game {
        file: "Y-BraveCombo-Dumbot-2026-03-20-0237.sgf",
        text: include_str!("fixtures/boardspace/Y-BraveCombo-Dumbot-2026-03-20-0237.sgf"),
        white: "BraveCombo",
        black: "Dumbot",
        date: "2026.03.19",
        score: (2, 3),
        winner: Color::Black,
        termination: Termination::TargetReached,
    },
    Game {
        file: "Y-DrMih-Dumbot-2026-02-20-0858.sgf",
        text: include_str!("fixtures/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf"),
        white: "DrMih",
        black: "Dumbot",
        date: "2026.02.20",
        score: (2, 3),
        winner: Color::Black,
        termination: Termination::TargetReached,
    },
    Game {
        file: "Y-DrMih-Dumbot-2026-02-23-1415.sgf",
        text: include_str!("fixtures/boardspace/Y-DrMih-Dumbot-2026-02-23-1415.sgf"),
        white: "DrMih",
        black: "Dumbot",
        date: "2026.02.23",
        score: (3, 1),
        winner: Color::White,
        termination: Termination::TargetReached,
    },
    Game {
        file: "Y-phiulbrich-BestBot-2026-03-21-2221.sgf",
        text: include_str!("fixtures/boardspace/Y-phiulbrich-BestBot-2026-03-21-2221.sgf"),
        white: "phiulbrich",
        black: "BestBot",
        date: "2026.03.21",
        score: (1, 1),
        winner: Color::Black,
        termination: Termination::Resignation,
    },
    Game {
        file: "Y-BestBot-BOkpc-2026-03-13-1856.sgf",
        text: include_str!("fixtures/boardspace/Y-BestBot-BOkpc-2026-03-13-1856.sgf"),
        white: "BestBot",
        black: "BOkpc",
        date: "2026.03.13",
        score: (0, 0),
        winner: Color::White,
        termination: Termination::Resignation,
    },
];

fn import(game: &Game) -> Record {
    sgf::import(game.text).unwrap_or_else(|e| panic!("{}: {e}", game.file))
}

#[test]
fn every_fixture_replays_to_its_final_score() {
    for game in &GAMES {
        let record = import(game);
        let pos = record
            .replay()
            .unwrap_or_else(|e| panic!("{}: {e}", game.file));
        let score = (pos.removed(Color::White), pos.removed(Color::Black));
        assert_eq!(score, game.score, "{}", game.file);
        assert_eq!(
            record.rules.variant(),
            Some(Variant::Standard),
            "{}",
            game.file
        );
    }
}

#[test]
fn every_fixture_has_its_players_date_and_result() {
    for game in &GAMES {
        let record = import(game);
        assert_eq!(record.white, game.white, "{}", game.file);
        assert_eq!(record.black, game.black, "{}", game.file);
        assert_eq!(record.date, game.date, "{}", game.file);
        assert_eq!(record.header("Site"), Some("boardspace.net"));
        assert_eq!(
            record.header("GameName"),
            game.file.strip_suffix(".sgf"),
            "{}",
            game.file
        );
        let result = record.result.expect("every fixture is finished");
        assert_eq!(result.winner, Some(game.winner), "{}", game.file);
        assert_eq!(result.termination, game.termination, "{}", game.file);
        let over = record.replay().unwrap().is_over();
        assert_eq!(over, game.termination == Termination::TargetReached);
    }
}

#[test]
fn every_fixture_round_trips_through_the_record_format() {
    for game in &GAMES {
        let record = import(game);
        let text = record.to_string();
        let back = Record::parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", game.file));
        assert_eq!(back, record, "{}", game.file);
        assert_eq!(back.to_string(), text);
    }
}

#[test]
fn both_kinds_of_ring_move_are_read() {
    // `place w G 11` + `drop board G 9` (a human) and `move C 6 C 1` (a robot).
    let record = import(&GAMES[1]);
    let tokens: Vec<String> = record.actions.iter().map(|a| a.to_string()).collect();
    assert_eq!(&tokens[10..12], ["g11-g9", "c6-c1"]);
}

#[test]
fn a_row_in_either_end_order_is_read() {
    // `remove w E 8 A 4` names the row from its upper end.
    let record = import(&GAMES[0]);
    assert!(
        record.actions.iter().any(|a| a.to_string() == "xa4-e8"),
        "{:?}",
        record.actions
    );
}

#[test]
fn blitz_and_start_black_are_understood() {
    let text = "(;GM[24]SU[Yinsh-Blitz]P0[id \"ann\"]P1[id \"bob\"]DT[2024-05-06]\
                ;P1[0 Start Black];P1[1 place wr E 3];P0[2 place br A 5])";
    let record = sgf::import(text).unwrap();
    assert_eq!(record.rules.variant(), Some(Variant::Blitz));
    assert_eq!(record.white, "bob");
    assert_eq!(record.black, "ann");
    assert_eq!(record.date, "2024.05.06");
    assert_eq!(record.result, None);
    assert_eq!(record.actions.len(), 2);
}

/// The BestBot–BOkpc game cut before the resignation, with one node replaced.
fn with_node(number: u32, replacement: &str) -> String {
    let game = &GAMES[4];
    let prefix = format!("; P0[{number} ");
    let alt = format!("; P1[{number} ");
    game.text
        .lines()
        .map(|line| {
            if line.starts_with(&prefix) || line.starts_with(&alt) {
                replacement.to_owned()
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn move_error(text: &str) -> (u32, String) {
    match sgf::import(text) {
        Err(SgfError::Move { number, reason, .. }) => (number, reason),
        other => panic!("expected a move error, got {other:?}"),
    }
}

#[test]
fn malformed_sgf_is_refused() {
    for bad in [
        "",
        "GM[24]",
        "(;GM[24]SU[Yinsh]",
        "(;GM[24]SU[Yinsh];P0[1 place wr E 3]",
        "(;GM[24]SU[Yinsh]P0[1 place wr E 3]])",
    ] {
        assert!(
            matches!(sgf::import(bad), Err(SgfError::Syntax { .. })),
            "{bad:?}"
        );
    }
    assert!(matches!(
        sgf::import("(;GM[1]SU[Go])"),
        Err(SgfError::Game { .. })
    ));
    assert!(matches!(
        sgf::import("(;GM[24]SU[Yinsh-Giant])"),
        Err(SgfError::Game { .. })
    ));
}

#[test]
fn bad_moves_are_refused_with_their_number() {
    let (n, why) = move_error(&with_node(5, "; P0[5 jump wr  F 2]"));
    assert_eq!((n, why.as_str()), (5, "unknown command 'jump'"));

    let (n, why) = move_error(&with_node(5, "; P0[5 place wr  G 2]"));
    assert_eq!(n, 5);
    assert_eq!(why, "illegal action g2: the point is occupied");

    let (n, why) = move_error(&with_node(5, "; P0[5 place br  F 2]"));
    assert_eq!((n, why.as_str()), (5, "white cannot use black pieces"));

    let (n, why) = move_error(&with_node(5, "; P1[5 place br  F 2]"));
    assert_eq!((n, why.as_str()), (5, "it is white's turn, not black's"));

    let (n, why) = move_error(&with_node(5, "; P0[5 place wr  Z 2]"));
    assert_eq!((n, why.as_str()), (5, "Z 2 is not a point of the board"));

    let (n, why) = move_error(&with_node(5, "; P0[5 place wr]"));
    assert_eq!(
        (n, why.as_str()),
        (5, "expected place <object> <column> <row>")
    );

    let (n, why) = move_error(&with_node(21, "; P0[21 move E 1 E 9]"));
    assert_eq!(n, 21);
    assert!(why.starts_with("illegal action e1-e9"), "{why}");

    let (n, why) = move_error(&with_node(21, "; P0[21 drop board  E 2]"));
    assert_eq!((n, why.as_str()), (21, "a drop without a lifted ring"));

    let (n, why) = move_error(&with_node(24, "; P1[24 move C 6 C 5]"));
    assert_eq!((n, why.as_str()), (24, "a command after a resignation"));

    let err = sgf::import(&with_node(5, "; P0[5 jump wr  F 2]")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "node 6 (line 16), move 5 'jump wr F 2': unknown command 'jump'"
    );
}

#[test]
fn a_game_ending_with_a_lifted_ring_is_refused() {
    let text = "(;GM[24]SU[Yinsh];P0[1 place wr E 3];P1[2 place br A 5]\
                ;P0[3 place wr B 5];P1[4 place br C 6];P0[5 place wr D 6]\
                ;P1[6 place br E 4];P0[7 place wr H 7];P1[8 place br G 2]\
                ;P0[9 place wr G 3];P1[10 place br G 8];P0[11 place w G 3])";
    assert!(matches!(sgf::import(text), Err(SgfError::Syntax { .. })));
    let done = text.replace(")", ";P0[12 drop board G 6])");
    let record = sgf::import(&done).unwrap();
    assert_eq!(record.actions.last().unwrap().to_string(), "g3-g6");
}

#[test]
fn the_winner_is_the_one_boardspace_names() {
    for game in &GAMES {
        let record = import(game);
        let winner = match record.result.and_then(|r| r.winner) {
            Some(Color::White) => &record.white,
            Some(Color::Black) => &record.black,
            None => panic!("{}: no winner", game.file),
        };
        let re = game
            .text
            .lines()
            .find_map(|l| l.strip_prefix("RE["))
            .expect("every fixture has RE");
        assert!(re.contains(winner.as_str()), "{}: {re}", game.file);
    }
}

#[test]
fn no_prefix_or_damage_of_a_fixture_panics() {
    for (n, game) in GAMES.iter().enumerate() {
        let step = if n == 4 { 1 } else { 7 };
        let cuts: Vec<usize> = game.text.char_indices().map(|(i, _)| i).collect();
        for &i in cuts.iter().step_by(step) {
            let _ = sgf::import(&game.text[..i]);
            let damaged = format!("{}]{}", &game.text[..i], &game.text[i..]);
            let _ = sgf::import(&damaged);
        }
    }
    let odd = "(;GM[24]SU[Yinsh]DT[Пт фев 20 11:58:00 MSK 2026]P0[id \"Ёж\"];P0[1 place wr Ж 2])";
    assert!(sgf::import(odd).is_err());
}

/// A boardspace point: `F 6`.
fn sgf_point(p: Point) -> String {
    let name = p.to_string();
    let (col, row) = name.split_at(1);
    format!("{} {row}", col.to_uppercase())
}

/// A game written the way boardspace writes one, White as P0.
fn to_sgf(tokens: &str) -> String {
    let mut text = String::from("(;GM[24]SU[Yinsh]P0[id \"a\"]P1[id \"b\"]\n; P0[0 Start White]\n");
    let mut pos = Position::new();
    for (n, action) in parse_list(tokens).unwrap().into_iter().enumerate() {
        let (player, own) = match pos.turn() {
            Color::White => ("P0", "w"),
            Color::Black => ("P1", "b"),
        };
        let command = match action {
            Action::Place(p) => format!("place {own}r {}", sgf_point(p)),
            Action::Move { from, to } => format!("move {} {}", sgf_point(from), sgf_point(to)),
            Action::RemoveRow(row) => {
                format!(
                    "remove {own} {} {}",
                    sgf_point(row.start()),
                    sgf_point(row.end())
                )
            }
            Action::RemoveRing(p) => format!("remove {own}r {}", sgf_point(p)),
            Action::Pass => "Pass".to_owned(),
        };
        text.push_str(&format!("; {player}[{} {command}]\n", n + 1));
        pos.play(action).unwrap();
    }
    text.push(')');
    text
}

#[test]
fn a_pass_after_the_last_marker_is_refused() {
    // As in the record format (tests/notation.rs): the last marker ends the game at
    // once (RULES.md E2/E3), and a pass of the boxed-in player after it is refused.
    let tokens = format!("{LAST_MARKER_GAME} f3-e3");
    let text = to_sgf(&tokens);
    let record = sgf::import(&text).unwrap_or_else(|e| panic!("{e}"));
    let result = record.result.unwrap();
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(result.termination, Termination::PoolExhausted);
    assert_eq!(record.actions, parse_list(&tokens).unwrap());

    let n = record.actions.len() + 1;
    let with_pass = text.replace(")", &format!("; P1[{n} Pass]\n)"));
    let (number, reason) = move_error(&with_pass);
    assert_eq!(
        (number as usize, reason.as_str()),
        (n, "the game is already over")
    );
}
