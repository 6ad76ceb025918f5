//! Notifications: what a player is told when they are not looking — a correspondence
//! game waits for them, someone challenged them, a game of theirs ended, a deadline is
//! near, an analysis is done — kept in their inbox (the bell) and pushed to their open
//! pages; and the count of their games that wait for their action (the header's
//! "your turn"), pushed when it changes.
//!
//! Nothing waits for a notification: each is kept and pushed in a task of its own, so
//! a table never waits for the inbox. A store failure loses the notification (logged),
//! never a game.

pub(crate) mod http;
pub mod protocol;
pub(crate) mod sql;
pub mod store;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::game::store::GameStore;
use crate::lobby::online::Online;
use crate::mail::Mailer;
use crate::protocol::ServerMessage;
use crate::vocab::PlayerId;
use protocol::{Notice, NoticeKind};
use store::NotificationStore;

/// How many notifications a player keeps (the newest).
pub const KEPT: u32 = 100;

/// Tells players. Cheap to clone.
#[derive(Clone)]
pub struct Notifier {
    store: Arc<dyn NotificationStore>,
    online: Online,
    mail: Mailer,
    turns: mpsc::UnboundedSender<PlayerId>,
}

impl Notifier {
    /// A notifier keeping notifications in `store`, reaching players through `online`
    /// and by `mail`, and counting their turns in `games` (a task, in the caller's
    /// runtime, that ends with the last clone).
    pub fn start(
        store: Arc<dyn NotificationStore>,
        games: Arc<dyn GameStore>,
        online: Online,
        mail: Mailer,
    ) -> Notifier {
        let (turns, rx) = mpsc::unbounded_channel();
        tokio::spawn(count_turns(games, online.clone(), rx));
        Notifier {
            store,
            online,
            mail,
            turns,
        }
    }

    /// Keeps `notice` for `player` and pushes it to their open pages (unless they
    /// switched its kind off), and mails it if they chose that kind by mail.
    pub fn tell(&self, player: PlayerId, notice: Notice) {
        let (store, online, mail) = (self.store.clone(), self.online.clone(), self.mail.clone());
        tokio::spawn(async move {
            match store.notify(player, &notice, crate::now_ms()).await {
                Ok(Some((notification, unread))) => {
                    let msg = ServerMessage::Notified {
                        notification,
                        unread,
                    };
                    online.send(player, text(&msg));
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(
                    player = player.0,
                    kind = notice.kind().name(),
                    "a notification was not kept: {e}"
                ),
            }
            mail.notice(player, &notice).await;
        });
    }

    /// `player` acted on what their unread notifications of `kinds` about `about` say
    /// (they played their turn): those are read now, on every page of theirs.
    pub fn acted_on(&self, player: PlayerId, kinds: &'static [NoticeKind], about: String) {
        let (store, online) = (self.store.clone(), self.online.clone());
        tokio::spawn(async move {
            match store
                .mark_read_about(player, kinds, &about, crate::now_ms())
                .await
            {
                Ok(Some(unread)) => {
                    online.send(player, text(&ServerMessage::Unread { unread }));
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(player = player.0, "notifications not marked read: {e}"),
            }
        });
    }

    /// Tells `player`'s pages how many notifications are unread now.
    pub fn unread(&self, player: PlayerId, unread: u32) {
        self.online
            .send(player, text(&ServerMessage::Unread { unread }));
    }

    /// Whose turn it is changed in a game of `player`'s: their pages are told how many
    /// of their games wait for them now (soon: see [`COUNT_GAP`]).
    pub fn turns_changed(&self, player: PlayerId) {
        let _ = self.turns.send(player);
    }
}

fn text(msg: &ServerMessage) -> Arc<str> {
    serde_json::to_string(msg)
        .expect("server messages serialize")
        .into()
}

/// A player's turns are counted at most once in this long: a live game passes the turn
/// every few seconds, and each count is a read of the store, so a busy server counts
/// each player every few seconds rather than at every action. A change after a quiet
/// spell (a correspondence turn) is counted at once.
pub const COUNT_GAP: Duration = Duration::from_secs(5);

/// Counts the turns of the players whose games changed, for those online, each at
/// most once in [`COUNT_GAP`] (a change meanwhile is counted when the gap is over).
async fn count_turns(
    games: Arc<dyn GameStore>,
    online: Online,
    mut rx: mpsc::UnboundedReceiver<PlayerId>,
) {
    let mut batch = Vec::new();
    // When each player was last counted (those within the gap), and who waits to be
    // counted, from when.
    let mut counted: HashMap<PlayerId, Instant> = HashMap::new();
    let mut waiting: HashMap<PlayerId, Instant> = HashMap::new();
    loop {
        let next = waiting.values().min().copied();
        tokio::select! {
            n = rx.recv_many(&mut batch, 256) => {
                if n == 0 {
                    break;
                }
                let now = Instant::now();
                for player in batch.drain(..) {
                    let due = counted.get(&player).map_or(now, |&t| (t + COUNT_GAP).max(now));
                    waiting.entry(player).or_insert(due);
                }
            }
            _ = async { tokio::time::sleep_until(next.expect("a player waits")).await }, if next.is_some() => {}
        }
        let now = Instant::now();
        let due: Vec<PlayerId> = waiting
            .iter()
            .filter(|&(_, &at)| at <= now)
            .map(|(&p, _)| p)
            .collect();
        for player in due {
            waiting.remove(&player);
            if !online.is_online(player) {
                continue;
            }
            counted.insert(player, now);
            match crate::game::http::my_turn_count(games.as_ref(), player).await {
                Ok(count) => {
                    online.send(player, text(&ServerMessage::MyTurn { count }));
                }
                Err(e) => tracing::warn!(player = player.0, "turns not counted: {e}"),
            }
        }
        if counted.len() > 1024 {
            counted.retain(|_, &mut at| now.duration_since(at) < COUNT_GAP);
        }
    }
}
