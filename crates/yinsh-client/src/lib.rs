//! A Rust client of the YINSH server: its WebSocket protocol ([`ws`]) and its HTTP API
//! ([`http`]), with the server's own message types, so that it cannot drift from what
//! the server speaks.
//!
//! Everything in this workspace that talks to a running server goes through it: the
//! load generator ([`load`], `yinsh loadtest`), the engine seat's timing ([`seat_times`],
//! `yinsh seat-times`), `yinsh bot` and `yinsh worker`, and the server's and the command
//! line's tests.

pub mod http;
pub mod load;
pub mod seat_times;
pub mod ws;

pub use ws::{Connect, Connection, Error, Reply};
