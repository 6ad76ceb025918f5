//! The integration tests of the rules library, one binary for all.

mod notation;
mod perft;
mod properties;
mod rules;
mod sgf;
mod support;
