//! The integration tests of the rules library, one binary for all.

mod perft;
