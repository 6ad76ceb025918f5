//! Import of boardspace.net SGF records.
//!
//! boardspace.net keeps YINSH games in an SGF dialect: the root node says `GM[24]`,
//! `SU[Yinsh]` or `SU[Yinsh-Blitz]`, names the players as `P0[id "name"]` and
//! `P1[id "name"]` and carries the date `DT[…]`; every further node holds one command
//! of one player, `P0[<n> <command>]` or `P1[<n> <command>]`, numbered from 0.
//!
//! | command | meaning |
//! |---|---|
//! | `Start White` / `Start Black` | P0 / P1 moves first, and so plays White |
//! | `place wr H 6` | ring placement (`br` for Black) |
//! | `place w G 11`, then `drop board G 9` | a ring move G11 → G9: the marker goes into the ring, then the ring moves |
//! | `move C 6 C 1` | a ring move in one command |
//! | `remove w B 1 B 5` | a row removal, ends in either order (`b` for Black) |
//! | `remove wr F 2` | a ring removal (`br` for Black) |
//! | `Pass` | a pass |
//! | `Resign` | the player of the node resigns |
//! | `Done` | ends a player's input; nothing to import |
//!
//! Points are named as in our notation (boardspace's column letters and row numbers are
//! ours). Commands are read in either case. Every action is replayed and must be legal
//! and played by the player to act. Properties that carry no game information (`TM`,
//! `P0[time …]`, `RE`, …) are skipped; the result comes from the board, or from a
//! resignation. Variations are ignored: the main line (the first branch) is imported.
//!
//! ```
//! use yinsh::notation::sgf;
//!
//! let text = "(;GM[24]SU[Yinsh]P0[id \"ann\"]P1[id \"bob\"]\
//!             ;P0[0 Start White];P0[1 place wr E 3];P0[2 Done];P1[3 place br A 5])";
//! let record = sgf::import(text).unwrap();
//! assert_eq!(record.white, "ann");
//! assert_eq!(record.actions.len(), 2);
//! ```

use std::fmt;

use crate::action::{Action, Row};
use crate::color::Color;
use crate::notation::record::{GameResult, Record, RecordError};
use crate::point::Point;
use crate::position::Position;
use crate::rules::{Rules, Variant};

/// Why an SGF text could not be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SgfError {
    /// The text is not well-formed SGF.
    Syntax {
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// The game is not a YINSH game of a supported kind.
    Game {
        /// The property, e.g. `GM` or `SU`.
        property: String,
        /// Its value.
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A move node cannot be imported: an unknown or malformed command, or an illegal
    /// action.
    Move {
        /// Index of the node in the main line (the root is node 0).
        node: usize,
        /// Line number of the node, from 1.
        line: usize,
        /// The move number boardspace wrote.
        number: u32,
        /// The command, with its spaces collapsed.
        command: String,
        /// What is wrong.
        reason: String,
    },
    /// The imported game is not a valid record.
    Record(RecordError),
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Syntax { line, reason } => write!(f, "line {line}: bad sgf: {reason}"),
            SgfError::Game {
                property,
                value,
                reason,
            } => write!(f, "{property}[{value}]: {reason}"),
            SgfError::Move {
                node,
                line,
                number,
                command,
                reason,
            } => write!(
                f,
                "node {node} (line {line}), move {number} '{command}': {reason}"
            ),
            SgfError::Record(e) => write!(f, "imported record: {e}"),
        }
    }
}

impl std::error::Error for SgfError {}

/// One SGF node: its line and its properties, each with its values.
#[derive(Debug)]
struct Node {
    line: usize,
    props: Vec<(String, Vec<String>)>,
}

impl Node {
    fn get(&self, ident: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|(id, _)| id == ident)
            .and_then(|(_, values)| values.first())
            .map(String::as_str)
    }
}

/// A reader of SGF text that keeps the main line of the first game tree.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn err(&self, reason: &'static str) -> SgfError {
        SgfError::Syntax {
            line: self.line,
            reason,
        }
    }

    /// Reads a game tree (after its `(`); appends its main line to `nodes` when `keep`.
    fn tree(&mut self, nodes: &mut Vec<Node>, keep: bool) -> Result<(), SgfError> {
        let mut first_child = true;
        loop {
            self.skip_space();
            match self.bump() {
                Some(';') => {
                    if !first_child {
                        return Err(self.err("a node after a variation"));
                    }
                    let node = self.node()?;
                    if keep {
                        nodes.push(node);
                    }
                }
                Some('(') => {
                    // Only the first variation is the main line.
                    self.tree(nodes, keep && first_child)?;
                    first_child = false;
                }
                Some(')') => return Ok(()),
                Some(_) => return Err(self.err("expected ';', '(' or ')'")),
                None => return Err(self.err("unexpected end: a game tree is not closed")),
            }
        }
    }

    /// Reads a node's properties (after its `;`).
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node {
            line: self.line,
            props: Vec::new(),
        };
        loop {
            self.skip_space();
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    let start = self.pos;
                    while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                        self.bump();
                    }
                    let ident = self.text[start..self.pos].to_owned();
                    let mut values = Vec::new();
                    loop {
                        self.skip_space();
                        if self.peek() != Some('[') {
                            break;
                        }
                        self.bump();
                        values.push(self.value()?);
                    }
                    if values.is_empty() {
                        return Err(self.err("a property without a value"));
                    }
                    node.props.push((ident, values));
                }
                _ => return Ok(node),
            }
        }
    }

    /// Reads a property value (after its `[`), resolving escapes.
    fn value(&mut self) -> Result<String, SgfError> {
        let mut out = String::new();
        loop {
            match self.bump() {
                Some(']') => return Ok(out),
                Some('\\') => match self.bump() {
                    // An escaped line break is a soft break: nothing.
                    Some('\n') => {}
                    Some('\r') => {
                        if self.peek() == Some('\n') {
                            self.bump();
                        }
                    }
                    Some(c) => out.push(c),
                    None => return Err(self.err("unexpected end inside a value")),
                },
                Some(c) => out.push(c),
                None => return Err(self.err("unexpected end: a value is not closed")),
            }
        }
    }
}

/// Reads the main line of the first game tree.
fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let mut reader = Reader {
        text: text.trim_start_matches('\u{feff}'),
        pos: 0,
        line: 1,
    };
    reader.skip_space();
    if reader.bump() != Some('(') {
        return Err(reader.err("expected '(' at the start"));
    }
    let mut nodes = Vec::new();
    reader.tree(&mut nodes, true)?;
    if nodes.is_empty() {
        return Err(reader.err("the game tree has no node"));
    }
    Ok(nodes)
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Reads a date such as `Fri Mar 13 19:56:26 GMT+01:00 2026` or `2026-03-13` into
/// `YYYY.MM.DD`, as written (local to the server that wrote it).
fn parse_date(text: &str) -> Option<String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    // ISO-like: 2026-03-13 or 2026/03/13, possibly followed by a time.
    if let Some(first) = tokens.first() {
        let parts: Vec<&str> = first.split(['-', '/', '.']).collect();
        if let [y, m, d] = parts[..]
            && y.len() == 4
            && [y, m, d]
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        {
            return ymd(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
        }
    }
    // Java's Date.toString(): weekday, month name, day, time, zone, year.
    let month_of = |t: &str| {
        let prefix = t.get(..3)?;
        MONTHS.iter().position(|m| prefix.eq_ignore_ascii_case(m))
    };
    let (month_at, month) = tokens
        .iter()
        .enumerate()
        .find_map(|(i, t)| Some((i, month_of(t)? + 1)))?;
    let day: u32 = tokens
        .get(month_at + 1)?
        .trim_end_matches(',')
        .parse()
        .ok()?;
    let year: u32 = tokens
        .iter()
        .rev()
        .find(|t| t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()))?
        .parse()
        .ok()?;
    ymd(year, month as u32, day)
}

fn ymd(year: u32, month: u32, day: u32) -> Option<String> {
    ((1..=12).contains(&month) && (1..=31).contains(&day))
        .then(|| format!("{year:04}.{month:02}.{day:02}"))
}

/// A boardspace game name such as `Y-DrMih-Dumbot-2026-02-20-0858` carries a date.
fn date_from_game_name(name: &str) -> Option<String> {
    let parts: Vec<&str> = name.split('-').collect();
    parts.windows(3).find_map(|w| {
        let [y, m, d] = w else { return None };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if y.len() == 4
            && m.len() == 2
            && d.len() == 2
            && all_digits(y)
            && all_digits(m)
            && all_digits(d)
        {
            ymd(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
        } else {
            None
        }
    })
}

/// Reads the player name out of `id "name"`.
fn player_name(value: &str) -> Option<String> {
    let rest = value.trim().strip_prefix("id")?.trim();
    let name = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(rest);
    Some(name.to_owned())
}

/// The state of an import: the position, who plays White, a ring in hand.
struct Import {
    pos: Position,
    /// Index (0 or 1) of the player who plays White.
    white_player: usize,
    /// Whether an action was imported (after which `Start` may not come).
    started: bool,
    /// A ring move begun with `place w <point>`: where the ring stands.
    lifted: Option<Point>,
    /// The colour that resigned.
    resigned: Option<Color>,
    actions: Vec<Action>,
}

impl Import {
    fn color_of(&self, player: usize) -> Color {
        if player == self.white_player {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Applies one command of `player`; errors are reasons.
    fn command(&mut self, player: usize, words: &[&str]) -> Result<(), String> {
        let Some((&name, args)) = words.split_first() else {
            return Err("empty command".to_owned());
        };
        let name = name.to_ascii_lowercase();
        if self.resigned.is_some() && name != "done" {
            return Err("a command after a resignation".to_owned());
        }
        let color = self.color_of(player);
        match name.as_str() {
            "start" => {
                if self.started {
                    return Err("start after the game began".to_owned());
                }
                let [who] = args else {
                    return Err("expected Start White or Start Black".to_owned());
                };
                self.white_player = match Color::from_name(who) {
                    Some(Color::White) => 0,
                    Some(Color::Black) => 1,
                    None => return Err("expected Start White or Start Black".to_owned()),
                };
                Ok(())
            }
            "done" => {
                if self.lifted.is_some() {
                    return Err("a ring was lifted but not dropped".to_owned());
                }
                Ok(())
            }
            "resign" => {
                // A resignation after the end of the game changes nothing.
                if !self.pos.is_over() {
                    self.resigned = Some(color);
                }
                Ok(())
            }
            "pass" => self.play(player, Action::Pass),
            "place" => {
                let [object, col, row] = args else {
                    return Err("expected place <object> <column> <row>".to_owned());
                };
                let point = point(col, row)?;
                let (piece_color, ring) = object_of(object)?;
                self.check_color(piece_color, color)?;
                if ring {
                    self.play(player, Action::Place(point))
                } else {
                    // A marker into a ring: the ring is lifted and dropped next.
                    self.check_turn(player)?;
                    if self.lifted.is_some() {
                        return Err("a ring is already lifted".to_owned());
                    }
                    self.lifted = Some(point);
                    Ok(())
                }
            }
            "drop" => {
                let ["board", col, row] = args else {
                    return Err("expected drop board <column> <row>".to_owned());
                };
                let to = point(col, row)?;
                let from = self
                    .lifted
                    .take()
                    .ok_or_else(|| "a drop without a lifted ring".to_owned())?;
                if from == to {
                    return Err("the ring is dropped where it stood".to_owned());
                }
                self.play(player, Action::Move { from, to })
            }
            "move" => {
                let [c1, r1, c2, r2] = args else {
                    return Err("expected move <column> <row> <column> <row>".to_owned());
                };
                let (from, to) = (point(c1, r1)?, point(c2, r2)?);
                if from == to {
                    return Err("a ring must move at least one point".to_owned());
                }
                self.play(player, Action::Move { from, to })
            }
            "remove" => match args {
                [object, col, row] => {
                    let (piece_color, ring) = object_of(object)?;
                    if !ring {
                        return Err("a row removal needs both ends".to_owned());
                    }
                    self.check_color(piece_color, color)?;
                    self.play(player, Action::RemoveRing(point(col, row)?))
                }
                [object, c1, r1, c2, r2] => {
                    let (piece_color, ring) = object_of(object)?;
                    if ring {
                        return Err("a ring removal has one point".to_owned());
                    }
                    self.check_color(piece_color, color)?;
                    let row = Row::from_ends(point(c1, r1)?, point(c2, r2)?)
                        .ok_or_else(|| "the ends are not five points apart on a line".to_owned())?;
                    self.play(player, Action::RemoveRow(row))
                }
                _ => Err("expected remove <object> <point> [<point>]".to_owned()),
            },
            _ => Err(format!("unknown command '{name}'")),
        }
    }

    fn check_color(&self, piece: Color, player: Color) -> Result<(), String> {
        if piece == player {
            Ok(())
        } else {
            Err(format!("{player} cannot use {piece} pieces"))
        }
    }

    fn check_turn(&self, player: usize) -> Result<(), String> {
        let color = self.color_of(player);
        if self.pos.is_over() {
            return Err("the game is already over".to_owned());
        }
        if self.pos.turn() != color {
            return Err(format!("it is {}'s turn, not {color}'s", self.pos.turn()));
        }
        Ok(())
    }

    fn play(&mut self, player: usize, action: Action) -> Result<(), String> {
        if self.lifted.is_some() {
            return Err("a ring was lifted but not dropped".to_owned());
        }
        self.check_turn(player)?;
        self.pos.play(action).map_err(|e| e.to_string())?;
        self.actions.push(action);
        self.started = true;
        Ok(())
    }
}

/// A boardspace point: column letter and row number as separate words.
fn point(col: &str, row: &str) -> Result<Point, String> {
    format!("{col}{row}")
        .parse()
        .map_err(|_| format!("{col} {row} is not a point of the board"))
}

/// A boardspace object name: its colour and whether it is a ring (`wr`, `br`) or a
/// marker (`w`, `b`).
fn object_of(name: &str) -> Result<(Color, bool), String> {
    match name.to_ascii_lowercase().as_str() {
        "w" => Ok((Color::White, false)),
        "b" => Ok((Color::Black, false)),
        "wr" => Ok((Color::White, true)),
        "br" => Ok((Color::Black, true)),
        _ => Err(format!("unknown object '{name}' (expected w, b, wr or br)")),
    }
}

/// Imports a boardspace.net SGF record (see the [module docs](self)).
///
/// The record gets the players (`White`, `Black`), the date (`YYYY.MM.DD`, from `DT`
/// or else from the game name), the variant, the actions, and the result: the board's
/// when the game ended on the board, a resignation when a player resigned, otherwise
/// unfinished. `Site` (`boardspace.net`) and `GameName` (from `GN`) are kept as other
/// headers.
pub fn import(text: &str) -> Result<Record, SgfError> {
    let nodes = main_line(text)?;
    let root = &nodes[0];
    let game_error = |property: &str, value: &str, reason| SgfError::Game {
        property: property.to_owned(),
        value: value.to_owned(),
        reason,
    };
    if let Some(gm) = root.get("GM")
        && gm.trim() != "24"
    {
        return Err(game_error("GM", gm, "not a YINSH game (GM[24])"));
    }
    let variant = match root.get("SU").map(str::trim) {
        None => Variant::Standard,
        Some(su) if su.eq_ignore_ascii_case("yinsh") => Variant::Standard,
        Some(su) if su.eq_ignore_ascii_case("yinsh-blitz") => Variant::Blitz,
        Some(su) => {
            return Err(game_error(
                "SU",
                su,
                "unknown variant (expected Yinsh or Yinsh-Blitz)",
            ));
        }
    };
    let rules = Rules::of(variant);
    let mut import = Import {
        pos: Position::with_rules(rules),
        white_player: 0,
        started: false,
        lifted: None,
        resigned: None,
        actions: Vec::new(),
    };
    let mut names: [Option<String>; 2] = [None, None];

    for (index, node) in nodes.iter().enumerate() {
        for (ident, values) in &node.props {
            let player = match ident.as_str() {
                "P0" => 0,
                "P1" => 1,
                _ => continue,
            };
            for value in values {
                let words: Vec<&str> = value.split_whitespace().collect();
                let Some((first, rest)) = words.split_first() else {
                    continue;
                };
                if first.eq_ignore_ascii_case("id") {
                    names[player] = player_name(value);
                    continue;
                }
                // Values that do not start with a move number (`time 0:01:43`) carry
                // no move.
                let Ok(number) = first.parse::<u32>() else {
                    continue;
                };
                import
                    .command(player, rest)
                    .map_err(|reason| SgfError::Move {
                        node: index,
                        line: node.line,
                        number,
                        command: rest.join(" "),
                        reason,
                    })?;
            }
        }
    }
    if import.lifted.is_some() {
        return Err(SgfError::Syntax {
            line: nodes.last().map_or(1, |n| n.line),
            reason: "the game ends with a ring lifted but not dropped",
        });
    }

    let white = import.white_player;
    let name = |i: usize| names[i].clone().unwrap_or_else(|| "?".to_owned());
    let mut record = Record::new(rules).with_players(name(white), name(1 - white));
    let date = root
        .get("DT")
        .and_then(parse_date)
        .or_else(|| root.get("GN").and_then(date_from_game_name));
    if let Some(date) = date {
        record.date = date;
    }
    record = record.with_header("Site", "boardspace.net");
    if let Some(gn) = root.get("GN") {
        record = record.with_header("GameName", gn.trim());
    }
    record.result = match (import.pos.outcome(), import.resigned) {
        (Some(outcome), _) => Some(GameResult::from(outcome)),
        (None, Some(loser)) => Some(GameResult::resignation(loser)),
        (None, None) => None,
    };
    record.actions = import.actions;
    record.replay().map_err(SgfError::Record)?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        let d = |s| parse_date(s);
        assert_eq!(
            d("Fri Mar 13 19:56:26 GMT+01:00 2026").as_deref(),
            Some("2026.03.13")
        );
        assert_eq!(
            d("Thu Mar 19 19:37:27 PDT 2026").as_deref(),
            Some("2026.03.19")
        );
        assert_eq!(d("2025-12-01 10:00").as_deref(), Some("2025.12.01"));
        assert_eq!(d("yesterday"), None);
        assert_eq!(
            date_from_game_name("Y-DrMih-Dumbot-2026-02-20-0858").as_deref(),
            Some("2026.02.20")
        );
        assert_eq!(date_from_game_name("Y-a-b"), None);
    }

    #[test]
    fn sgf_syntax() {
        let nodes = main_line("(;A[1]B[x\\]y][z](;C[2];D[3])(;E[4]))").unwrap();
        assert_eq!(nodes.len(), 3);
        assert_eq!(nodes[0].props[1].1, ["x]y", "z"]);
        assert_eq!(nodes[2].get("D"), Some("3"));
        for bad in ["", ";A[1]", "(;A[1]", "(;A[1)", "(;A)", "(;A[1]x)", "()"] {
            assert!(main_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn player_names() {
        assert_eq!(player_name("id \"DrMih\"").as_deref(), Some("DrMih"));
        assert_eq!(player_name("id bob").as_deref(), Some("bob"));
        assert_eq!(player_name("time 0:01"), None);
    }
}
