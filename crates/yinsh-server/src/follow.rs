//! A table's game as a client holds it, kept up from the table's messages: a snapshot
//! gives it whole, an event that changed the game gives it again (without the legal
//! actions), an `acted` event is applied to it, and `legal` gives the player to act
//! their actions. The web client does the same in TypeScript (`applyEvent`); the bot
//! API's streams, the load generator and the tests use this one.

use yinsh::Position;

use crate::game::frame;
use crate::protocol::{GameView, Pair, ServerMessage, TableEvent};

/// The game of one table, followed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Follower {
    /// The game as it stands, if there is one.
    pub game: Option<GameView>,
    /// The version of the last event (or snapshot).
    pub version: u64,
}

impl Follower {
    /// Applies `msg` if it concerns `table` (every table when `None`); whether it
    /// changed the game.
    pub fn apply(&mut self, table: Option<&str>, msg: &ServerMessage) -> bool {
        let ours = |id: &str| table.is_none_or(|t| t == id);
        match msg {
            ServerMessage::Snapshot { table: view } if ours(&view.id) => {
                self.version = view.version;
                self.game = view.game.clone();
                true
            }
            ServerMessage::Event {
                table: id,
                version,
                event,
                game,
                clocks,
            } if ours(id) => {
                self.version = *version;
                let changed = match (event, game) {
                    (TableEvent::Aborted { .. }, _) => {
                        self.game = None;
                        true
                    }
                    (_, Some(game)) => {
                        self.game = Some(game.clone());
                        true
                    }
                    (
                        TableEvent::Acted {
                            action,
                            ply,
                            position,
                            abortable,
                            ..
                        },
                        None,
                    ) => self
                        .game
                        .as_mut()
                        .is_some_and(|g| acted(g, action, *ply, position, *abortable)),
                    _ => false,
                };
                if let (Some(game), Some(clocks)) = (self.game.as_mut(), clocks) {
                    game.clocks = Some(*clocks);
                }
                changed
            }
            ServerMessage::Clocks { table: id, clocks } if ours(id) => {
                if let Some(game) = self.game.as_mut() {
                    game.clocks = Some(*clocks);
                }
                false
            }
            ServerMessage::Legal {
                table: id,
                version,
                actions,
            } if ours(id) && *version == self.version => match self.game.as_mut() {
                Some(game) => {
                    game.legal = actions.clone();
                    true
                }
                None => false,
            },
            _ => false,
        }
    }
}

/// Applies an `acted` event to `game`; `false` (and nothing changed) when its position
/// does not read, which a server never sends.
fn acted(game: &mut GameView, action: &str, ply: u32, position: &str, abortable: bool) -> bool {
    let Ok(pos) = Position::from_fen(position) else {
        return false;
    };
    let frame = frame(&pos, false);
    // A game view sent in the same moment already holds the action: the ply says
    // where it goes.
    game.moves.truncate(ply.saturating_sub(1) as usize);
    game.moves.push(action.to_owned());
    game.position = frame.position;
    game.board = frame.board;
    game.to_move = frame.to_move;
    game.stage = frame.stage;
    game.pool = frame.pool;
    game.removed = frame.removed;
    let targets = pos.rules().targets;
    game.targets = Pair {
        white: targets.white,
        black: targets.black,
    };
    game.ring_moves = pos.ring_moves();
    game.legal.clear();
    game.abortable = abortable;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::protocol::{SeatColor, TableOptions, TableView};
    use crate::vocab::GameId;
    use tokio::time::Instant;
    use yinsh::random::{SplitMix64, random_action};

    fn event(version: u64, event: TableEvent, game: Option<GameView>) -> ServerMessage {
        ServerMessage::Event {
            table: "t".to_owned(),
            version,
            event,
            game,
            clocks: None,
        }
    }

    fn acted(game: &Game, version: u64) -> ServerMessage {
        let action = *game.actions.last().unwrap();
        let event = TableEvent::Acted {
            color: SeatColor::White,
            action: action.to_string(),
            ply: game.actions.len() as u32,
            position: game.position.to_fen(),
            abortable: false,
        };
        self::event(version, event, None)
    }

    /// The view the server would send in an event.
    fn sent(game: &Game, now: Instant) -> GameView {
        game.view(now)
    }

    #[test]
    fn acted_events_applied_give_the_game_the_server_holds() {
        let now = Instant::now();
        let mut game = Game::new(GameId(1), TableOptions::default(), 0, now);
        let mut follower = Follower::default();
        let snapshot = TableView {
            id: "t".to_owned(),
            epoch: 1,
            version: 3,
            options: TableOptions::default(),
            seats: Pair {
                white: None,
                black: None,
            },
            spectator_count: 0,
            spectators: Vec::new(),
            chat: Vec::new(),
            game: Some(sent(&game, now)),
            node: None,
        };
        assert!(follower.apply(Some("t"), &ServerMessage::Snapshot { table: snapshot }));
        let mut rng = SplitMix64::new(5);
        let mut version = 3;
        while let Some(a) = random_action(&game.position, &mut rng) {
            let mut after = game.position;
            after.play(a).unwrap();
            game.push(a, after, None);
            version += 1;
            assert!(follower.apply(Some("t"), &acted(&game, version)));
            assert_eq!(follower.game.as_ref(), Some(&sent(&game, now)));
            // Another table's event changes nothing.
            assert!(!follower.apply(Some("u"), &acted(&game, version + 1)));
            // The legal actions of this version are taken; stale ones are not.
            let legal = |version, actions: &[&str]| ServerMessage::Legal {
                table: "t".to_owned(),
                version,
                actions: actions.iter().map(|a| a.to_string()).collect(),
            };
            assert!(!follower.apply(Some("t"), &legal(version - 1, &["old"])));
            assert!(follower.apply(Some("t"), &legal(version, &["a1"])));
            assert_eq!(follower.game.as_ref().unwrap().legal, ["a1"]);
        }
        // A game view sent in the same moment as the last action, then the action:
        // the action is not there twice.
        let full = event(version + 1, TableEvent::Started, Some(sent(&game, now)));
        follower.apply(None, &full);
        follower.apply(None, &acted(&game, version + 2));
        assert_eq!(follower.game.as_ref(), Some(&sent(&game, now)));
        // Aborted: no game.
        follower.apply(
            None,
            &event(version + 3, TableEvent::Aborted { by: None }, None),
        );
        assert_eq!(follower.game, None);
    }
}
