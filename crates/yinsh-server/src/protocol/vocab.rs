//! The protocol's shared words: the colours, a pair of values one per colour, a
//! variant, a player as others see them and their title. Every domain's messages may
//! use these; they use nothing of the domains.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A seat colour on the wire: `"white"` or `"black"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum SeatColor {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl From<yinsh::Color> for SeatColor {
    fn from(c: yinsh::Color) -> SeatColor {
        match c {
            yinsh::Color::White => SeatColor::White,
            yinsh::Color::Black => SeatColor::Black,
        }
    }
}

impl From<SeatColor> for yinsh::Color {
    fn from(c: SeatColor) -> yinsh::Color {
        match c {
            SeatColor::White => yinsh::Color::White,
            SeatColor::Black => yinsh::Color::Black,
        }
    }
}

/// A player's title: `BOT` for a bot account (a program playing through the bot API).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum Title {
    /// A bot account.
    #[serde(rename = "BOT")]
    Bot,
}

impl Title {
    /// The title of an account that is a bot account or not.
    pub fn of(bot: bool) -> Option<Title> {
        bot.then_some(Title::Bot)
    }
}

/// A pair of values, one per colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Pair<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

/// A player as others see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerView {
    /// The player's id (bots have none).
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// The display name.
    pub name: String,
    /// The engine level, for a bot.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<u8>,
    /// Whether the player has a connection open to the table right now.
    pub online: bool,
    /// A guest (no account): shown as such. Absent for accounts and the engine.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// `BOT` for a bot account (a program playing through the bot API).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Title>,
}

/// The game variant of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum VariantName {
    /// Three rings to win.
    Standard,
    /// One ring to win.
    Blitz,
}
