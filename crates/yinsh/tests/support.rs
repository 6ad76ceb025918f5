//! How the tests of the rules build their positions, said once: points and sets of
//! points by name, actions by token, the position after a list of tokens, a set-up at
//! the move stage, the lines of the perft fixture files, and perft through any move
//! generator and the checked `play`.
//!
//! The rules library's tests use it as `mod support`; the engine's tests and the
//! benchmarks include this file (`#[path = …] mod support;`), so that they build a
//! position the same way.

// Not every test binary that includes the file uses all of it.
#![allow(dead_code)]

use yinsh::{Action, Bitboard, ByColor, Point, Position, Rules, Setup, Stage, Variant};

/// The point named `name` (`e5`).
pub fn pt(name: &str) -> Point {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// The points named in `names`, separated by spaces.
pub fn set(names: &str) -> Bitboard {
    names.split_whitespace().map(pt).collect()
}

/// The action written `token` (`e3`, `a5-b6`, `xc3-c7`, `xk10`, `pass`).
pub fn act(token: &str) -> Action {
    token.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Plays space-separated tokens, each of which must be among the legal actions and
/// accepted by `play`.
pub fn play(pos: &mut Position, tokens: &str) {
    for token in tokens.split_whitespace() {
        let action = act(token);
        assert!(
            pos.legal_actions().contains(&action),
            "{token} is not among the legal actions of {pos:?}"
        );
        pos.play(action)
            .unwrap_or_else(|e| panic!("{e} in {pos:?}"));
    }
}

/// The position after the space-separated `tokens`, played from the empty board of the
/// standard game.
pub fn after(tokens: &str) -> Position {
    after_in(Rules::STANDARD, tokens)
}

/// The position after the space-separated `tokens`, played from the empty board under
/// `rules`.
pub fn after_in(rules: Rules, tokens: &str) -> Position {
    let mut pos = Position::with_rules(rules);
    play(&mut pos, tokens);
    pos
}

/// A standard set-up at the move stage, White to move, nothing removed: the rings and
/// markers of each colour by name.
pub fn setup(
    white_rings: &str,
    black_rings: &str,
    white_markers: &str,
    black_markers: &str,
) -> Setup {
    Setup {
        rings: ByColor {
            white: set(white_rings),
            black: set(black_rings),
        },
        markers: ByColor {
            white: set(white_markers),
            black: set(black_markers),
        },
        stage: Stage::Move,
        ..Setup::empty(Rules::STANDARD)
    }
}

/// The position of a set-up that must be valid.
pub fn position(setup: Setup) -> Position {
    Position::from_setup(setup).unwrap_or_else(|e| panic!("{setup}: {e}"))
}

/// The position of a position string that must be valid.
pub fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// One line of a perft fixture file (`tests/fixtures/perft.txt`, `perft-extra.txt`):
/// `<variant> <depth> <count> <action tokens from the empty board…>`.
#[derive(Debug, Clone, Copy)]
pub struct FixtureLine<'a> {
    pub variant: Variant,
    pub depth: u32,
    pub count: u64,
    /// The actions from the empty board, separated by spaces (empty for the empty board).
    pub tokens: &'a str,
}

impl<'a> FixtureLine<'a> {
    /// A line of a fixture file; `None` for a blank line or a comment (`# …`).
    pub fn parse(line: &'a str) -> Option<FixtureLine<'a>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut rest = line;
        let mut field = || {
            let (field, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            rest = after.trim_start();
            field
        };
        let variant = field().parse().unwrap_or_else(|e| panic!("{e}: '{line}'"));
        let depth = field().parse().unwrap_or_else(|e| panic!("{e}: '{line}'"));
        let count = field().parse().unwrap_or_else(|e| panic!("{e}: '{line}'"));
        Some(FixtureLine {
            variant,
            depth,
            count,
            tokens: rest,
        })
    }

    /// The position the line counts from.
    pub fn position(&self) -> Position {
        after_in(Rules::of(self.variant), self.tokens)
    }
}

/// The lines of a fixture file, without its blank lines and comments.
pub fn fixture_lines(text: &str) -> impl Iterator<Item = FixtureLine<'_>> {
    text.lines().filter_map(FixtureLine::parse)
}

/// Perft through `generate` and the checked `play`: the number of sequences of exactly
/// `depth` actions from `pos` when `generate` lists the actions of each position, every
/// one of which `play` must accept (the last ones of each sequence too).
pub fn perft_by<I>(pos: &Position, depth: u32, generate: &impl Fn(&Position) -> I) -> u64
where
    I: IntoIterator<Item = Action>,
{
    if depth == 0 {
        return 1;
    }
    generate(pos)
        .into_iter()
        .map(|action| {
            let mut child = *pos;
            child
                .play(action)
                .unwrap_or_else(|e| panic!("{e} in {pos:?}"));
            perft_by(&child, depth - 1, generate)
        })
        .sum()
}
