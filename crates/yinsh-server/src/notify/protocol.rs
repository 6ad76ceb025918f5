//! The notifications' wire types: what a notification says, the inbox, the settings.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The kinds of notification (each one a player can switch off).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// A correspondence game waits for your action.
    YourTurn,
    /// Someone challenged you.
    Challenge,
    /// A game of yours ended while you were not at its table.
    GameOver,
    /// The deadline of a correspondence game of yours is near (24 hours, then 1).
    Deadline,
    /// The computer analysis of a game you asked for is done.
    AnalysisReady,
    /// A tournament you joined has begun.
    Tournament,
}

impl NoticeKind {
    /// Every kind, in the order the settings list them.
    pub const ALL: [NoticeKind; 6] = [
        NoticeKind::YourTurn,
        NoticeKind::Challenge,
        NoticeKind::GameOver,
        NoticeKind::Deadline,
        NoticeKind::AnalysisReady,
        NoticeKind::Tournament,
    ];

    /// `your_turn`, `challenge`, … (as the wire and the store write it).
    pub fn name(self) -> &'static str {
        match self {
            NoticeKind::YourTurn => "your_turn",
            NoticeKind::Challenge => "challenge",
            NoticeKind::GameOver => "game_over",
            NoticeKind::Deadline => "deadline",
            NoticeKind::AnalysisReady => "analysis_ready",
            NoticeKind::Tournament => "tournament",
        }
    }

    /// The kind called `name`.
    pub fn from_name(name: &str) -> Option<NoticeKind> {
        NoticeKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// How a game ended for the player told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// They won.
    Win,
    /// They lost.
    Loss,
    /// A draw.
    Draw,
}

/// What a notification says: its kind and what it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// It is your turn in the correspondence game at `table`, against `opponent`.
    YourTurn {
        /// The table.
        table: String,
        /// The opponent's name.
        opponent: String,
    },
    /// `from` challenged you (challenge `challenge`).
    Challenge {
        /// The challenge's id.
        challenge: String,
        /// Who challenged.
        from: String,
    },
    /// Your game at `table` against `opponent` ended.
    GameOver {
        /// The table.
        table: String,
        /// The game (its archive page once logged).
        #[ts(type = "number")]
        game: i64,
        /// The opponent's name.
        opponent: String,
        /// How it ended for you.
        outcome: Outcome,
    },
    /// `hours` hours or less are left to act at `table` against `opponent`.
    Deadline {
        /// The table.
        table: String,
        /// The opponent's name.
        opponent: String,
        /// 24 or 1.
        hours: u8,
    },
    /// The computer analysis of game `game` is done.
    AnalysisReady {
        /// The game.
        #[ts(type = "number")]
        game: i64,
    },
    /// The tournament `tournament` (called `name`), which you joined, has begun.
    Tournament {
        /// Its id.
        tournament: String,
        /// Its name.
        name: String,
    },
}

impl Notice {
    /// Its kind.
    pub fn kind(&self) -> NoticeKind {
        match self {
            Notice::YourTurn { .. } => NoticeKind::YourTurn,
            Notice::Challenge { .. } => NoticeKind::Challenge,
            Notice::GameOver { .. } => NoticeKind::GameOver,
            Notice::Deadline { .. } => NoticeKind::Deadline,
            Notice::AnalysisReady { .. } => NoticeKind::AnalysisReady,
            Notice::Tournament { .. } => NoticeKind::Tournament,
        }
    }

    /// What the notices about `table` are about (its games' turns, deadlines, ends).
    pub fn about_table(table: &str) -> String {
        format!("table:{table}")
    }

    /// What it is about (a table, a challenge, a game): a newer unread notice of the
    /// same kind about the same thing replaces an older one.
    pub fn about(&self) -> String {
        match self {
            Notice::YourTurn { table, .. }
            | Notice::GameOver { table, .. }
            | Notice::Deadline { table, .. } => Notice::about_table(table),
            Notice::Challenge { challenge, .. } => format!("challenge:{challenge}"),
            Notice::AnalysisReady { game } => format!("game:{game}"),
            Notice::Tournament { tournament, .. } => format!("tournament:{tournament}"),
        }
    }
}

/// One notification as the inbox shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NotificationView {
    /// Its id, for `POST /api/notifications/read`.
    #[ts(type = "number")]
    pub id: i64,
    /// When, in milliseconds since 1970.
    #[ts(type = "number")]
    pub at: i64,
    /// Whether it was read.
    pub read: bool,
    /// What it says.
    pub notice: Notice,
}

/// `GET /api/notifications`: the player's notifications, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NotificationList {
    /// How many are unread.
    pub unread: u32,
    /// The newest of them (at most [`crate::notify::KEPT`]).
    pub notifications: Vec<NotificationView>,
}

/// `POST /api/notifications/read`: the notifications to mark read (every one when
/// `ids` is absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct MarkRead {
    /// Their ids.
    #[ts(optional, type = "Array<number>")]
    #[serde(default)]
    pub ids: Option<Vec<i64>>,
}

/// `GET`/`POST /api/notifications/settings`: the kinds shown in the site's inbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NotifySettings {
    /// The kinds switched off (none: every kind is on).
    pub off: Vec<NoticeKind>,
}

/// The types of this module in TypeScript (`client/src/protocol.ts`).
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        NoticeKind::decl(cfg),
        Outcome::decl(cfg),
        Notice::decl(cfg),
        NotificationView::decl(cfg),
        NotificationList::decl(cfg),
        MarkRead::decl(cfg),
        NotifySettings::decl(cfg),
    ]
}
