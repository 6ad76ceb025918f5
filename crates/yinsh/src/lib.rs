//! The rules of YINSH: the board, legal positions, actions, notation, game records
//! and perft.
//!
//! Everything follows `RULES.md` of the project; rule ids (G1, M2, R4, E2, …) are cited
//! in the code and the tests.
//!
//! # Playing a game
//!
//! ```
//! use yinsh::{Action, Color, Position, Stage};
//!
//! let mut pos = Position::new();
//! for token in "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8".split(' ') {
//!     pos.play(token.parse().unwrap()).unwrap();
//! }
//! assert_eq!(pos.stage(), Stage::Move);
//! assert_eq!(pos.turn(), Color::White);
//! assert_eq!(pos.legal_actions().len(), 86);
//! ```
//!
//! # Refusing an illegal action
//!
//! ```
//! use yinsh::{IllegalReason, Position};
//!
//! let mut pos = Position::new();
//! let before = pos;
//! let err = pos.play("e3-e4".parse().unwrap()).unwrap_err();
//! assert_eq!(err.reason.to_string(), "the player must place a ring now");
//! assert_eq!(pos, before);
//! ```
//!
//! # Counting
//!
//! ```
//! use yinsh::{Position, perft};
//!
//! assert_eq!(perft(&Position::new(), 2), 7140);
//! ```

mod action;
mod bitboard;
mod color;
pub mod notation;
mod perft;
mod point;
mod position;
pub mod random;
mod rules;
mod tables;
mod zobrist;

pub use action::{Action, Row};
pub use bitboard::{Bitboard, Points};
pub use color::{ByColor, Color};
pub use notation::fen::FenError;
pub use notation::token::ParseActionError;
pub use perft::{perft, perft_divide};
pub use point::{Direction, Line, ParsePointError, Point};
pub use position::{
    Actions, IllegalAction, IllegalReason, MARKERS, MAX_ACTIONS, Position, RINGS_PER_PLAYER, Setup,
    SetupError, Stage,
};
pub use rules::{EndReason, Outcome, ParseVariantError, Rules, Variant};
