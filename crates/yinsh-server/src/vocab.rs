//! The server's vocabulary as types: ids that cannot be mixed up, and the engine's
//! strength level, checked once where it enters.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A game's id in the store (also its archive id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub i64);

/// A player's id in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub i64);

/// A table's id: six letters and digits (`k3xq7m`). Cheap to clone.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(Arc<str>);

impl TableId {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for TableId {
    fn from(s: &str) -> TableId {
        TableId(s.into())
    }
}

impl From<String> for TableId {
    fn from(s: String) -> TableId {
        TableId(s.into())
    }
}

impl std::borrow::Borrow<str> for TableId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// The engine's strength at a bot seat: 1 (weakest) to 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    /// The level the `/bot` command seats when none is given.
    pub const DEFAULT: Level = Level(5);

    /// `n` as a level, if it is 1 to 10.
    pub fn new(n: u8) -> Option<Level> {
        (1..=10).contains(&n).then_some(Level(n))
    }

    /// The level as a number.
    pub fn get(self) -> u8 {
        self.0
    }
}

macro_rules! display_as_inner {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    )*};
}

display_as_inner!(GameId, PlayerId, TableId, Level);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_one_to_ten() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(11), None);
        assert_eq!(Level::new(1).map(Level::get), Some(1));
        assert_eq!(Level::new(10).map(Level::get), Some(10));
        assert_eq!(Level::DEFAULT.get(), 5);
        assert_eq!(TableId::from("abc").to_string(), "abc");
        assert_eq!(serde_json::to_string(&GameId(7)).unwrap(), "7");
    }
}
