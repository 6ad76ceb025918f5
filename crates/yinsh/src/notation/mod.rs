//! Text forms of actions, turns, positions and whole games.
//!
//! - [`token`]: one action, as in RULES.md §7 (`e3`, `h7-g7`, `xc3-c7`, `xk10`, `pass`);
//! - [`turn`]: one player's actions joined in the official long form (`c3-c8;xc3-c7xk10`);
//! - [`fen`]: a position string that round-trips every reachable state;
//! - [`record`]: game records with headers and numbered turns;
//! - [`sgf`]: import of boardspace.net SGF records;
//! - [`date`]: the calendar dates records carry.

pub mod date;
pub mod fen;
pub mod record;
pub mod sgf;
pub mod token;
pub mod turn;
