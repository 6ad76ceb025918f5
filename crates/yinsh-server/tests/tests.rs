//! Integration tests of the game server: a real server on port 0, real WebSocket
//! clients, both store backends.

mod accounts;
mod analysis;
mod board;
mod bot;
mod clocks;
mod cluster;
mod common;
mod correspondence;
mod export;
mod fairness;
mod faults;
mod hostile;
mod import;
mod load;
mod mail;
mod meet;
mod notify;
mod play;
mod protocol;
mod ratings;
mod store;
mod table;
mod tokens;
mod tournament;
